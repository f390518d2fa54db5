package io.rocelab.fabric.time;

import java.util.Arrays;
import java.util.function.Predicate;

/**
 * The tasks of a scheduler, in the order (time, sequence): a timing wheel for the near future
 * beside a binary heap for the rest.
 *
 * <p>Why a wheel: a fabric's events are almost all due within a few microseconds (a frame's
 * arrival one propagation delay and a serialization time ahead, a transmitter's next start one
 * frame ahead), and with thousands of them pending a heap's log-depth sift touches a cache line per
 * level on every insertion and removal, each one a miss once the devices' own state has pushed the
 * heap out of the caches. The wheel has one slot per nanosecond over {@value #WHEEL_NANOS} ns from
 * the time of the last entry removed: an entry due in that window is appended to its slot's list,
 * and the next one is found through a bitmap of the slots in use, so both cost a few cache lines
 * whatever the number pending. Entries due later (timers, pauses, flow starts), or earlier than the
 * last one removed, go to the heap.
 *
 * <p>Order: the sequence is a unique insertion number, so the order is total. Within a slot (one
 * time) the wheel keeps the insertion order, which is the sequence order as long as sequences are
 * given in increasing order, as the schedulers do; an entry whose sequence is not above every one
 * given before goes to the heap, so the order holds whatever the caller does. {@link #poll} takes
 * the smaller of the wheel's first entry and the heap's by (time, sequence): the same order as one
 * heap of all the entries, so a run is the same event for event.
 *
 * <p>Cost: entries live in a pool of nodes reused through a free list, so steady state allocates
 * nothing; the heap moves only primitives (its keys and node numbers), never task references.
 * Not thread-safe.
 */
final class EventQueue {

    /** log2 of the wheel's span in nanoseconds. */
    private static final int WHEEL_BITS = 13;
    /** The wheel's span: entries due less than this after the wheel's origin go to the wheel. */
    static final int WHEEL_NANOS = 1 << WHEEL_BITS;
    private static final int WHEEL_MASK = WHEEL_NANOS - 1;
    private static final int WORDS = WHEEL_NANOS >>> 6;
    private static final int INITIAL_NODES = 64;
    private static final int NONE = -1;

    // ---- nodes: one per entry, wheel or heap ----
    private Runnable[] tasks = new Runnable[INITIAL_NODES];
    /** Node n's sequence at [2n], the next node of its wheel slot (or the next free node) at [2n + 1]. */
    private long[] links = new long[2 * INITIAL_NODES];
    private int freeNode = NONE;
    private int nodesUsed;

    // ---- the wheel: slot s holds the entries due at the one time t in the window with t & MASK == s ----
    /** Slot s's first node at [2s], its last at [2s + 1], NONE when empty. */
    private final int[] slots = new int[2 * WHEEL_NANOS];
    /** Bit s set: slot s holds an entry. */
    private final long[] occupied = new long[WORDS];
    /**
     * Every wheel entry is due in [origin, origin + WHEEL_NANOS): the latest time of an entry
     * removed (entries are removed in order, so none left is earlier). It never goes back, so an
     * entry in the wheel keeps its place.
     */
    private long origin = Long.MIN_VALUE;
    private int wheelSize;
    /** Time of the wheel's first entry, {@code Long.MAX_VALUE} when the wheel is empty. */
    private long wheelFirst = Long.MAX_VALUE;
    /** The highest sequence given so far: a larger one comes after everything queued at its time. */
    private long lastSequence = Long.MIN_VALUE;

    // ---- the heap: keys (time, sequence) at [2i], [2i + 1], its node at nodes[i] ----
    private long[] keys = new long[2 * INITIAL_NODES];
    private int[] heapNodes = new int[INITIAL_NODES];
    private int heapSize;

    EventQueue() {
        Arrays.fill(slots, NONE);
    }

    int size() {
        return wheelSize + heapSize;
    }

    boolean isEmpty() {
        return wheelSize + heapSize == 0;
    }

    void add(long time, long sequence, Runnable task) {
        final int node = allocate(sequence, task);
        final boolean inOrder = sequence > lastSequence;
        if (inOrder) {
            lastSequence = sequence;
        }
        // unsigned: a time before the origin, or so far after it that the difference overflows, is not in the window
        if (inOrder && time >= origin && Long.compareUnsigned(time - origin, WHEEL_NANOS) < 0) {
            append((int) time & WHEEL_MASK, node);
            wheelSize++;
            if (time < wheelFirst) {
                wheelFirst = time;
            }
        } else {
            heapAdd(time, sequence, node);
        }
    }

    /** Time of the first entry; only valid when not empty. */
    long peekTime() {
        return headInWheel() ? wheelFirst : keys[0];
    }

    /** The first entry's task; only valid when not empty. */
    Runnable peekTask() {
        return tasks[headInWheel() ? slots[2 * ((int) wheelFirst & WHEEL_MASK)] : heapNodes[0]];
    }

    /** Removes the first entry and returns its task; only valid when not empty. */
    Runnable poll() {
        final int node;
        if (headInWheel()) {
            final long time = wheelFirst;
            final int slot = (int) time & WHEEL_MASK;
            node = slots[2 * slot];
            final int next = (int) links[2 * node + 1];
            slots[2 * slot] = next;
            origin = time; // the wheel's first entry: never before the origin
            if (--wheelSize == 0) {
                wheelFirst = Long.MAX_VALUE;
            }
            if (next == NONE) {
                slots[2 * slot + 1] = NONE;
                occupied[slot >>> 6] &= ~(1L << slot);
                if (wheelSize > 0) {
                    wheelFirst = time + distanceToNextSlot(slot);
                }
            }
        } else {
            node = heapNodes[0];
            // no wheel entry is before it; one that went to the heap for being before the origin does not move the origin back
            origin = Math.max(origin, keys[0]);
            heapRemoveFirst();
        }
        final Runnable task = tasks[node];
        release(node);
        return task;
    }

    /** Removes every entry whose task matches, keeping the others' order. */
    int removeIf(Predicate<Runnable> filter) {
        int removed = 0;
        // the wheel, slot by slot: the kept entries stay in their order
        for (int w = 0; w < WORDS; w++) {
            for (long bits = occupied[w]; bits != 0; bits &= bits - 1) {
                final int slot = (w << 6) | Long.numberOfTrailingZeros(bits);
                int kept = NONE;
                int last = NONE;
                for (int n = slots[2 * slot]; n != NONE; ) {
                    final int next = (int) links[2 * n + 1];
                    if (filter.test(tasks[n])) {
                        release(n);
                        removed++;
                        wheelSize--;
                    } else {
                        if (last == NONE) {
                            kept = n;
                        } else {
                            links[2 * last + 1] = n;
                        }
                        links[2 * n + 1] = NONE;
                        last = n;
                    }
                    n = next;
                }
                slots[2 * slot] = kept;
                slots[2 * slot + 1] = last;
                if (kept == NONE) {
                    occupied[w] &= ~(1L << slot);
                }
            }
        }
        wheelFirst = wheelSize == 0 ? Long.MAX_VALUE : origin + distanceToFirstSlotFrom((int) origin & WHEEL_MASK);
        // the heap: compact, then restore it in O(n)
        int kept = 0;
        for (int i = 0; i < heapSize; i++) {
            final int n = heapNodes[i];
            if (filter.test(tasks[n])) {
                release(n);
                removed++;
            } else {
                keys[2 * kept] = keys[2 * i];
                keys[2 * kept + 1] = keys[2 * i + 1];
                heapNodes[kept] = n;
                kept++;
            }
        }
        heapSize = kept;
        for (int i = (heapSize >>> 1) - 1; i >= 0; i--) {
            siftDown(i, keys[2 * i], keys[2 * i + 1], heapNodes[i]);
        }
        return removed;
    }

    void clear() {
        Arrays.fill(tasks, 0, nodesUsed, null);
        nodesUsed = 0;
        freeNode = NONE;
        Arrays.fill(slots, NONE);
        Arrays.fill(occupied, 0L);
        wheelSize = 0;
        wheelFirst = Long.MAX_VALUE;
        heapSize = 0;
    }

    // ---- head ----

    /** Whether the first entry is the wheel's: earlier than the heap's, or at the same time with a smaller sequence. */
    private boolean headInWheel() {
        if (heapSize == 0) {
            return true;
        }
        final long heapTime = keys[0];
        if (wheelFirst != heapTime) {
            return wheelFirst < heapTime;
        }
        // the same time in both (rare: an entry queued before its time came within the window)
        return wheelSize > 0 && links[2 * slots[2 * ((int) wheelFirst & WHEEL_MASK)]] < keys[1];
    }

    // ---- the wheel ----

    private void append(int slot, int node) {
        final int tail = slots[2 * slot + 1];
        if (tail == NONE) {
            slots[2 * slot] = node;
            occupied[slot >>> 6] |= 1L << slot;
        } else {
            links[2 * tail + 1] = node;
        }
        slots[2 * slot + 1] = node;
    }

    /**
     * @return how far after {@code slot} (1 to WHEEL_NANOS - 1 slots, going round) the next slot in
     *         use is; only valid when one other than {@code slot} is
     */
    private int distanceToNextSlot(int slot) {
        return 1 + distanceToFirstSlotFrom((slot + 1) & WHEEL_MASK);
    }

    /** @return how far after {@code from} (0 to WHEEL_NANOS - 1, going round) the first slot in use is */
    private int distanceToFirstSlotFrom(int from) {
        int w = from >>> 6;
        long bits = occupied[w] & (-1L << from);
        int scanned = 0;
        while (bits == 0) {
            w = (w + 1) & (WORDS - 1);
            bits = occupied[w];
            if (++scanned > WORDS) {
                throw new IllegalStateException("wheel holds " + wheelSize + " entries but no slot is in use");
            }
        }
        final int slot = (w << 6) | Long.numberOfTrailingZeros(bits);
        return (slot - from) & WHEEL_MASK;
    }

    // ---- nodes ----

    private int allocate(long sequence, Runnable task) {
        int node = freeNode;
        if (node != NONE) {
            freeNode = (int) links[2 * node + 1];
        } else {
            if (nodesUsed == tasks.length) {
                tasks = Arrays.copyOf(tasks, nodesUsed << 1);
                links = Arrays.copyOf(links, 4 * nodesUsed);
            }
            node = nodesUsed++;
        }
        tasks[node] = task;
        links[2 * node] = sequence;
        links[2 * node + 1] = NONE;
        return node;
    }

    private void release(int node) {
        tasks[node] = null;
        links[2 * node + 1] = freeNode;
        freeNode = node;
    }

    // ---- the heap ----

    private void heapAdd(long time, long sequence, int node) {
        if (heapSize == heapNodes.length) {
            heapNodes = Arrays.copyOf(heapNodes, heapSize << 1);
            keys = Arrays.copyOf(keys, 4 * heapSize);
        }
        siftUp(heapSize++, time, sequence, node);
    }

    private void heapRemoveFirst() {
        final int last = --heapSize;
        if (last > 0) {
            siftDown(0, keys[2 * last], keys[2 * last + 1], heapNodes[last]);
        }
    }

    private static boolean before(long time, long sequence, long otherTime, long otherSequence) {
        return time < otherTime || (time == otherTime && sequence < otherSequence);
    }

    private void siftUp(int index, long time, long sequence, int node) {
        int i = index;
        while (i > 0) {
            final int parent = (i - 1) >>> 1;
            final long parentTime = keys[2 * parent];
            final long parentSequence = keys[2 * parent + 1];
            if (!before(time, sequence, parentTime, parentSequence)) {
                break;
            }
            set(i, parentTime, parentSequence, heapNodes[parent]);
            i = parent;
        }
        set(i, time, sequence, node);
    }

    private void siftDown(int index, long time, long sequence, int node) {
        int i = index;
        final int half = heapSize >>> 1;
        while (i < half) {
            int child = (i << 1) + 1;
            long childTime = keys[2 * child];
            long childSequence = keys[2 * child + 1];
            final int right = child + 1;
            if (right < heapSize) {
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
            set(i, childTime, childSequence, heapNodes[child]);
            i = child;
        }
        set(i, time, sequence, node);
    }

    private void set(int i, long time, long sequence, int node) {
        keys[2 * i] = time;
        keys[2 * i + 1] = sequence;
        heapNodes[i] = node;
    }
}
