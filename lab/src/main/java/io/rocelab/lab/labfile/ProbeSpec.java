package io.rocelab.lab.labfile;

import java.util.List;
import java.util.Set;

/**
 * What a run samples and how often.
 *
 * @param intervalNanos sampling period
 * @param kinds         the kinds sampled, in {@link #KINDS} order
 * @param queues        the switch queues sampled, {@code switch:port:queue}, expanded
 * @param ports         the switch ports whose pause state and counters are sampled, {@code switch:port}
 * @param defaulted     the file gave no {@code probes.interval}: the interval follows the run's duration
 *                      ({@link #defaultIntervalNanos})
 */
public record ProbeSpec(long intervalNanos, Set<String> kinds, List<String> queues, List<String> ports,
                        boolean defaulted) {
    /** Every kind a probe can sample; a file lists some under {@code probes.sample}. */
    public static final List<String> KINDS = List.of("flow-rate", "queue-depth", "pause", "ecn-marks", "cnps",
        "pfc-frames", "drops");
    /** The finest default interval: what the microsecond-scale labs (PFC, DCQCN at 100 Gb/s) sample at. */
    public static final long FINEST_DEFAULT_NANOS = 10_000;
    /** A run without {@code probes.interval} takes at most this many samples. */
    public static final int MAX_DEFAULT_SAMPLES = 2_000;

    /**
     * The interval of a run that names none: the duration split into at most {@link #MAX_DEFAULT_SAMPLES},
     * rounded up to 1, 2 or 5 times a power of ten, and never finer than {@link #FINEST_DEFAULT_NANOS}
     * (10 ms of virtual time: 10 us, 1,000 samples; 8 s: 5 ms, 1,600 samples).
     *
     * @param durationNanos the run's duration
     * @return the sampling period
     */
    public static long defaultIntervalNanos(long durationNanos) {
        long wanted = Math.max(FINEST_DEFAULT_NANOS, -Math.floorDiv(-Math.max(0, durationNanos), MAX_DEFAULT_SAMPLES));
        for (long decade = FINEST_DEFAULT_NANOS; ; decade *= 10) {
            for (long step : new long[] {1, 2, 5}) {
                if (step * decade >= wanted) {
                    return step * decade;
                }
            }
        }
    }

    public boolean samples(String kind) {
        return kinds.contains(kind);
    }

    /** @return this spec for a run of {@code durationNanos} (a defaulted interval follows it) */
    public ProbeSpec forDuration(long durationNanos) {
        return defaulted ? new ProbeSpec(defaultIntervalNanos(durationNanos), kinds, queues, ports, true) : this;
    }
}
