package io.rocelab.perftest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rocelab.perftest.ReportUnit;
import io.rocelab.perftest.oob.BwResult;
import org.junit.jupiter.api.Test;

/**
 * Golden lines are perftest's {@code RESULT_FMT} and {@code REPORT_FMT} (4.5-0.18) printed by
 * glibc with the same values.
 */
class BwReportTest {
    private static final String RULE =
            "---------------------------------------------------------------------------------------";

    @Test
    void headerInMegabytes() {
        assertEquals(RULE + "\n"
                + " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n",
                BwReport.header(ReportUnit.MB_PER_SEC));
    }

    @Test
    void headerInGigabits() {
        assertEquals(RULE + "\n"
                + " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n",
                BwReport.header(ReportUnit.GBIT_PER_SEC));
    }

    @Test
    void footerIsTheRule() {
        assertEquals(RULE + "\n", BwReport.footer());
    }

    @Test
    void linesAsPerftestPrintsThem() {
        assertEquals(" 4096       100              6.27               5.65   \t\t   0.001446\n",
                BwReport.line(new BwResult(4096, 100, 6.2655, 5.650398, 0.001446), ReportUnit.MB_PER_SEC));
        assertEquals(" 65536      5000             11123.46            11000.12\t\t   0.176002\n",
                BwReport.line(new BwResult(65536, 5000, 11123.456, 11000.125, 0.176002), ReportUnit.MB_PER_SEC));
        assertEquals(" 8388608    123456789012       0.12               2.67   \t\t   0.000000\n",
                BwReport.line(new BwResult(8388608, 123456789012L, 0.125, 2.675, 0.0000005), ReportUnit.MB_PER_SEC));
        assertEquals(" 65536      5000             97.45              96.04  \t\t   0.183178\n",
                BwReport.line(new BwResult(65536, 5000, 97.45, 96.04, 0.183178), ReportUnit.GBIT_PER_SEC));
    }

    @Test
    void smallGigabitAveragesGetSixDecimals() {
        assertEquals(" 2          1000           0.012346            0.098765            6.123457\n",
                BwReport.line(new BwResult(2, 1000, 0.0123456, 0.0987654321, 6.1234567), ReportUnit.GBIT_PER_SEC));
    }

    @Test
    void bidirectionalLineAddsBothSides() {
        BwResult mine = new BwResult(65536, 5000, 100, 90, 0.1);
        BwResult theirs = new BwResult(65536, 5000, 50.5, 40.25, 0.05);
        assertEquals(" 65536      5000             150.50             130.25 \t\t   0.150000\n",
                BwReport.line(mine, theirs, ReportUnit.MB_PER_SEC));
    }

    @Test
    void averageAndRateFromFirstPostToLastCompletion() {
        // 100 messages of 4096 bytes in exactly 0.1 s of nanosecond ticks
        BwMeasurement m = BwMeasurement.total(4096, 100, 1_000, 100_001_000, 1e9);
        BwResult r = BwReport.compute(m, ReportUnit.MB_PER_SEC);
        assertEquals(4096 * 100 * 10 / 1048576.0, r.average(), 1e-12);
        assertEquals(1000 / 1e6, r.messageRate(), 1e-15);
        assertEquals(0.0, r.peak());
        assertEquals(100, r.iterations());

        BwResult g = BwReport.compute(m, ReportUnit.GBIT_PER_SEC);
        assertEquals(4096 * 100 * 10 * 8 / 1e9, g.average(), 1e-12);
    }

    @Test
    void peakIsTheBestWindowEndingAtASignalledCompletion() {
        // 8 messages, one signalled completion every 2; messages posted every 10 ticks,
        // completions arrive 100 ticks after posting, except that messages 4..7 complete fast
        long[] posted = {0, 10, 20, 30, 40, 50, 60, 70};
        long[] completed = {100, 110, 120, 130, 45, 55, 65, 75};
        BwMeasurement m = new BwMeasurement(1000, 8, 1, 1, 2, false, false, 1, posted, completed, 1000);
        BwResult r = BwReport.compute(m, ReportUnit.MB_PER_SEC);
        // best window: post of message 5 (tick 50) to its own signalled completion (tick 55): 5 ticks
        // per message; peak = 1000 bytes * 1000 ticks/s / (5 * 2^20)
        assertEquals(1000.0 * 1000 / (5 * 1048576.0), r.peak(), 1e-15);
        // average: 8 messages from tick 0 to the last completion (75)
        assertEquals(8 * 1000.0 * 1000 / (75 * 1048576.0), r.average(), 1e-15);
    }

    @Test
    void peakLooksAtTheLastMessageWhenTheCountIsNotAMultipleOfCqModeration() {
        long[] posted = {0, 10, 20};
        long[] completed = {90, 100, 23};
        BwMeasurement m = new BwMeasurement(64, 3, 1, 1, 2, false, false, 1, posted, completed, 1000);
        // windows: i=0: j=1 -> 100/2 = 50, j=2 (last) -> 23/3 = 7; i=1: j=1 -> 90, last -> 13/2 = 6;
        // i=2: j=3.. none, last -> 3/1 = 3
        assertEquals(64.0 * 1000 / (3 * 1048576.0), BwReport.compute(m, ReportUnit.MB_PER_SEC).peak(), 1e-15);
    }

    @Test
    void multipleQpsCountEveryQpsMessages() {
        BwMeasurement m = new BwMeasurement(4096, 10, 4, 1, 1, true, false, 1,
                new long[] {0}, new long[] {1_000_000}, 1e9);
        BwResult r = BwReport.compute(m, ReportUnit.MB_PER_SEC);
        assertEquals(40, r.iterations());
        assertEquals(40 * 4096 * 1000.0 / 1048576, r.average(), 1e-9);
    }
}
