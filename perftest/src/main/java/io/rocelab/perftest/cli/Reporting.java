package io.rocelab.perftest.cli;

import io.rocelab.perftest.ReportUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * What a perftest run reports and the result it must meet (the settings of {@link ReportFlags}):
 * the bandwidth unit, device counters, peak bandwidth, latency in ticks or as every sample, and
 * the minimum bandwidth and message rate below which the run fails.
 *
 * @param reportUnit         {@code --report_gbits} selects Gb/sec; MB/sec otherwise
 * @param reportCounters     {@code -W}: device counters to report the change of, in the order given
 * @param noPeak             true when no peak bandwidth is computed ({@code -N}, or implied by a
 *                           duration run, a long run or a SEND bandwidth server)
 * @param reportCycles       {@code -C}: latency in clock ticks instead of microseconds
 * @param histogram          {@code -H}: print every sorted latency sample
 * @param unsorted           {@code -U}: print every latency sample in order
 * @param limitBw            {@code -w}: fail the run if the average bandwidth is below this; 0 = no
 *                           limit
 * @param limitMsgRate       {@code -y}: fail the run if the message rate is below this; 0 = no limit
 * @param cpuFreqWarningsOff {@code -F}: do not warn when the CPU frequency governor may skew results
 */
public record Reporting(ReportUnit reportUnit, List<String> reportCounters, boolean noPeak, boolean reportCycles,
                        boolean histogram, boolean unsorted, double limitBw, double limitMsgRate,
                        boolean cpuFreqWarningsOff) {

    public Reporting {
        reportCounters = List.copyOf(reportCounters);
    }

    /** The settings while perftest's rules fill them in; starts at perftest's defaults. */
    static final class Builder {
        ReportUnit reportUnit = ReportUnit.MB_PER_SEC;
        List<String> reportCounters = new ArrayList<>();
        boolean noPeak = false;
        boolean reportCycles = false;
        boolean histogram = false;
        boolean unsorted = false;
        double limitBw = 0;
        double limitMsgRate = 0;
        boolean cpuFreqWarningsOff = false;

        Builder() {
        }

        Builder(Reporting r) {
            reportUnit = r.reportUnit;
            reportCounters = new ArrayList<>(r.reportCounters);
            noPeak = r.noPeak;
            reportCycles = r.reportCycles;
            histogram = r.histogram;
            unsorted = r.unsorted;
            limitBw = r.limitBw;
            limitMsgRate = r.limitMsgRate;
            cpuFreqWarningsOff = r.cpuFreqWarningsOff;
        }

        Reporting build() {
            return new Reporting(reportUnit, reportCounters, noPeak, reportCycles, histogram, unsorted, limitBw,
                    limitMsgRate, cpuFreqWarningsOff);
        }
    }
}
