package io.rocelab.bench.fabric;

import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.link.LinkCounter;
import io.rocelab.fabric.link.LinkDirection;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.nic.cc.DcqcnParams;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.generate.FatTree;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.workload.FlowResult;
import io.rocelab.topology.workload.Workload;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * The fat-tree benchmark's run reduced to a few numbers that must not move when the simulator only
 * gets faster: the events executed, the flows started and completed, and two digests, one of every
 * link direction's counters (frames and bytes sent and delivered, drops, in link-name order) and
 * one of every flow's result (its bytes, outcome, start, end and latencies, in flow order). Two
 * builds that print the same line ran the same simulation, frame for frame; the CPU seconds beside
 * them say which was faster.
 *
 * <p>The same workload as {@link FatTreeScaleBench} (100 Gb/s links of 1 us, lossless, DCQCN, a 16:1
 * incast to the first host plus Poisson web-search WRITEs at {@code bench.load}). Properties:
 * {@code bench.k} (list, {@code 4,8}), {@code bench.us} (simulated microseconds, 2000),
 * {@code bench.load} (0.3), {@code bench.seed} (1).
 * <pre>
 * java -Xmx4g -Dio.netty.leakDetection.level=disabled -Dbench.k=4,8 -cp bench/target/benchmarks.jar \
 *   io.rocelab.bench.fabric.FatTreeDigest
 * </pre>
 */
public final class FatTreeDigest {
    private static final long US = 1_000;

    private FatTreeDigest() {
    }

    public static void main(String[] args) {
        String ks = System.getProperty("bench.k", "4,8");
        long us = Long.getLong("bench.us", 2_000);
        double load = Double.parseDouble(System.getProperty("bench.load", "0.3"));
        long seed = Long.getLong("bench.seed", 1);
        for (String k : ks.split(",")) {
            run(Integer.parseInt(k.trim()), us, load, seed);
        }
    }

    private static void run(int k, long us, double load, long seed) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        FatTree ft = FatTree.builder().k(k).linkGbps(100).propagationDelayNanos(1_000)
            .dcqcn(DcqcnParams.defaults()).build();
        Fabric fabric = Fabric.virtualTime(ft.topology(), seed);
        Workload w = Workload.start(fabric, FatTreeScaleBench.flows(ft, us * US, load, seed), seed);
        VirtualTimeScheduler v = fabric.virtualTime();
        long events0 = v.eventsExecuted();
        long cpu0 = mx.getCurrentThreadCpuTime();
        fabric.runFor(us * US);
        double cpu = (mx.getCurrentThreadCpuTime() - cpu0) / 1e9;
        long events = v.eventsExecuted() - events0;
        long links = 0x9E37_79B9_7F4A_7C15L;
        long delivered = 0;
        for (Link l : ft.topology().links()) {
            InProcessLink link = fabric.link(l.name());
            for (LinkDirection d : List.of(link.aToB(), link.bToA())) {
                for (LinkCounter c : LinkCounter.values()) {
                    links = mix(links, d.counters().get(c));
                }
                delivered += d.counters().get(LinkCounter.FRAMES_DELIVERED);
            }
        }
        long results = 0x9E37_79B9_7F4A_7C15L;
        int started = 0;
        int completed = 0;
        for (FlowResult r : w.results()) {
            for (byte b : r.toString().getBytes(StandardCharsets.UTF_8)) {
                results = mix(results, b);
            }
            started += r.startNanos() >= 0 ? 1 : 0;
            completed += r.outcome() == FlowResult.Outcome.COMPLETED ? 1 : 0;
        }
        System.out.printf(Locale.ROOT, "k=%d %d us: %d events, %d frames delivered, %d flows started, %d completed, "
                + "links %016x, flows %016x; %.2f CPU s, %.3f us per event%n", k, us, events, delivered, started,
            completed, links, results, cpu, cpu * 1e6 / events);
        w.close();
        fabric.close();
    }

    private static long mix(long h, long v) {
        long z = h * 31 + v + 0x9E37_79B9_7F4A_7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }
}
