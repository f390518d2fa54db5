package io.rocelab.lab.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** Time series as CSV: one column of times, one per series, sampled at the same times. */
public final class Csv {
    private Csv() {
    }

    /**
     * Writes {@code series} (all sampled at the same times) to {@code file}: header
     * {@code time_us,<name>...}, one row per sample.
     *
     * @throws IllegalArgumentException if the series were not sampled at the same times
     */
    public static void write(Path file, List<TimeSeries> series) {
        int rows = series.isEmpty() ? 0 : series.get(0).size();
        for (TimeSeries s : series) {
            if (s.size() != rows) {
                throw new IllegalArgumentException("series " + s.name() + " has " + s.size() + " samples, not " + rows);
            }
        }
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("time_us");
            for (TimeSeries s : series) {
                w.write(',');
                w.write(s.name());
            }
            w.write('\n');
            for (int i = 0; i < rows; i++) {
                w.write(number(series.get(0).timeUs(i)));
                for (TimeSeries s : series) {
                    w.write(',');
                    w.write(number(s.value(i)));
                }
                w.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return String.format(Locale.ROOT, "%.6f", v);
    }
}
