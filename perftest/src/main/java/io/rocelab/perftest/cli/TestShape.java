package io.rocelab.perftest.cli;

import io.rocelab.perftest.TestKind;

/**
 * What a perftest run measures (the settings of {@link TestShapeFlags}): the message size or
 * sizes, how long the run lasts — a number of iterations, a duration or until stopped — and how
 * many QPs carry traffic in which direction. Values are the ones the run uses, after perftest's
 * adjustments ({@code force_dependecies}), not what the user typed.
 *
 * @param size          message size in bytes ({@code -s}); with {@code -a} the largest size,
 *                      {@link #MAX_SIZE}, for buffer sizing
 * @param sizeRequested true when {@code -s} was given, rather than the tool's default size taken
 * @param runAll        {@code -a}: run every power-of-two size from 2 bytes to {@link #MAX_SIZE}
 * @param iterations    {@code -n}: exchanges per size; 0 in {@code -D} and {@code --run_infinitely}
 *                      runs
 * @param durationSeconds {@code -D}: seconds to run (also the reporting period of
 *                      {@code --run_infinitely}); perftest's default is 5
 * @param durationMode  true for a {@code -D} or {@code --run_infinitely} run
 * @param marginSeconds {@code -f}: seconds excluded from the measurement at each end of a {@code -D}
 *                      run; -1 until perftest's default (a quarter of the duration) is applied
 * @param runInfinitely {@code --run_infinitely}: report every {@code -D} seconds until stopped
 * @param bidirectional {@code -b}: both sides send (bandwidth tests only)
 * @param numQps        {@code -q}: QPs carrying traffic (bandwidth tests only)
 * @param warmUp        {@code --perform_warm_up}: post a round of work requests before measuring
 */
public record TestShape(long size, boolean sizeRequested, boolean runAll, long iterations, int durationSeconds,
                        boolean durationMode, int marginSeconds, boolean runInfinitely, boolean bidirectional,
                        int numQps, boolean warmUp) {

    /** perftest's {@code MAX_SIZE}: the largest message, and the last size of {@code -a}. */
    public static final long MAX_SIZE = 8_388_608;

    /** perftest's {@code MIN_ITER}: the fewest iterations {@code -n} takes. */
    static final int MIN_ITERATIONS = 5;

    /** perftest's {@code MAX_QP_NUM}: the most QPs {@code -q} takes. */
    static final int MAX_QPS = 16384;

    /** Above this many iterations perftest's bandwidth tests compute no peak ({@code force_dependecies}). */
    static final int NO_PEAK_ITERATIONS = 20000;

    /**
     * perftest's {@code -s}: a number, optionally followed by K (KiB) or M (MiB), between 1 byte
     * and {@link #MAX_SIZE}.
     */
    static long parseSize(String text) {
        long factor = 1;
        String digits = text;
        if (text.endsWith("K")) {
            factor = 1024;
            digits = text.substring(0, text.length() - 1);
        } else if (text.endsWith("M")) {
            factor = 1024 * 1024;
            digits = text.substring(0, text.length() - 1);
        }
        Long v = CNumbers.parse(digits);
        if (v == null) {
            throw new OptionException(" Message Size argument " + text
                    + " should be an integer, optionally followed by K or M");
        }
        long size = v > MAX_SIZE ? v : v * factor;
        if (size < 1 || size > MAX_SIZE) {
            throw new OptionException(" Message Size should be between 1 and " + MAX_SIZE);
        }
        return size;
    }

    /** The settings while perftest's rules fill them in; starts at the tool's defaults. */
    static final class Builder {
        long size;
        boolean sizeRequested = false;
        boolean runAll = false;
        long iterations;
        int durationSeconds = 5;
        boolean durationMode = false;
        int marginSeconds = -1;
        boolean runInfinitely = false;
        boolean bidirectional = false;
        int numQps = 1;
        boolean warmUp = false;

        Builder(TestKind kind) {
            size = kind.defaultSize();
            iterations = kind.defaultIterations();
        }

        Builder(TestShape s) {
            size = s.size;
            sizeRequested = s.sizeRequested;
            runAll = s.runAll;
            iterations = s.iterations;
            durationSeconds = s.durationSeconds;
            durationMode = s.durationMode;
            marginSeconds = s.marginSeconds;
            runInfinitely = s.runInfinitely;
            bidirectional = s.bidirectional;
            numQps = s.numQps;
            warmUp = s.warmUp;
        }

        TestShape build() {
            return new TestShape(size, sizeRequested, runAll, iterations, durationSeconds, durationMode,
                    marginSeconds, runInfinitely, bidirectional, numQps, warmUp);
        }
    }
}
