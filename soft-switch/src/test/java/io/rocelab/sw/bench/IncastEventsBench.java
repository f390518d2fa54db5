package io.rocelab.sw.bench;

import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.Lab;

/**
 * Virtual-time cost of a 32:1 incast at 100 Gb/s into the lossless class (the IncastTest
 * scenario: 4 KB RDMA WRITEs, PFC pausing the 32 senders): events per wall-clock second, and how
 * much virtual time one wall second buys.
 */
final class IncastEventsBench {
    static final int SENDERS = 32;

    /** What one measurement saw. */
    record Result(double eventsPerSecond, double eventsPerCpuSecond, double virtualPerWall, double meanPending,
                  long events, long framesDelivered) {
    }

    private IncastEventsBench() {
    }

    /** Warms up for {@code warmNanos} of virtual time, then runs 1 ms slices for at least {@code wallNanos}. */
    static Result run(long warmNanos, long wallNanos) {
        Lab lab = new Lab(Lab.routes(new ConfigBuilder(SENDERS + 1, 100), SENDERS + 1).pool(4_000_000).build());
        for (int i = 1; i <= SENDERS; i++) {
            lab.flow(i, 0, 26, 2, 0xC000 + i, 4096).start();
        }
        lab.time.runFor(warmNanos);
        long events0 = lab.time.eventsExecuted();
        long virtual0 = lab.time.nanoTime();
        long rx0 = lab.hosts.get(0).rxFrames;
        long cpu0 = CpuTime.ofThisThread();
        long pendingSum = 0;
        int slices = 0;
        long start = System.nanoTime();
        long elapsed;
        do {
            lab.time.runFor(1_000_000);
            pendingSum += lab.time.pendingEvents();
            slices++;
            elapsed = System.nanoTime() - start;
        } while (elapsed < wallNanos);
        long cpu = CpuTime.ofThisThread() - cpu0;
        long events = lab.time.eventsExecuted() - events0;
        long frames = lab.hosts.get(0).rxFrames - rx0;
        double virtual = lab.time.nanoTime() - virtual0;
        lab.drainAndClose();
        return new Result(events * 1e9 / elapsed, events * 1e9 / cpu, virtual / elapsed, (double) pendingSum / slices,
            events, frames);
    }
}
