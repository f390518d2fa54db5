package io.rocelab.topology.workload;

import io.rocelab.fabric.random.SplitMix64;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The bytes a verified flow ({@link Flow#verify()}) moves: a work request's data is a function of a
 * key (the flow's seed, the QP, the work request's sequence number) and the position, so any byte
 * placed at the wrong offset, from another work request, left stale or flipped differs from what is
 * expected. Each 8 bytes are one {@link SplitMix64#mix} of the key plus their word's index; a
 * shorter work request's bytes are a prefix of a longer one's with the same key.
 */
final class DataPattern {
    /** A word's 8 bytes at once, its low byte first: the order the byte loops write. */
    private static final VarHandle WORD = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private DataPattern() {
    }

    /** @return the key of work request {@code sequence} of QP {@code lane} of a flow seeded {@code seed} */
    static long key(long seed, int lane, long sequence) {
        return SplitMix64.mix(SplitMix64.derive(seed, 0x5645_5249_0000_0000L + lane) + sequence);
    }

    /** Writes the pattern of {@code key} into {@code buf[off, off + len)}. */
    static void fill(byte[] buf, int off, int len, long key) {
        write(buf, off, len, key, 0);
    }

    /** Writes bytes that differ from the pattern of {@code key} in every position (what a READ must overwrite). */
    static void poison(byte[] buf, int off, int len, long key) {
        write(buf, off, len, key, -1L);
    }

    /** The pattern of {@code key} with every bit of {@code flip} inverted in each word. */
    private static void write(byte[] buf, int off, int len, long key, long flip) {
        int word = 0;
        int i = 0;
        for (; i + 8 <= len; i += 8) {
            WORD.set(buf, off + i, SplitMix64.mix(key + word++) ^ flip);
        }
        if (i < len) {
            long w = SplitMix64.mix(key + word) ^ flip;
            for (int b = 0; i < len; b++, i++) {
                buf[off + i] = (byte) (w >>> (8 * b));
            }
        }
    }

    /** @return how many bytes of {@code buf[off, off + len)} differ from the pattern of {@code key} */
    static int mismatches(byte[] buf, int off, int len, long key) {
        int bad = 0;
        int word = 0;
        int i = 0;
        for (; i + 8 <= len; i += 8) {
            long w = SplitMix64.mix(key + word++);
            long got = (long) WORD.get(buf, off + i);
            if (got != w) {
                for (int b = 0; b < 8; b++) {
                    if ((byte) (got >>> (8 * b)) != (byte) (w >>> (8 * b))) {
                        bad++;
                    }
                }
            }
        }
        if (i < len) {
            long w = SplitMix64.mix(key + word);
            for (int b = 0; i < len; b++, i++) {
                if (buf[off + i] != (byte) (w >>> (8 * b))) {
                    bad++;
                }
            }
        }
        return bad;
    }
}
