package io.rocelab.lab.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A trace of CNP arrival times for {@code rocelab dcqcn replay}: CSV whose first column is the time
 * in microseconds, after a header line whose first column is {@code time_us}; further columns are
 * ignored, as are blank lines and lines starting with {@code #}. Times must not go back.
 */
final class CnpTrace {
    static final String HEADER = "time_us";

    private CnpTrace() {
    }

    /**
     * @return the arrival times in nanoseconds
     * @throws UserError naming the file and the line for every mistake
     */
    static long[] read(Path file) {
        if (!Files.exists(file)) {
            throw new UserError("no such file: " + file);
        }
        if (Files.isDirectory(file)) {
            throw new UserError(file + " is a directory, not a CNP trace");
        }
        long[] times = new long[64];
        int n = 0;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            boolean header = false;
            int lineNumber = 0;
            for (String line; (line = in.readLine()) != null; ) {
                lineNumber++;
                String trimmed = line.strip();
                if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                    continue;
                }
                String first = firstColumn(trimmed);
                if (!header) {
                    if (!first.equals(HEADER)) {
                        throw new UserError(file + ":" + lineNumber + ": the first line must be the header '" + HEADER
                            + "', not '" + first + "'");
                    }
                    header = true;
                    continue;
                }
                long t = micros(first, file, lineNumber);
                if (n > 0 && t < times[n - 1]) {
                    throw new UserError(file + ":" + lineNumber + ": time " + first
                        + " us is before the one on the line before it");
                }
                if (n == times.length) {
                    times = Arrays.copyOf(times, n * 2);
                }
                times[n++] = t;
            }
            if (!header) {
                throw new UserError(file + ": empty trace: the first line must be the header '" + HEADER + "'");
            }
        } catch (IOException e) {
            throw new UserError("cannot read " + file + ": " + e.getMessage());
        }
        return Arrays.copyOf(times, n);
    }

    private static String firstColumn(String line) {
        int comma = line.indexOf(',');
        return (comma < 0 ? line : line.substring(0, comma)).strip();
    }

    private static long micros(String text, Path file, int lineNumber) {
        try {
            BigDecimal us = new BigDecimal(text);
            if (us.signum() < 0) {
                throw new UserError(file + ":" + lineNumber + ": time must be >= 0 us: " + text);
            }
            return us.movePointRight(3).setScale(0, RoundingMode.HALF_UP).longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw new UserError(file + ":" + lineNumber + ": not a time in microseconds: '" + text + "'");
        }
    }
}
