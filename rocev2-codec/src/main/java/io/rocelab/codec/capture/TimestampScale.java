package io.rocelab.codec.capture;

import java.math.BigInteger;

/**
 * Converts pcapng timestamps to nanoseconds since the epoch for one interface, honouring its
 * if_tsresol and if_tsoffset options (draft-ietf-opsawg-pcapng §4.2).
 *
 * <p>if_tsresol is one octet: with the most significant bit clear, the other seven bits are n in a
 * resolution of 10^-n seconds (6, microseconds, is the default when the option is absent; rocelab
 * writes 9, nanoseconds); with it set, they are n in 2^-n seconds. if_tsoffset is a signed number
 * of seconds added to every timestamp.
 */
final class TimestampScale {

    /** The default when an interface has no if_tsresol option: microseconds. */
    static final int DEFAULT_TSRESOL = 6;
    /** if_tsresol value for nanoseconds. */
    static final int NANOSECONDS = 9;

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final BigInteger BILLION = BigInteger.valueOf(NANOS_PER_SECOND);
    private static final long[] POWERS_OF_TEN = {
        1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L, 100_000_000L, 1_000_000_000L,
    };

    private final int tsresol;
    private final long offsetSeconds;

    TimestampScale(int tsresol, long offsetSeconds) {
        this.tsresol = tsresol & 0xFF;
        this.offsetSeconds = offsetSeconds;
    }

    /**
     * Nanoseconds since the epoch for a timestamp of this interface.
     *
     * @param ticks the 64-bit timestamp as stored, an unsigned count of 1/resolution seconds
     * @throws ArithmeticException if the result does not fit a signed 64-bit nanosecond count
     *                             (beyond the year 2262)
     */
    long toNanos(long ticks) {
        boolean binary = (tsresol & 0x80) != 0;
        int exponent = tsresol & 0x7F;
        long nanos;
        if (!binary && exponent <= 9 && ticks >= 0) {
            nanos = Math.multiplyExact(ticks, POWERS_OF_TEN[9 - exponent]);
        } else {
            BigInteger unsignedTicks = new BigInteger(Long.toUnsignedString(ticks));
            BigInteger perSecond = binary ? BigInteger.ONE.shiftLeft(exponent) : BigInteger.TEN.pow(exponent);
            nanos = unsignedTicks.multiply(BILLION).divide(perSecond).longValueExact();
        }
        return Math.addExact(nanos, Math.multiplyExact(offsetSeconds, NANOS_PER_SECOND));
    }

    /** The resolution in words, for messages: "10^-6 s" or "2^-10 s". */
    String describe() {
        return ((tsresol & 0x80) != 0 ? "2^-" : "10^-") + (tsresol & 0x7F) + " s";
    }
}
