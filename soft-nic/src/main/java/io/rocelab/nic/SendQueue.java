package io.rocelab.nic;

import java.util.Arrays;

/**
 * A QP's posted, not yet completed send WQEs, oldest first: a growable ring with indexed access.
 *
 * <p>Why not a list: completions take WQEs off the head (one per message), which an array list
 * pays for by shifting everything behind it; the requester and completer index from the head (the
 * next WQE to send, a rewind for go-back-N) as rxe indexes its send queue ring. Also counts the
 * READ and ATOMIC WQEs it holds, and owns the cursor of the next WQE to transmit (the requester
 * moves it; a completion taking the oldest WQE off keeps it on the same WQE), so that the requester's check of outstanding READ/ATOMICs (IBA
 * 9.5, o9-17) costs nothing when there are none. Owner thread only.
 */
final class SendQueue {
    private SendWqe[] ring = new SendWqe[16];
    private int head;
    private int size;
    private int readOrAtomic;
    /** The next WQE to transmit, counted from the oldest: the requester's cursor, kept here. */
    private int next;

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** The {@code i}-th WQE from the oldest. */
    SendWqe get(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("index " + i + ", size " + size);
        }
        return ring[(head + i) & (ring.length - 1)];
    }

    void add(SendWqe w) {
        if (size == ring.length) {
            grow();
        }
        ring[(head + size) & (ring.length - 1)] = w;
        size++;
        if (w.opcode.isReadOrAtomic()) {
            readOrAtomic++;
        }
    }

    /** Index of the next WQE to transmit (equal to {@link #size()} when every WQE has been sent). */
    int next() {
        return next;
    }

    /** Whether every queued WQE has been (at least started and) finished sending. */
    boolean allSent() {
        return next >= size;
    }

    /** The next WQE to transmit has been sent whole (or executed, for a local operation). */
    void advance() {
        next++;
    }

    /** Go-back-N: the WQE at {@code i} is the next to transmit again. */
    void rewindTo(int i) {
        if (i < 0 || i > size) {
            throw new IndexOutOfBoundsException("index " + i + ", size " + size);
        }
        next = i;
    }

    /**
     * Removes and returns the oldest WQE (the completer, once it has completed); the cursor keeps
     * pointing at the same WQE.
     */
    SendWqe removeFirst() {
        if (size == 0) {
            throw new IllegalStateException("send queue is empty");
        }
        SendWqe w = ring[head];
        ring[head] = null;
        head = (head + 1) & (ring.length - 1);
        size--;
        if (next > 0) {
            next--;
        }
        if (w.opcode.isReadOrAtomic()) {
            readOrAtomic--;
        }
        return w;
    }

    /** How many READ or ATOMIC WQEs are queued (done or not). */
    int readOrAtomicCount() {
        return readOrAtomic;
    }

    void clear() {
        Arrays.fill(ring, null);
        head = 0;
        size = 0;
        readOrAtomic = 0;
        next = 0;
    }

    private void grow() {
        SendWqe[] bigger = new SendWqe[ring.length << 1];
        for (int i = 0; i < size; i++) {
            bigger[i] = ring[(head + i) & (ring.length - 1)];
        }
        ring = bigger;
        head = 0;
    }
}
