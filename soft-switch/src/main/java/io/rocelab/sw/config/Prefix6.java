package io.rocelab.sw.config;

/**
 * An IPv6 address as two 64-bit halves (network byte order: the first 8 bytes are the high half),
 * and the mask arithmetic of a prefix length, so that a lookup compares two longs, not 16 bytes.
 */
public final class Prefix6 {
    private Prefix6() {
    }

    /** @return the first 8 bytes of a 16-byte address as a long */
    public static long high(byte[] a) {
        return bytes(a, 0);
    }

    /** @return the last 8 bytes of a 16-byte address as a long */
    public static long low(byte[] a) {
        return bytes(a, 8);
    }

    private static long bytes(byte[] a, int from) {
        long v = 0;
        for (int i = from; i < from + 8; i++) {
            v = (v << 8) | (a[i] & 0xFF);
        }
        return v;
    }

    /** @return the mask of the high half for a prefix of {@code length} bits (0..128) */
    public static long highMask(int length) {
        return length == 0 ? 0 : length >= 64 ? -1L : -1L << (64 - length);
    }

    /** @return the mask of the low half for a prefix of {@code length} bits (0..128) */
    public static long lowMask(int length) {
        return length <= 64 ? 0 : length == 128 ? -1L : -1L << (128 - length);
    }

    /** @return {high, low} with the bits beyond {@code length} cleared */
    public static long[] mask(long high, long low, int length) {
        return new long[] {high & highMask(length), low & lowMask(length)};
    }
}
