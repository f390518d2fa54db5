package io.rocelab.fabric.time;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.nio.NioIoHandler;
import io.rocelab.codec.testkit.RunQueue;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * When {@link RealTimeScheduler}'s timers fire: not starved by a chain of tasks, and on an idle epoll
 * loop within tens of microseconds of the core its thread gets. Each claim is judged against what
 * the machine gave the test, not in wall-clock time alone: the chain's starvation is counted in
 * links of the chain run after the deadline, and the loop's lateness is taken less the time its
 * thread waited for a core ({@link RunQueue}), so a loaded machine makes the timers later, not red.
 */
@Tag("realtime")
class RealTimeTimerPunctualityTest {
    private static final long WAIT_SECONDS = 10;

    private static RealTimeScheduler start(String kind) {
        IoHandlerFactory io = switch (kind) {
            case "nio" -> NioIoHandler.newFactory();
            case "default" -> RealTimeScheduler.defaultIoHandlers();
            default -> throw new IllegalArgumentException(kind);
        };
        return RealTimeScheduler.start("punctuality-" + kind, io);
    }

    /**
     * A chain of tasks, each executing the next (or scheduling it for now), as a link delivering to
     * a NIC that answers over the same loop: a timer that comes due meanwhile runs between two links
     * of the chain. Netty looks at its own timers only when a round of tasks starts, and a round lasts
     * as long as tasks keep queueing each other, up to its quantum of a second: a timer scheduled
     * there waited for the chain to end (hundreds of thousands of links). The chain here ends when
     * the timer has run, or after 2 s. The claim is counted in links, whatever the machine's speed:
     * once a link has seen the clock past the timer's deadline, the timer runs before the next link,
     * so at most one link runs after the deadline; and the timer does not run before its deadline.
     */
    @ParameterizedTest
    @ValueSource(strings = {"default", "nio"})
    void aChainOfTasksDoesNotStarveADueTimer(String kind) throws Exception {
        for (boolean viaScheduleNow : new boolean[] {false, true}) {
            try (RealTimeScheduler s = start(kind)) {
                AtomicLong firedAt = new AtomicLong(-1);
                AtomicLong linksAfterDue = new AtomicLong();
                long delay = TimeUnit.MICROSECONDS.toNanos(200);
                // the timer's deadline is the clock read inside schedule() plus the delay: no earlier
                // than earliest[0], no later than due[0] (the owner thread may lose its core between)
                long[] earliest = new long[1];
                long[] due = new long[1];
                CountDownLatch chainEnded = new CountDownLatch(1);
                Runnable[] link = new Runnable[1];
                long[] chainStart = new long[1];
                link[0] = () -> {
                    long now = s.nanoTime();
                    if (firedAt.get() >= 0 || now - chainStart[0] > TimeUnit.SECONDS.toNanos(2)) {
                        chainEnded.countDown();
                        return;
                    }
                    if (now >= due[0]) {
                        linksAfterDue.incrementAndGet();
                    }
                    if (viaScheduleNow) {
                        s.scheduleUncancellable(0, link[0]);
                    } else {
                        s.execute(link[0]);
                    }
                };
                s.execute(() -> {
                    chainStart[0] = s.nanoTime();
                    earliest[0] = chainStart[0] + delay;
                    s.schedule(delay, () -> firedAt.set(s.nanoTime()));
                    due[0] = s.nanoTime() + delay;
                    s.execute(link[0]);
                });
                assertTrue(chainEnded.await(WAIT_SECONDS, TimeUnit.SECONDS), "the chain ended");
                String what = kind + (viaScheduleNow ? ", chain of schedule(0)" : ", chain of execute()");
                assertTrue(firedAt.get() >= 0, what + ": the timer never ran while the chain went on (2 s)");
                assertTrue(firedAt.get() >= earliest[0], what + ": fired " + (earliest[0] - firedAt.get()) + " ns early");
                assertTrue(linksAfterDue.get() <= 1, what + ": " + linksAfterDue.get()
                    + " links of the chain ran after the deadline before the timer (it ran "
                    + (firedAt.get() - due[0]) / 1000 + " us after it)");
            }
        }
    }

    /**
     * A repeating timer on an idle epoll loop, re-armed from its own run as a PFC storm's refresh is:
     * for the storm's 167 us and for 600 us. Each tick's lateness is judged less the time the loop's
     * thread waited for a core meanwhile (Linux's run-queue wait of that thread, {@link RunQueue}):
     * what is left is what the loop and the kernel's timer did, and its median must be under 250 us.
     * Measured on a 2-vCPU VM: 35-110 us late in all, depending on the host (the kernel's wake-up
     * of a sleeping thread there is 32-50 us for a plain {@code parkNanos} without timer slack); at
     * load 30 the loop's thread waits milliseconds for a core, which is the machine, not the loop. A
     * NIO loop's select waits whole milliseconds for a deadline more than half a millisecond away
     * (500-550 us late at 600 us) with its thread asleep, not waiting for a core, which fails it.
     * The median, not the mean: on a shared machine a tick now and then is held up in ways the
     * run-queue wait does not show (the means are in the message). {@code TimerLatenessMain} in
     * the bench module prints the lateness alone.
     */
    @Test
    void anIdleEpollLoopFiresARepeatingTimerWithinTensOfMicrosecondsOfTheCoreItGets() throws Exception {
        assumeTrue(Epoll.isAvailable(), () -> "epoll unavailable: " + Epoll.unavailabilityCause());
        try (RealTimeScheduler s = RealTimeScheduler.start("punctuality-epoll")) {
            assertTrue(s.preciseTimers(), s.toString());
            for (long periodMicros : new long[] {167, 600}) {
                long[][] ticks = repeat(s, TimeUnit.MICROSECONDS.toNanos(periodMicros), 300);
                long[] late = ticks[0];
                long[] own = new long[late.length];
                for (int i = 0; i < late.length; i++) {
                    own[i] = late[i] - ticks[1][i];
                }
                String stats = periodMicros + " us period: late " + summary(late) + "; of it waiting for a core "
                    + summary(ticks[1]) + "; late less that wait " + summary(own);
                assertTrue(Arrays.stream(late).min().orElseThrow() >= 0, stats + ": one fired early");
                assertTrue(median(own) < TimeUnit.MICROSECONDS.toNanos(250), stats);
            }
        }
    }

    /** Where epoll loads, a scheduler started by default is on an epoll loop, unless the property says nio. */
    @Test
    void theDefaultLoopIsEpollWhereItLoadsAndThePropertyForcesNio() {
        String before = System.getProperty(RealTimeScheduler.LOOP_PROPERTY);
        try {
            System.clearProperty(RealTimeScheduler.LOOP_PROPERTY);
            try (RealTimeScheduler s = RealTimeScheduler.start("default-loop")) {
                assertEquals(Epoll.isAvailable(), s.preciseTimers(), s.toString());
                assertEquals(s.preciseTimers() ? RealTimeScheduler.PRECISE_TIMER_SLACK_NANOS
                    : RealTimeScheduler.TIMER_SLACK_NANOS, s.timerSlackNanos());
            }
            System.setProperty(RealTimeScheduler.LOOP_PROPERTY, "nio");
            try (RealTimeScheduler s = RealTimeScheduler.start("forced-nio")) {
                assertFalse(s.preciseTimers(), s.toString());
                assertEquals(RealTimeScheduler.TIMER_SLACK_NANOS, s.timerSlackNanos());
            }
        } finally {
            if (before == null) {
                System.clearProperty(RealTimeScheduler.LOOP_PROPERTY);
            } else {
                System.setProperty(RealTimeScheduler.LOOP_PROPERTY, before);
            }
        }
    }

    /**
     * Runs a timer {@code n} times, each re-armed {@code period} after it ran; returns each one's
     * lateness and, beside it, how long the loop's thread waited for a core since it armed it.
     */
    private static long[][] repeat(RealTimeScheduler s, long period, int n) throws InterruptedException {
        long[] late = new long[n];
        long[] waited = new long[n];
        int[] i = {0};
        long[] due = new long[1];
        long[] waitedBefore = new long[1];
        CountDownLatch done = new CountDownLatch(1);
        Runnable[] tick = new Runnable[1];
        Runnable arm = () -> {
            waitedBefore[0] = RunQueue.ofThisThread().waitedNanos();
            due[0] = s.nanoTime() + period;
            s.schedule(period, tick[0]);
        };
        tick[0] = () -> {
            long now = s.nanoTime();
            waited[i[0]] = RunQueue.ofThisThread().waitedNanos() - waitedBefore[0];
            late[i[0]++] = now - due[0];
            if (i[0] == n) {
                done.countDown();
                return;
            }
            arm.run();
        };
        s.execute(arm);
        assertTrue(done.await(WAIT_SECONDS * 3, TimeUnit.SECONDS), "the timer ran " + n + " times");
        assertEquals(n, i[0]);
        return new long[][] {late, waited};
    }

    private static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static String summary(long[] late) {
        return "median " + median(late) / 1000 + " us, mean "
            + Math.round(Arrays.stream(late).average().orElseThrow() / 1000) + " us, max "
            + Arrays.stream(late).max().orElseThrow() / 1000 + " us";
    }
}
