package io.rocelab.fabric.time;

import org.junit.jupiter.api.Test;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The doorbell of a sleeping scheduler, driven in virtual time so that every step is visible. */
class ExecutingDoorbellTest {

    @Test
    void ringsBeforeTheDrainRunsAreMergedIntoOneDrain() {
        final VirtualTimeScheduler s = new VirtualTimeScheduler();
        final AtomicInteger drains = new AtomicInteger();
        final Doorbell bell = s.doorbell(() -> {
            drains.incrementAndGet();
            return 0;
        });
        bell.ring();
        bell.ring();
        bell.ring();
        assertEquals(0, drains.get(), "never inside ring()");
        assertEquals(1, s.pendingEvents(), "one drain for three rings");
        s.runUntilIdle();
        assertEquals(1, drains.get());
    }

    @Test
    void aRingDuringTheDrainGetsADrainOfItsOwn() {
        final VirtualTimeScheduler s = new VirtualTimeScheduler();
        final AtomicInteger drains = new AtomicInteger();
        final Doorbell[] bell = new Doorbell[1];
        bell[0] = s.doorbell(() -> {
            if (drains.incrementAndGet() == 1) {
                bell[0].ring(); // an item queued while the drain runs must not be left behind
            }
            return 1;
        });
        bell[0].ring();
        s.runUntilIdle();
        assertEquals(2, drains.get());
    }

    @Test
    void afterTheOwnerRejectsEveryRingSaysSo() {
        final AtomicInteger executes = new AtomicInteger();
        final Scheduler closed = new Scheduler() {
            @Override
            public long nanoTime() {
                return 0;
            }

            @Override
            public Cancellable schedule(long delayNanos, Runnable task) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void scheduleUncancellable(long delayNanos, Runnable task) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void execute(Runnable task) {
                executes.incrementAndGet();
                throw new RejectedExecutionException("shut down");
            }

            @Override
            public boolean inOwnerThread() {
                return false;
            }
        };
        final Doorbell bell = closed.doorbell(() -> 0);
        assertThrows(RejectedExecutionException.class, bell::ring);
        assertThrows(RejectedExecutionException.class, bell::ring);
        assertEquals(2, executes.get(), "the second ring did not assume a drain was pending");
    }
}
