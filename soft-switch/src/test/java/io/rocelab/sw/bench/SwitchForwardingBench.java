package io.rocelab.sw.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.time.BareSchedulerFloor;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.Lab;
import java.util.Arrays;

/**
 * The switch benchmark of issue 4 (docs/design.md §9: a benchmark, not a test; it prints ratios against a
 * floor measured in the same run and gates nothing).
 *
 * <ol>
 *   <li>Real time: frames per second through the whole pipeline of a 4-port switch on a
 *       {@link RealTimeScheduler}, for 4 KB and 256 B RoCEv2 payloads, beside the
 *       {@link QueueCopyFloor} driven by the same {@link ForwardingDriver} on the same thread.
 *       Goal: at least 0.5 of the floor.</li>
 *   <li>Virtual time: events per second of a 32:1 incast at 100 Gb/s, beside the bare
 *       {@link io.rocelab.fabric.time.VirtualTimeScheduler}'s events per second.</li>
 * </ol>
 *
 * <p>Run it with leak detection off ({@code -Dio.netty.leakDetection.level=disabled}): sampling
 * leak records is a test aid, not part of the data path. Rounds alternate switch and floor, so
 * that noise from other work on a shared machine hits both; the median round is reported.
 * Properties: {@code bench.rounds} (default 5), {@code bench.roundMs} (default 1000),
 * {@code bench.incast} (default true; false runs the real-time forwarding part only).
 */
public final class SwitchForwardingBench {
    private static final int PORTS = 4;
    private static final int SPEED_GBPS = 400;
    private static final int WINDOW = 256;
    private static final double GOAL = 0.5;

    private SwitchForwardingBench() {
    }

    public static void main(String[] args) {
        int rounds = Integer.getInteger("bench.rounds", 5);
        long roundNanos = Long.getLong("bench.roundMs", 1000) * 1_000_000L;
        System.out.printf("java %s, %d cores, io.netty.leakDetection.level=%s, %d rounds of %d ms%n",
            System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
            System.getProperty("io.netty.leakDetection.level", "(default: simple)"), rounds, roundNanos / 1_000_000);
        ByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
        System.out.printf("%nSwitch forwarding in real time: %d ports at %d Gb/s on one RealTimeScheduler, routed IPv4 "
            + "RoCEv2 RDMA WRITE ONLY, DSCP 26 (lossless TC 3), port i -> port i+1%n", PORTS, SPEED_GBPS);
        System.out.printf("%-10s %-8s %-5s %14s %14s %7s %6s %12s %s%n", "payload", "frame", "clock", "switch Mfps",
            "floor Mfps",
            "ratio", "goal", "switch Gb/s", "notes");
        try (RealTimeScheduler rt = RealTimeScheduler.start("switch-bench")) {
            for (int payload : new int[] {4096, 256}) {
                forwarding(rt, alloc, payload, rounds, roundNanos);
            }
        }
        if (!Boolean.parseBoolean(System.getProperty("bench.incast", "true"))) {
            return;
        }
        System.out.printf("%nVirtual time: %d:1 incast at 100 Gb/s into the lossless class (4 KB WRITEs, PFC)%n",
            IncastEventsBench.SENDERS);
        IncastEventsBench.Result[] inc = new IncastEventsBench.Result[rounds];
        double[] floor = new double[rounds];
        double[] floorCpu = new double[rounds];
        IncastEventsBench.run(2_000_000, roundNanos);
        for (int r = 0; r < rounds; r++) {
            inc[r] = IncastEventsBench.run(2_000_000, roundNanos);
            double[] f = BareSchedulerFloor.eventsPerSecond((int) Math.round(inc[r].meanPending()), roundNanos);
            floor[r] = f[0];
            floorCpu[r] = f[1];
        }
        double[] cpuRates = Arrays.stream(inc).mapToDouble(IncastEventsBench.Result::eventsPerCpuSecond).toArray();
        Arrays.sort(inc, (a, b) -> Double.compare(a.eventsPerSecond(), b.eventsPerSecond()));
        IncastEventsBench.Result m = inc[rounds / 2];
        double f = median(floor);
        double fc = median(floorCpu);
        double ic = median(cpuRates);
        System.out.printf("%-34s %-5s %14s %14s %7s %s%n", "", "clock", "incast Mev/s", "bare Mev/s", "ratio", "notes");
        System.out.printf("%-34s %-5s %14.2f %14.2f %7.3f %.1f µs of virtual time per wall second, %.0f events pending, "
                + "%.2f events per frame delivered%n",
            "32:1 incast, 33 ports, 100 Gb/s", "wall", m.eventsPerSecond() / 1e6, f / 1e6, m.eventsPerSecond() / f,
            m.virtualPerWall() * 1e6, m.meanPending(), m.events() / (double) m.framesDelivered());
        System.out.printf("%-34s %-5s %14.2f %14.2f %7.3f per second of the thread's CPU time%n", "", "cpu", ic / 1e6,
            fc / 1e6, ic / fc);
    }

    private static void forwarding(RealTimeScheduler rt, ByteBufAllocator alloc, int payload, int rounds,
                                   long roundNanos) {
        SwitchConfig config = Lab.routes(new ConfigBuilder(PORTS, SPEED_GBPS), PORTS).pool(64L << 20).build();
        ByteBuf[] templates = templates(alloc, payload);
        int frameLen = templates[0].readableBytes();
        SwitchUnderBench sw = onOwner(rt, () -> new SwitchUnderBench(config, rt, alloc));
        QueueCopyFloor floor = new QueueCopyFloor(PORTS);
        new ForwardingDriver(sw, templates, alloc, rt, 2 * roundNanos, WINDOW).runAndWait();
        new ForwardingDriver(floor, templates, alloc, rt, 2 * roundNanos, WINDOW).runAndWait();
        int contextsWarm = onOwner(rt, sw::contexts);
        double[] s = new double[rounds];
        double[] fl = new double[rounds];
        double[] sc = new double[rounds];
        double[] fc = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            ForwardingDriver.Rate sr = new ForwardingDriver(sw, templates, alloc, rt, roundNanos, WINDOW).runAndWait();
            ForwardingDriver.Rate fr = new ForwardingDriver(floor, templates, alloc, rt, roundNanos, WINDOW).runAndWait();
            s[r] = sr.perWallSecond();
            fl[r] = fr.perWallSecond();
            sc[r] = sr.perCpuSecond();
            fc[r] = fr.perCpuSecond();
        }
        double sm = median(s);
        double fm = median(fl);
        double scm = median(sc);
        double fcm = median(fc);
        long drops = onOwner(rt, sw::dropped);
        long pfc = onOwner(rt, sw::pfcSent);
        int contextsGrowth = onOwner(rt, sw::contexts) - contextsWarm;
        long deepest = onOwner(rt, sw::deepestQueue);
        System.out.printf("%-10s %-8s %-5s %14.3f %14.3f %7.3f %6s %12.1f drops %d, PFC sent %d, deepest queue %d B, "
                + "contexts +%d after warm-up; rounds switch %s floor %s%n", payload + " B", frameLen + " B", "wall",
            sm / 1e6, fm / 1e6, sm / fm, sm / fm >= GOAL ? "met" : "MISSED", sm * frameLen * 8 / 1e9, drops, pfc,
            deepest, contextsGrowth, mfps(s), mfps(fl));
        System.out.printf("%-10s %-8s %-5s %14.3f %14.3f %7.3f %6s %12.1f per second of the owner thread's CPU time; "
                + "rounds switch %s floor %s%n", "", "", "cpu", scm / 1e6, fcm / 1e6, scm / fcm,
            scm / fcm >= GOAL ? "met" : "MISSED", scm * frameLen * 8 / 1e9, mfps(sc), mfps(fc));
        for (ByteBuf t : templates) {
            t.release();
        }
    }

    private static ByteBuf[] templates(ByteBufAllocator alloc, int payload) {
        ByteBuf[] t = new ByteBuf[PORTS];
        long routerMac = MacAddress.parse(ConfigBuilder.ROUTER_MAC);
        for (int i = 0; i < PORTS; i++) {
            int to = (i + 1) % PORTS;
            t[i] = new RoceFrame().ethernet(routerMac, Lab.hostMac(i)).ipv4(Lab.hostIp(i), Lab.hostIp(to))
                .udp(0xC000 + i, 4791).dscpEcn(26, 2).opcode(Opcode.RC_RDMA_WRITE_ONLY).reth(0x1000, 0x42, payload)
                .destQp(0x11 + i).psn(0).payload(new byte[payload]).encode(alloc);
        }
        return t;
    }

    private static <T> T onOwner(RealTimeScheduler rt, java.util.function.Supplier<T> what) {
        java.util.concurrent.CompletableFuture<T> f = new java.util.concurrent.CompletableFuture<>();
        rt.execute(() -> f.complete(what.get()));
        return f.join();
    }

    private static double median(double[] v) {
        double[] c = v.clone();
        Arrays.sort(c);
        return c[c.length / 2];
    }

    private static String mfps(double[] v) {
        StringBuilder sb = new StringBuilder("[");
        for (double x : v) {
            sb.append(sb.length() > 1 ? " " : "").append(String.format("%.2f", x / 1e6));
        }
        return sb.append(']').toString();
    }
}
