package io.rocelab.sw.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.sw.OwnerThread;


import org.junit.jupiter.api.Test;

/**
 * The data-path clock: on a real-time scheduler one read serves the rest of the task and is
 * forgotten before the next task; {@code fresh()} reads and renews; on a virtual-time scheduler
 * every call reads the scheduler and nothing is scheduled.
 */
class TaskClockTest {

    @Test
    void realTimeReadsOncePerTaskAndForgetsBeforeTheNext() throws Exception {
        try (RealTimeScheduler rt = RealTimeScheduler.start("task-clock")) {
            TaskClock clock = OwnerThread.call(rt, () -> new TaskClock(rt));
            assertTrue(clock.remembers());
            long[] first = OwnerThread.call(rt, () -> {
                long a = clock.now();
                busy(200_000);
                long b = clock.now();
                return new long[] {a, b, clock.reads()};
            });
            assertEquals(first[0], first[1], "the same task reuses the time it read");
            assertEquals(1, first[2], "one read for the task");
            Thread.sleep(5);
            long[] second = OwnerThread.call(rt, () -> {
                long before = rt.nanoTime();
                long a = clock.now();
                return new long[] {before, a, clock.reads()};
            });
            assertTrue(second[1] >= second[0], "a later task never sees an earlier task's time");
            assertTrue(second[1] - first[0] >= 5_000_000, "the time moved on: " + (second[1] - first[0]));
            assertEquals(2, second[2]);
            long[] renewed = OwnerThread.call(rt, () -> {
                long a = clock.now();
                busy(200_000);
                long f = clock.fresh();
                long b = clock.now();
                return new long[] {a, f, b};
            });
            assertTrue(renewed[1] > renewed[0], "fresh() reads the clock");
            assertEquals(renewed[1], renewed[2], "and the task goes on with what it read");
        }
    }

    @Test
    void virtualTimeReadsTheSchedulerEveryTimeAndSchedulesNothing() {
        VirtualTimeScheduler vt = new VirtualTimeScheduler();
        TaskClock clock = new TaskClock(vt);
        assertFalse(clock.remembers());
        vt.execute(() -> {
            assertEquals(vt.nanoTime(), clock.now());
            clock.fresh();
        });
        vt.scheduleUncancellable(1_000, () -> assertEquals(1_000, clock.now()));
        vt.runUntilIdle();
        assertEquals(2, vt.eventsExecuted(), "no task of its own");
        assertEquals(3, clock.reads());
    }

    private static void busy(long nanos) {
        long until = System.nanoTime() + nanos;
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }

}
