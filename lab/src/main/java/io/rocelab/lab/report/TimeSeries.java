package io.rocelab.lab.report;

import java.util.Arrays;
import java.util.Objects;

/**
 * One named series of samples over time (microseconds), e.g. a flow's rate or a queue's depth:
 * what a plot draws and a CSV column holds. Appends only; owner thread.
 */
public final class TimeSeries {
    private final String name;
    private final String unit;
    private double[] timesUs = new double[256];
    private double[] values = new double[256];
    private int size;

    public TimeSeries(String name, String unit) {
        this.name = Objects.requireNonNull(name, "name");
        this.unit = Objects.requireNonNull(unit, "unit");
    }

    public String name() {
        return name;
    }

    public String unit() {
        return unit;
    }

    public void add(double timeUs, double value) {
        if (size == timesUs.length) {
            timesUs = Arrays.copyOf(timesUs, size * 2);
            values = Arrays.copyOf(values, size * 2);
        }
        timesUs[size] = timeUs;
        values[size] = value;
        size++;
    }

    public int size() {
        return size;
    }

    public double timeUs(int i) {
        Objects.checkIndex(i, size);
        return timesUs[i];
    }

    public double value(int i) {
        Objects.checkIndex(i, size);
        return values[i];
    }

    public double[] timesUs() {
        return Arrays.copyOf(timesUs, size);
    }

    public double[] values() {
        return Arrays.copyOf(values, size);
    }

    /** The mean of the samples taken at or after {@code fromUs}, or NaN if none. */
    public double meanFrom(double fromUs) {
        double sum = 0;
        int n = 0;
        for (int i = 0; i < size; i++) {
            if (timesUs[i] >= fromUs) {
                sum += values[i];
                n++;
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    /** The largest sample at or after {@code fromUs}, or NaN if none. */
    public double maxFrom(double fromUs) {
        double max = Double.NaN;
        for (int i = 0; i < size; i++) {
            if (timesUs[i] >= fromUs && !(values[i] <= max)) {
                max = values[i];
            }
        }
        return max;
    }
}
