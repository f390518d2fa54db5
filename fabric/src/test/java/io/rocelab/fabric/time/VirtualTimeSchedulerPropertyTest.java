package io.rocelab.fabric.time;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scheduler against a reference model: a plain list sorted by (time, insertion number).
 */
class VirtualTimeSchedulerPropertyTest {

    /** What one event does when it runs: schedule children and cancel earlier events. */
    record Step(List<Integer> childDelays, List<Integer> cancelIndexes) {
    }

    @Provide
    Arbitrary<List<Step>> programs() {
        final Arbitrary<List<Integer>> delays = Arbitraries.integers().between(0, 6).list().ofMaxSize(3);
        final Arbitrary<List<Integer>> cancels = Arbitraries.integers().between(0, 400).list().ofMaxSize(2);
        return Combinators.combine(delays, cancels).as(Step::new).list().ofMinSize(1).ofMaxSize(200);
    }

    /**
     * Runs a random program on the real scheduler, records the (time, id) of each executed event,
     * and checks it against the model: every executed event must be the smallest (time, id) among
     * live events, and cancelled events never run.
     */
    @Property(tries = 300)
    void executesInTimeThenInsertionOrder(@ForAll("programs") List<Step> program,
                                          @ForAll @Size(min = 1, max = 20) List<@IntRange(max = 6) Integer> initialDelays) {
        final VirtualTimeScheduler scheduler = new VirtualTimeScheduler();
        final List<long[]> live = new ArrayList<>(); // model: {time, id}
        final List<Cancellable> handles = new ArrayList<>();
        final List<long[]> executed = new ArrayList<>();
        final int[] steps = {0};

        final class Event implements Runnable {
            final int id;

            Event(int id) {
                this.id = id;
            }

            @Override
            public void run() {
                final long now = scheduler.nanoTime();
                final long[] expected = live.stream()
                    .min(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]))
                    .orElseThrow();
                assertEquals(expected[1], id, "event run out of order at " + now);
                assertEquals(expected[0], now, "clock");
                live.remove(expected);
                executed.add(expected);
                if (steps[0] < program.size()) {
                    final Step step = program.get(steps[0]++);
                    for (int delay : step.childDelays()) {
                        add(delay);
                    }
                    for (int index : step.cancelIndexes()) {
                        if (index < handles.size() && handles.get(index).cancel()) {
                            final long cancelledId = index;
                            live.removeIf(e -> e[1] == cancelledId);
                        }
                    }
                }
            }

            void add(int delay) {
                final int newId = handles.size();
                live.add(new long[] {scheduler.nanoTime() + delay, newId});
                handles.add(scheduler.schedule(delay, new Event(newId)));
            }
        }

        for (int delay : initialDelays) {
            final int id = handles.size();
            live.add(new long[] {delay, id});
            handles.add(scheduler.schedule(delay, new Event(id)));
        }

        scheduler.runUntilIdle();

        assertEquals(List.of(), live, "events left unexecuted");
        assertEquals(executed.size(), scheduler.eventsExecuted());
        for (int i = 1; i < executed.size(); i++) {
            final long[] a = executed.get(i - 1);
            final long[] b = executed.get(i);
            // new events are never before now and get higher ids, so (time, id) strictly increases
            assertTrue(a[0] < b[0] || (a[0] == b[0] && a[1] < b[1]),
                "not in (time, insertion) order: " + a[0] + "/" + a[1] + " then " + b[0] + "/" + b[1]);
        }
    }

    /** runUntil(t) runs exactly the events due at or before t, whatever the split points. */
    @Property(tries = 200)
    void splittingARunAtArbitraryTimesChangesNothing(
        @ForAll @Size(min = 1, max = 100) List<@IntRange(max = 1_000) Integer> delays,
        @ForAll @Size(max = 10) List<@IntRange(max = 1_100) Integer> stops) {
        final List<String> whole = trace(delays, List.of());
        final List<String> split = trace(delays, stops.stream().sorted().toList());
        assertEquals(whole, split);
    }

    private static List<String> trace(List<Integer> delays, List<Integer> stops) {
        final VirtualTimeScheduler scheduler = new VirtualTimeScheduler();
        final List<String> trace = new ArrayList<>();
        for (int i = 0; i < delays.size(); i++) {
            final int id = i;
            scheduler.schedule(delays.get(i), () -> {
                trace.add(id + "@" + scheduler.nanoTime());
                if (id % 3 == 0) {
                    scheduler.schedule(id % 7, () -> trace.add(id + "'@" + scheduler.nanoTime()));
                }
            });
        }
        for (int stop : stops) {
            final long executedBefore = scheduler.eventsExecuted();
            final long ran = scheduler.runUntil(Math.max(stop, scheduler.nanoTime()));
            assertEquals(executedBefore + ran, scheduler.eventsExecuted());
            for (String entry : trace) {
                final long time = Long.parseLong(entry.substring(entry.indexOf('@') + 1));
                if (time > scheduler.nanoTime()) {
                    throw new AssertionError("ran an event after the limit: " + entry);
                }
            }
            if (!scheduler.isIdle() && scheduler.nextEventTime() <= scheduler.nanoTime()) {
                throw new AssertionError("left a due event behind at " + scheduler.nanoTime());
            }
        }
        scheduler.runUntilIdle();
        return trace;
    }
}
