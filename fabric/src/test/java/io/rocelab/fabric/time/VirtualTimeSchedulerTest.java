package io.rocelab.fabric.time;

import io.rocelab.fabric.random.SplitMix64;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VirtualTimeSchedulerTest {

    private final VirtualTimeScheduler scheduler = new VirtualTimeScheduler();
    private final List<String> trace = new ArrayList<>();

    private Runnable record(String name) {
        return () -> trace.add(name + "@" + scheduler.nanoTime());
    }

    @Test
    void runsEventsInTimeOrderAndSetsTheClockToEachEventsTime() {
        scheduler.schedule(30, record("c"));
        scheduler.schedule(10, record("a"));
        scheduler.schedule(20, record("b"));

        assertEquals(3, scheduler.runUntilIdle());

        assertEquals(List.of("a@10", "b@20", "c@30"), trace);
        assertEquals(30, scheduler.nanoTime());
    }

    @Test
    void eventsDueAtTheSameTimeRunInInsertionOrderWithoutTimeBeingNudged() {
        for (int i = 0; i < 100; i++) {
            scheduler.scheduleUncancellable(i % 2 == 0 ? 5 : 7, record("e" + i));
        }
        scheduler.runUntilIdle();

        final List<String> expected = new ArrayList<>();
        for (int i = 0; i < 100; i += 2) {
            expected.add("e" + i + "@5");
        }
        for (int i = 1; i < 100; i += 2) {
            expected.add("e" + i + "@7");
        }
        assertEquals(expected, trace);
    }

    @Test
    void anEventScheduledWithZeroDelayRunsAfterEverythingAlreadyDueNow() {
        scheduler.schedule(10, () -> {
            trace.add("first@" + scheduler.nanoTime());
            scheduler.execute(record("executed"));
            scheduler.schedule(0, record("zeroDelay"));
        });
        scheduler.schedule(10, record("second"));

        scheduler.runUntilIdle();

        assertEquals(List.of("first@10", "second@10", "executed@10", "zeroDelay@10"), trace);
    }

    @Test
    void aCancelledEventNeverRuns() {
        final Cancellable c = scheduler.schedule(10, record("cancelled"));
        scheduler.schedule(20, record("kept"));

        assertTrue(c.cancel());
        assertFalse(c.cancel(), "second cancel");
        assertEquals(1, scheduler.pendingEvents());
        assertEquals(1, scheduler.runUntilIdle());

        assertEquals(List.of("kept@20"), trace);
        assertEquals(1, scheduler.eventsExecuted());
    }

    @Test
    void cancellingAfterTheEventRanReturnsFalse() {
        final Cancellable c = scheduler.schedule(10, record("ran"));
        scheduler.runUntilIdle();

        assertFalse(c.cancel());
        assertEquals(List.of("ran@10"), trace);
    }

    @Test
    void anEventCanCancelAnotherDueAtTheSameTime() {
        final Cancellable[] victim = new Cancellable[1];
        scheduler.schedule(10, () -> {
            trace.add("killer");
            assertTrue(victim[0].cancel());
        });
        victim[0] = scheduler.schedule(10, record("victim"));

        scheduler.runUntilIdle();

        assertEquals(List.of("killer"), trace);
    }

    @Test
    void manyCancellationsCompactTheQueueWithoutChangingTheOrder() {
        final List<Cancellable> cancelled = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            final Cancellable c = scheduler.schedule(1_000 - i % 1_000, record("e" + i));
            if (i % 10 != 0) {
                cancelled.add(c);
            }
        }
        cancelled.forEach(Cancellable::cancel);
        assertEquals(1_000, scheduler.pendingEvents());

        assertEquals(1_000, scheduler.runUntilIdle());

        // survivors are i = 0, 10, 20, ...; delay 1000 - i % 1000; equal delays in insertion order
        final List<String> expected = new ArrayList<>();
        for (int delay = 1; delay <= 1_000; delay++) {
            for (int i = 0; i < 10_000; i += 10) {
                if (1_000 - i % 1_000 == delay) {
                    expected.add("e" + i + "@" + delay);
                }
            }
        }
        assertEquals(expected, trace);
    }

    @Test
    void runUntilRunsEventsDueAtOrBeforeTheLimitIncludingNewOnesAndThenSetsTheClock() {
        scheduler.schedule(10, () -> {
            trace.add("a@" + scheduler.nanoTime());
            scheduler.schedule(5, record("child")); // due at 15, inside the window
            scheduler.schedule(11, record("late")); // due at 21, outside
        });
        scheduler.schedule(20, record("edge"));

        assertEquals(3, scheduler.runUntil(20));
        assertEquals(List.of("a@10", "child@15", "edge@20"), trace);
        assertEquals(20, scheduler.nanoTime());
        assertEquals(21, scheduler.nextEventTime());

        assertEquals(0, scheduler.runUntil(20), "idempotent at the same time");
        assertEquals(1, scheduler.runUntil(1_000));
        assertEquals(List.of("a@10", "child@15", "edge@20", "late@21"), trace);
        assertEquals(1_000, scheduler.nanoTime());
        assertTrue(scheduler.isIdle());
        assertEquals(Long.MAX_VALUE, scheduler.nextEventTime());
    }

    @Test
    void runUntilWithoutEventsStillAdvancesTheClock() {
        assertEquals(0, scheduler.runUntil(12_345));
        assertEquals(12_345, scheduler.nanoTime());
        scheduler.schedule(5, record("x"));
        scheduler.runUntilIdle();
        assertEquals(List.of("x@12350"), trace);
    }

    @Test
    void timeCannotGoBackwards() {
        scheduler.runUntil(100);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> scheduler.runUntil(99));
        assertTrue(e.getMessage().contains("timeNanos"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> scheduler.schedule(-1, record("x")));
        assertThrows(IllegalArgumentException.class, () -> scheduler.runFor(-1));
    }

    @Test
    void scheduleAtInThePastRunsNowAfterWhatIsAlreadyDue() {
        scheduler.runUntil(100);
        scheduler.execute(record("due"));
        scheduler.scheduleAt(50, record("past"));
        scheduler.scheduleAt(150, record("future"));
        scheduler.runUntilIdle();
        assertEquals(List.of("due@100", "past@100", "future@150"), trace);
    }

    @Test
    void runForAdvancesRelativeToNow() {
        scheduler.runUntil(1_000);
        scheduler.schedule(10, record("a"));
        scheduler.schedule(600, record("b"));

        assertEquals(1, scheduler.runFor(500));
        assertEquals(1_500, scheduler.nanoTime());
        assertEquals(List.of("a@1010"), trace);
    }

    @Test
    void runWithALimitStopsAfterThatManyEvents() {
        for (int i = 1; i <= 5; i++) {
            scheduler.schedule(i, record("e" + i));
        }
        assertEquals(2, scheduler.run(2));
        assertEquals(2, scheduler.nanoTime());
        assertEquals(3, scheduler.pendingEvents());
        assertTrue(scheduler.runNext());
        assertEquals(2, scheduler.run(10));
        assertFalse(scheduler.runNext());
        assertEquals(5, scheduler.eventsExecuted());
    }

    @Test
    void aPeriodicTimerIsBoundedByRunUntil() {
        final Runnable[] tick = new Runnable[1];
        tick[0] = () -> {
            trace.add("t");
            scheduler.scheduleUncancellable(100, tick[0]);
        };
        scheduler.scheduleUncancellable(100, tick[0]);

        scheduler.runUntil(1_000);

        assertEquals(10, trace.size());
    }

    @Test
    void aThrowingTaskPropagatesAndLeavesTheSchedulerUsable() {
        scheduler.schedule(1, () -> {
            throw new IllegalStateException("boom");
        });
        scheduler.schedule(2, record("after"));

        assertThrows(IllegalStateException.class, scheduler::runUntilIdle);
        assertEquals(1, scheduler.nanoTime());
        assertEquals(1, scheduler.eventsExecuted());

        scheduler.runUntilIdle();
        assertEquals(List.of("after@2"), trace);
    }

    @Test
    void runningFromInsideATaskIsRejected() {
        scheduler.schedule(1, () -> scheduler.runUntil(5));
        assertThrows(IllegalStateException.class, scheduler::runUntilIdle);
    }

    @Test
    void theCreatingThreadAndTheRunningThreadOwnTheScheduler() throws Exception {
        assertTrue(scheduler.inOwnerThread());
        final boolean[] seenFromOtherThread = new boolean[1];
        final Thread other = new Thread(() -> seenFromOtherThread[0] = scheduler.inOwnerThread());
        other.start();
        other.join();
        assertFalse(seenFromOtherThread[0]);

        final boolean[] insideTask = new boolean[1];
        scheduler.execute(() -> insideTask[0] = scheduler.inOwnerThread());
        scheduler.runUntilIdle();
        assertTrue(insideTask[0]);
    }

    @Test
    void sameSeedGivesTheSameTraceAndADifferentSeedADifferentOne() {
        final List<String> first = randomWorkload(42);
        final List<String> second = randomWorkload(42);
        final List<String> other = randomWorkload(43);

        assertTrue(first.size() > 1_000, "workload too small: " + first.size());
        assertEquals(first, second);
        assertNotEquals(first, other);
    }

    @Test
    void handlesTenMillionEvents() {
        // 1000 self-rescheduling "flows" keep the heap at 1000 entries
        final long[] count = new long[1];
        final SplitMix64 random = new SplitMix64(7);
        final Runnable[] flow = new Runnable[1];
        flow[0] = () -> {
            count[0]++;
            scheduler.scheduleUncancellable(1 + random.nextInt(1_000), flow[0]);
        };
        for (int i = 0; i < 1_000; i++) {
            scheduler.scheduleUncancellable(i, flow[0]);
        }

        assertEquals(10_000_000, scheduler.run(10_000_000));

        assertEquals(10_000_000, count[0]);
        assertEquals(10_000_000, scheduler.eventsExecuted());
        assertEquals(1_000, scheduler.pendingEvents());
    }

    /**
     * A tree of events with random delays (many of them equal), some cancelling others; the trace
     * records every event's name and time.
     */
    private static List<String> randomWorkload(long seed) {
        final VirtualTimeScheduler s = new VirtualTimeScheduler();
        final SplitMix64 random = new SplitMix64(seed);
        final List<String> trace = new ArrayList<>();
        final List<Cancellable> handles = new ArrayList<>();
        final int[] next = {0};
        final Runnable[] spawn = new Runnable[1];
        spawn[0] = () -> {
            final int id = next[0]++;
            trace.add(id + "@" + s.nanoTime());
            if (id < 3_000) {
                final int children = 1 + random.nextInt(2);
                for (int c = 0; c < children; c++) {
                    handles.add(s.schedule(random.nextInt(20), spawn[0]));
                }
                if (!handles.isEmpty() && random.nextInt(4) == 0) {
                    handles.get(random.nextInt(handles.size())).cancel();
                }
            }
        };
        for (int i = 0; i < 50; i++) {
            s.schedule(random.nextInt(10), spawn[0]);
        }
        s.runUntilIdle();
        trace.add("end@" + s.nanoTime() + " executed=" + s.eventsExecuted());
        return trace;
    }
}
