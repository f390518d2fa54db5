package io.rocelab.nic;

/** The RNR NAK timer field of IBA Table 45 ("Encoding for RNR NAK Timer Field"), in nanoseconds. */
final class RnrTimer {
    private static final long[] MICROS_X100 = {
        65_536_000, 1_000, 2_000, 3_000, 4_000, 6_000, 8_000, 12_000, 16_000, 24_000, 32_000, 48_000, 64_000,
        96_000, 128_000, 192_000, 256_000, 384_000, 512_000, 768_000, 1_024_000, 1_536_000, 2_048_000, 3_072_000,
        4_096_000, 6_144_000, 8_192_000, 12_288_000, 16_384_000, 24_576_000, 32_768_000, 49_152_000};

    private RnrTimer() {
    }

    /** Code 0 is 655.36 ms, 1 is 0.01 ms ... 31 is 491.52 ms. */
    static long nanos(int code) {
        return MICROS_X100[code & 0x1F] * 10L;
    }

    /** Local ACK timeout of IBA 9.7.6.1.3: 4.096 µs × 2^exponent; 0 means no timeout. */
    static long ackTimeoutNanos(int exponent) {
        return exponent == 0 ? 0 : 4096L << exponent;
    }
}
