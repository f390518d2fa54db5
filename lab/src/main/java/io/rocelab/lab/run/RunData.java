package io.rocelab.lab.run;

import io.rocelab.lab.expect.ExpressionException;
import io.rocelab.lab.expect.Kind;
import io.rocelab.lab.expect.Series;
import io.rocelab.lab.expect.Value;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one run of a lab measured: per flow, port, queue, NIC and switch, each attribute's value at
 * the end and, for the probes sampled, its samples over time. Written by the thread that drives the
 * run; read after it.
 */
public final class RunData {
    private final String variant;
    private final long durationNanos;
    private final Set<String> probes;
    private final Map<Kind, List<String>> names = new EnumMap<>(Kind.class);
    private final Map<String, double[]> columns = new HashMap<>();
    private final Map<String, Double> totals = new HashMap<>();
    private double[] times = new double[64];
    private int samples;

    /**
     * @param probes the probe kinds sampled ({@code flow-rate}, ...)
     * @param names  the flows, ports, queues, NICs and switches, each list in a fixed order
     */
    public RunData(String variant, long durationNanos, Set<String> probes, Map<Kind, List<String>> names) {
        this.variant = variant;
        this.durationNanos = durationNanos;
        this.probes = new LinkedHashSet<>(probes);
        for (Kind k : Kind.values()) {
            this.names.put(k, List.copyOf(names.getOrDefault(k, List.of())));
        }
    }

    public String variant() {
        return variant;
    }

    public long durationNanos() {
        return durationNanos;
    }

    public Set<String> probes() {
        return probes;
    }

    public List<String> names(Kind kind) {
        return names.get(kind);
    }

    private static String key(Kind kind, String name, String attribute) {
        return kind.ordinal() + "\u0000" + name + "\u0000" + attribute;
    }

    /** Starts the sample taken at {@code nanos} (from the start of the run). */
    public void beginSample(long nanos) {
        if (samples == times.length) {
            times = Arrays.copyOf(times, samples * 2);
        }
        times[samples++] = nanos / 1e9;
    }

    /** One value of the sample begun last; an attribute first sampled now reads NaN at the samples before. */
    public void sample(Kind kind, String name, String attribute, double value) {
        String k = key(kind, name, attribute);
        double[] c = columns.get(k);
        if (c == null) {
            c = new double[times.length];
            Arrays.fill(c, 0, samples - 1, Double.NaN); // not sampled before: unknown
            columns.put(k, c);
        } else if (c.length < times.length) {
            c = Arrays.copyOf(c, times.length);
            columns.put(k, c);
        }
        c[samples - 1] = value;
    }

    /** The value at the end of the run. */
    public void total(Kind kind, String name, String attribute, double value) {
        totals.put(key(kind, name, attribute), value);
    }

    /** @return the times of the samples, seconds */
    public double[] times() {
        return Arrays.copyOf(times, samples);
    }

    /** @return the samples of one attribute, or null if it was not sampled */
    public Series series(Kind kind, String name, String attribute) {
        double[] c = columns.get(key(kind, name, attribute));
        return c == null ? null : new Series(times(), Arrays.copyOf(c, samples));
    }

    /** @return the value at the end (NaN if unknown) */
    public double total(Kind kind, String name, String attribute) {
        Double d = totals.get(key(kind, name, attribute));
        return d == null ? Double.NaN : d;
    }

    /**
     * @param name null for the sum over every one of {@code kind}
     * @return the attribute as a check sees it
     * @throws ExpressionException for an attribute the kind does not have, or a gauge not sampled
     */
    public Value value(Kind kind, String name, String attribute) {
        Schema.Attribute a = Schema.of(kind).get(attribute);
        String label = (name == null ? kind.one() : kind.one() + "(\"" + name + "\")") + "." + attribute;
        if (a == null) {
            throw new ExpressionException("a " + kind.one() + " has no '" + attribute + "' (it has: "
                + String.join(", ", Schema.of(kind).keySet()) + ")");
        }
        if (a.type() == Schema.Type.GAUGE && !probes.contains(a.probe())) {
            throw new ExpressionException(kind.many() + "." + attribute + " is sampled by the probe '" + a.probe()
                + "': add it to probes.sample");
        }
        List<String> over = name == null ? names.get(kind) : List.of(name);
        double total = 0;
        Series series = null;
        boolean allSampled = true;
        for (String n : over) {
            total += total(kind, n, attribute);
            Series s = series(kind, n, attribute);
            if (s == null) {
                allSampled = false;
            } else {
                series = series == null ? s : series.plus(s);
            }
        }
        if (!allSampled || over.isEmpty()) {
            series = null;
        }
        return switch (a.type()) {
            case NUMBER -> new Value.Num(total);
            case COUNTER -> new Value.Counter(label, total, series);
            case GAUGE -> {
                if (series == null) {
                    throw new ExpressionException(label + " was not sampled: its " + kind.one()
                        + " is not in the probes' list (probes." + (kind == Kind.QUEUE ? "queues" : "ports") + ")");
                }
                yield new Value.Gauge(label, series);
            }
        };
    }

    /** @return every attribute sampled for {@code kind}, as (name, attribute) pairs, in name order */
    public List<String[]> sampled(Kind kind, String attribute) {
        List<String[]> out = new ArrayList<>();
        for (String n : names.get(kind)) {
            if (columns.containsKey(key(kind, n, attribute))) {
                out.add(new String[] {n, attribute});
            }
        }
        return out;
    }

    /** One sampled series, as {@link RunArchive} keeps it: the values at {@link #times()}. */
    record Column(Kind kind, String name, String attribute, double[] values) {
    }

    /** One value at the end of the run, as {@link RunArchive} keeps it. */
    record Total(Kind kind, String name, String attribute, double value) {
    }

    /** @return every sampled series, ordered by kind, name and attribute */
    List<Column> columns() {
        List<Column> out = new ArrayList<>();
        for (Map.Entry<String, double[]> e : columns.entrySet()) {
            String[] k = e.getKey().split("\u0000", -1);
            out.add(new Column(Kind.values()[Integer.parseInt(k[0])], k[1], k[2], Arrays.copyOf(e.getValue(), samples)));
        }
        out.sort(java.util.Comparator.comparing((Column c) -> c.kind()).thenComparing(Column::name)
            .thenComparing(Column::attribute));
        return out;
    }

    /** @return every value at the end, ordered by kind, name and attribute */
    List<Total> totals() {
        List<Total> out = new ArrayList<>();
        for (Map.Entry<String, Double> e : totals.entrySet()) {
            String[] k = e.getKey().split("\u0000", -1);
            out.add(new Total(Kind.values()[Integer.parseInt(k[0])], k[1], k[2], e.getValue()));
        }
        out.sort(java.util.Comparator.comparing((Total t) -> t.kind()).thenComparing(Total::name)
            .thenComparing(Total::attribute));
        return out;
    }

    /** @return the data {@link #columns()} and {@link #totals()} came from, whole again ({@link RunArchive}) */
    static RunData restore(String variant, long durationNanos, Set<String> probes, Map<Kind, List<String>> names,
                           double[] times, List<Column> columns, List<Total> totals) {
        RunData d = new RunData(variant, durationNanos, probes, names);
        d.times = Arrays.copyOf(times, Math.max(times.length, 1));
        d.samples = times.length;
        for (Column c : columns) {
            if (c.values().length != times.length) {
                throw new IllegalArgumentException(c.name() + "." + c.attribute() + ": " + c.values().length
                    + " samples, not " + times.length);
            }
            d.columns.put(key(c.kind(), c.name(), c.attribute()), c.values().clone());
        }
        for (Total t : totals) {
            d.totals.put(key(t.kind(), t.name(), t.attribute()), t.value());
        }
        return d;
    }
}
