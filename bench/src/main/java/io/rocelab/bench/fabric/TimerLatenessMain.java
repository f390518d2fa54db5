package io.rocelab.bench.fabric;

import io.netty.channel.nio.NioIoHandler;
import io.rocelab.fabric.time.RealTimeScheduler;

import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How late an idle real-time loop serves a repeating timer, re-armed from its own run as a PFC
 * storm's refresh is, beside the floor of a plain {@code LockSupport.parkNanos} of the same period
 * (the kernel's wake-up of a sleeping thread), for the default loop (epoll where it loads) and NIO.
 *
 * <pre>
 *   TimerLatenessMain [PERIOD_US [TICKS [ROUNDS]]]     defaults: 167, 300, 3
 * </pre>
 *
 * One line per loop kind and round: median, mean, 99th percentile and maximum lateness in us.
 */
public final class TimerLatenessMain {
    private TimerLatenessMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        long period = TimeUnit.MICROSECONDS.toNanos(args.length > 0 ? Long.parseLong(args[0]) : 167);
        int ticks = args.length > 1 ? Integer.parseInt(args[1]) : 300;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        for (int r = 0; r < rounds; r++) {
            print("parkNanos", park(period, ticks));
        }
        try (RealTimeScheduler s = RealTimeScheduler.start("lateness-default")) {
            for (int r = 0; r < rounds; r++) {
                print(s.preciseTimers() ? "epoll" : "nio (default)", repeat(s, period, ticks));
            }
        }
        try (RealTimeScheduler s = RealTimeScheduler.start("lateness-nio", NioIoHandler.newFactory())) {
            for (int r = 0; r < rounds; r++) {
                print("nio", repeat(s, period, ticks));
            }
        }
    }

    private static long[] park(long period, int ticks) {
        long[] late = new long[ticks];
        for (int i = 0; i < ticks; i++) {
            long t = System.nanoTime();
            LockSupport.parkNanos(period);
            late[i] = System.nanoTime() - t - period;
        }
        return late;
    }

    private static long[] repeat(RealTimeScheduler s, long period, int ticks) throws InterruptedException {
        long[] late = new long[ticks];
        int[] i = {0};
        long[] due = new long[1];
        CountDownLatch done = new CountDownLatch(1);
        Runnable[] tick = new Runnable[1];
        tick[0] = () -> {
            late[i[0]++] = s.nanoTime() - due[0];
            if (i[0] == ticks) {
                done.countDown();
                return;
            }
            due[0] = s.nanoTime() + period;
            s.schedule(period, tick[0]);
        };
        s.execute(() -> {
            due[0] = s.nanoTime() + period;
            s.schedule(period, tick[0]);
        });
        if (!done.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the timer ran only " + i[0] + " times in 60 s");
        }
        return late;
    }

    private static void print(String what, long[] late) {
        long[] sorted = late.clone();
        Arrays.sort(sorted);
        double mean = Arrays.stream(late).average().orElse(0);
        System.out.printf(Locale.ROOT, "%-14s median %6.1f us  mean %6.1f us  p99 %7.1f us  max %7.1f us%n", what,
            sorted[sorted.length / 2] / 1e3, mean / 1e3, sorted[sorted.length * 99 / 100] / 1e3,
            sorted[sorted.length - 1] / 1e3);
    }
}
