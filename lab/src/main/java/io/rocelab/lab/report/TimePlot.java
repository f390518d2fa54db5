package io.rocelab.lab.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What one plot over time draws, before it is drawn: its axes (from zero, or for time from where a
 * late-starting run's flows begin; round ticks; time in the unit of the span drawn) and its lines, each with its legend name and style. {@link Plots#render} draws it;
 * tests read it.
 *
 * @param title the plot's title
 * @param x     the time axis
 * @param y     the value axis
 * @param lines in drawing order
 */
public record TimePlot(String title, Axis x, Axis y, List<Line> lines) {
    /** How a line is drawn. */
    public enum Style {
        /** A solid line. */
        SOLID,
        /** A dashed line: a second series of the same thing (a flow's congestion-control rate). */
        DASHED,
        /** A step function: a state or a count that holds until the next sample. */
        STEP,
        /** A shaded band between {@link Line#low} and {@link Line#y}: the spread of many series. */
        BAND
    }

    /**
     * One line (or band) of the plot.
     *
     * @param name   its name in the legend
     * @param x      times, in the time axis's unit
     * @param y      values, in the value axis's unit (a band's upper edge)
     * @param low    a band's lower edge, else null
     * @param colour index into the plot's palette: a flow's dashed line has its solid line's colour
     */
    public record Line(String name, double[] x, double[] y, double[] low, Style style, int colour) {
        public Line {
            Objects.requireNonNull(name, "name");
            if (x.length != y.length || (low != null && low.length != y.length)) {
                throw new IllegalArgumentException(name + ": " + x.length + " times, " + y.length + " values");
            }
        }

        /** @return the largest value drawn (NaN if none) */
        public double max() {
            return Arrays.stream(y).filter(Double::isFinite).max().orElse(Double.NaN);
        }
    }

    public TimePlot {
        lines = List.copyOf(lines);
    }

    /** @return the line named {@code name} */
    public Line line(String name) {
        return lines.stream().filter(l -> l.name().equals(name)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("no line " + name + " in " + names()));
    }

    /** @return the legend's names, in order */
    public List<String> names() {
        return lines.stream().map(Line::name).toList();
    }

    /**
     * A plot of {@code series} as they are (queue depths, counts), one line each, named as the series.
     *
     * @param timesUs    the sample times, us
     * @param durationUs the run's length: the time axis's end
     * @param minStep    the value axis's smallest step (1 for counts)
     */
    public static TimePlot of(String title, String yTitle, double durationUs, List<TimeSeries> series, Style style,
                              double minStep) {
        return of(title, yTitle, 0, durationUs, series, style, minStep);
    }

    /**
     * A plot of {@code series} from {@code fromUs} on (its axis from a round time at or before it):
     * the part of a run in which its flows send, when they start late ({@link FlowRatePlot#startUs}).
     *
     * @param fromUs     where the time axis may start, us (0: the run's start)
     * @param durationUs the run's length: the time axis's end
     * @param minStep    the value axis's smallest step (1 for counts)
     */
    public static TimePlot of(String title, String yTitle, double fromUs, double durationUs, List<TimeSeries> series,
                              Style style, double minStep) {
        Axis xAxis = Axis.time(fromUs, durationUs);
        Axis.TimeUnit unit = Axis.TimeUnit.of(durationUs - fromUs);
        double startUs = xAxis.min() * unit.us();
        List<Line> lines = new ArrayList<>();
        for (TimeSeries s : series) {
            double[] t = s.timesUs();
            int k = firstAtOrAfter(t, startUs);
            double[] x = Arrays.copyOfRange(t, k, t.length);
            for (int i = 0; i < x.length; i++) {
                x[i] /= unit.us();
            }
            double[] v = s.values();
            lines.add(new Line(s.name(), x, Arrays.copyOfRange(v, k, v.length), null, style, lines.size()));
        }
        return new TimePlot(title, xAxis, Axis.upTo(yTitle, maxOf(lines), minStep), lines);
    }

    /** The index of the first of the ascending {@code timesUs} at or after {@code us} (its length if none). */
    static int firstAtOrAfter(double[] timesUs, double us) {
        int k = 0;
        while (k < timesUs.length && timesUs[k] < us - 1e-6) {
            k++;
        }
        return k;
    }

    static double maxOf(List<Line> lines) {
        double m = 0;
        for (Line l : lines) {
            double v = l.max();
            if (v > m) {
                m = v;
            }
        }
        return m;
    }
}
