package io.rocelab.lab.labfile;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The units a lab file's numbers take, one table for its fields ({@link Quantity}: {@code duration:
 * 2ms}, {@code rate: 400Mb/s}, {@code size: 64KiB}, {@code load: 30%}) and its claims
 * ({@code io.rocelab.lab.expect}: {@code fct < 500us}), so that a number means the same in both.
 * SI prefixes are powers of 1000, IEC ones ({@code Ki}, {@code Mi}, {@code Gi}) powers of 1024;
 * {@code K M G} alone are SI multipliers of a size or a rate ({@code 100G} is 1e11 b/s), {@code T}
 * of a rate. A time is written as listed ({@code 1S} or {@code 1Ms} is no time); sizes and rates in
 * any case ({@code 64kib}, {@code 25GBPS}). Claims read every unit in any case but {@code S} and
 * {@code Ms}.
 */
public final class Units {
    /** What a unit measures, and the base its factor is to. */
    public enum Dimension {
        /** A duration, to nanoseconds (a claim's times are seconds). */
        TIME,
        /** A size, to bytes. */
        SIZE,
        /** A speed, to bits per second. */
        RATE,
        /** A part of a whole, to a fraction (0.2). */
        FRACTION
    }

    /**
     * One spelling of a unit.
     *
     * @param spelling  as the docs write it ({@code KiB}, {@code Mb/s}, {@code µs})
     * @param dimension what it measures
     * @param factor    its value in the dimension's base (nanoseconds, bytes, bits per second, 1)
     */
    public record Unit(String spelling, Dimension dimension, double factor) {
    }

    /** Every unit a lab file's numbers take, fields and claims alike. */
    public static final List<Unit> ALL = List.of(
        new Unit("ns", Dimension.TIME, 1.0),
        new Unit("us", Dimension.TIME, 1e3),
        new Unit("µs", Dimension.TIME, 1e3),
        new Unit("ms", Dimension.TIME, 1e6),
        new Unit("s", Dimension.TIME, 1e9),
        new Unit("B", Dimension.SIZE, 1.0),
        new Unit("KB", Dimension.SIZE, 1e3),
        new Unit("MB", Dimension.SIZE, 1e6),
        new Unit("GB", Dimension.SIZE, 1e9),
        new Unit("KiB", Dimension.SIZE, 1024.0),
        new Unit("MiB", Dimension.SIZE, 1024.0 * 1024),
        new Unit("GiB", Dimension.SIZE, 1024.0 * 1024 * 1024),
        new Unit("K", Dimension.SIZE, 1e3),
        new Unit("M", Dimension.SIZE, 1e6),
        new Unit("G", Dimension.SIZE, 1e9),
        new Unit("bps", Dimension.RATE, 1.0),
        new Unit("b/s", Dimension.RATE, 1.0),
        new Unit("Kbps", Dimension.RATE, 1e3),
        new Unit("Kb/s", Dimension.RATE, 1e3),
        new Unit("Mbps", Dimension.RATE, 1e6),
        new Unit("Mb/s", Dimension.RATE, 1e6),
        new Unit("Gbps", Dimension.RATE, 1e9),
        new Unit("Gb/s", Dimension.RATE, 1e9),
        new Unit("Tbps", Dimension.RATE, 1e12),
        new Unit("Tb/s", Dimension.RATE, 1e12),
        new Unit("K", Dimension.RATE, 1e3),
        new Unit("M", Dimension.RATE, 1e6),
        new Unit("G", Dimension.RATE, 1e9),
        new Unit("T", Dimension.RATE, 1e12),
        new Unit("%", Dimension.FRACTION, 0.01));

    /** Nanoseconds in a second: a claim's times are seconds. */
    private static final double NANOS_PER_SECOND = 1e9;
    private static final Map<Dimension, Map<String, Double>> FIELDS = new HashMap<>();
    private static final Map<String, Double> CLAIMS = new HashMap<>();

    static {
        for (Dimension d : Dimension.values()) {
            Map<String, Double> m = new LinkedHashMap<>();
            if (d == Dimension.SIZE || d == Dimension.RATE) {
                m.put("", 1.0); // a plain number: bytes, bits per second
            }
            FIELDS.put(d, m);
        }
        for (Unit u : ALL) {
            FIELDS.get(u.dimension()).put(fieldKey(u.dimension(), u.spelling()), u.factor());
            double claim = u.dimension() == Dimension.TIME ? u.factor() / NANOS_PER_SECOND : u.factor();
            Double before = CLAIMS.put(u.spelling().toLowerCase(Locale.ROOT), claim);
            if (before != null && before != claim) {
                throw new IllegalStateException("unit " + u.spelling() + " means two things");
            }
        }
    }

    private Units() {
    }

    /** Times are matched as written, the rest in any case. */
    private static String fieldKey(Dimension d, String unit) {
        return d == Dimension.TIME ? unit : unit.toLowerCase(Locale.ROOT);
    }

    /**
     * @param unit as a field writes it after its number, empty for none
     * @return its value in {@code dimension}'s base (nanoseconds, bytes, bits per second, 1), or null if
     *         a field of that dimension does not take it
     */
    static Double field(Dimension dimension, String unit) {
        return FIELDS.get(dimension).get(fieldKey(dimension, unit));
    }

    /**
     * @param unit as a claim writes it after its number (not empty)
     * @return its value in a claim's base (seconds, bytes, bits per second, 1), or null if no unit is
     *         spelled so
     */
    public static Double claim(String unit) {
        if (unit.equals("S") || unit.equals("Ms")) {
            return null;
        }
        return CLAIMS.get(unit.toLowerCase(Locale.ROOT));
    }

    /** @return whether some claim unit ends in {@code /s} after {@code unit} ({@code Mb} of {@code Mb/s}) */
    public static boolean perSecond(String unit) {
        return claim(unit + "/s") != null;
    }
}
