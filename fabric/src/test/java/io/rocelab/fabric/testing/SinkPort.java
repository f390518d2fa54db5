package io.rocelab.fabric.testing;

import io.netty.buffer.ByteBuf;
import io.rocelab.fabric.port.AbstractFramePort;
import io.rocelab.fabric.time.Clock;

/**
 * A port with nothing behind it, for rates and benchmarks: {@link #deliver} hands a frame to
 * whoever receives on this port (a switch), and every frame sent out of it is counted
 * ({@link #sentFrames}, {@link #sentBytes}), its send time and length kept for the first
 * {@code capacity} frames ({@link #nanos}, {@link #lengths}, {@link #count}), and released at once.
 * Nothing is allocated per frame, so a benchmark measures the switch and not a link model, a socket
 * or the fixture. Owner thread only.
 */
public final class SinkPort extends AbstractFramePort {
    private final Clock clock;
    /** Send times of the first {@link #count} frames. */
    public final long[] nanos;
    /** Lengths in bytes of the first {@link #count} frames. */
    public final int[] lengths;
    /** Frames whose time and length are kept (at most the capacity). */
    public int count;
    /** Every frame sent out of this port. */
    public long sentFrames;
    /** Bytes of every frame sent out of this port. */
    public long sentBytes;

    /** Keeps the send time and length of the first {@code capacity} frames, by {@code clock}. */
    public SinkPort(String name, Clock clock, int capacity) {
        super(name, true);
        this.clock = clock;
        this.nanos = new long[capacity];
        this.lengths = new int[capacity];
    }

    /** Only counts frames and bytes. */
    public SinkPort(String name) {
        this(name, null, 0);
    }

    /** Gives {@code frame} to the receiver, as a real port does with a frame off the wire. */
    public void deliver(ByteBuf frame) {
        receiver().onFrame(this, frame);
    }

    @Override
    public void send(ByteBuf frame) {
        int length = frame.readableBytes();
        sentFrames++;
        sentBytes += length;
        if (count < nanos.length) {
            nanos[count] = clock.nanoTime();
            lengths[count] = length;
            count++;
        }
        frame.release();
    }

    /** Bits on the wire for a frame of {@code length} bytes: padding, preamble, SFD, FCS and gap. */
    public static long wireBits(int length) {
        return (Math.max(length, 60) + 24) * 8L;
    }

    /** Bits of the kept frames sent in [from, to). */
    public long bitsBetween(long from, long to) {
        long bits = 0;
        for (int i = 0; i < count; i++) {
            if (nanos[i] >= from && nanos[i] < to) {
                bits += wireBits(lengths[i]);
            }
        }
        return bits;
    }

    /** The most bits sent in any window of {@code window} ns that starts at a kept send time. */
    public long maxBitsInWindow(long window) {
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
