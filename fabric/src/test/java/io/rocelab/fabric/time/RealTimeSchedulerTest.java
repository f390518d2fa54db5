package io.rocelab.fabric.time;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real time: only lower bounds on delays are checked, and every wait is bounded and generous, so
 * a slow machine makes the test slower, not red.
 */
class RealTimeSchedulerTest {

    private static final long WAIT_SECONDS = 10;
    private static RealTimeScheduler scheduler;

    @BeforeAll
    static void start() {
        scheduler = RealTimeScheduler.start("rts-test");
    }

    @AfterAll
    static void stop() {
        scheduler.close();
    }

    @Test
    void tasksRunOnTheLoopThread() throws Exception {
        assertFalse(scheduler.inOwnerThread(), "the test thread is not the owner");
        final AtomicReference<Thread> executedOn = new AtomicReference<>();
        final AtomicReference<Thread> scheduledOn = new AtomicReference<>();
        final AtomicBoolean ownerInside = new AtomicBoolean();
        final CountDownLatch done = new CountDownLatch(2);

        scheduler.execute(() -> {
            executedOn.set(Thread.currentThread());
            ownerInside.set(scheduler.inOwnerThread());
            done.countDown();
        });
        scheduler.schedule(1_000, () -> {
            scheduledOn.set(Thread.currentThread());
            done.countDown();
        });

        assertTrue(done.await(WAIT_SECONDS, TimeUnit.SECONDS));
        assertTrue(executedOn.get().getName().startsWith("rts-test"), executedOn.get().getName());
        assertEquals(executedOn.get(), scheduledOn.get());
        assertTrue(ownerInside.get());
    }

    @Test
    void aScheduledTaskFiresNoEarlierThanItsDelay() throws Exception {
        final long delay = TimeUnit.MILLISECONDS.toNanos(20);
        final List<Long> lateness = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch done = new CountDownLatch(3);
        for (int i = 0; i < 3; i++) {
            final long start = scheduler.nanoTime();
            final long thisDelay = delay * (i + 1);
            scheduler.schedule(thisDelay, () -> {
                lateness.add(scheduler.nanoTime() - start - thisDelay);
                done.countDown();
            });
            final long startUncancellable = scheduler.nanoTime();
            scheduler.scheduleUncancellable(thisDelay, () ->
                lateness.add(scheduler.nanoTime() - startUncancellable - thisDelay));
        }

        assertTrue(done.await(WAIT_SECONDS, TimeUnit.SECONDS));
        // the uncancellable ones were due at the same times; let them finish
        final CountDownLatch drained = new CountDownLatch(1);
        scheduler.schedule(delay, drained::countDown);
        assertTrue(drained.await(WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(6, lateness.size());
        for (long late : lateness) {
            assertTrue(late >= 0, "fired " + (-late) + " ns early");
        }
    }

    @Test
    void aCancelledTaskDoesNotRun() throws Exception {
        final AtomicBoolean ran = new AtomicBoolean();
        final Cancellable c = scheduler.schedule(TimeUnit.MILLISECONDS.toNanos(30), () -> ran.set(true));
        assertTrue(c.cancel());

        final CountDownLatch later = new CountDownLatch(1);
        scheduler.schedule(TimeUnit.MILLISECONDS.toNanos(60), later::countDown);
        assertTrue(later.await(WAIT_SECONDS, TimeUnit.SECONDS));
        assertFalse(ran.get());
        assertFalse(c.cancel());
    }

    @Test
    void theClockIsMonotonicAndSharedBetweenSchedulers() throws Exception {
        try (RealTimeScheduler other = RealTimeScheduler.start("rts-other")) {
            final long a = scheduler.nanoTime();
            final long b = other.nanoTime();
            final long c = scheduler.nanoTime();
            assertTrue(a <= b && b <= c, a + " " + b + " " + c);

            final AtomicLong seen = new AtomicLong();
            final CountDownLatch done = new CountDownLatch(1);
            other.execute(() -> {
                seen.set(other.nanoTime());
                done.countDown();
            });
            assertTrue(done.await(WAIT_SECONDS, TimeUnit.SECONDS));
            assertTrue(seen.get() >= c);
        }
    }

    @Test
    void rejectsNegativeDelays() {
        assertThrows(IllegalArgumentException.class, () -> scheduler.schedule(-1, () -> { }));
        assertThrows(IllegalArgumentException.class, () -> scheduler.scheduleUncancellable(-1, () -> { }));
    }
}
