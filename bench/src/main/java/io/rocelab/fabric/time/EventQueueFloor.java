package io.rocelab.fabric.time;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * The scheduler's {@link EventQueue} (a timing wheel beside a heap) against the binary heap it
 * replaced ({@link BinaryHeap}, kept here as the reference), on the fat tree's mix of delays: each
 * event, when taken, puts itself back with a delay drawn as the fabric's are (a transmitter's next
 * start, a frame's arrival one microsecond and a serialization time ahead, a few at once, a few
 * timers tens of microseconds ahead), with as many pending as the fat tree keeps (k=8: ~800,
 * k=16: ~3,600 to ~23,000). Optionally each event also reads {@code bench.touch} random cache lines
 * of a 256 MiB array, as the devices' state does between two events of a large fabric, so that the
 * queue has to find its own lines in the caches again. Prints ns of CPU per event and the ratio.
 *
 * <p>In the bench module's jar beside the fabric's classes, in their package, to reach the
 * package-private queue.
 * <pre>
 * java -cp bench/target/benchmarks.jar io.rocelab.fabric.time.EventQueueFloor
 * </pre>
 */
public final class EventQueueFloor {
    private static final int[] PENDING = {800, 3_600, 23_000};
    private static final long EVENTS = 5_000_000;

    private EventQueueFloor() {
    }

    /** What both queues offer the driver. */
    private interface Queue {
        void add(long time, long sequence, Runnable task);

        long peekTime();

        Runnable poll();
    }

    public static void main(String[] args) {
        int touch = Integer.getInteger("bench.touch", 8);
        long[] state = new long[32 << 20]; // 256 MiB
        System.out.printf(Locale.ROOT, "EventQueueFloor: %d events per run, the fat tree's delays; columns: "
            + "pending, cache lines touched per event, ns of CPU per event (binary heap, wheel + heap), ratio%n", EVENTS);
        for (int round = 0; round < 2; round++) {
            for (int pending : PENDING) {
                for (int lines : new int[] {0, touch}) {
                    double heap = run(new BinaryHeap(), pending, lines, state);
                    double wheel = run(new Wheel(), pending, lines, state);
                    if (round > 0) {
                        System.out.printf(Locale.ROOT, "%6d pending, %2d lines: heap %6.1f ns, wheel %6.1f ns, "
                            + "wheel/heap %.2f%n", pending, lines, heap, wheel, wheel / heap);
                    }
                }
            }
        }
    }

    /** @return ns of this thread's CPU per event */
    private static double run(Queue q, int pending, int lines, long[] state) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long seed = 0x5EED;
        long[] sequence = {0};
        long now = 0;
        Runnable task = () -> { };
        for (int i = 0; i < pending; i++) {
            seed = next(seed);
            q.add(now + delay(seed), sequence[0]++, task);
        }
        long sink = 0;
        long cpu0 = mx.getCurrentThreadCpuTime();
        for (long e = 0; e < EVENTS; e++) {
            now = q.peekTime();
            Runnable r = q.poll();
            seed = next(seed);
            q.add(now + delay(seed), sequence[0]++, r);
            long s = seed;
            for (int l = 0; l < lines; l++) {
                s = next(s);
                sink += state[(int) ((s >>> 8) & (state.length - 1)) & ~7];
            }
        }
        long cpu = mx.getCurrentThreadCpuTime() - cpu0;
        if (sink == 42) {
            System.out.print("");
        }
        return (double) cpu / EVENTS;
    }

    /**
     * A delay as the fat tree's events have them (its histogram at k=4): 5 % at once or within a
     * few ns, 30 % a transmitter's next start (64-700 ns), 60 % a frame's arrival (1-2 us), 5 % a
     * timer (10-100 us).
     */
    private static long delay(long r) {
        int pick = (int) ((r >>> 33) % 100);
        long v = (r & 0xFFFF_FFFFL);
        if (pick < 5) {
            return v % 40;
        } else if (pick < 35) {
            return 64 + v % 640;
        } else if (pick < 95) {
            return 1_000 + v % 1_000;
        }
        return 10_000 + v % 90_000;
    }

    private static long next(long x) {
        long z = x + 0x9E37_79B9_7F4A_7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }

    /** The queue the schedulers use. */
    private static final class Wheel implements Queue {
        private final EventQueue q = new EventQueue();

        @Override
        public void add(long time, long sequence, Runnable task) {
            q.add(time, sequence, task);
        }

        @Override
        public long peekTime() {
            return q.peekTime();
        }

        @Override
        public Runnable poll() {
            return q.poll();
        }
    }

    /**
     * The binary min-heap over (time, sequence) the schedulers used before the wheel: keys in one
     * {@code long[]}, the tasks in a parallel array moved with them.
     */
    static final class BinaryHeap implements Queue {
        private long[] keys = new long[128];
        private Runnable[] tasks = new Runnable[64];
        private int size;

        @Override
        public void add(long time, long sequence, Runnable task) {
            if (size == tasks.length) {
                keys = Arrays.copyOf(keys, 4 * size);
                tasks = Arrays.copyOf(tasks, 2 * size);
            }
            int i = size++;
            while (i > 0) {
                int parent = (i - 1) >>> 1;
                long pt = keys[2 * parent];
                long ps = keys[2 * parent + 1];
                if (!before(time, sequence, pt, ps)) {
                    break;
                }
                set(i, pt, ps, tasks[parent]);
                i = parent;
            }
            set(i, time, sequence, task);
        }

        @Override
        public long peekTime() {
            return keys[0];
        }

        @Override
        public Runnable poll() {
            Runnable head = tasks[0];
            int last = --size;
            long time = keys[2 * last];
            long sequence = keys[2 * last + 1];
            Runnable task = tasks[last];
            tasks[last] = null;
            if (last > 0) {
                int i = 0;
                int half = size >>> 1;
                while (i < half) {
                    int child = 2 * i + 1;
                    long ct = keys[2 * child];
                    long cs = keys[2 * child + 1];
                    int right = child + 1;
                    if (right < size && before(keys[2 * right], keys[2 * right + 1], ct, cs)) {
                        child = right;
                        ct = keys[2 * right];
                        cs = keys[2 * right + 1];
                    }
                    if (!before(ct, cs, time, sequence)) {
                        break;
                    }
                    set(i, ct, cs, tasks[child]);
                    i = child;
                }
                set(i, time, sequence, task);
            }
            return head;
        }

        private static boolean before(long t, long s, long ot, long os) {
            return t < ot || (t == ot && s < os);
        }

        private void set(int i, long time, long sequence, Runnable task) {
            keys[2 * i] = time;
            keys[2 * i + 1] = sequence;
            tasks[i] = task;
        }
    }
}
