package io.rocelab.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Axes from zero with 1-2-5 ticks, whatever the data's largest value, and time in the run's unit. */
class AxisTest {
    /** What the issue saw: 0 and 52.4288 on the rate axis, 10, 570, 1130 us on the time axis. */
    @Test
    void ticksAreOneTwoFiveTimesAPowerOfTenFromZero() {
        for (double max : new double[] {0.03, 0.7, 1, 3.3232, 8.1, 52.4288, 99.9, 100, 1130, 3290.5, 9990, 123456}) {
            Axis a = Axis.upTo("v", max, 0);
            assertTrue(Axis.isOneTwoFive(a.step()), max + ": step " + a.step());
            double[] t = a.ticks();
            assertEquals(0, t[0], max + ": starts at zero");
            assertEquals(a.max(), t[t.length - 1], 1e-12 * a.max(), max + ": ends on a tick");
            assertTrue(a.max() >= max, max + ": holds the data, " + a.max());
            assertTrue(a.max() < max + a.step() + 1e-9 * max, max + ": no more than a step beyond it, " + a.max());
            assertTrue(t.length - 1 <= Axis.MAX_INTERVALS && t.length - 1 >= 3, max + ": " + t.length + " ticks");
            for (int i = 1; i < t.length; i++) {
                assertEquals(i * a.step(), t[i], 1e-9 * a.step(), max + ": tick " + i);
                double m = t[i] / Math.pow(10, Math.floor(Math.log10(a.step()) + 1e-9));
                assertEquals(Math.rint(m), m, 1e-9, max + ": tick " + t[i] + " a whole number of the step's power of ten");
            }
        }
        assertEquals(20, Axis.upTo("Gb/s", 99.9, 0).step());
        assertEquals(100, Axis.upTo("Gb/s", 99.9, 0).max());
        assertEquals(10, Axis.upTo("Gb/s", 52.4288, 0).step());
        assertEquals(60, Axis.upTo("Gb/s", 52.4288, 0).max());
    }

    @Test
    void countsTickInWholeNumbers() {
        Axis one = Axis.upTo("paused", 1, 1);
        assertEquals(1, one.step());
        assertEquals(1, one.max());
        Axis sixteen = Axis.upTo("paused", 16, 1);
        assertEquals(2, sixteen.step());
        assertEquals(16, sixteen.max());
        Axis none = Axis.upTo("paused", 0, 1);
        assertEquals(1, none.max(), "an empty plot still has an axis");
    }

    @Test
    void timeIsInTheUnitOfTheRunsLength() {
        Axis ms = Axis.time(10_000);
        assertEquals("time (ms)", ms.title());
        assertEquals(10, ms.max());
        assertEquals(2, ms.step());
        Axis us = Axis.time(1_130);
        assertEquals("time (us)", us.title());
        assertEquals(200, us.step());
        assertEquals(1_200, us.max());
        assertEquals("time (s)", Axis.time(8e6).title());
        assertEquals(8, Axis.time(8e6).max());
    }

    /** dual-homed-failover's flows: 5 ms from 4 s on, drawn from where they start, ticked 4000, 4002 ... ms. */
    @Test
    void aTimeAxisCutToWhereTheFlowsStartBeginsAtARoundTimeBeforeThem() {
        Axis a = Axis.time(4_000_000, 4_010_000);
        assertEquals("time (ms)", a.title(), "the unit of the 10 ms drawn, not of the 4 s run");
        assertEquals(4_000, a.min());
        assertEquals(4_010, a.max());
        assertEquals(2, a.step());
        assertEquals("4000", a.label(a.ticks()[0]));
        Axis odd = Axis.time(3_999_700, 4_010_000);
        assertTrue(odd.min() <= 3_999.7 && odd.min() > 3_999.7 - odd.step(), "the tick at or before the start: " + odd);
        for (Axis x : new Axis[] {a, odd, Axis.between("v", 123.4, 987.6, 0), Axis.between("v", 0.31, 0.32, 0)}) {
            double[] t = x.ticks();
            assertTrue(Axis.isOneTwoFive(x.step()), x.toString());
            assertTrue(t.length - 1 <= Axis.MAX_INTERVALS && t.length - 1 >= 1, x + ": " + t.length + " ticks");
            assertEquals(x.max(), t[t.length - 1], 1e-9 * x.max(), x + " ends on a tick");
            double m = x.min() / x.step();
            assertEquals(Math.rint(m), m, 1e-6, x + " starts on a whole number of steps");
        }
        assertEquals(Axis.time(10_000), Axis.time(0, 10_000), "from zero: the run's axis");
    }

    @Test
    void labelsHaveTheDecimalsTheStepNeeds() {
        Axis small = Axis.upTo("v", 0.7, 0);
        assertEquals(0.1, small.step());
        assertEquals("0.3", small.label(small.ticks()[3]));
        Axis big = Axis.upTo("KB", 3290.5, 0);
        assertEquals("1500", big.label(1500));
        assertTrue(Axis.isOneTwoFive(0.05) && Axis.isOneTwoFive(2e9) && Axis.isOneTwoFive(1));
        assertFalse(Axis.isOneTwoFive(2.5) || Axis.isOneTwoFive(560) || Axis.isOneTwoFive(52.4288)
            || Axis.isOneTwoFive(0));
    }
}
