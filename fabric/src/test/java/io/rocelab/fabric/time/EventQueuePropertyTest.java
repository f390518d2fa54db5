package io.rocelab.fabric.time;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The event queue (a timing wheel beside a heap) against a reference model: a plain list, whose
 * smallest (time, sequence) must be what the queue gives first, whatever mix of near and far
 * times, equal times, removals and out-of-order sequences comes in.
 */
class EventQueuePropertyTest {

    /** One operation: add at {@code delta} after the last time taken (or before it, if negative), poll, or remove a subset. */
    record Op(int kind, long delta, int pick) {
    }

    /** A task that knows its model entry. */
    record Task(long time, long sequence) implements Runnable {
        @Override
        public void run() {
        }
    }

    @Provide
    Arbitrary<List<Op>> programs() {
        Arbitrary<Long> deltas = Arbitraries.oneOf(
            Arbitraries.longs().between(0, 40),                                    // the same few nanoseconds
            Arbitraries.longs().between(0, 3 * EventQueue.WHEEL_NANOS),            // either side of the window's end
            Arbitraries.longs().between(EventQueue.WHEEL_NANOS - 3, EventQueue.WHEEL_NANOS + 3),
            Arbitraries.longs().between(-50, -1),                                  // before the last one taken
            Arbitraries.longs().between(1_000_000, 1_000_000_000),                 // far timers
            Arbitraries.just(Long.MAX_VALUE));                                     // "never" (a saturated deadline)
        Arbitrary<Op> op = Combinators.combine(Arbitraries.integers().between(0, 9), deltas,
            Arbitraries.integers().between(0, 1 << 16)).as(Op::new);
        return op.list().ofMinSize(1).ofMaxSize(300);
    }

    @Property(tries = 300)
    void givesTheSmallestTimeThenSequence(@ForAll("programs") List<Op> program) {
        EventQueue q = new EventQueue();
        List<Task> model = new ArrayList<>();
        long last = 1_000;
        long sequence = 0;
        long oldSequence = 0;
        for (Op op : program) {
            if (op.kind() <= 5) {
                long time = op.delta() == Long.MAX_VALUE ? Long.MAX_VALUE : last + op.delta();
                // mostly increasing sequences, as the schedulers give them; now and then an old one
                long s = op.pick() % 17 == 0 ? --oldSequence : ++sequence;
                Task t = new Task(time, s);
                q.add(time, s, t);
                model.add(t);
            } else if (op.kind() <= 8) {
                if (model.isEmpty()) {
                    assertTrue(q.isEmpty());
                    continue;
                }
                Task expected = model.stream().min(Comparator.comparingLong(Task::time)
                    .thenComparingLong(Task::sequence)).orElseThrow();
                assertEquals(expected.time(), q.peekTime());
                assertSame(expected, q.peekTask());
                assertSame(expected, q.poll());
                model.remove(expected);
                if (expected.time() != Long.MAX_VALUE) {
                    last = expected.time();
                }
            } else {
                int mod = 2 + op.pick() % 5;
                int removed = q.removeIf(r -> ((Task) r).sequence() % mod == 0);
                int before = model.size();
                model.removeIf(t -> t.sequence() % mod == 0);
                assertEquals(before - model.size(), removed);
            }
            assertEquals(model.size(), q.size());
        }
        // drain: the rest in order
        model.sort(Comparator.comparingLong(Task::time).thenComparingLong(Task::sequence));
        for (Task t : model) {
            assertSame(t, q.poll());
        }
        assertTrue(q.isEmpty());
    }

    @Property(tries = 50)
    void clearEmptiesAndTheQueueIsReusable(@ForAll("programs") List<Op> program) {
        EventQueue q = new EventQueue();
        long s = 0;
        for (Op op : program) {
            q.add(Math.max(0, op.delta()), s++, () -> { });
        }
        q.clear();
        assertTrue(q.isEmpty());
        assertEquals(0, q.size());
        Task a = new Task(5, s + 1);
        Task b = new Task(5, s + 2);
        Task c = new Task(3, s + 3);
        q.add(5, s + 1, a);
        q.add(5, s + 2, b);
        q.add(3, s + 3, c);
        assertSame(c, q.poll());
        assertSame(a, q.poll());
        assertSame(b, q.poll());
        assertTrue(q.isEmpty());
    }
}
