package io.rocelab.topology.collective;

import java.util.List;

/**
 * One iteration of a collective. Times are nanoseconds from the start of the {@link Collectives}.
 *
 * @param index            0 for the first (warm-up iterations included)
 * @param warmup           whether it is a warm-up iteration (not counted)
 * @param startNanos       when its first rank started
 * @param endNanos         when its last rank finished (every byte it receives landed, every send completed)
 * @param slowestRank      the rank that finished last
 * @param slowestStep      the step that took longest at any rank (from the rank's previous step's
 *                         data landing, or the iteration's start, to this step's data landing)
 * @param slowestStepRank  the rank at which it took that long
 * @param slowestStepNanos how long it took there
 * @param rankEndNanos     when each rank finished, rank 0 first
 */
public record IterationResult(int index, boolean warmup, long startNanos, long endNanos, int slowestRank,
                              int slowestStep, int slowestStepRank, long slowestStepNanos, List<Long> rankEndNanos) {
    public IterationResult {
        rankEndNanos = List.copyOf(rankEndNanos);
    }

    /** @return its job completion time: from the first rank starting to the last rank finishing */
    public long timeNanos() {
        return endNanos - startNanos;
    }
}
