package io.rocelab.perftest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rocelab.perftest.CFormat;
import io.rocelab.perftest.Verb;
import org.junit.jupiter.api.Test;

/**
 * Golden lines are perftest's {@code RESULT_FMT_LAT} and {@code REPORT_FMT_LAT} printed by glibc
 * with the same values; the statistics are worked out by hand from perftest's definitions.
 */
class LatReportTest {
    private static final String RULE =
            "---------------------------------------------------------------------------------------";

    @Test
    void header() {
        assertEquals(RULE + "\n"
                + " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]"
                + "   99% percentile[usec]   99.9% percentile[usec] \n", LatReport.header());
        assertEquals(RULE + "\n #bytes        #iterations       t_avg[usec]    tps average\n",
                LatReport.durationHeader());
    }

    @Test
    void lineWithTabsAsPerftestPrintsIt() {
        assertEquals(" 2       1000          1.23           45.68        2.00     \t       2.35        \t0.50   \t\t3.14   "
                        + " \t\t44.00  \n",
                LatReport.line(new LatResult(2, 1000, 1.23, 45.678, 2.005, 2.345, 0.5, 3.14159, 44.0)));
        assertEquals(" 8388608 20          12345.68        123456.79      1234.50  \t       2345.25     \t100.00 \t\t"
                        + "99999.99 \t\t100000.00\n",
                LatReport.line(new LatResult(8388608, 20, 12345.678, 123456.789, 1234.5, 2345.25, 100.0,
                        99999.994, 100000.0)));
    }

    @Test
    void durationLine() {
        // 123456 round trips in 1.0012 s of nanosecond ticks: halved for write
        String line = LatReport.durationLine(2, 123456, Verb.WRITE, 1_001_362_000L, 1000);
        double latency = 1_001_362.0 / 2 / 123456;
        double tps = 123456 / 1.001362;
        assertEquals(" 2             123456            " + CFormat.fixedLeft(latency, 7, 2) + "        "
                + CFormat.fixedLeft(tps, 7, 2) + "\n", line);
        assertEquals(" 2             123456            4.06           123288.08\n", line);
    }

    /** Ten iterations give nine samples; the two largest are dropped, leaving seven. */
    private static LatMeasurement tenIterations(Verb verb) {
        // samples in ns: 3000 1000 2000 9000 4000 5000 7000 6000 8000 (sorted: 1000..9000)
        long[] samples = {3000, 1000, 2000, 9000, 4000, 5000, 7000, 6000, 8000};
        return LatMeasurement.ofSamples(64, verb, samples, 1000);
    }

    @Test
    void readSamplesAreNotHalved() {
        LatResult r = LatReport.compute(tenIterations(Verb.READ), false);
        // kept: 1..7 us; median of 7 is the 4th (4 us); mean 4; t_max is sample [7] of the sorted
        // nine, the smaller of the two dropped ones: 8 us
        assertEquals(1.0, r.min());
        assertEquals(8.0, r.max());
        assertEquals(4.0, r.typical());
        assertEquals(4.0, r.average());
        // deviations -3..3 truncated to whole us: (9+4+1+0+1+4+9)/7 = 4 -> 2
        assertEquals(2.0, r.stdev());
        // ceil(7 * 0.99) = 7 and ceil(7 * 0.999) = 7: the first dropped sample, 8 us
        assertEquals(8.0, r.p99());
        assertEquals(8.0, r.p999());
        assertEquals(10, r.iterations());
        assertEquals(64, r.size());
    }

    @Test
    void writeAndSendSamplesAreRoundTripsAndHalved() {
        for (Verb v : new Verb[] {Verb.WRITE, Verb.SEND}) {
            LatResult r = LatReport.compute(tenIterations(v), false);
            assertEquals(0.5, r.min());
            assertEquals(4.0, r.max());
            assertEquals(2.0, r.typical());
            assertEquals(2.0, r.average());
            // deviations -1.5..1.5 truncate to -1, -1, 0, 0, 0, 1, 1: 4/7 -> sqrt(0.571...)
            assertEquals(Math.sqrt(4.0 / 7), r.stdev(), 1e-15);
            assertEquals(4.0, r.p99());
        }
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheMiddleTwoInWholeTicks() {
        // 8 samples kept: 1 2 3 4 5 6 7 8 ticks (+ 2 dropped); middle two 4 and 5 -> (4+5)/2 = 4 ticks
        long[] samples = {1, 2, 3, 4, 5, 6, 7, 8, 100, 200};
        LatResult r = LatReport.compute(LatMeasurement.ofSamples(2, Verb.ATOMIC, samples, 1), false);
        assertEquals(4.0, r.typical());
        assertEquals(4.5, r.average());
        assertEquals(100.0, r.max());
        // ceil(8 * 0.99) = 8: the first dropped sample
        assertEquals(100.0, r.p99());
    }

    @Test
    void subMicrosecondSpreadReportsZeroStdevAsPerftestDoes() {
        long[] samples = {1100, 1900, 1500, 1300, 1700, 5000, 6000};
        LatResult r = LatReport.compute(LatMeasurement.ofSamples(2, Verb.READ, samples, 1000), false);
        assertEquals(0.0, r.stdev());
        assertEquals(1.5, r.average(), 1e-12);
    }

    @Test
    void cyclesReportUsesRawTicks() {
        LatResult r = LatReport.compute(tenIterations(Verb.READ), true);
        assertEquals(1000.0, r.min());
        assertEquals(4000.0, r.typical());
    }

    @Test
    void samplesAreGapsBetweenConsecutivePosts() {
        LatMeasurement m = new LatMeasurement(2, 5, Verb.READ, new long[] {100, 150, 250, 260, 400}, 1);
        assertEquals(4, m.samples().length);
        assertEquals(50, m.samples()[0]);
        assertEquals(140, m.samples()[3]);
    }

    @Test
    void tooFewIterationsAreRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> new LatMeasurement(2, 3, Verb.READ, new long[] {1, 2, 3}, 1));
    }

    @Test
    void histogramAndUnsortedListsPrecedeTheTitlesAgain() {
        long[] samples = {3000, 1000, 2000, 5000, 4000};
        String text = LatReport.render(LatMeasurement.ofSamples(8, Verb.READ, samples, 1000), false, true, true);
        String expected = "#, usec\n1, 3\n2, 1\n3, 2\n4, 5\n5, 4\n"
                + "#, usec\n1, 1\n2, 2\n3, 3\n"
                + LatReport.header()
                + LatReport.line(LatReport.compute(LatMeasurement.ofSamples(8, Verb.READ, samples, 1000), false));
        assertEquals(expected, text);
    }

    @Test
    void plainRenderIsJustTheLine() {
        LatMeasurement m = tenIterations(Verb.SEND);
        assertEquals(LatReport.line(LatReport.compute(m, false)), LatReport.render(m, false, false, false));
    }
}
