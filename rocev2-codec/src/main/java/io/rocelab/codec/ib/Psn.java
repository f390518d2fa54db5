package io.rocelab.codec.ib;

/**
 * 24-bit packet sequence number arithmetic (IBA 9.7.1: PSNs wrap modulo 2^24; a PSN is "ahead"
 * of another when it lies in the half of the space that follows it).
 */
public final class Psn {
    public static final int MASK = 0xFFFFFF;
    public static final int HALF = 1 << 23;

    private Psn() {
    }

    public static int add(int psn, int delta) {
        return (psn + delta) & MASK;
    }

    public static int next(int psn) {
        return (psn + 1) & MASK;
    }

    /**
     * Signed distance {@code a - b} in the range [-2^23, 2^23): positive when {@code a} comes after
     * {@code b}.
     */
    public static int diff(int a, int b) {
        return ((a - b) << 8) >> 8;
    }

    /** Whether {@code a} comes strictly before {@code b} in sequence order. */
    public static boolean before(int a, int b) {
        return diff(a, b) < 0;
    }

    public static boolean after(int a, int b) {
        return diff(a, b) > 0;
    }
}
