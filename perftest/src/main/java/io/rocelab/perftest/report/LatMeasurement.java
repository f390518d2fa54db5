package io.rocelab.perftest.report;

import io.rocelab.perftest.Verb;
import java.util.Objects;

/**
 * The raw numbers of one latency run: the tick at which each iteration was posted. perftest's
 * sample is the gap between two consecutive posts — for send and write a full ping-pong, halved
 * when reported; for read and atomic one request and its response.
 *
 * @param messageSize   bytes per message
 * @param iterations    iterations run ({@code -n}); there are {@code iterations - 1} samples
 * @param verb          decides whether samples are halved
 * @param posted        post tick of each iteration, {@code iterations} of them
 * @param ticksPerMicro clock ticks per microsecond (1000 for nanoseconds, the CPU MHz for cycles)
 */
public record LatMeasurement(long messageSize, long iterations, Verb verb, long[] posted, double ticksPerMicro) {

    /** perftest drops this many of the largest samples before computing statistics. */
    public static final int DROPPED_TAIL = 2;

    public LatMeasurement {
        Objects.requireNonNull(verb, "verb");
        Objects.requireNonNull(posted, "posted");
        if (iterations < DROPPED_TAIL + 2) {
            throw new IllegalArgumentException("a latency report needs at least " + (DROPPED_TAIL + 2)
                    + " iterations, got " + iterations);
        }
        if (posted.length < iterations) {
            throw new IllegalArgumentException("need a post tick for each of the " + iterations
                    + " iterations, got " + posted.length);
        }
        if (!(ticksPerMicro > 0)) {
            throw new IllegalArgumentException("ticksPerMicro must be positive, got " + ticksPerMicro);
        }
    }

    /** The samples in ticks, in the order they were taken: {@code posted[i+1] - posted[i]}. */
    public long[] samples() {
        int n = (int) iterations - 1;
        long[] deltas = new long[n];
        for (int i = 0; i < n; i++) {
            deltas[i] = posted[i + 1] - posted[i];
        }
        return deltas;
    }

    /** Builds a measurement from samples rather than post times (a run that timed each gap itself). */
    public static LatMeasurement ofSamples(long messageSize, Verb verb, long[] samples, double ticksPerMicro) {
        long[] posted = new long[samples.length + 1];
        for (int i = 0; i < samples.length; i++) {
            posted[i + 1] = posted[i] + samples[i];
        }
        return new LatMeasurement(messageSize, posted.length, verb, posted, ticksPerMicro);
    }
}
