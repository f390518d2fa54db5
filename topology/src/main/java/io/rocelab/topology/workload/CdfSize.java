package io.rocelab.topology.workload;

import io.rocelab.fabric.random.SplitMix64;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Locale;

/**
 * An empirical CDF: points (size, cumulative percent), sampled by inverting the piecewise-linear
 * CDF through them.
 */
final class CdfSize implements SizeDistribution {
    private final String name;
    private final long[] sizes;
    private final double[] percents;
    private final double mean;

    private CdfSize(String name, long[] sizes, double[] percents) {
        this.name = name;
        this.sizes = sizes;
        this.percents = percents;
        double m = sizes[0] * percents[0];
        for (int i = 1; i < sizes.length; i++) {
            m += (sizes[i] + sizes[i - 1]) / 2.0 * (percents[i] - percents[i - 1]);
        }
        this.mean = m / 100;
    }

    static CdfSize parse(String name, Reader text) {
        long[] xs = new long[16];
        double[] ys = new double[16];
        int n = 0;
        int lineNo = 0;
        try {
            BufferedReader r = text instanceof BufferedReader b ? b : new BufferedReader(text);
            for (String line; (line = r.readLine()) != null; ) {
                lineNo++;
                int hash = line.indexOf('#');
                String body = (hash >= 0 ? line.substring(0, hash) : line).trim();
                if (body.isEmpty()) {
                    continue;
                }
                String where = name + " line " + lineNo + ": ";
                String[] cols = body.split("\\s+");
                if (cols.length != 2) {
                    throw new IllegalArgumentException(where + "expected two columns, size in bytes and cumulative"
                        + " percent, got " + cols.length + ": '" + body + "'");
                }
                long x = size(where, cols[0]);
                double y;
                try {
                    y = Double.parseDouble(cols[1]);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(where + "percent is not a number: '" + cols[1] + "'");
                }
                if (!(y >= 0 && y <= 100)) {
                    throw new IllegalArgumentException(where + "percent must be 0..100, not " + cols[1]);
                }
                if (n > 0 && x <= xs[n - 1]) {
                    throw new IllegalArgumentException(where + "sizes must ascend: " + x + " after " + xs[n - 1]);
                }
                if (n > 0 && y < ys[n - 1]) {
                    throw new IllegalArgumentException(where + "percents must ascend: " + cols[1] + " after "
                        + fmt(ys[n - 1]));
                }
                if (n > 0 && ys[n - 1] == 100) {
                    throw new IllegalArgumentException(where + "a point after the one at 100 %");
                }
                if (n == xs.length) {
                    xs = Arrays.copyOf(xs, n * 2);
                    ys = Arrays.copyOf(ys, n * 2);
                }
                xs[n] = x;
                ys[n] = y;
                n++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": " + e.getMessage(), e);
        }
        if (n == 0) {
            throw new IllegalArgumentException(name + ": no points (lines of size and cumulative percent)");
        }
        if (ys[n - 1] != 100) {
            throw new IllegalArgumentException(name + " line " + lineNo + ": the last point must be at 100 %, not "
                + fmt(ys[n - 1]));
        }
        return new CdfSize(name, Arrays.copyOf(xs, n), Arrays.copyOf(ys, n));
    }

    private static long size(String where, String col) {
        try {
            double d = Double.parseDouble(col); // "1e6" and "30000000.0" are sizes too
            if (!(d >= 0) || d > Long.MAX_VALUE / 2 || d != Math.rint(d)) {
                throw new IllegalArgumentException(where + "size must be a whole number of bytes >= 0, not '" + col
                    + "'");
            }
            return (long) d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(where + "size is not a number: '" + col + "'");
        }
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    @Override
    public long sample(SplitMix64 random) {
        double u = random.nextDouble() * 100;
        return Math.max(1, Math.round(valueAt(u)));
    }

    /** The size at cumulative percent {@code u} (0 <= u < 100). */
    double valueAt(double u) {
        if (u < percents[0]) {
            return sizes[0];
        }
        int i = 1;
        while (i < sizes.length - 1 && u >= percents[i]) {
            i++;
        }
        double y0 = percents[i - 1];
        double y1 = percents[i];
        if (y1 == y0) {
            return sizes[i];
        }
        return sizes[i - 1] + (sizes[i] - sizes[i - 1]) * (u - y0) / (y1 - y0);
    }

    /** @return the cumulative probability (0..1) of a sample being at most {@code bytes} (before rounding) */
    double cdfAt(double bytes) {
        if (bytes < sizes[0]) {
            return 0;
        }
        for (int i = 1; i < sizes.length; i++) {
            if (bytes < sizes[i]) {
                return (percents[i - 1] + (percents[i] - percents[i - 1]) * (bytes - sizes[i - 1])
                    / (sizes[i] - sizes[i - 1])) / 100;
            }
        }
        return 1;
    }

    @Override
    public double meanBytes() {
        return mean;
    }

    @Override
    public long maxBytes() {
        return Math.max(1, sizes[sizes.length - 1]);
    }

    @Override
    public String describe() {
        return "cdf " + name + " (mean " + human(mean) + ")";
    }

    static String human(double bytes) {
        if (bytes >= 1e6) {
            return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
        }
        if (bytes >= 1e3) {
            return String.format(Locale.ROOT, "%.1f KB", bytes / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f B", bytes);
    }

    @Override
    public String toString() {
        return describe();
    }
}
