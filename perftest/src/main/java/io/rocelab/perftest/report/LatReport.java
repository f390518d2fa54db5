package io.rocelab.perftest.report;

import io.rocelab.perftest.CFormat;
import io.rocelab.perftest.Verb;
import java.util.Arrays;

/**
 * perftest's latency table: the statistics of {@code print_report_lat} and their text. Pure
 * functions, so the data path only records post times.
 */
public final class LatReport {
    private LatReport() {
    }

    /**
     * The statistics as perftest computes them, quirks included, so that numbers match a real
     * perftest run on the same samples:
     * <ul>
     *   <li>the samples are sorted and the two largest set aside; the statistics use the rest, and
     *       t_max is the smaller of the two set aside;</li>
     *   <li>t_typical is the median of the kept samples, the mean of the two middle ones taken in
     *       whole ticks;</li>
     *   <li>each deviation from the mean is truncated to a whole microsecond before it is squared,
     *       so spreads under a microsecond report a t_stdev of 0;</li>
     *   <li>the 99% and 99.9% values are the samples at index {@code ceil(n * p)} of the kept
     *       {@code n}, which may be the first dropped sample.</li>
     * </ul>
     * Send and write samples are ping-pongs and are halved; read and atomic samples are not.
     *
     * @param reportCycles true for {@code -C}: report in ticks instead of microseconds
     */
    public static LatResult compute(LatMeasurement m, boolean reportCycles) {
        long[] delta = m.samples();
        Arrays.sort(delta);
        double quotient = quotient(m, reportCycles);
        int n = delta.length - LatMeasurement.DROPPED_TAIL;
        long median = (n - 1) % 2 != 0 ? (delta[n / 2] + delta[n / 2 - 1]) / 2 : delta[n / 2];

        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += delta[i] / quotient;
        }
        double average = sum / n;
        double squares = 0;
        for (int i = 0; i < n; i++) {
            int deviation = (int) (average - delta[i] / quotient);
            squares += (int) Math.pow(deviation, 2);
        }
        int i99 = (int) Math.ceil(n * 0.99);
        int i999 = (int) Math.ceil(n * 0.999);
        return new LatResult(m.messageSize(), m.iterations(),
                delta[0] / quotient, delta[n] / quotient, median / quotient, average,
                Math.sqrt(squares / n), delta[i99] / quotient, delta[i999] / quotient);
    }

    private static double quotient(LatMeasurement m, boolean reportCycles) {
        return (reportCycles ? 1.0 : m.ticksPerMicro()) * m.verb().roundTripFactor();
    }

    /** The rule and the column titles printed before the first result line. */
    public static String header() {
        return PerftestFormats.RESULT_LINE + "\n" + PerftestFormats.LAT_HEADER + "\n";
    }

    /** The rule and titles of a {@code -D} latency run. */
    public static String durationHeader() {
        return PerftestFormats.RESULT_LINE + "\n" + PerftestFormats.LAT_DURATION_HEADER + "\n";
    }

    /** The rule printed after the last result line. */
    public static String footer() {
        return PerftestFormats.RESULT_LINE + "\n";
    }

    /** One result line, newline included ({@code REPORT_FMT_LAT}, tabs and all). */
    public static String line(LatResult r) {
        return " " + CFormat.unsignedLeft(r.size(), 7) + " " + CFormat.unsigned(r.iterations())
                + "          " + CFormat.fixedLeft(r.min(), 7, 2)
                + "        " + CFormat.fixedLeft(r.max(), 7, 2)
                + "      " + CFormat.fixedLeft(r.typical(), 7, 2)
                + "  \t       " + CFormat.fixedLeft(r.average(), 7, 2)
                + "     \t" + CFormat.fixedLeft(r.stdev(), 7, 2)
                + "\t\t" + CFormat.fixedLeft(r.p99(), 7, 2)
                + " \t\t" + CFormat.fixedLeft(r.p999(), 7, 2)
                + "\n";
    }

    /**
     * Everything perftest prints for one size: with {@code -U} the samples in the order taken,
     * with {@code -H} the kept samples sorted, each list followed by the table titles again, then
     * the result line.
     */
    public static String render(LatMeasurement m, boolean reportCycles, boolean unsorted, boolean histogram) {
        StringBuilder sb = new StringBuilder();
        double quotient = quotient(m, reportCycles);
        String units = reportCycles ? "cycles" : "usec";
        long[] samples = m.samples();
        if (unsorted) {
            sb.append("#, ").append(units).append('\n');
            for (int i = 0; i < samples.length; i++) {
                sb.append(i + 1).append(", ").append(CFormat.general(samples[i] / quotient)).append('\n');
            }
        }
        if (histogram) {
            long[] sorted = samples.clone();
            Arrays.sort(sorted);
            sb.append("#, ").append(units).append('\n');
            for (int i = 0; i < sorted.length - LatMeasurement.DROPPED_TAIL; i++) {
                sb.append(i + 1).append(", ").append(CFormat.general(sorted[i] / quotient)).append('\n');
            }
        }
        if (unsorted || histogram) {
            sb.append(header());
        }
        return sb.append(line(compute(m, reportCycles))).toString();
    }

    /**
     * The line of a {@code -D} latency run ({@code REPORT_FMT_LAT_DUR}): the mean latency over the
     * run and transactions per second.
     *
     * @param totalTicks ticks from the first post to the end of the run
     */
    public static String durationLine(long size, long iterations, Verb verb, long totalTicks,
                                      double ticksPerMicro) {
        double latency = ((totalTicks / ticksPerMicro) / verb.roundTripFactor()) / iterations;
        double tps = iterations / (totalTicks / (ticksPerMicro * 1_000_000));
        return " " + CFormat.unsignedLeft(size, 7) + "       " + CFormat.unsigned(iterations)
                + "            " + CFormat.fixedLeft(latency, 7, 2)
                + "        " + CFormat.fixedLeft(tps, 7, 2) + "\n";
    }
}
