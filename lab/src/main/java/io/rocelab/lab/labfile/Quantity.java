package io.rocelab.lab.labfile;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Numbers with units as lab files write them in fields: durations ({@code 2ms}, {@code 500us},
 * {@code 1s}, {@code 250ns}), speeds ({@code 100G}, {@code 25Gbps}, {@code 400Mb/s}), sizes
 * ({@code 64KiB}, {@code 4KB}, {@code 1MB}, {@code 9000}) and fractions ({@code 20%}, {@code 0.2}).
 * Its units are {@link Units}' table, which a claim's numbers take too.
 */
public final class Quantity {
    /** A number and the unit after it ({@link Units}: letters, {@code µ}, {@code %}, {@code /}). */
    private static final Pattern NUMBER_UNIT = Pattern.compile("\\s*([-+]?[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\\s*([A-Za-zµ%/]*)\\s*");

    private Quantity() {
    }

    /**
     * @return nanoseconds
     * @throws IllegalArgumentException naming the accepted units
     */
    public static long nanos(String text) {
        double v = parse(text, Units.Dimension.TIME, "a duration with a unit (ns, us, ms, s), e.g. 500us");
        return Math.round(v);
    }

    /**
     * @return bits per second
     * @throws IllegalArgumentException naming the accepted units
     */
    public static long bitsPerSecond(String text) {
        return Math.round(parse(text, Units.Dimension.RATE, "a speed, e.g. 100G, 25Gbps, 400Mb/s"));
    }

    /**
     * @return bytes
     * @throws IllegalArgumentException naming the accepted units
     */
    public static long bytes(String text) {
        double v = parse(text, Units.Dimension.SIZE, "a size, e.g. 4096, 64KiB, 4KB, 1MB");
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
        if (!m.matches() || !(m.group(2).isEmpty() || Units.field(Units.Dimension.FRACTION, m.group(2)) != null)) {
            throw new IllegalArgumentException("'" + text + "' is not a fraction (0.2 or 20%)");
        }
        double v = Double.parseDouble(m.group(1));
        return m.group(2).isEmpty() ? v : v / 100;
    }

    private static double parse(String text, Units.Dimension dimension, String what) {
        Matcher m = NUMBER_UNIT.matcher(text == null ? "" : text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not " + what);
        }
        Double scale = Units.field(dimension, m.group(2));
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
