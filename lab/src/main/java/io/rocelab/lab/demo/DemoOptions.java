package io.rocelab.lab.demo;

import java.nio.file.Path;
import java.util.List;

/**
 * What {@code rocelab demo} runs.
 *
 * @param size              ib_write_bw message size in bytes ({@code -s})
 * @param iterations        ib_write_bw iterations ({@code -n}), or 0 with a duration
 * @param durationSeconds   ib_write_bw duration ({@code -D}), or 0 with iterations
 * @param latIterations     ib_read_lat iterations ({@code -n})
 * @param capture           the pcapng to write, or null for none
 * @param framesPerPort     frames kept per switch port in each test
 * @param congestion        whether the congestion act runs (2:1 incast with DCQCN, in virtual time)
 * @param warmup            whether a throwaway copy of the lab moves {@link #WARMUP_BYTES} first, so that
 *                          the JIT has compiled the data path before the measured tests
 */
public record DemoOptions(long size, int iterations, int durationSeconds, int latIterations, Path capture,
                          int framesPerPort, boolean congestion, boolean warmup) {
    public static final long DEFAULT_SIZE = 65536;
    /** perftest's default for the bandwidth tools. */
    public static final int DEFAULT_ITERATIONS = 5000;
    public static final int DEFAULT_LAT_ITERATIONS = 1000;
    public static final String DEFAULT_CAPTURE = "rocelab-demo.pcapng";
    public static final int DEFAULT_FRAMES_PER_PORT = 500;
    static final long MAX_SIZE = 8L << 20;
    static final int MAX_ITERATIONS = 100_000;
    static final int MAX_DURATION = 30;
    /**
     * The QPs' local ACK timeout exponent, perftest's {@code -u}: 18 (4.096 µs × 2^18 = 1.07 s), not
     * perftest's 14 (67 ms). Why: both hosts, the leaf and the tools are threads of this process on
     * the machine's shared cores, not a NIC's pipeline; at load 7-8 on 2 cores a thread here waited
     * 90-130 ms for a core with nothing lost, past 67 ms, and host-a resent its whole window (1-5
     * times per run). UDP endpoint mode does the same for the same reason; a lost frame is still
     * found by the receiver's sequence NAK on the next one, or by this timer for a lost tail.
     */
    static final int QP_TIMEOUT = 18;
    /**
     * What the warm-up writes: a JVM runs a fresh data path in its interpreter and first compiler for
     * its first few hundred megabytes; the demo's 5000 × 64 KB alone would measure mostly that.
     */
    static final long WARMUP_BYTES = 1L << 30;
    /** The warm-up's message size: the demo's default, whatever the measured tests use. */
    static final long WARMUP_MESSAGE = 65536;

    public static DemoOptions defaults() {
        return new DemoOptions(DEFAULT_SIZE, DEFAULT_ITERATIONS, 0, DEFAULT_LAT_ITERATIONS, Path.of(DEFAULT_CAPTURE),
            DEFAULT_FRAMES_PER_PORT, true, true);
    }

    /**
     * Reads the demo's command line.
     *
     * @throws IllegalArgumentException with a one-line message naming what is wrong
     */
    public static DemoOptions parse(List<String> args) {
        long size = DEFAULT_SIZE;
        Integer iters = null;
        Integer duration = null;
        int latIters = DEFAULT_LAT_ITERATIONS;
        String capture = null;
        boolean noCapture = false;
        boolean congestion = true;
        boolean warmup = true;
        int frames = DEFAULT_FRAMES_PER_PORT;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String name = a;
            String value = null;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                name = a.substring(0, eq);
                value = a.substring(eq + 1);
            }
            switch (name) {
                case "--size" -> size = number(name, value != null ? value : value(args, ++i, name), 1, MAX_SIZE);
                case "--iters" -> iters = (int) number(name, value != null ? value : value(args, ++i, name), 5,
                    MAX_ITERATIONS);
                case "--duration" -> duration = (int) number(name, value != null ? value : value(args, ++i, name), 1,
                    MAX_DURATION);
                case "--lat-iters" -> latIters = (int) number(name, value != null ? value : value(args, ++i, name), 5,
                    MAX_ITERATIONS);
                case "--capture-frames" -> frames = (int) number(name, value != null ? value
                    : value(args, ++i, name), 0, MAX_ITERATIONS);
                case "--capture" -> {
                    capture = value != null ? value : value(args, ++i, name);
                    if (capture.isEmpty()) {
                        throw new IllegalArgumentException("--capture needs a file name");
                    }
                }
                case "--no-congestion" -> {
                    if (value != null) {
                        throw new IllegalArgumentException("--no-congestion takes no value");
                    }
                    congestion = false;
                }
                case "--no-warmup" -> {
                    if (value != null) {
                        throw new IllegalArgumentException("--no-warmup takes no value");
                    }
                    warmup = false;
                }
                case "--no-capture" -> {
                    if (value != null) {
                        throw new IllegalArgumentException("--no-capture takes no value");
                    }
                    noCapture = true;
                }
                default -> throw new IllegalArgumentException(a.startsWith("-")
                    ? "unknown option '" + a + "' (options: --size, --iters, --duration, --lat-iters, --capture,"
                        + " --capture-frames, --no-capture, --no-congestion, --no-warmup)"
                    : "unexpected argument '" + a + "': the demo takes options only");
            }
        }
        if (iters != null && duration != null) {
            throw new IllegalArgumentException("--iters and --duration both set the length of ib_write_bw; give one");
        }
        if (noCapture && capture != null) {
            throw new IllegalArgumentException("--capture and --no-capture contradict each other; give one");
        }
        int n = duration != null ? 0 : iters != null ? iters : DEFAULT_ITERATIONS;
        Path file;
        try {
            file = noCapture ? null : Path.of(capture != null ? capture : DEFAULT_CAPTURE);
        } catch (java.nio.file.InvalidPathException e) {
            throw new IllegalArgumentException("--capture: '" + capture + "' is not a file name");
        }
        return new DemoOptions(size, n, duration != null ? duration : 0, latIters, file, frames, congestion, warmup);
    }

    /** perftest's flags for the warm-up's ib_write_bw. */
    public List<String> warmupArgs() {
        return List.of("-s", String.valueOf(WARMUP_MESSAGE), "-n", String.valueOf(WARMUP_BYTES / WARMUP_MESSAGE), "-u",
            String.valueOf(QP_TIMEOUT));
    }

    /** perftest's flags for ib_write_bw (no server address). */
    public List<String> writeBwArgs() {
        return durationSeconds > 0
            ? List.of("-s", String.valueOf(size), "-D", String.valueOf(durationSeconds), "-u", String.valueOf(QP_TIMEOUT))
            : List.of("-s", String.valueOf(size), "-n", String.valueOf(iterations), "-u", String.valueOf(QP_TIMEOUT));
    }

    /** perftest's flags for ib_read_lat (no server address). */
    public List<String> readLatArgs() {
        return List.of("-n", String.valueOf(latIterations), "-u", String.valueOf(QP_TIMEOUT));
    }

    private static String value(List<String> args, int i, String name) {
        if (i >= args.size()) {
            throw new IllegalArgumentException(name + " needs a value");
        }
        return args.get(i);
    }

    private static long number(String name, String text, long min, long max) {
        long v;
        try {
            v = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " wants a whole number " + min + ".." + max + ", got '" + text
                + "'");
        }
        if (v < min || v > max) {
            throw new IllegalArgumentException(name + " must be " + min + ".." + max + ", got " + v);
        }
        return v;
    }
}
