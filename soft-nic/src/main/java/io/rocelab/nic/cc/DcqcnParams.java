package io.rocelab.nic.cc;

import java.util.Arrays;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * One set of {@link DcqcnParam DCQCN parameters}: the firmware defaults unless changed. Immutable;
 * {@link #with} returns a changed copy and refuses a value outside the parameter's range with a
 * message naming both.
 */
public final class DcqcnParams {
    private static final DcqcnParams DEFAULTS;

    static {
        long[] v = new long[DcqcnParam.values().length];
        for (DcqcnParam p : DcqcnParam.values()) {
            v[p.ordinal()] = p.defaultValue();
        }
        DEFAULTS = new DcqcnParams(v);
    }

    private final long[] values;

    private DcqcnParams(long[] values) {
        this.values = values;
    }

    /** NVIDIA's ConnectX firmware defaults. */
    public static DcqcnParams defaults() {
        return DEFAULTS;
    }

    public long get(DcqcnParam p) {
        return values[p.ordinal()];
    }

    /**
     * @throws IllegalArgumentException if {@code value} is outside the parameter's range
     */
    public DcqcnParams with(DcqcnParam p, long value) {
        Objects.requireNonNull(p, "p");
        if (value < p.min() || value > p.max()) {
            throw new IllegalArgumentException(p.paramName() + " must be " + p.min() + ".." + p.max()
                + " (" + p.unit() + "): " + value);
        }
        long[] v = values.clone();
        v[p.ordinal()] = value;
        return new DcqcnParams(v);
    }

    /**
     * The parameter {@code name} (mlx5's spelling) set to {@code value}, both as a user typed them.
     *
     * @throws IllegalArgumentException naming the parameter if it is unknown or the value is not a
     *     whole number in its range
     */
    public DcqcnParams with(String name, String value) {
        DcqcnParam p = DcqcnParam.byName(name);
        if (p == null) {
            throw new IllegalArgumentException("unknown DCQCN parameter '" + name + "' (known: " + knownNames() + ")");
        }
        long v;
        try {
            v = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(p.paramName() + " must be a whole number (" + p.unit() + "): '"
                + value + "'");
        }
        return with(p, v);
    }

    /**
     * A setting in {@code name=value} form, as {@code --cc-param rp_ai_rate=10} takes it.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public DcqcnParams withAssignment(String assignment) {
        int eq = assignment.indexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException("a DCQCN parameter is NAME=VALUE, e.g. rp_ai_rate=10: '"
                + assignment + "'");
        }
        return with(assignment.substring(0, eq).trim(), assignment.substring(eq + 1));
    }

    /** Every parameter's name, comma-separated, in table order. */
    public static String knownNames() {
        StringJoiner j = new StringJoiner(", ");
        for (DcqcnParam p : DcqcnParam.values()) {
            j.add(p.paramName());
        }
        return j.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DcqcnParams other && Arrays.equals(values, other.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    /** The parameters that differ from the defaults, {@code name=value}, or {@code defaults}. */
    @Override
    public String toString() {
        StringJoiner j = new StringJoiner(" ");
        for (DcqcnParam p : DcqcnParam.values()) {
            if (get(p) != p.defaultValue()) {
                j.add(p.paramName() + "=" + get(p));
            }
        }
        return j.length() == 0 ? "defaults" : j.toString();
    }
}
