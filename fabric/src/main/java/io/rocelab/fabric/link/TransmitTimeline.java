package io.rocelab.fabric.link;

/**
 * When the transmitter of one link direction is busy: a FIFO transmit queue reduced to the time
 * its last frame finishes.
 *
 * <p>Why exact arithmetic: a 1524-byte wire frame at 100 Gb/s takes 121.92 ns. Rounding each frame
 * to whole nanoseconds would make a long burst run 0.07 % slow or fast. Instead the end of the
 * transmission is kept as {@code freeAtNanos + freeAtRemainder / rate} exactly, and only the
 * delivery time handed to the scheduler is rounded, up (a frame is never delivered before its last
 * bit). A burst of n frames therefore ends within 1 ns of n × exact serialization time.
 */
final class TransmitTimeline {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final long rateBitsPerSecond;
    private long freeAtNanos = Long.MIN_VALUE;
    /** In units of 1/rate ns; always in [0, rate). */
    private long freeAtRemainder;

    /**
     * @param rateBitsPerSecond line rate, or 0 for unlimited (no serialization delay)
     */
    TransmitTimeline(long rateBitsPerSecond) {
        this.rateBitsPerSecond = rateBitsPerSecond;
    }

    /**
     * Queues a frame behind the ones still being transmitted.
     *
     * @param nowNanos  the time the frame is handed over
     * @param wireBytes the octet times it occupies on the wire
     * @return the time its last bit has left, rounded up to a nanosecond
     */
    long transmit(long nowNanos, long wireBytes) {
        if (rateBitsPerSecond == 0) {
            return nowNanos;
        }
        if (nowNanos > freeAtNanos || (nowNanos == freeAtNanos && freeAtRemainder == 0)) {
            // the transmitter is idle: start now
            freeAtNanos = nowNanos;
            freeAtRemainder = 0;
        }
        // bits * 1e9 stays below 2^64 for any ByteBuf (2^31 bytes * 8 * 1e9 < 1.8e19): unsigned maths
        final long total = freeAtRemainder + wireBytes * 8 * NANOS_PER_SECOND;
        freeAtNanos += Long.divideUnsigned(total, rateBitsPerSecond);
        freeAtRemainder = Long.remainderUnsigned(total, rateBitsPerSecond);
        return idleAtNanos();
    }

    /**
     * @return when the transmitter is next idle, rounded up ({@link Long#MIN_VALUE} if never used)
     */
    long idleAtNanos() {
        return freeAtRemainder == 0 ? freeAtNanos : freeAtNanos + 1;
    }

    /**
     * @param wireBytes octet times on the wire
     * @return the serialization time of that many bytes, rounded up to a nanosecond
     */
    long serializationNanos(long wireBytes) {
        if (rateBitsPerSecond == 0) {
            return 0;
        }
        final long bitNanos = wireBytes * 8 * NANOS_PER_SECOND;
        final long nanos = Long.divideUnsigned(bitNanos, rateBitsPerSecond);
        return Long.remainderUnsigned(bitNanos, rateBitsPerSecond) == 0 ? nanos : nanos + 1;
    }

    /** Forgets the queue (the link went down and its frames were flushed). */
    void reset() {
        freeAtNanos = Long.MIN_VALUE;
        freeAtRemainder = 0;
    }
}
