package io.rocelab.fabric.time;

import java.util.Arrays;

/**
 * A binary min-heap of tasks keyed by (time, sequence), kept in parallel primitive arrays.
 *
 * <p>The keys live in one {@code long[]}, time and sequence side by side, so that sifting compares
 * primitives on one cache line without touching the task objects. The sequence is a unique insertion number, so the order is total: two tasks due at the
 * same time come out in the order they went in, and any valid heap of the same entries yields the
 * same order (which is what makes {@link #removeIf} followed by a rebuild deterministic).
 * Not thread-safe.
 */
final class EventQueue {

    private static final int INITIAL_CAPACITY = 64;

    /** Entry i's time at [2i], its sequence at [2i + 1]: one cache line holds both. */
    private long[] keys = new long[2 * INITIAL_CAPACITY];
    private Runnable[] tasks = new Runnable[INITIAL_CAPACITY];
    private int size;

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    void add(long time, long sequence, Runnable task) {
        if (size == tasks.length) {
            grow();
        }
        siftUp(size++, time, sequence, task);
    }

    /** Time of the first entry; only valid when not empty. */
    long peekTime() {
        return keys[0];
    }

    /** The first entry's task; only valid when not empty. */
    Runnable peekTask() {
        return tasks[0];
    }

    /** Removes the first entry and returns its task; only valid when not empty. */
    Runnable poll() {
        final Runnable head = tasks[0];
        final int last = --size;
        final long time = keys[2 * last];
        final long sequence = keys[2 * last + 1];
        final Runnable task = tasks[last];
        tasks[last] = null;
        if (last > 0) {
            siftDown(0, time, sequence, task);
        }
        return head;
    }

    /** Removes every entry whose task matches, then restores the heap in O(n). */
    int removeIf(java.util.function.Predicate<Runnable> filter) {
        int kept = 0;
        for (int i = 0; i < size; i++) {
            if (!filter.test(tasks[i])) {
                keys[2 * kept] = keys[2 * i];
                keys[2 * kept + 1] = keys[2 * i + 1];
                tasks[kept] = tasks[i];
                kept++;
            }
        }
        final int removed = size - kept;
        Arrays.fill(tasks, kept, size, null);
        size = kept;
        for (int i = (size >>> 1) - 1; i >= 0; i--) {
            siftDown(i, keys[2 * i], keys[2 * i + 1], tasks[i]);
        }
        return removed;
    }

    void clear() {
        Arrays.fill(tasks, 0, size, null);
        size = 0;
    }

    private static boolean before(long time, long sequence, long otherTime, long otherSequence) {
        return time < otherTime || (time == otherTime && sequence < otherSequence);
    }

    private void siftUp(int index, long time, long sequence, Runnable task) {
        int i = index;
        while (i > 0) {
            final int parent = (i - 1) >>> 1;
            final long parentTime = keys[2 * parent];
            final long parentSequence = keys[2 * parent + 1];
            if (!before(time, sequence, parentTime, parentSequence)) {
                break;
            }
            set(i, parentTime, parentSequence, tasks[parent]);
            i = parent;
        }
        set(i, time, sequence, task);
    }

    private void siftDown(int index, long time, long sequence, Runnable task) {
        int i = index;
        final int half = size >>> 1;
        while (i < half) {
            int child = (i << 1) + 1;
            long childTime = keys[2 * child];
            long childSequence = keys[2 * child + 1];
            final int right = child + 1;
            if (right < size) {
                final long rightTime = keys[2 * right];
                final long rightSequence = keys[2 * right + 1];
                if (before(rightTime, rightSequence, childTime, childSequence)) {
                    child = right;
                    childTime = rightTime;
                    childSequence = rightSequence;
                }
            }
            if (!before(childTime, childSequence, time, sequence)) {
                break;
            }
            set(i, childTime, childSequence, tasks[child]);
            i = child;
        }
        set(i, time, sequence, task);
    }

    private void set(int i, long time, long sequence, Runnable task) {
        keys[2 * i] = time;
        keys[2 * i + 1] = sequence;
        tasks[i] = task;
    }

    private void grow() {
        final int capacity = tasks.length << 1;
        keys = Arrays.copyOf(keys, 2 * capacity);
        tasks = Arrays.copyOf(tasks, capacity);
    }
}
