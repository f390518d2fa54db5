package io.rocelab.lab.bench;

import io.rocelab.fabric.time.BareSchedulerFloor;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.lab.experiment.IncastExperiment;
import io.rocelab.lab.experiment.IncastResult;
import io.rocelab.lab.experiment.IncastSpec;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

/**
 * How fast virtual time runs a 16:1 incast of soft NICs across a soft leaf at 100 Gb/s with DCQCN
 * (a benchmark, not a test: docs/design.md §9): simulated microseconds and events per wall second
 * and per second of this thread's CPU, beside the bare {@link VirtualTimeScheduler}'s events per
 * second in the same run (each event only scheduling its successor, with as many pending as the
 * incast keeps). Properties: {@code bench.senders} (16), {@code bench.us} (10000), {@code
 * bench.rounds} (3), {@code bench.cc} (dcqcn or none).
 *
 * <pre>
 * mvn -B -q -o package -DskipTests -pl lab -am && mvn -B -q -o test-compile -pl lab
 * java -cp lab/target/test-classes:lab/target/rocelab.jar io.rocelab.lab.bench.IncastSpeedBench
 * </pre>
 */
public final class IncastSpeedBench {
    private IncastSpeedBench() {
    }

    public static void main(String[] args) {
        int senders = Integer.getInteger("bench.senders", 16);
        long us = Long.getLong("bench.us", 10_000);
        int rounds = Integer.getInteger("bench.rounds", 3);
        boolean dcqcn = !"none".equals(System.getProperty("bench.cc", "dcqcn"));
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        IncastSpec spec = IncastSpec.defaults(senders, dcqcn).withDuration(us);
        System.out.printf(Locale.ROOT, "IncastSpeedBench: %d:1 at 100 Gb/s, %s, %d us simulated, %d rounds%n", senders,
            dcqcn ? "DCQCN" : "no CC", us, rounds);
        IncastExperiment.run(spec.withDuration(Math.min(us, 2_000))); // warm-up
        double bestWall = 0;
        double bestCpu = 0;
        long events = 0;
        for (int r = 0; r < rounds; r++) {
            long cpu0 = mx.getCurrentThreadCpuTime();
            long wall0 = System.nanoTime();
            IncastResult res = IncastExperiment.run(spec);
            double wall = (System.nanoTime() - wall0) / 1e9;
            double cpu = (mx.getCurrentThreadCpuTime() - cpu0) / 1e9;
            events = res.events();
            System.out.printf(Locale.ROOT, "  round %d: %.2f s wall, %.2f s CPU: %.0f simulated us per wall s, "
                + "%.2f M events per wall s, %.2f M per CPU s (%d events)%n", r + 1, wall, cpu, us / wall,
                events / wall / 1e6, events / cpu / 1e6, events);
            bestWall = Math.max(bestWall, events / wall);
            bestCpu = Math.max(bestCpu, events / cpu);
        }
        double[] floor = BareSchedulerFloor.eventsPerSecond(pendingOf(spec), 3_000_000_000L);
        System.out.printf(Locale.ROOT, "  bare scheduler: %.2f M events per wall s, %.2f M per CPU s%n",
            floor[0] / 1e6, floor[1] / 1e6);
        System.out.printf(Locale.ROOT, "  ratio incast / bare scheduler, events per CPU s (best round): %.3f%n",
            bestCpu / floor[1]);
    }

    /** Timers an incast keeps pending on average: about three per host (link deliveries, transmitters, QP timers). */
    private static int pendingOf(IncastSpec spec) {
        return 3 * (spec.senders() + 1) + 2 * (spec.senders() + 1);
    }

}
