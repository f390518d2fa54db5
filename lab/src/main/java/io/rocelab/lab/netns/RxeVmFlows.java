package io.rocelab.lab.netns;

import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.nic.NicEngine;
import io.rocelab.perftest.nic.PlainAttachment;
import io.rocelab.perftest.run.PerftestSession;
import io.rocelab.perftest.run.PerftestTool;
import io.rocelab.topology.workload.FlowProgress;
import io.rocelab.topology.workload.FlowResult;
import io.rocelab.topology.workload.Verb;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The flows of a netns run that start in an rdma_rxe VM: real perftest ({@code ib_write_bw -R},
 * {@code ib_read_bw -R}, {@code ib_send_bw -R}: rdma_cm, so no TCP exchange) run by the VM's script.
 * Towards another VM, that VM's script runs the server; towards a nic host, rocelab's own perftest
 * server logic runs on a NIC with the host's addresses on the host's interface, started before the
 * VMs boot. A flow's result is its client's output: the bandwidth row's bytes and average rate, its
 * exit code; its progress is 0 bytes until the client has ended (the run directory is polled for
 * {@code FLOW.started} and {@code FLOW.rc}).
 */
public final class RxeVmFlows implements AutoCloseable {
    /** How long a VM's client retries a server that does not listen yet (the VMs boot together). */
    private static final int CLIENT_RETRY_SECONDS = 120;

    /**
     * One flow.
     *
     * @param toVm   whether the destination is a VM (else a nic host running rocelab's server)
     * @param verb   write, read or send
     * @param port   rdma_cm's port ({@code -p}), one per flow
     * @param tos    the IP TOS of the flow's QPs (rdma_cm's, {@code --tos}; DSCP &lt;&lt; 2 | ECN), 0 for none:
     *               rxe sends TOS 0, the lossy class, unless told
     */
    public record Spec(String name, String source, String destination, String destinationIp, boolean toVm,
                       String verb, long size, long messages, int port, int tos) {
        String tool() {
            return "ib_" + verb + "_bw";
        }

        /** The tool's flags, both sides. */
        List<String> flags() {
            List<String> f = new ArrayList<>(List.of("-F", "-R", "-s", Long.toString(size), "-n",
                Long.toString(messages), "-p", Integer.toString(port)));
            if (tos > 0) {
                f.add("--tos=" + tos);
            }
            return f;
        }
    }

    /**
     * A nic host whose interface a NIC of its own takes, to serve one flow from a VM.
     *
     * @param neighbors static neighbours (IPv4 address as an int, MAC as a long) the NIC gets, as the
     *                  fabric gives its NICs behind a routing switch; empty to ARP
     */
    public record NicServer(String host, String ip, String mac, Scheduler scheduler, FramePort port,
                            Map<Integer, Long> neighbors) {
    }

    private final class Run implements FlowProgress {
        final Spec spec;
        final QemuVm client;
        volatile long startedNanos = -1;
        volatile long endNanos = -1;
        volatile long bytes;

        Run(Spec spec, QemuVm client) {
            this.spec = spec;
            this.client = client;
        }

        @Override
        public long bytesCompleted() {
            return bytes;
        }

        @Override
        public long messagesCompleted() {
            return bytes > 0 ? spec.messages() : 0;
        }

        @Override
        public long errorCompletions() {
            return 0;
        }

        @Override
        public boolean started() {
            return startedNanos >= 0;
        }

        @Override
        public boolean finished() {
            return endNanos >= 0;
        }
    }

    private final Map<String, Run> runs = new LinkedHashMap<>();
    private final Map<String, QemuVm> vms = new LinkedHashMap<>();
    private final List<NicEngine> engines = new ArrayList<>();
    private final List<Thread> servers = new ArrayList<>();
    private final Map<String, Integer> serverStatus = new LinkedHashMap<>();
    private final LongSupplier clock;
    private final long epochNanos;
    private final Thread watcher;
    private volatile boolean closed;

    private RxeVmFlows(LongSupplier clock, long epochNanos) {
        this.clock = clock;
        this.epochNanos = epochNanos;
        this.watcher = new Thread(this::watch, "rxe-vm-flows");
        this.watcher.setDaemon(true);
    }

    /**
     * Starts rocelab's servers, then boots every VM with its script.
     *
     * @param boots       each VM host's boot, in topology order
     * @param nicServers  per nic host serving a flow, its NIC's place
     * @param interopDir  the project's {@code interop/}
     * @param dir         where the VMs' run directories and the servers' outputs go (kept)
     * @param owner       the run's fabric namespace, which the VMs' processes carry ({@link QemuVm#OWNER_VARIABLE})
     * @param clock       the fabric's clock
     * @param epochNanos  the run's time 0 on it
     */
    public static RxeVmFlows start(List<Spec> specs, Map<String, QemuVm.Boot> boots, Map<String, NicServer> nicServers,
                                   Path interopDir, Path dir, String owner, LongSupplier clock,
                                   long epochNanos) {
        RxeVmFlows f = new RxeVmFlows(clock, epochNanos);
        try {
            Files.createDirectories(dir);
            for (Spec s : specs) {
                if (!s.toVm()) {
                    f.startServer(s, nicServers.get(s.destination()), dir);
                }
            }
            for (Map.Entry<String, QemuVm.Boot> b : boots.entrySet()) {
                String host = b.getKey();
                f.vms.put(host, QemuVm.start(host, interopDir, dir.resolve(host), b.getValue(), script(host, specs),
                    owner));
            }
            for (Spec s : specs) {
                f.runs.put(s.name(), f.new Run(s, f.vms.get(s.source())));
            }
            f.watcher.start();
            return f;
        } catch (IOException e) {
            f.close();
            throw new UncheckedIOException("cannot write " + dir, e);
        } catch (RuntimeException e) {
            f.close();
            throw e;
        }
    }

    /** The script of VM {@code host}: its servers in the background until they listen, then its clients. */
    static String script(String host, List<Spec> specs) {
        StringBuilder b = new StringBuilder();
        for (Spec s : specs) {
            if (s.toVm() && s.destination().equals(host)) {
                b.append(s.tool()).append(" -d rxe0 ").append(String.join(" ", s.flags())).append(" > ")
                    .append(s.name()).append(".server.out 2>&1 &\n");
                b.append("n=0; until rdma res show cm_id | grep -q \"LISTEN.*:").append(s.port())
                    .append(" \"; do n=$((n+1)); [ $n -gt 300 ] && break; sleep 0.2; done; touch ").append(s.name())
                    .append(".ready\n");
            }
        }
        for (Spec s : specs) {
            if (s.source().equals(host)) {
                b.append("( touch ").append(s.name()).append(".started; client-retry ").append(CLIENT_RETRY_SECONDS)
                    .append(' ').append(s.tool()).append(" -d rxe0 ").append(String.join(" ", s.flags())).append(' ')
                    .append(s.destinationIp()).append(" > ").append(s.name()).append(".out 2>&1; echo $? > ")
                    .append(s.name()).append(".rc ) &\n");
            }
        }
        return b.append("wait\n").toString();
    }

    private void startServer(Spec s, NicServer where, Path dir) throws IOException {
        TestKind kind = TestKind.ofToolName(s.tool()).orElseThrow();
        Path out = dir.resolve(s.name() + ".server.out");
        PrintStream text = new PrintStream(Files.newOutputStream(out), true, StandardCharsets.UTF_8);
        PerftestTool.Parsed parsed = PerftestTool.parse(kind, s.flags().toArray(String[]::new), text, text);
        if (parsed.options() == null) {
            text.close();
            throw new NetnsException("rocelab's " + s.tool() + " refused " + String.join(" ", s.flags()) + ": see "
                + out);
        }
        NicEngine engine = new NicEngine(new NicEngine.Config(where.ip(), where.mac(), 1024,
            (where.mac().hashCode() * 31L) ^ s.port()), () -> PlainAttachment.borrowed(where.scheduler(), where.port(),
            "raw port on " + where.host() + "'s " + NetnsNames.HOST_IFACE));
        engine.defaultQpTimeout(18);
        synchronized (engines) {
            engines.add(engine);
        }
        Thread t = new Thread(() -> {
            neighbors(engine, where);
            int status;
            try {
                status = new PerftestSession(parsed.options(), engine, text, text, Duration.ofSeconds(60)).run();
            } catch (Exception e) {
                text.println(" " + s.tool() + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
                status = PerftestTool.FAILURE;
            }
            text.flush();
            synchronized (serverStatus) {
                serverStatus.put(s.name(), status);
            }
            text.close();
        }, "perftest-server-" + s.name());
        t.setDaemon(true);
        servers.add(t);
        t.start();
    }

    /** Once the session has opened the engine's NIC, gives it the server's static neighbours on its owner thread. */
    private void neighbors(NicEngine engine, NicServer where) {
        if (where.neighbors().isEmpty()) {
            return;
        }
        Thread t = new Thread(() -> {
            for (int i = 0; i < 200 && !closed; i++) {
                var nic = engine.nic();
                if (nic != null) {
                    where.scheduler().execute(() -> where.neighbors().forEach(nic::addNeighbor));
                    return;
                }
                try {
                    Thread.sleep(25);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "perftest-server-neighbors");
        t.setDaemon(true);
        t.start();
    }

    private void watch() {
        while (!closed) {
            for (Run r : runs.values()) {
                if (r.startedNanos < 0 && r.client.has(r.spec.name() + ".started")) {
                    r.startedNanos = clock.getAsLong() - epochNanos;
                }
                if (r.endNanos < 0 && r.client.has(r.spec.name() + ".rc")) {
                    r.bytes = PerftestOutput.lastBandwidthRow(r.client.read(r.spec.name() + ".out")).bytes();
                    r.endNanos = clock.getAsLong() - epochNanos;
                }
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** @return the live progress of {@code flow}, or null if it does not start in a VM */
    public FlowProgress progress(String flow) {
        return runs.get(flow);
    }

    /**
     * Waits until every VM has powered off (at most {@code waitMillis} in all), then what each flow
     * did: its client's bandwidth row and exit code.
     */
    public List<FlowResult> results(long waitMillis) {
        long until = System.nanoTime() + waitMillis * 1_000_000L;
        for (QemuVm vm : vms.values()) {
            try {
                vm.await(Math.max(1, (until - System.nanoTime()) / 1_000_000L));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        for (Thread t : servers) {
            try {
                t.join(Math.max(1, (until - System.nanoTime()) / 1_000_000L));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        List<FlowResult> out = new ArrayList<>();
        for (Run r : runs.values()) {
            out.add(result(r));
        }
        return out;
    }

    private FlowResult result(Run r) {
        Spec s = r.spec;
        String text = r.client.read(s.name() + ".out");
        String rc = r.client.read(s.name() + ".rc").strip();
        PerftestOutput.BandwidthRow row = PerftestOutput.lastBandwidthRow(text);
        long bytes = row.bytes();
        double mbPerSecond = row.mbPerSecond();
        long start = r.startedNanos;
        if (start < 0 && !r.client.has(s.name() + ".started")) {
            return new FlowResult(s.name(), s.source(), s.destination(), Verb.parse(s.verb()), FlowResult.Outcome.NOT_STARTED, 0, 0, 0,
                -1, -1, -1, 0, Map.of("VM: " + lastLine(r.client.consoleTail(3)), 1L), -1, -1, -1, -1, 0);
        }
        long end = r.endNanos;
        Integer server = null;
        synchronized (serverStatus) {
            server = serverStatus.get(s.name());
        }
        boolean ok = "0".equals(rc) && bytes > 0 && (s.toVm() || server != null && server == 0);
        if (!ok) {
            String why = rc.isEmpty() ? "no exit code (the VM did not finish)" : "exit " + rc;
            String error = s.tool() + " in " + s.source() + ": " + why + ": " + lastLine(text)
                + (s.toVm() || server == null || server == 0 ? "" : "; rocelab's server exit " + server);
            return new FlowResult(s.name(), s.source(), s.destination(), Verb.parse(s.verb()), FlowResult.Outcome.FAILED, 0, bytes,
                bytes, start, end, -1, 0, Map.of(error, 1L), -1, -1, -1, -1, 0);
        }
        long fct = end >= 0 && start >= 0 ? end - start : -1;
        // perftest's MB is 2^20 bytes; under TCG its cycle clock sometimes gives 0.00: then the bytes over
        // the wall time from the client's start (connection and retries included) to its exit
        double bits = mbPerSecond > 0 ? mbPerSecond * (1 << 20) * 8 : fct > 0 ? bytes * 8e9 / fct : 0;
        return new FlowResult(s.name(), s.source(), s.destination(), Verb.parse(s.verb()), FlowResult.Outcome.COMPLETED, s.messages(),
            bytes, bytes, start, end, fct, bits, Map.of(), -1, -1, -1, -1, 0);
    }

    private static String lastLine(String text) {
        List<String> lines = text.strip().lines().filter(l -> !l.isBlank()).toList();
        return lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1).strip();
    }

    /** @return one line per VM: where its files are and how its script ended */
    public List<String> summary() {
        List<String> out = new ArrayList<>();
        for (QemuVm vm : vms.values()) {
            String rc = vm.read("cmd.rc").strip();
            out.add(String.format(Locale.ROOT, "vm %s: %s, script exit %s", vm.host(), vm.runDir(),
                rc.isEmpty() ? "none" : rc));
        }
        return out;
    }

    /** Kills every VM still running and closes rocelab's servers. Idempotent. */
    @Override
    public void close() {
        closed = true;
        watcher.interrupt();
        for (QemuVm vm : vms.values()) {
            vm.kill();
        }
        synchronized (engines) {
            for (NicEngine e : engines) {
                try {
                    e.close();
                } catch (RuntimeException ex) {
                    // already closed by its session
                }
            }
        }
        for (Thread t : servers) {
            t.interrupt();
        }
    }
}
