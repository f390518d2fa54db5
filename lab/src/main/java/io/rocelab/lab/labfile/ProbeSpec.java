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
 */
public record ProbeSpec(long intervalNanos, Set<String> kinds, List<String> queues, List<String> ports) {
    /** Every kind a probe can sample; a file lists some under {@code probes.sample}. */
    public static final List<String> KINDS = List.of("flow-rate", "queue-depth", "pause", "ecn-marks", "cnps",
        "pfc-frames", "drops");

    public boolean samples(String kind) {
        return kinds.contains(kind);
    }
}
