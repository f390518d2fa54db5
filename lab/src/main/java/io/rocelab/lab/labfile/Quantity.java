package io.rocelab.lab.labfile;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Numbers with units as lab files and expectations write them: durations ({@code 2ms}, {@code 500us},
 * {@code 1s}, {@code 250ns}), speeds ({@code 100G}, {@code 25Gbps}, {@code 400Mb/s}), sizes
 * ({@code 64KiB}, {@code 4KB}, {@code 1MB}, {@code 9000}) and fractions ({@code 20%}, {@code 0.2}).
 * SI prefixes are powers of 1000, IEC ones ({@code Ki}, {@code Mi}, {@code Gi}) powers of 1024.
 */
public final class Quantity {
    private static final Pattern NUMBER_UNIT = Pattern.compile("\\s*([-+]?[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\\s*([A-Za-z%/]*)\\s*");

    /** Duration units to nanoseconds. */
    static final Map<String, Double> TIME = Map.of("ns", 1.0, "us", 1e3, "µs", 1e3, "ms", 1e6, "s", 1e9);
    /** Speed units to bits per second. */
    static final Map<String, Double> SPEED = Map.ofEntries(Map.entry("", 1.0), Map.entry("bps", 1.0),
        Map.entry("b/s", 1.0), Map.entry("k", 1e3), Map.entry("kbps", 1e3), Map.entry("kb/s", 1e3),
        Map.entry("m", 1e6), Map.entry("mbps", 1e6), Map.entry("mb/s", 1e6), Map.entry("g", 1e9),
        Map.entry("gbps", 1e9), Map.entry("gb/s", 1e9), Map.entry("t", 1e12), Map.entry("tbps", 1e12),
        Map.entry("tb/s", 1e12));
    /** Size units to bytes. */
    static final Map<String, Double> SIZE = Map.ofEntries(Map.entry("", 1.0), Map.entry("b", 1.0),
        Map.entry("kb", 1e3), Map.entry("mb", 1e6), Map.entry("gb", 1e9), Map.entry("kib", 1024.0),
        Map.entry("mib", 1024.0 * 1024), Map.entry("gib", 1024.0 * 1024 * 1024), Map.entry("k", 1e3),
        Map.entry("m", 1e6), Map.entry("g", 1e9));

    private Quantity() {
    }

    /**
     * @return nanoseconds
     * @throws IllegalArgumentException naming the accepted units
     */
    public static long nanos(String text) {
        double v = parse(text, TIME, false, "a duration with a unit (ns, us, ms, s), e.g. 500us");
        return Math.round(v);
    }

    /**
     * @return bits per second
     * @throws IllegalArgumentException naming the accepted units
     */
    public static long bitsPerSecond(String text) {
        return Math.round(parse(text, SPEED, true, "a speed, e.g. 100G, 25Gbps, 400Mb/s"));
    }

    /**
     * @return bytes
     * @throws IllegalArgumentException naming the accepted units
     */
    public static long bytes(String text) {
        double v = parse(text, SIZE, true, "a size, e.g. 4096, 64KiB, 4KB, 1MB");
        if (v != Math.rint(v)) {
            throw new IllegalArgumentException("'" + text + "' is not a whole number of bytes");
        }
        return (long) v;
    }

    /**
     * @return a fraction: {@code 20%} is 0.2, {@code 0.2} is 0.2
     * @throws IllegalArgumentException if it is neither
     */
    public static double fraction(String text) {
        Matcher m = NUMBER_UNIT.matcher(text);
        if (!m.matches() || !(m.group(2).isEmpty() || m.group(2).equals("%"))) {
            throw new IllegalArgumentException("'" + text + "' is not a fraction (0.2 or 20%)");
        }
        double v = Double.parseDouble(m.group(1));
        return m.group(2).isEmpty() ? v : v / 100;
    }

    private static double parse(String text, Map<String, Double> units, boolean caseless, String what) {
        Matcher m = NUMBER_UNIT.matcher(text == null ? "" : text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not " + what);
        }
        String unit = caseless ? m.group(2).toLowerCase(Locale.ROOT) : m.group(2);
        Double scale = units.get(unit);
        if (scale == null) {
            throw new IllegalArgumentException("'" + text + "' is not " + what + " (unknown unit '" + m.group(2) + "')");
        }
        double v = Double.parseDouble(m.group(1)) * scale;
        if (v < 0) {
            throw new IllegalArgumentException("'" + text + "' is negative");
        }
        return v;
    }

    /** @return {@code nanos} as people write it: 2ms, 500us, 1.5s, 250ns */
    public static String formatNanos(long nanos) {
        if (nanos != 0 && nanos % 1_000_000_000L == 0) {
            return nanos / 1_000_000_000L + "s";
        }
        if (nanos != 0 && nanos % 1_000_000L == 0) {
            return nanos / 1_000_000L + "ms";
        }
        if (nanos != 0 && nanos % 1_000L == 0) {
            return nanos / 1_000L + "us";
        }
        if (Math.abs(nanos) >= 1_000_000) {
            return String.format(Locale.ROOT, "%.3fms", nanos / 1e6);
        }
        if (Math.abs(nanos) >= 1_000) {
            return String.format(Locale.ROOT, "%.3fus", nanos / 1e3);
        }
        return nanos + "ns";
    }
}
