package io.rocelab.fabric.random;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SplitMix64Test {

    @Test
    void producesTheSplitMix64SequenceOfTheJdk() {
        // java.util.SplittableRandom(seed) is SplitMix64 with the golden gamma: an independent oracle
        for (long seed : new long[] {0, 1, 42, -1, Long.MIN_VALUE, 0x5EED}) {
            final SplitMix64 ours = new SplitMix64(seed);
            final SplittableRandom jdk = new SplittableRandom(seed);
            for (int i = 0; i < 1_000; i++) {
                assertEquals(jdk.nextLong(), ours.nextLong(), "seed " + seed + " value " + i);
            }
        }
    }

    @Test
    void sameSeedSameSequenceAndTheSeedIsKept() {
        final SplitMix64 a = new SplitMix64(99);
        final SplitMix64 b = new SplitMix64(99);
        for (int i = 0; i < 100; i++) {
            assertEquals(a.nextDouble(), b.nextDouble());
            assertEquals(a.nextInt(1_000), b.nextInt(1_000));
        }
        assertEquals(99, a.seed());
    }

    @Test
    void derivedSeedsDiffer() {
        assertNotEquals(SplitMix64.derive(1, 1), SplitMix64.derive(1, 2));
        assertNotEquals(SplitMix64.derive(1, 1), SplitMix64.derive(2, 1));
        assertEquals(SplitMix64.derive(7, 3), SplitMix64.derive(7, 3));
    }

    @Test
    void nextIntIsInRangeAndCoversIt() {
        final SplitMix64 random = new SplitMix64(5);
        final int[] hits = new int[10];
        for (int i = 0; i < 100_000; i++) {
            hits[random.nextInt(10)]++;
        }
        for (int h : hits) {
            // mean 10000, sd ~95: 6 sd
            assertTrue(Math.abs(h - 10_000) < 600, "bucket " + h);
        }
        for (int i = 0; i < 1_000; i++) {
            final int v = random.nextInt(7);
            assertTrue(v >= 0 && v < 7);
            assertEquals(0, random.nextInt(1));
        }
        assertThrows(IllegalArgumentException.class, () -> random.nextInt(0));
    }

    @Test
    void nextDoubleIsInTheUnitIntervalAndBooleansHonourTheEdges() {
        final SplitMix64 random = new SplitMix64(11);
        double sum = 0;
        for (int i = 0; i < 100_000; i++) {
            final double d = random.nextDouble();
            assertTrue(d >= 0 && d < 1);
            sum += d;
        }
        assertEquals(0.5, sum / 100_000, 0.01);
        final SplitMix64 untouched = new SplitMix64(11);
        final SplitMix64 probe = new SplitMix64(11);
        assertTrue(probe.nextBoolean(1.0));
        assertEquals(false, probe.nextBoolean(0.0));
        assertEquals(untouched.nextLong(), probe.nextLong(), "0 and 1 draw nothing");
    }
}
