package io.rocelab.lab.run;

import io.rocelab.lab.expect.Kind;
import io.rocelab.topology.collective.CollectiveResult;
import java.util.List;

/**
 * A run's collectives as its checks see them ({@link Schema}'s collective attributes): nccl-tests'
 * time, algbw and busbw over the timed iterations, and the iterations' job completion times.
 */
final class CollectiveRecord {
    private CollectiveRecord() {
    }

    /** Writes each collective's attributes into {@code data}, at the end of the run. */
    static void record(RunData data, List<CollectiveResult> results) {
        for (CollectiveResult r : results) {
            String n = r.collective().name();
            double mean = r.meanTimeNanos();
            data.total(Kind.COLLECTIVE, n, "time", Double.isNaN(mean) ? Double.POSITIVE_INFINITY : mean / 1e9);
            data.total(Kind.COLLECTIVE, n, "algbw", r.algBwBitsPerSecond());
            data.total(Kind.COLLECTIVE, n, "busbw", r.busBwBitsPerSecond());
            data.total(Kind.COLLECTIVE, n, "jct_p99", r.jctP99Nanos() / 1e9);
            long[] times = r.times();
            long max = 0;
            for (long t : times) {
                max = Math.max(max, t);
            }
            data.total(Kind.COLLECTIVE, n, "jct_max", r.finished() ? max / 1e9 : Double.POSITIVE_INFINITY);
            data.total(Kind.COLLECTIVE, n, "iterations", times.length);
            data.total(Kind.COLLECTIVE, n, "errors", r.errors());
        }
    }

    /** Zeros for every attribute: a run's collectives as {@code rocelab lab check} sees them before any run. */
    static void plan(RunData data) {
        for (String n : data.names(Kind.COLLECTIVE)) {
            for (String a : Schema.of(Kind.COLLECTIVE).keySet()) {
                data.total(Kind.COLLECTIVE, n, a, 0);
            }
        }
    }
}
