package io.rocelab.lab.demo;

import io.rocelab.nic.stats.NicCounter;
import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.nic.HostPair;
import io.rocelab.sw.SonicViews;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * {@code rocelab demo}: two hosts and a leaf switch in this process, no root, no network but
 * 127.0.0.1 (perftest's out-of-band exchange). Runs {@code ib_write_bw} and then
 * {@code ib_read_lat} from host-a to host-b across the leaf with perftest's own sessions and
 * prints their tables as the tools do, then the hosts' NIC counters under rxe's names, the leaf's
 * SONiC views, and names the pcapng of the run at the end.
 */
public final class Demo {
    private final DemoOptions options;
    private final PrintStream out;
    private final PrintStream err;

    public Demo(DemoOptions options, PrintStream out, PrintStream err) {
        this.options = options;
        this.out = out;
        this.err = err;
    }

    /** @return 0 when both tests passed, 1 otherwise */
    public int run() throws IOException {
        Path capture = options.capture() == null ? null : options.capture().toAbsolutePath().normalize();
        if (capture != null && Files.isDirectory(capture)) {
            throw new IllegalArgumentException("--capture: " + capture + " is a directory");
        }
        long started = System.nanoTime();
        Map<NicCounter, Long> a = new EnumMap<>(NicCounter.class);
        Map<NicCounter, Long> b = new EnumMap<>(NicCounter.class);
        int status = 0;
        long[] captured;
        if (options.warmup()) {
            status = warmUp();
        }
        try (LeafFabric lab = new LeafFabric(capture, options.framesPerPort())) {
            intro(lab, capture);
            if (status != 0) {
                return status;
            }
            status |= test(lab, TestKind.WRITE_BW, options.writeBwArgs(), a, b);
            if (status == 0) {
                status |= test(lab, TestKind.READ_LAT, options.readLatArgs(), a, b);
            }
            if (status == 0 && options.congestion()) {
                lab.nextTest();
                status |= new CongestionAct(out, lab.captureWriter()).run(lab);
            }
            out.println();
            section("NIC counters, per host (rxe's names as `rdma statistic show` prints them; non-zero only)");
            out.print(nicCounters(a, b));
            out.println();
            section("leaf# show interfaces counters");
            out.print(lab.onLeaf(() -> SonicViews.interfaceCounters(lab.leaf)));
            out.println();
            section("leaf# show pfc counters");
            out.print(lab.onLeaf(() -> SonicViews.pfcCounters(lab.leaf)));
            out.println();
            section("leaf# show queue counters");
            out.print(lab.onLeaf(() -> SonicViews.queueCounters(lab.leaf)));
            out.println();
            section("leaf# show pfcwd stats");
            out.print(lab.onLeaf(() -> SonicViews.pfcwdStats(lab.leaf)));
            out.println();
            section("leaf# crm show resources fdb");
            out.print(lab.onLeaf(() -> SonicViews.crmFdb(lab.leaf)));
            out.println();
            section("leaf# show buffer_pool watermark / show priority-group watermark");
            out.print(lab.onLeaf(() -> SonicViews.watermarks(lab.leaf)));
            captured = lab.finishCapture();
        }
        out.println();
        out.printf("demo %s in %.1f s%n", status == 0 ? "done" : "FAILED", (System.nanoTime() - started) / 1e9);
        if (capture != null) {
            out.printf("capture: %s (%d frames, %d KB: the first %d frames on each leaf port in each test, plus"
                    + " frames with a switch decision; %d more frames crossed the leaf and were not kept)%n",
                capture, captured[0], (Files.size(capture) + 1023) / 1024, options.framesPerPort(), captured[1]);
            out.println("         open it in Wireshark, or: ./rocelab decode " + shortName(capture));
        } else {
            out.println("capture: none (--no-capture)");
        }
        out.flush();
        return status;
    }

    /**
     * Runs ib_write_bw on a throwaway copy of the lab, unreported, so that the measured tests find the
     * data path compiled; the lab the user sees starts afterwards, its counters and capture clean.
     *
     * @return 0, or 1 if the warm-up failed (said on stderr)
     */
    private int warmUp() throws IOException {
        long t0 = System.nanoTime();
        HostPair.Result r;
        java.io.PrintStream quiet = new java.io.PrintStream(java.io.OutputStream.nullOutputStream());
        try (LeafFabric copy = new LeafFabric(null, 0)) {
            r = copy.hosts.run(TestKind.WRITE_BW, options.warmupArgs().toArray(new String[0]), quiet, quiet);
        }
        out.printf("warm-up: a throwaway copy of the lab wrote %d MB with ib_write_bw in %.1f s, so that the JIT"
            + " compiled the data path before the tests below (--no-warmup skips it)%n", DemoOptions.WARMUP_BYTES >> 20,
            (System.nanoTime() - t0) / 1e9);
        if (r.status() != 0) {
            err.println("rocelab demo: the warm-up's ib_write_bw failed (exit " + r.status() + ")");
            return 1;
        }
        return 0;
    }

    private void intro(LeafFabric lab, Path capture) {
        out.println("rocelab demo: host-a -- leaf -- host-b in this process (no root; perftest's exchange over"
            + " 127.0.0.1 TCP)");
        out.printf("  host-a  %-9s %s  soft NIC %s, on leaf %s%n", LeafFabric.HOST_A_IP, LeafFabric.HOST_A_MAC,
            io.rocelab.perftest.nic.NicEngine.DEVICE_NAME, LeafFabric.PORT_A);
        out.printf("  host-b  %-9s %s  soft NIC %s, on leaf %s%n", LeafFabric.HOST_B_IP, LeafFabric.HOST_B_MAC,
            io.rocelab.perftest.nic.NicEngine.DEVICE_NAME, LeafFabric.PORT_B);
        out.printf("  links   %d Gb/s in-process, 5 m (%d ns); RoCE at traffic class %d (DSCP 26, ECT(0)), MTU %d%n",
            lab.speedBitsPerSecond / 1_000_000_000L, LeafFabric.CABLE_DELAY_NANOS, LeafFabric.ROCE_TRAFFIC_CLASS,
            LeafFabric.ACTIVE_MTU);
        out.println("  leaf    soft switch, SONiC config " + LeafFabric.CONFIG_RESOURCE.substring(1)
            + ": DSCP 26 -> TC 3 -> queue 3, PFC on priority 3, WRED/ECN on queue 3, PFC watchdog");
        out.println("  threads the NICs and the leaf share one event loop, real time (perftest's threads beside it);"
            + " the QPs' ACK timeout is -u " + DemoOptions.QP_TIMEOUT + " (1.07 s), as a thread here may wait for a"
            + " core longer than perftest's 67 ms");
        out.println("  capture " + (capture == null ? "off" : capture + " (bounded: first " + options.framesPerPort()
            + " frames per leaf port in each test)"));
        if (options.congestion()) {
            out.println("  then    congestion: host-a and host-c write to host-b at once, DCQCN on, in virtual time");
        }
    }

    private int test(LeafFabric lab, TestKind kind, List<String> args, Map<NicCounter, Long> a,
                     Map<NicCounter, Long> b) {
        HostPair hosts = lab.hosts;
        lab.nextTest();
        out.println();
        String flags = String.join(" ", args);
        section(hosts.server().name() + "$ " + kind.toolName() + " " + flags);
        section(hosts.client().name() + "$ " + kind.toolName() + " " + flags + " " + hosts.server().name());
        HostPair.Result r = hosts.run(kind, args.toArray(new String[0]), out, err);
        add(b, r.serverCounters());
        add(a, r.clientCounters());
        if (r.status() != 0) {
            err.println("rocelab demo: " + kind.toolName() + " between host-a and host-b failed (exit " + r.status()
                + ")");
        }
        out.flush();
        return r.status() == 0 ? 0 : 1;
    }

    private static void add(Map<NicCounter, Long> into, Map<NicCounter, Long> run) {
        run.forEach((k, v) -> into.merge(k, v, Long::sum));
    }

    /** Both hosts side by side, a row for each counter that is not zero on either. */
    static String nicCounters(Map<NicCounter, Long> a, Map<NicCounter, Long> b) {
        StringBuilder sb = new StringBuilder(String.format("%-24s  %14s  %14s%n", "counter", "host-a", "host-b"));
        sb.append("-".repeat(56)).append('\n');
        List<NicCounter> rows = new ArrayList<>();
        for (NicCounter c : NicCounter.values()) {
            if (a.getOrDefault(c, 0L) != 0 || b.getOrDefault(c, 0L) != 0) {
                rows.add(c);
            }
        }
        for (NicCounter c : rows) {
            sb.append(String.format("%-24s  %14d  %14d%n", c.rxeName(), a.getOrDefault(c, 0L),
                b.getOrDefault(c, 0L)));
        }
        return sb.toString();
    }

    private void section(String title) {
        out.println("== " + title);
    }

    private static String shortName(Path capture) {
        Path cwd = Path.of("").toAbsolutePath();
        return capture.startsWith(cwd) ? cwd.relativize(capture).toString() : capture.toString();
    }
}
