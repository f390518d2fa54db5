package io.rocelab.topology.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The checker of verified flows: it finds every byte that is not what was sent, and only those. */
class DataPatternTest {
    private static final int LEN = 4099; // not a whole number of 8-byte words

    private static byte[] filled(long key) {
        byte[] b = new byte[LEN + 16];
        DataPattern.fill(b, 8, LEN, key);
        return b;
    }

    @Test
    void whatWasWrittenMatches() {
        long key = DataPattern.key(7, 1, 42);
        assertEquals(0, DataPattern.mismatches(filled(key), 8, LEN, key));
    }

    @Test
    void oneCorruptByteAnywhereIsFound() {
        long key = DataPattern.key(7, 1, 42);
        for (int at : new int[] {0, 7, 8, 2048, LEN - 1}) {
            byte[] b = filled(key);
            b[8 + at] ^= 0x01; // one bit of one byte
            assertEquals(1, DataPattern.mismatches(b, 8, LEN, key), "a flipped bit at byte " + at);
        }
        byte[] b = filled(key);
        b[8 + 100] ^= (byte) 0xFF;
        b[8 + 101] ^= 0x40;
        assertEquals(2, DataPattern.mismatches(b, 8, LEN, key));
    }

    @Test
    void anotherWorkRequestsBytesOrNoneAreFound() {
        long key = DataPattern.key(7, 1, 42);
        // a stale slot (the previous work request's data), another QP's, another flow's, nothing placed
        for (long other : new long[] {DataPattern.key(7, 1, 41), DataPattern.key(7, 2, 42), DataPattern.key(8, 1, 42)}) {
            assertNotEquals(key, other);
            assertTrue(DataPattern.mismatches(filled(other), 8, LEN, key) > LEN * 9 / 10, "another key's bytes");
        }
        assertTrue(DataPattern.mismatches(new byte[LEN + 16], 8, LEN, key) > LEN * 9 / 10, "zeroes");
    }

    @Test
    void bytesShiftedByOnePositionAreFound() {
        long key = DataPattern.key(7, 1, 42);
        byte[] b = filled(key);
        byte[] shifted = new byte[b.length];
        System.arraycopy(b, 0, shifted, 1, b.length - 1);
        assertTrue(DataPattern.mismatches(shifted, 8, LEN, key) > LEN * 9 / 10);
    }

    @Test
    void poisonDiffersEverywhereAndAShortWorkRequestIsAPrefix() {
        long key = DataPattern.key(3, 0, -1);
        byte[] b = new byte[LEN];
        DataPattern.poison(b, 0, LEN, key);
        assertEquals(LEN, DataPattern.mismatches(b, 0, LEN, key), "what a READ must overwrite differs in every byte");
        byte[] shortOne = new byte[100];
        DataPattern.fill(shortOne, 0, 100, key);
        byte[] longOne = new byte[LEN];
        DataPattern.fill(longOne, 0, LEN, key);
        assertTrue(Arrays.equals(shortOne, Arrays.copyOf(longOne, 100)));
    }
}
