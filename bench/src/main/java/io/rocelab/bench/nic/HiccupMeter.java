package io.rocelab.bench.nic;

import java.util.concurrent.locks.LockSupport;

/**
 * How long the machine keeps a runnable thread off the CPU, measured the way jHiccup does: a daemon
 * thread asks to sleep 1 ms again and again and records by how much each sleep overshot.
 *
 * <p>Why in a NIC benchmark: the RC local ACK timer (timeout 14: 67 ms) can only fire on a lossless
 * in-process link if some thread of the pair was stalled for that long; a hiccup of that size in
 * the same run says the stall was the machine's, not the transport's.
 */
final class HiccupMeter implements AutoCloseable {
    private static final long TICK_NANOS = 1_000_000L;

    private final Thread thread;
    private volatile boolean running = true;
    private volatile long maxNanos;
    private volatile long over10ms;
    private volatile long over67ms;

    HiccupMeter() {
        thread = new Thread(this::run, "hiccup-meter");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        while (running) {
            long t0 = System.nanoTime();
            LockSupport.parkNanos(TICK_NANOS);
            long hiccup = System.nanoTime() - t0 - TICK_NANOS;
            if (hiccup > maxNanos) {
                maxNanos = hiccup;
            }
            if (hiccup > 10_000_000L) {
                over10ms++;
            }
            if (hiccup > 67_108_864L) {
                over67ms++;
            }
        }
    }

    String summary() {
        return String.format(java.util.Locale.ROOT, "longest %.1f ms beyond a 1 ms sleep; %d over 10 ms, %d over 67 ms"
                + " (the local ACK timeout)", maxNanos / 1e6, over10ms, over67ms);
    }

    @Override
    public void close() {
        running = false;
    }
}
