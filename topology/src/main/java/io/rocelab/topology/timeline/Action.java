package io.rocelab.topology.timeline;

/** Something that happens to the fabric or its workload at a time ({@link Event}). */
public sealed interface Action permits LinkState, LinkFaults, PfcStorm, Draining, FlowControl {
    /** @return what it does, for a report: {@code "link leaf0--spine1 down"} */
    String describe();
}
