package io.rocelab.perftest.nic;

import io.rocelab.fabric.port.FramePort;
import io.rocelab.nic.stats.NicCounter;
import io.rocelab.nic.SoftNic;
import io.rocelab.perftest.cli.OptionException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * What one run of a tool on the soft NIC leaves its user, so that a run that failed or was
 * interrupted can be understood without root and dumpcap: the NICs' counters on stderr when the
 * run ends in error or is interrupted (SIGINT, SIGTERM: a shutdown hook), and the bounded capture
 * of {@code --capture} finished in every case, with a line naming it.
 *
 * <p>The counters are printed as {@code rdma statistic show link rocelab0/1} prints rxe's (the
 * non-zero ones): how far the run got ({@code sent_pkts}, {@code rcvd_pkts}) and what went wrong
 * ({@code completer_retry_err}, {@code retry_exceeded_err}, {@code rcvd_seq_err}, the drops).
 */
final class ToolRun implements AutoCloseable {
    private final String tool;
    private final NicOptions nic;
    private final PrintStream err;
    private final List<Watched> nics = new CopyOnWriteArrayList<>();
    private final AtomicBoolean over = new AtomicBoolean();
    private final Thread hook;
    private NicCapture capture;

    /** A NIC of the run: its role in messages ("" for the only one, "server"/"client" in-process). */
    private record Watched(String role, Supplier<SoftNic> nic) {
    }

    private ToolRun(String tool, NicOptions nic, PrintStream err) {
        this.tool = tool;
        this.nic = nic;
        this.err = err;
        this.hook = new Thread(this::interrupted, "rocelab-" + tool + "-interrupted");
    }

    /** Starts watching a run; the shutdown hook is in place until {@link #finish}. */
    static ToolRun start(String tool, NicOptions nic, PrintStream err) {
        ToolRun run = new ToolRun(Objects.requireNonNull(tool, "tool"), Objects.requireNonNull(nic, "nic"),
            Objects.requireNonNull(err, "err"));
        Runtime.getRuntime().addShutdownHook(run.hook);
        io.rocelab.nic.dcb.DcbSettings dcb = nic.congestion().dcb();
        if (!dcb.equals(io.rocelab.nic.dcb.DcbSettings.DEFAULTS)) {
            // as mlnx_qos would show the NIC: what differs from rocelab's defaults is worth a line
            run.note("dcb: " + dcb.summary());
        }
        return run;
    }

    /**
     * Creates the {@code --capture} file if one was asked for and not yet created.
     *
     * @throws OptionException one line naming the file and why it cannot be written
     */
    synchronized void openCapture() {
        if (capture != null || nic.capture() == null) {
            return;
        }
        Path file;
        try {
            file = Path.of(nic.capture()).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new OptionException(" --capture: '" + nic.capture() + "' is not a file name");
        }
        if (Files.isDirectory(file)) {
            throw new OptionException(" --capture: " + file + " is a directory");
        }
        try {
            capture = NicCapture.create(file, nic.captureFrames());
        } catch (IOException e) {
            throw new OptionException(" --capture: cannot write " + file + " (" + reason(e) + ")");
        }
    }

    /**
     * The attachment with its port tapped into the capture, or as it is without one.
     *
     * @param role "" for a run's only NIC, else "server" or "client"
     */
    synchronized NicAttachment attach(NicAttachment a, String role) {
        openCapture();
        if (capture == null) {
            return a;
        }
        String name = NicEngine.DEVICE_NAME + (role.isEmpty() ? "" : " " + role);
        FramePort tapped;
        FramePort tapped2;
        try {
            tapped = capture.tap(a.port(), name, a.describe(), a.scheduler());
            // the second link on an interface of its own, as tshark -i eth0 -i eth1 writes
            tapped2 = a.port2() == null ? null : capture.tap(a.port2(), name + " port 2", a.describe(), a.scheduler());
        } catch (IOException e) {
            a.close();
            throw new IllegalStateException("--capture: cannot write " + capture.file() + " (" + reason(e) + ")", e);
        }
        return new PlainAttachment(a.scheduler(), tapped, tapped2, a.describe(), a::close, a::configure);
    }

    /** One line of rocelab's about the run, on the error stream as rocelab's other notes are. */
    void note(String line) {
        err.println(" " + line);
    }

    /** Counts {@code nic}'s NIC among the run's, once it is open ({@code nic} gives null before). */
    void watch(String role, Supplier<SoftNic> soft) {
        nics.add(new Watched(role, soft));
    }

    /**
     * The run is over: prints the counters if it failed, finishes the capture.
     *
     * @return {@code status}, or 1 if it was 0 and the capture could not be completed
     */
    int finish(int status) {
        if (!over.compareAndSet(false, true)) {
            return status;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: the hook has found the run over
        }
        if (status != 0) {
            printCounters("failed");
        }
        return finishCapture() || status != 0 ? status : 1;
    }

    /** Finishes the run as failed if nobody finished it ({@code try}-with-resources after a throw). */
    @Override
    public void close() {
        finish(1);
    }

    /** The shutdown hook: the user interrupted the run (or the JVM is being stopped). */
    private void interrupted() {
        if (!over.compareAndSet(false, true)) {
            return;
        }
        printCounters("interrupted");
        finishCapture();
        err.flush();
    }

    private void printCounters(String why) {
        StringBuilder sb = new StringBuilder();
        for (Watched w : nics) {
            SoftNic n = w.nic().get();
            if (n == null) {
                continue;
            }
            sb.append(' ').append(line(n.counters().snapshot())).append(w.role().isEmpty() ? "" : " (" + w.role() + ")")
                .append('\n');
            // the DCB state the data path ran with, when it is not rocelab's default (a snapshot: the
            // NIC's thread may have stopped)
            for (int port = 1; port <= n.portCount(); port++) {
                io.rocelab.nic.dcb.PortDcb op = n.dcb().operational(port);
                if (op.adopted() || !op.settings().equals(io.rocelab.nic.dcb.DcbSettings.DEFAULTS)) {
                    sb.append(" dcb ").append(NicEngine.DEVICE_NAME).append('/').append(port).append(' ')
                        .append(op.summary()).append(w.role().isEmpty() ? "" : " (" + w.role() + ")").append('\n');
                }
            }
            if (n.portCount() > 1) {
                // port 2's link, when it counted anything (a dual-port or bonded NIC)
                Map<NicCounter, Long> two = n.port(2).counters().snapshot();
                if (two.values().stream().anyMatch(v -> v != 0)) {
                    sb.append(' ').append(line(2, two)).append(w.role().isEmpty() ? "" : " (" + w.role() + ")")
                        .append('\n');
                }
            }
        }
        if (sb.length() > 0) {
            err.println(" " + tool + " " + why + "; the soft NIC's counters (rdma statistic show, non-zero):");
            err.print(sb);
        }
    }

    /** {@code link rocelab0/1 sent_pkts 812 rcvd_pkts 50 ...}: rdma statistic's line, non-zero counters only. */
    static String line(Map<NicCounter, Long> counters) {
        return line(1, counters);
    }

    /** The same for port {@code port}'s link ({@code link rocelab0/2 ...}). */
    static String line(int port, Map<NicCounter, Long> counters) {
        StringBuilder sb = new StringBuilder("link " + NicEngine.DEVICE_NAME + "/" + port);
        for (NicCounter c : NicCounter.values()) {
            long v = counters.getOrDefault(c, 0L);
            if (v != 0) {
                sb.append(' ').append(c.rxeName()).append(' ').append(v);
            }
        }
        return sb.toString();
    }

    /** @return false if the capture could not be completed (said in one line) */
    private synchronized boolean finishCapture() {
        if (capture == null) {
            return true;
        }
        try {
            err.println(" " + capture.finish());
            return true;
        } catch (IOException e) {
            err.println(" --capture: " + e.getMessage());
            return false;
        }
    }

    private static String reason(IOException e) {
        String m = e.getMessage();
        return e instanceof java.nio.file.NoSuchFileException ? "no such directory"
            : e instanceof java.nio.file.AccessDeniedException ? "permission denied"
            : m == null ? e.getClass().getSimpleName() : m;
    }
}
