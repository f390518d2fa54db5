package io.rocelab.topology.timeline;

import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.workload.Workload;

/**
 * Something that happens to the fabric or its workload at a time ({@link Event}). Each action knows
 * what it needs and how it is done; the {@link Timeline} only says when.
 */
public sealed interface Action permits LinkState, LinkFaults, PfcStorm, Draining, FlowControl, SwitchPower,
    SilentPort {
    /** @return what it does, for a report: {@code "link leaf0--spine1 down"} */
    String describe();

    /**
     * Checks, before any run, that the fabric (and the workload, if the action needs one) has what it
     * names.
     *
     * @param workload null when there is none
     * @return what is missing, or null
     * @throws IllegalArgumentException naming what the fabric does not have (the fabric's lookups)
     */
    String check(Fabric fabric, Workload workload);

    /**
     * Does it: in virtual time as an event of the fabric's scheduler, in real time on the timeline's
     * thread through the fabric's and the workload's thread-safe methods.
     */
    void apply(Fabric fabric, Workload workload);
}
