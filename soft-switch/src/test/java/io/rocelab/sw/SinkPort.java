package io.rocelab.sw;

import io.netty.buffer.ByteBuf;
import io.rocelab.fabric.port.AbstractFramePort;
import io.rocelab.fabric.time.Clock;

/** A port that records when each frame was sent and how long it was, then releases it. */
final class SinkPort extends AbstractFramePort {
    private final Clock clock;
    final long[] nanos;
    final int[] lengths;
    int count;

    SinkPort(String name, Clock clock, int capacity) {
        super(name, true);
        this.clock = clock;
        this.nanos = new long[capacity];
        this.lengths = new int[capacity];
    }

    void deliver(ByteBuf frame) {
        receiver().onFrame(this, frame);
    }

    @Override
    public void send(ByteBuf frame) {
        if (count < nanos.length) {
            nanos[count] = clock.nanoTime();
            lengths[count] = frame.readableBytes();
            count++;
        }
        frame.release();
    }

    /** Bits on the wire for a frame of {@code length} bytes: padding, preamble, SFD, FCS and gap. */
    static long wireBits(int length) {
        return (Math.max(length, 60) + 24) * 8L;
    }

    /** Bits of the frames sent in [from, to). */
    long bitsBetween(long from, long to) {
        long bits = 0;
        for (int i = 0; i < count; i++) {
            if (nanos[i] >= from && nanos[i] < to) {
                bits += wireBits(lengths[i]);
            }
        }
        return bits;
    }

    /** The most bits sent in any window of {@code window} ns that starts at a send time. */
    long maxBitsInWindow(long window) {
        long best = 0;
        long sum = 0;
        int j = 0;
        for (int i = 0; i < count; i++) {
            while (j < count && nanos[j] < nanos[i] + window) {
                sum += wireBits(lengths[j]);
                j++;
            }
            best = Math.max(best, sum);
            sum -= wireBits(lengths[i]);
        }
        return best;
    }
}
