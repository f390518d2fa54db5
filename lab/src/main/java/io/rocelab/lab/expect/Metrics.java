package io.rocelab.lab.expect;

import java.util.List;

/**
 * The metrics of a lab's runs, as the expressions see them: per variant, the flows, switch ports,
 * queues, NICs and switches by name, and each one's attributes. Units: seconds, bytes, bits per
 * second, counts.
 */
public interface Metrics {
    /** @return the variants' names; one empty name for a file without variants */
    List<String> variants();

    /** @return the names of every {@code kind} in {@code variant}, in a fixed order */
    List<String> names(String variant, Kind kind);

    /**
     * @return the attribute: a {@link Value.Num}, {@link Value.Counter} or {@link Value.Gauge}
     * @throws ExpressionException for an attribute the kind does not have (naming those it has) or a
     *                             series that was not sampled (naming the probe that samples it)
     */
    Value attribute(String variant, Kind kind, String name, String attribute);

    /** @return the run's length, seconds */
    double durationSeconds(String variant);
}
