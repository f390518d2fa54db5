package io.rocelab.lab.expect;

import java.util.Arrays;

/**
 * Samples of a metric over time: times in seconds from the start of the run, values in the metric's
 * unit. A gauge (a rate, a queue's depth, a pause state) or, under a counter, its running total.
 */
public record Series(double[] timesSeconds, double[] values) {
    public Series {
        if (timesSeconds.length != values.length) {
            throw new IllegalArgumentException("times and values differ in length");
        }
    }

    public int size() {
        return values.length;
    }

    /** @return the values sampled in [from, to] */
    public double[] window(double from, double to) {
        int n = 0;
        double[] out = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            if (timesSeconds[i] >= from && timesSeconds[i] <= to) {
                out[n++] = values[i];
            }
        }
        return Arrays.copyOf(out, n);
    }

    /** @return the time of the first sample above {@code threshold}, infinity if none */
    public double firstAbove(double threshold) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] > threshold) {
                return timesSeconds[i];
            }
        }
        return Double.POSITIVE_INFINITY;
    }

    /** @return the last value sampled at or before {@code t}, or {@code otherwise} */
    public double at(double t, double otherwise) {
        double v = otherwise;
        for (int i = 0; i < values.length && timesSeconds[i] <= t; i++) {
            v = values[i];
        }
        return v;
    }

    /** @return this series plus {@code other}, sample by sample (both sampled at the same times) */
    public Series plus(Series other) {
        double[] v = values.clone();
        for (int i = 0; i < Math.min(v.length, other.values.length); i++) {
            v[i] += other.values[i];
        }
        return new Series(timesSeconds, v);
    }
}
