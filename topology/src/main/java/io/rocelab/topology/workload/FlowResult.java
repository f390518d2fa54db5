package io.rocelab.topology.workload;

import java.util.Map;

/**
 * What a flow did. Times are nanoseconds from the start of the {@link Workload}.
 *
 * <p>Latency: per message, from the post of its first work request to the completion of its last
 * (so it includes the time it waited behind the window and the rate cap), summarised as
 * percentiles: exact up to 64 messages, beyond that from a log-linear histogram within 1/64 (1.6 %)
 * of the true value; the maximum is exact.
 *
 * @param name                 the flow
 * @param source               its source host
 * @param destination          its destination host
 * @param verb                 its verb
 * @param outcome              how it ended
 * @param messages             messages completed successfully
 * @param bytes                bytes completed successfully at the source
 * @param bytesDelivered       SEND and UD_SEND: payload bytes the destination's receive completions
 *                             carried (UD: less than {@code bytes} when datagrams were lost); WRITE
 *                             and READ: {@code bytes} (an RC completion means the data is placed)
 * @param startNanos           when it started, -1 if it never did
 * @param endNanos             its last completion, -1 if none
 * @param fctNanos             flow completion time, last completion minus start, for a flow that
 *                             reached its message count; -1 otherwise
 * @param goodputBitsPerSecond {@code bytes} over (last completion - start), 0 without completions
 * @param errorCompletions     completions in error at the source, by verbs status name
 *                             ({@code IBV_WC_RETRY_EXC_ERR}, {@code IBV_WC_WR_FLUSH_ERR}, ...), in
 *                             the order first seen
 * @param latencyP50Nanos      median message latency, -1 without completed messages
 * @param latencyP99Nanos      99th percentile message latency, -1 without completed messages
 * @param latencyMaxNanos      largest message latency, -1 without completed messages
 * @param maxGapNanos          the longest the flow went without a successful completion while it ran
 *                             (from its start to its first, between two, and after its last until it
 *                             ended if it did not complete): the traffic gap a failure caused, -1 if it
 *                             never started
 * @param reconnects           how many times a reconnecting flow ({@link Flow#reconnects()}) connected
 *                             new QPs through rdma_cm after an error completion
 * @param migrations           IBV_EVENT_PATH_MIG events on its source's QPs (a flow with an
 *                             alternate path, {@link Flow#altPath()}): QPs that moved to it
 * @param verifiedBytes        a verified flow ({@link Flow#verify()}): bytes of its successful work
 *                             requests found in the other side's memory as they were sent; 0 otherwise
 * @param corruptBytes         a verified flow: bytes of its successful work requests that differed
 *                             from what was sent (0 unless memory is corrupted)
 */
public record FlowResult(String name, String source, String destination, Verb verb, Outcome outcome, long messages,
                         long bytes, long bytesDelivered, long startNanos, long endNanos, long fctNanos,
                         double goodputBitsPerSecond, Map<String, Long> errorCompletions, long latencyP50Nanos,
                         long latencyP99Nanos, long latencyMaxNanos, long maxGapNanos, long reconnects,
                         long migrations, long verifiedBytes, long corruptBytes) {
    public FlowResult {
        errorCompletions = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(errorCompletions));
    }

    /** A flow without alternate path or byte checks (none migrated, nothing verified). */
    public FlowResult(String name, String source, String destination, Verb verb, Outcome outcome, long messages,
                      long bytes, long bytesDelivered, long startNanos, long endNanos, long fctNanos,
                      double goodputBitsPerSecond, Map<String, Long> errorCompletions, long latencyP50Nanos,
                      long latencyP99Nanos, long latencyMaxNanos, long maxGapNanos, long reconnects) {
        this(name, source, destination, verb, outcome, messages, bytes, bytesDelivered, startNanos, endNanos, fctNanos,
            goodputBitsPerSecond, errorCompletions, latencyP50Nanos, latencyP99Nanos, latencyMaxNanos, maxGapNanos,
            reconnects, 0, 0, 0);
    }

    /** How a flow ended. */
    public enum Outcome {
        /** It never started (it waited for {@link Workload#startFlow}, or its start is after the run). */
        NOT_STARTED,
        /** It was still running when the results were taken. */
        RUNNING,
        /** It completed its message count. */
        COMPLETED,
        /** It stopped posting (duration, stop time or {@link Workload#stopFlow}) and drained. */
        STOPPED,
        /** A QP went to the error state (e.g. retries exhausted); its errors are in {@code errorCompletions}. */
        FAILED
    }

    /** @return completions in error, all statuses together */
    public long errors() {
        long n = 0;
        for (long v : errorCompletions.values()) {
            n += v;
        }
        return n;
    }
}
