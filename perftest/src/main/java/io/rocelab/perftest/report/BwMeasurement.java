package io.rocelab.perftest.report;

import java.util.Objects;

/**
 * The raw numbers of one bandwidth run, in the shape perftest keeps them: for every message the
 * tick at which it was posted and the tick at which its completion was seen. Only the times of
 * signalled completions matter (every {@code cqMod}-th one, and the last), as in perftest.
 *
 * <p>Ticks are whatever clock the data path uses (nanoseconds for rocelab, CPU cycles for
 * perftest); {@code ticksPerSecond} converts them.
 *
 * @param messageSize    bytes per message
 * @param iterations     messages per QP in an iteration run, or all messages counted in a
 *                       {@code -D} run
 * @param numQps         QPs that each sent {@code iterations} messages (iteration runs)
 * @param postList       messages posted per post call ({@code -l}); the peak search steps by it
 * @param cqMod          one signalled completion per {@code cqMod} messages ({@code -Q})
 * @param noPeak         true when no peak is computed ({@code -N}, {@code -D}, more than 20000
 *                       iterations, a send server): only {@code completed[0]} then holds the end
 * @param durationMode   a {@code -D} or {@code --run_infinitely} run: iterations is the total
 * @param repeatFactor   2 for a bidirectional {@code --run_infinitely} RDMA run, whose counters
 *                       cover one direction only; otherwise 1
 * @param posted         post tick of each message (only {@code posted[0]} when noPeak)
 * @param completed      completion tick of each message (only {@code completed[0]} when noPeak)
 * @param ticksPerSecond clock rate of the ticks
 */
public record BwMeasurement(long messageSize, long iterations, int numQps, int postList, int cqMod,
                            boolean noPeak, boolean durationMode, int repeatFactor,
                            long[] posted, long[] completed, double ticksPerSecond) {

    public BwMeasurement {
        Objects.requireNonNull(posted, "posted");
        Objects.requireNonNull(completed, "completed");
        if (posted.length == 0 || completed.length == 0) {
            throw new IllegalArgumentException("posted and completed need at least one tick");
        }
        if (numQps < 1 || postList < 1 || cqMod < 1 || repeatFactor < 1) {
            throw new IllegalArgumentException("numQps, postList, cqMod and repeatFactor must be at least 1");
        }
        if (!noPeak) {
            long needed = iterations * numQps;
            if (posted.length < needed || completed.length < needed) {
                throw new IllegalArgumentException("peak needs a post and completion tick for each of the "
                        + needed + " messages");
            }
        }
    }

    /**
     * A run summarised by its first post and its last completion, with no peak: what a
     * {@code -D} run or a run without per-message times gives.
     */
    public static BwMeasurement total(long messageSize, long messages, long firstPostTick, long lastCompletionTick,
                                      double ticksPerSecond) {
        return new BwMeasurement(messageSize, messages, 1, 1, 1, true, true, 1,
                new long[] {firstPostTick}, new long[] {lastCompletionTick}, ticksPerSecond);
    }
}
