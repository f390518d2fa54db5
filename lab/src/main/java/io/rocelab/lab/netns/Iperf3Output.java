package io.rocelab.lab.netns;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What iperf3 prints, read: a server's interval lines (text) and a client's result ({@code -J}). */
final class Iperf3Output {
    /** {@code [  5]   0.00-0.10   sec  11.2 MBytes   941 Mbits/sec}, or {@code [SUM]} with several streams. */
    private static final Pattern INTERVAL = Pattern.compile(
        "^\\[\\s*(SUM|\\d+)\\]\\s+([0-9.]+)-([0-9.]+)\\s+sec\\s+([0-9.]+)\\s+([KMGT]?)Bytes\\s+([0-9.]+)\\s+([KMGT]?)bits/sec.*");
    private static final Pattern ERROR = Pattern.compile("\"error\"\\s*:\\s*\"([^\"]*)\"");

    private Iperf3Output() {
    }

    /**
     * @param sum whether the test has several streams (then only {@code [SUM]} lines count)
     * @return the bytes of one interval line, or -1 if the line is none (a header, a stream's line
     *         beside a sum, the summary after the dashes is the caller's to skip)
     */
    static long intervalBytes(String line, boolean sum) {
        Matcher m = INTERVAL.matcher(line.trim());
        if (!m.matches() || m.group(1).equals("SUM") != sum) {
            return -1;
        }
        double v = Double.parseDouble(m.group(4));
        return Math.round(v * switch (m.group(5)) {
            case "K" -> 1024.0;
            case "M" -> 1024.0 * 1024;
            case "G" -> 1024.0 * 1024 * 1024;
            case "T" -> 1024.0 * 1024 * 1024 * 1024;
            default -> 1.0;
        });
    }

    /** A client's {@code -J} result: what the server received. */
    record Received(long bytes, double seconds, double bitsPerSecond) {
    }

    /** @return the {@code end.sum_received} of a client's JSON, or null if it has none */
    static Received received(String json) {
        int at = json.indexOf("\"sum_received\"");
        if (at < 0) {
            return null;
        }
        int open = json.indexOf('{', at);
        int close = json.indexOf('}', open);
        if (open < 0 || close < 0) {
            return null;
        }
        String o = json.substring(open, close);
        double bytes = number(o, "bytes");
        double seconds = number(o, "seconds");
        double bps = number(o, "bits_per_second");
        if (Double.isNaN(bytes) || Double.isNaN(bps)) {
            return null;
        }
        return new Received((long) bytes, seconds, bps);
    }

    /** @return the {@code error} of a client's JSON, or null */
    static String error(String json) {
        Matcher m = ERROR.matcher(json);
        return m.find() ? m.group(1) : null;
    }

    private static double number(String object, String key) {
        Matcher m = Pattern.compile("\"" + key + "\"\\s*:\\s*([-0-9.eE+]+)").matcher(object);
        return m.find() ? Double.parseDouble(m.group(1).toLowerCase(Locale.ROOT)) : Double.NaN;
    }
}
