package io.rocelab.fabric.link;

import io.netty.buffer.ByteBuf;

/**
 * The frames in flight on one link direction, in arrival order, each with its arrival time.
 *
 * <p>A growable ring of two parallel arrays, so that steady-state traffic allocates nothing.
 * Arrival times are non-decreasing from head to tail because the transmitter is FIFO and the
 * propagation delay is constant. Not thread-safe.
 */
final class FrameRing {

    private ByteBuf[] frames = new ByteBuf[16];
    private long[] arrivals = new long[16];
    private int head;
    private int size;

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    void add(ByteBuf frame, long arrivalNanos) {
        if (size == frames.length) {
            grow();
        }
        final int tail = (head + size) & (frames.length - 1);
        frames[tail] = frame;
        arrivals[tail] = arrivalNanos;
        size++;
    }

    /** Arrival time of the head; only valid when not empty. */
    long peekArrival() {
        return arrivals[head];
    }

    /** Removes and returns the head; only valid when not empty. */
    ByteBuf poll() {
        final ByteBuf frame = frames[head];
        frames[head] = null;
        head = (head + 1) & (frames.length - 1);
        size--;
        return frame;
    }

    private void grow() {
        final int capacity = frames.length << 1;
        final ByteBuf[] newFrames = new ByteBuf[capacity];
        final long[] newArrivals = new long[capacity];
        for (int i = 0; i < size; i++) {
            final int from = (head + i) & (frames.length - 1);
            newFrames[i] = frames[from];
            newArrivals[i] = arrivals[from];
        }
        frames = newFrames;
        arrivals = newArrivals;
        head = 0;
    }
}
