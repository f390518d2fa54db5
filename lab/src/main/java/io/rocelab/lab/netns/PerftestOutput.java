package io.rocelab.lab.netns;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a lab reads of a perftest bandwidth tool's output (as {@link Iperf3Output} does of iperf3's):
 * its result row, {@code #bytes #iterations BW peak BW average MsgRate}.
 */
final class PerftestOutput {
    /** perftest's bandwidth row: bytes, iterations, peak, average (MB/sec, MB = 2^20) and message rate. */
    private static final Pattern BW_ROW = Pattern.compile(
        "^\\s*(\\d+)\\s+(\\d+)\\s+([0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)\\s*$", Pattern.MULTILINE);

    /**
     * The last bandwidth row.
     *
     * @param bytes       message size times iterations
     * @param mbPerSecond the average, in perftest's MB (2^20 bytes) per second
     */
    record BandwidthRow(long bytes, double mbPerSecond) {
        static final BandwidthRow NONE = new BandwidthRow(0, 0);
    }

    private PerftestOutput() {
    }

    /** @return the last bandwidth row of {@code text}, or {@link BandwidthRow#NONE} */
    static BandwidthRow lastBandwidthRow(String text) {
        Matcher m = BW_ROW.matcher(text);
        BandwidthRow row = BandwidthRow.NONE;
        while (m.find()) {
            row = new BandwidthRow(Long.parseLong(m.group(1)) * Long.parseLong(m.group(2)),
                Double.parseDouble(m.group(4)));
        }
        return row;
    }
}
