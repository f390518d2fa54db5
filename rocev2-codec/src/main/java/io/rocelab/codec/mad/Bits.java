package io.rocelab.codec.mad;

/** Bit fields of the CM messages, which IBA 12.6 numbers from the most significant bit. */
final class Bits {
    private Bits() {
    }

    /** {@code width} bits of {@code word} whose lowest bit is {@code shift}. */
    static int get(int word, int shift, int width) {
        return (word >>> shift) & ((1 << width) - 1);
    }

    /** {@code value} placed at {@code shift}, checked to fit {@code width} bits. */
    static int put(int value, int shift, int width, String name) {
        if (value < 0 || value >= 1 << width) {
            throw new IllegalArgumentException(name + " does not fit " + width + " bits: " + value);
        }
        return value << shift;
    }

    static byte[] copy(byte[] b, int length, String name) {
        if (b.length != length) {
            throw new IllegalArgumentException(name + " must be " + length + " bytes, not " + b.length);
        }
        return b.clone();
    }
}
