package io.rocelab.topology.collective;

import java.util.Arrays;
import java.util.List;

/**
 * What a collective measured, as nccl-tests reports it ({@code doc/PERFORMANCE.md}): the mean time
 * of its timed iterations, the algorithm bandwidth size/time and the bus bandwidth algbw x
 * {@link CollectiveKind#busBwFactor}. Bandwidths here are bits per second (nccl-tests prints GB/s).
 *
 * @param collective what ran
 * @param iterations every iteration that finished, warm-up ones first, in order
 * @param errors     work completions in error (a QP that failed stops the collective)
 */
public record CollectiveResult(Collective collective, List<IterationResult> iterations, long errors) {
    public CollectiveResult {
        iterations = List.copyOf(iterations);
    }

    /** @return the timed iterations that finished */
    public List<IterationResult> timed() {
        return iterations.stream().filter(i -> !i.warmup()).toList();
    }

    /** @return whether every iteration, warm-up and timed, finished */
    public boolean finished() {
        return iterations.size() == collective.warmup() + collective.iterations();
    }

    /** @return the mean time of the timed iterations, ns; NaN before the last finished */
    public double meanTimeNanos() {
        List<IterationResult> t = timed();
        if (!finished() || t.isEmpty()) {
            return Double.NaN;
        }
        double s = 0;
        for (IterationResult i : t) {
            s += i.timeNanos();
        }
        return s / t.size();
    }

    /** @return nccl-tests' algbw, size / time, bits per second (0 when it did not finish) */
    public double algBwBitsPerSecond() {
        double t = meanTimeNanos();
        return Double.isNaN(t) ? 0 : collective.effectiveBytes() * 8e9 / t;
    }

    /** @return nccl-tests' busbw, algbw x the kind's factor, bits per second */
    public double busBwBitsPerSecond() {
        return algBwBitsPerSecond() * collective.kind().busBwFactor(collective.n());
    }

    /**
     * @return the 99th percentile of the timed iterations' times (nearest rank), ns; infinite when
     *         not every iteration finished
     */
    public double jctP99Nanos() {
        List<IterationResult> t = timed();
        if (!finished() || t.isEmpty()) {
            return Double.POSITIVE_INFINITY;
        }
        long[] times = t.stream().mapToLong(IterationResult::timeNanos).sorted().toArray();
        int rank = (int) Math.ceil(0.99 * times.length);
        return times[Math.max(0, rank - 1)];
    }

    /** @return the timed iterations' times, ns, in order */
    public long[] times() {
        return timed().stream().mapToLong(IterationResult::timeNanos).toArray();
    }

    @Override
    public String toString() {
        return "CollectiveResult[" + collective.name() + ", " + timed().size() + " timed iterations "
            + Arrays.toString(times()) + " ns, busbw " + busBwBitsPerSecond() / 1e9 + " Gb/s, errors " + errors + "]";
    }
}
