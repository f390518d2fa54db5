package io.rocelab.fabric.wire;

/**
 * When a transmitter is busy: the frames it has started, reduced to the time the last one's last
 * bit leaves the wire. A device's transmitter keeps one to pace the device at the line rate; an
 * in-process link keeps one as the wire's physics (a frame cannot cross it faster than its speed).
 *
 * <p>Why exact arithmetic: a 1524-byte wire frame at 100 Gb/s takes 121.92 ns. Rounding each frame
 * to whole nanoseconds would make a long burst run 0.07 % slow or fast. Instead the end of the
 * transmission is kept as {@code freeAtNanos + freeAtRemainder / rate} exactly, and only the
 * delivery time handed to the scheduler is rounded, up (a frame is never delivered before its last
 * bit). A burst of n frames therefore ends within 1 ns of n × exact serialization time.
 */
public final class WireTimeline {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final long rateBitsPerSecond;

    /** @return the line rate, 0 for unlimited */
    public long rateBitsPerSecond() {
        return rateBitsPerSecond;
    }

    private long freeAtNanos = Long.MIN_VALUE;
    /** In units of 1/rate ns; always in [0, rate). */
    private long freeAtRemainder;
    /**
     * The last frame size and its serialization time, whole nanoseconds and remainder: a stream of
     * frames of one size (a message's full-MTU packets) costs no division per frame, where a 64-bit
     * division is tens of cycles on x86.
     */
    private long stepBytes = -1;
    private long stepNanos;
    private long stepRemainder;

    /**
     * @param rateBitsPerSecond line rate, or 0 for unlimited (no serialization delay)
     */
    public WireTimeline(long rateBitsPerSecond) {
        this.rateBitsPerSecond = rateBitsPerSecond;
    }

    /**
     * Queues a frame behind the ones still being transmitted.
     *
     * @param nowNanos  the time the frame is handed over
     * @param wireBytes the octet times it occupies on the wire
     * @return the time its last bit has left, rounded up to a nanosecond
     */
    public long transmit(long nowNanos, long wireBytes) {
        return transmit(nowNanos, wireBytes, false);
    }

    /**
     * Like {@link #transmit(long, long)}; with {@code backToBack}, a frame handed over at the
     * rounded-up time the wire became free ({@link #idleAtNanos()}) starts at the exact end of the
     * one before it, so that a backlogged sender woken at whole nanoseconds keeps the exact line
     * rate.
     */
    public long transmit(long nowNanos, long wireBytes, boolean backToBack) {
        if (rateBitsPerSecond == 0) {
            return nowNanos;
        }
        boolean continues = backToBack && freeAtNanos != Long.MIN_VALUE && nowNanos <= idleAtNanos();
        if (!continues && (nowNanos > freeAtNanos || (nowNanos == freeAtNanos && freeAtRemainder == 0))) {
            // the transmitter is idle: start now
            freeAtNanos = nowNanos;
            freeAtRemainder = 0;
        }
        if (wireBytes != stepBytes) {
            // bits * 1e9 stays below 2^64 for any ByteBuf (2^31 bytes * 8 * 1e9 < 1.8e19): unsigned maths
            final long bitNanos = wireBytes * 8 * NANOS_PER_SECOND;
            stepNanos = Long.divideUnsigned(bitNanos, rateBitsPerSecond);
            stepRemainder = Long.remainderUnsigned(bitNanos, rateBitsPerSecond);
            stepBytes = wireBytes;
        }
        // the same quotient and remainder as dividing freeAtRemainder + bits * 1e9 by the rate: both
        // remainders are below the rate, so their sum carries at most one nanosecond
        long remainder = freeAtRemainder + stepRemainder;
        long nanos = stepNanos;
        if (Long.compareUnsigned(remainder, rateBitsPerSecond) >= 0) {
            remainder -= rateBitsPerSecond;
            nanos++;
        }
        freeAtNanos += nanos;
        freeAtRemainder = remainder;
        return idleAtNanos();
    }

    /**
     * @return when the transmitter is next idle, rounded up ({@link Long#MIN_VALUE} if never used)
     */
    public long idleAtNanos() {
        return freeAtRemainder == 0 ? freeAtNanos : freeAtNanos + 1;
    }

    /**
     * @param wireBytes octet times on the wire
     * @return the serialization time of that many bytes, rounded up to a nanosecond
     */
    public long serializationNanos(long wireBytes) {
        if (rateBitsPerSecond == 0) {
            return 0;
        }
        final long bitNanos = wireBytes * 8 * NANOS_PER_SECOND;
        final long nanos = Long.divideUnsigned(bitNanos, rateBitsPerSecond);
        return Long.remainderUnsigned(bitNanos, rateBitsPerSecond) == 0 ? nanos : nanos + 1;
    }

    /** Forgets the queue (the link went down and its frames were flushed). */
    public void reset() {
        freeAtNanos = Long.MIN_VALUE;
        freeAtRemainder = 0;
    }
}
