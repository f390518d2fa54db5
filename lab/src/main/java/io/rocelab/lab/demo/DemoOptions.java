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
}
