package io.rocelab.perftest.report;

import io.rocelab.perftest.CFormat;
import io.rocelab.perftest.ReportUnit;
import io.rocelab.perftest.oob.BwResult;

/**
 * perftest's bandwidth table: the computation of {@code print_report_bw} and the text of
 * {@code print_full_bw_report}. Pure functions from numbers to numbers and text, so the data path
 * only has to collect timestamps.
 */
public final class BwReport {
    private static final double MEGA = 1_000_000.0;

    private BwReport() {
    }

    /**
     * Peak, average and message rate as perftest computes them. The peak is the best rate over any
     * window that starts at a post and ends at a signalled completion, in whole ticks per message
     * (perftest divides cycles as integers, and so does this).
     */
    public static BwResult compute(BwMeasurement m, ReportUnit unit) {
        long[] posted = m.posted();
        long[] completed = m.completed();
        long optDelta = completed[0] - posted[0];
        if (!m.noPeak()) {
            optDelta = bestTicksPerMessage(m, optDelta);
        }
        long counted = m.durationMode() ? m.iterations() : m.iterations() * m.numQps();
        int last = m.noPeak() ? 0 : (int) (counted - 1);
        double ticksPerSecond = m.ticksPerSecond();
        long formatFactor = unit.bytesPerUnit();
        double totalTicks = completed[last] - posted[0];
        long bytesPerMessage = m.repeatFactor() * m.messageSize();

        double average = ((double) bytesPerMessage * counted * ticksPerSecond) / (totalTicks * formatFactor);
        double rate = ((double) counted * ticksPerSecond * m.repeatFactor()) / (totalTicks * MEGA);
        long peakUp = m.noPeak() ? 0 : bytesPerMessage * (long) ticksPerSecond;
        long peakDown = optDelta * formatFactor;
        double peak = (double) peakUp / peakDown;
        return new BwResult(m.messageSize(), counted, peak, average, rate);
    }

    private static long bestTicksPerMessage(BwMeasurement m, long initial) {
        long best = initial;
        long total = m.iterations() * m.numQps();
        int cqMod = m.cqMod();
        long[] posted = m.posted();
        long[] completed = m.completed();
        for (long i = 0; i < total; i += m.postList()) {
            for (long j = roundUp(i + 1, cqMod) - 1; j < total; j += cqMod) {
                long t = (completed[(int) j] - posted[(int) i]) / (j - i + 1);
                best = Math.min(best, t);
            }
            if (total % cqMod != 0) {
                long j = total - 1;
                long t = (completed[(int) j] - posted[(int) i]) / (j - i + 1);
                best = Math.min(best, t);
            }
        }
        return best;
    }

    private static long roundUp(long value, long alignment) {
        return value % alignment == 0 ? value : alignment * (value / alignment + 1);
    }

    /** The rule and the column titles printed before the first result line. */
    public static String header(ReportUnit unit) {
        return PerftestFormats.RESULT_LINE + "\n" + PerftestFormats.bwHeader(unit) + "\n";
    }

    /** The rule printed after the last result line. */
    public static String footer() {
        return PerftestFormats.RESULT_LINE + "\n";
    }

    /**
     * One result line, newline included. With {@code --report_gbits} an average under 0.1 Gb/sec
     * is printed with six decimals in perftest's wider layout so that it does not read as zero.
     */
    public static String line(BwResult r, ReportUnit unit) {
        return format(r, needsMoreDigits(r, unit));
    }

    /**
     * The line of a bidirectional run: both directions added. Whether the six-decimal layout is
     * used depends on this side's average alone, as in perftest.
     */
    public static String line(BwResult mine, BwResult remote, ReportUnit unit) {
        if (remote == null) {
            return line(mine, unit);
        }
        return format(mine.plus(remote), needsMoreDigits(mine, unit));
    }

    private static boolean needsMoreDigits(BwResult r, ReportUnit unit) {
        return r.average() < 0.1 && unit == ReportUnit.GBIT_PER_SEC;
    }

    private static String format(BwResult r, boolean moreDigits) {
        StringBuilder sb = new StringBuilder(96);
        sb.append(' ').append(CFormat.unsignedLeft(r.size(), 7)).append("    ");
        if (moreDigits) {
            sb.append(CFormat.unsigned(r.iterations())).append("           ")
                    .append(CFormat.fixedLeft(r.peak(), 7, 6)).append("            ")
                    .append(CFormat.fixedLeft(r.average(), 7, 6)).append("            ")
                    .append(CFormat.fixedLeft(r.messageRate(), 7, 6));
        } else {
            sb.append(CFormat.unsignedLeft(r.iterations(), 10)).append("       ")
                    .append(CFormat.fixedLeft(r.peak(), 7, 2)).append("            ")
                    .append(CFormat.fixedLeft(r.average(), 7, 2)).append("\t\t   ")
                    .append(CFormat.fixedLeft(r.messageRate(), 7, 6));
        }
        return sb.append('\n').toString();
    }
}
