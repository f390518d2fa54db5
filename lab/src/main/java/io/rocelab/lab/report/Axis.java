package io.rocelab.lab.report;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * One axis of a plot as a reader wants it: from zero (or, for a time axis cut to where something
 * happens, a round start) to a round end, ticked every 1, 2 or 5 x 10^k units, so that the labels
 * read 0, 20, 40 ... rather than where the samples happen to fall.
 *
 * @param title what the axis shows, with its unit, e.g. {@code time (ms)}
 * @param min   its start: zero, or a whole number of steps
 * @param max   its end, a whole number of steps
 * @param step  the distance between ticks: 1, 2 or 5 times a power of ten
 */
public record Axis(String title, double min, double max, double step) {
    /** Most intervals between ticks on an axis (at least half as many are drawn). */
    public static final int MAX_INTERVALS = 8;

    /** The axis from zero to {@code max}. */
    public Axis(String title, double max, double step) {
        this(title, 0, max, step);
    }

    /**
     * The axis from zero that holds {@code dataMax}, at most {@link #MAX_INTERVALS} steps.
     *
     * @param minStep the smallest step allowed (1 for counts), 0 for none
     */
    public static Axis upTo(String title, double dataMax, double minStep) {
        double top = Double.isFinite(dataMax) && dataMax > 0 ? dataMax : Math.max(minStep, 1);
        double step = niceStep(top / MAX_INTERVALS);
        if (step < minStep) {
            step = niceStep(minStep);
        }
        long n = (long) Math.ceil(top / step - 1e-9);
        return new Axis(title, clean(Math.max(1, n) * step), step);
    }

    /**
     * The axis from a round start at or before {@code dataMin} to a round end at or after
     * {@code dataMax}, at most {@link #MAX_INTERVALS} steps; {@link #upTo} where {@code dataMin} is 0.
     */
    public static Axis between(String title, double dataMin, double dataMax, double minStep) {
        if (!(dataMin > 0) || !(dataMax > dataMin)) {
            return upTo(title, dataMax, minStep);
        }
        double step = Math.max(niceStep((dataMax - dataMin) / MAX_INTERVALS), minStep > 0 ? niceStep(minStep) : 0);
        while (true) {
            double from = clean(Math.floor(dataMin / step + 1e-9) * step);
            long n = (long) Math.ceil((dataMax - from) / step - 1e-9);
            if (n <= MAX_INTERVALS) {
                return new Axis(title, from, clean(from + Math.max(1, n) * step), step);
            }
            step = niceStep(step * (1 + 1e-9));
        }
    }

    /** The smallest 1, 2 or 5 x 10^k at least {@code raw}. */
    static double niceStep(double raw) {
        int k = (int) Math.floor(Math.log10(raw));
        for (int m : new int[] {1, 2, 5, 10}) {
            double s = clean(m * Math.pow(10, k));
            if (s >= raw * (1 - 1e-12)) {
                return s;
            }
        }
        return clean(Math.pow(10, k + 1));
    }

    /** A double rounded to 12 significant digits: 0.30000000000000004 becomes 0.3. */
    private static double clean(double v) {
        return new BigDecimal(v).round(new java.math.MathContext(12)).doubleValue();
    }

    /** @return the tick positions, min, min + step ... max */
    public double[] ticks() {
        int n = (int) Math.round((max - min) / step);
        double[] t = new double[n + 1];
        for (int i = 0; i <= n; i++) {
            t[i] = clean(min + i * step);
        }
        return t;
    }

    /** @return whether {@code v} is 1, 2 or 5 times a power of ten */
    public static boolean isOneTwoFive(double v) {
        if (!(v > 0) || !Double.isFinite(v)) {
            return false;
        }
        double m = v / Math.pow(10, Math.floor(Math.log10(v) + 1e-9));
        return Math.abs(m - 1) < 1e-9 || Math.abs(m - 2) < 1e-9 || Math.abs(m - 5) < 1e-9;
    }

    /** @return a tick's label: as many decimals as the step needs, no more */
    public String label(double tick) {
        int decimals = Math.max(0, -(int) Math.floor(Math.log10(step) + 1e-9));
        return String.format(Locale.ROOT, "%." + decimals + "f", tick);
    }

    /** The time axis of a run of {@code durationUs}: microseconds, milliseconds or seconds, whichever reads. */
    public static Axis time(double durationUs) {
        TimeUnit u = TimeUnit.of(durationUs);
        return upTo("time (" + u.symbol() + ")", durationUs / u.us(), 0);
    }

    /**
     * The time axis of the part of a run from {@code fromUs} to {@code toUs} (a run whose flows start
     * late, cut to where they send): in the unit of that part's length, from a round time at or
     * before {@code fromUs}; {@link #time(double)} where {@code fromUs} is 0.
     */
    public static Axis time(double fromUs, double toUs) {
        TimeUnit u = TimeUnit.of(toUs - fromUs);
        return between("time (" + u.symbol() + ")", fromUs / u.us(), toUs / u.us(), 0);
    }

    /** The unit a run's time axis is in: us below 2 ms, ms below 2 s, else s. */
    public record TimeUnit(String symbol, double us) {
        public static TimeUnit of(double durationUs) {
            if (durationUs >= 2e6) {
                return new TimeUnit("s", 1e6);
            }
            return durationUs >= 2e3 ? new TimeUnit("ms", 1e3) : new TimeUnit("us", 1);
        }
    }
}
