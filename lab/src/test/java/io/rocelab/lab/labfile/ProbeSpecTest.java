package io.rocelab.lab.labfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The probe interval of a lab that names none: at most 2,000 samples a run, never finer than 10 us. */
class ProbeSpecTest {
    private static final long US = 1_000;
    private static final long MS = 1_000_000;
    private static final long S = 1_000_000_000;

    @Test
    void theShippedLabsDurationsGetWhatTheirClaimsNeed() {
        // the microsecond labs (2 to 10 ms) keep the 10 us they sample at
        for (long d : new long[] {2 * MS, 3 * MS, 6 * MS, 8 * MS, 10 * MS, 20 * MS}) {
            assertEquals(10 * US, ProbeSpec.defaultIntervalNanos(d), Quantity.formatNanos(d));
        }
        assertEquals(50 * US, ProbeSpec.defaultIntervalNanos(100 * MS), "failover-timing samples every 100 us");
        assertEquals(5 * MS, ProbeSpec.defaultIntervalNanos(4500 * MS), "a bond's LACP wait: 900 samples, not 450,000");
        assertEquals(5 * MS, ProbeSpec.defaultIntervalNanos(8 * S), "reconnect samples every 10 ms");
        assertEquals(10 * MS, ProbeSpec.defaultIntervalNanos(14 * S), "silent-member-failure samples every 10 ms");
        assertEquals(10 * US, ProbeSpec.defaultIntervalNanos(0));
    }

    @Test
    void neverMoreThanTwoThousandSamplesNorAnOddInterval() {
        for (long d = 1 * US; d < 100 * S; d = d * 3 / 2 + 7) {
            long i = ProbeSpec.defaultIntervalNanos(d);
            assertTrue(d / i <= ProbeSpec.MAX_DEFAULT_SAMPLES, d + " ns in steps of " + i);
            assertTrue(i >= ProbeSpec.FINEST_DEFAULT_NANOS);
            long mantissa = i;
            while (mantissa % 10 == 0) {
                mantissa /= 10;
            }
            assertTrue(mantissa == 1 || mantissa == 2 || mantissa == 5, "1, 2 or 5 times a power of ten: " + i);
            long finer = mantissa == 5 ? i * 2 / 5 : i / 2; // the step below: 5 -> 2, 2 -> 1, 1 -> 0.5
            assertTrue(i == ProbeSpec.FINEST_DEFAULT_NANOS || finer * ProbeSpec.MAX_DEFAULT_SAMPLES < d,
                "the finest step that fits: " + i + " for " + d);
        }
    }

    @Test
    void aDefaultIntervalFollowsTheRunsDurationAGivenOneDoesNot() {
        ProbeSpec defaulted = new ProbeSpec(ProbeSpec.defaultIntervalNanos(8 * S), Set.of(), List.of(), List.of(), true);
        assertEquals(10 * US, defaulted.forDuration(10 * MS).intervalNanos());
        ProbeSpec given = new ProbeSpec(100 * MS, Set.of(), List.of(), List.of(), false);
        assertSame(given, given.forDuration(10 * MS));
    }
}
