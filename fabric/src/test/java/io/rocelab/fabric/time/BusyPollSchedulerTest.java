package io.rocelab.fabric.time;

import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The busy-poll runtime keeps the {@link Scheduler} contract of the sleeping one: one owner thread,
 * timers in deadline order with ties in scheduling order, nothing run inside the call that
 * scheduled it, and every item handed over through a doorbell drained. Real time: only lower bounds
 * on delays are checked and every wait is bounded and generous. The yielding idle strategy keeps
 * the test polite on a small machine.
 */
class BusyPollSchedulerTest {

    private static final long WAIT_SECONDS = 10;
    private BusyPollScheduler scheduler;

    @BeforeEach
    void start() {
        scheduler = BusyPollScheduler.start("bps-test", new YieldingIdleStrategy());
    }

    @AfterEach
    void stop() {
        scheduler.close();
    }

    /** Runs {@code action} on the owner thread and waits for it. */
    private void onOwner(Runnable action) throws InterruptedException {
        final CountDownLatch done = new CountDownLatch(1);
        scheduler.execute(() -> {
            try {
                action.run();
            } finally {
                done.countDown();
            }
        });
        assertTrue(done.await(WAIT_SECONDS, TimeUnit.SECONDS), "owner task did not run");
    }

    @Test
    void tasksAndTimersRunOnTheOwnerThread() throws Exception {
        assertFalse(scheduler.inOwnerThread());
        final AtomicReference<String> executedOn = new AtomicReference<>();
        final AtomicReference<String> timerOn = new AtomicReference<>();
        final AtomicBoolean ownerInside = new AtomicBoolean();
        final CountDownLatch done = new CountDownLatch(2);
        scheduler.execute(() -> {
            executedOn.set(Thread.currentThread().getName());
            ownerInside.set(scheduler.inOwnerThread());
            done.countDown();
        });
        scheduler.schedule(1_000, () -> {
            timerOn.set(Thread.currentThread().getName());
            done.countDown();
        });
        assertTrue(done.await(WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals("bps-test", executedOn.get());
        assertEquals("bps-test", timerOn.get());
        assertTrue(ownerInside.get());
    }

    @Test
    void timersRunInDeadlineOrderAndTiesInSchedulingOrder() throws Exception {
        final List<String> order = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch done = new CountDownLatch(6);
        final AtomicLong base = new AtomicLong();
        onOwner(() -> {
            // scheduled in one task, so every deadline is measured from nearly the same instant
            final long now = scheduler.nanoTime();
            base.set(now);
            final long ms = 1_000_000L;
            for (String[] t : new String[][] {{"30a", "30"}, {"10", "10"}, {"30b", "30"}, {"20", "20"}, {"0", "0"}}) {
                final long at = now + Long.parseLong(t[1]) * ms;
                scheduler.scheduleAt(at, () -> {
                    order.add(t[0]);
                    assertTrue(scheduler.nanoTime() >= at, "ran early: " + t[0]);
                    done.countDown();
                });
            }
            scheduler.schedule(30 * ms, () -> {
                order.add("30c");
                done.countDown();
            });
        });
        assertTrue(done.await(WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(List.of("0", "10", "20", "30a", "30b", "30c"), order);
    }

    @Test
    void aDelayIsNeverCutShort() throws Exception {
        final AtomicLong ranAt = new AtomicLong();
        final CountDownLatch done = new CountDownLatch(1);
        final long start = scheduler.nanoTime();
        scheduler.schedule(5_000_000, () -> {
            ranAt.set(scheduler.nanoTime());
            done.countDown();
        });
        assertTrue(done.await(WAIT_SECONDS, TimeUnit.SECONDS));
        assertTrue(ranAt.get() - start >= 5_000_000, "ran after " + (ranAt.get() - start) + " ns");
    }

    @Test
    void aTaskExecutedByTheOwnerRunsAfterTheCurrentOneNotInsideIt() throws Exception {
        final List<String> order = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch done = new CountDownLatch(1);
        scheduler.execute(() -> {
            scheduler.execute(() -> {
                order.add("inner");
                done.countDown();
            });
            order.add("outer end");
        });
        assertTrue(done.await(WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(List.of("outer end", "inner"), order);
    }

    @Test
    void aCancelledTimerDoesNotRunAndCancelTellsWhetherItStoppedIt() throws Exception {
        final AtomicInteger ran = new AtomicInteger();
        final AtomicBoolean firstCancel = new AtomicBoolean();
        final AtomicBoolean secondCancel = new AtomicBoolean(true);
        // scheduled and cancelled inside one owner task: the timer cannot run in between, however slow
        // the machine, and it is due (1 ns) by the time the task ends
        onOwner(() -> {
            final Cancellable c = scheduler.schedule(1, ran::incrementAndGet);
            firstCancel.set(c.cancel());
            secondCancel.set(c.cancel());
        });
        final CountDownLatch later = new CountDownLatch(1);
        scheduler.schedule(5_000_000, later::countDown);
        assertTrue(later.await(WAIT_SECONDS, TimeUnit.SECONDS));
        assertTrue(firstCancel.get(), "the first cancel stopped it");
        assertFalse(secondCancel.get(), "a second cancel stops nothing");
        assertEquals(0, ran.get());

        final CountDownLatch fired = new CountDownLatch(1);
        final Cancellable done = scheduler.schedule(0, fired::countDown);
        assertTrue(fired.await(WAIT_SECONDS, TimeUnit.SECONDS));
        assertFalse(done.cancel(), "a timer that ran cannot be cancelled");
    }

    @Test
    void manyCancelledTimersAreCompactedAndTheLiveOnesStillRun() throws Exception {
        final AtomicInteger ran = new AtomicInteger();
        final CountDownLatch done = new CountDownLatch(1);
        onOwner(() -> {
            for (int i = 0; i < 5_000; i++) {
                final Cancellable c = scheduler.schedule(3_600_000_000_000L, ran::incrementAndGet);
                if (i % 100 != 0) {
                    c.cancel();
                }
            }
            scheduler.schedule(1_000, done::countDown);
        });
        assertTrue(done.await(WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(0, ran.get());
    }

    @Test
    void aDrainSeesEveryItemHandedOverByManyProducersInEachProducersOrder() throws Exception {
        final ConcurrentLinkedQueue<long[]> queue = new ConcurrentLinkedQueue<>();
        final long[] lastSeen = new long[4];
        java.util.Arrays.fill(lastSeen, -1);
        final AtomicLong taken = new AtomicLong();
        final AtomicBoolean outOfOrder = new AtomicBoolean();
        final AtomicBoolean offOwner = new AtomicBoolean();
        final Doorbell bell = scheduler.doorbell(() -> {
            int n = 0;
            for (long[] item; (item = queue.poll()) != null; n++) {
                if (!scheduler.inOwnerThread()) {
                    offOwner.set(true);
                }
                if (item[1] != lastSeen[(int) item[0]] + 1) {
                    outOfOrder.set(true);
                }
                lastSeen[(int) item[0]] = item[1];
                taken.incrementAndGet();
            }
            return n;
        });
        final int perProducer = 20_000;
        final Thread[] producers = new Thread[4];
        for (int p = 0; p < producers.length; p++) {
            final int id = p;
            producers[p] = new Thread(() -> {
                for (int i = 0; i < perProducer; i++) {
                    queue.add(new long[] {id, i});
                    bell.ring();
                }
            });
            producers[p].start();
        }
        for (Thread t : producers) {
            t.join();
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (taken.get() < 4L * perProducer && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(4L * perProducer, taken.get());
        assertFalse(outOfOrder.get(), "a producer's items came out of order");
        assertFalse(offOwner.get(), "drained off the owner thread");
    }

    @Test
    void aTaskThatThrowsDoesNotStopTheLoop() throws Exception {
        final CountDownLatch after = new CountDownLatch(1);
        scheduler.execute(() -> {
            throw new IllegalStateException("expected by the test");
        });
        scheduler.execute(after::countDown);
        assertTrue(after.await(WAIT_SECONDS, TimeUnit.SECONDS));
    }

    @Test
    void closeRunsWhatWasHandedOverThenRejectsMore() throws Exception {
        final AtomicInteger ran = new AtomicInteger();
        final CountDownLatch gate = new CountDownLatch(1);
        scheduler.execute(() -> {
            try {
                gate.await(WAIT_SECONDS, TimeUnit.SECONDS); // hold the loop while more is queued
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        for (int i = 0; i < 100; i++) {
            scheduler.execute(ran::incrementAndGet);
        }
        final Doorbell bell = scheduler.doorbell(() -> 0);
        final Thread closer = new Thread(scheduler::close);
        closer.start();
        gate.countDown();
        closer.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        assertFalse(closer.isAlive(), "close did not return");
        assertEquals(100, ran.get(), "tasks queued before close ran");
        assertThrows(RejectedExecutionException.class, () -> scheduler.execute(() -> { }));
        assertThrows(RejectedExecutionException.class, bell::ring);
    }

    @Test
    void idleStrategiesByName() {
        assertTrue(BusyPollScheduler.idleStrategy("spin") instanceof org.agrona.concurrent.BusySpinIdleStrategy);
        assertTrue(BusyPollScheduler.idleStrategy("yield") instanceof YieldingIdleStrategy);
        assertTrue(BusyPollScheduler.idleStrategy("backoff") instanceof org.agrona.concurrent.BackoffIdleStrategy);
        assertThrows(IllegalArgumentException.class, () -> BusyPollScheduler.idleStrategy("sleep"));
    }
}
