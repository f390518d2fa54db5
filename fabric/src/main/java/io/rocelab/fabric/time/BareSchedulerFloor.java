package io.rocelab.fabric.time;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The floor the virtual-time benchmarks print beside themselves (docs/design.md §9): events per
 * second of the bare {@link VirtualTimeScheduler} with as many pending events as the measured
 * scenario keeps, each event doing nothing but schedule its successor (distinct delays, so the heap
 * really reorders).
 */
public final class BareSchedulerFloor {
    private BareSchedulerFloor() {
    }

    /**
     * @return events per wall-clock second and per second of this thread's CPU time, over at least
     *         {@code wallNanos}
     */
    public static double[] eventsPerSecond(int pending, long wallNanos) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        VirtualTimeScheduler s = new VirtualTimeScheduler();
        for (int i = 0; i < Math.max(1, pending); i++) {
            long delay = 50 + 7L * (i % 10_000);
            s.scheduleUncancellable(delay, new Runnable() {
                @Override
                public void run() {
                    s.scheduleUncancellable(delay, this);
                }
            });
        }
        s.run(2_000_000);
        long events0 = s.eventsExecuted();
        long start = System.nanoTime();
        long cpu0 = mx.getCurrentThreadCpuTime();
        long elapsed;
        do {
            s.run(1_000_000);
            elapsed = System.nanoTime() - start;
        } while (elapsed < wallNanos);
        long cpu = mx.getCurrentThreadCpuTime() - cpu0;
        long events = s.eventsExecuted() - events0;
        return new double[] {events * 1e9 / elapsed, events * 1e9 / cpu};
    }
}
