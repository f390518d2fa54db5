package io.rocelab.topology.fabric;

/** How a {@link Fabric} keeps time. */
public enum FabricMode {
    /**
     * One {@link io.rocelab.fabric.time.VirtualTimeScheduler} owns every NIC, switch and link: the
     * fabric runs on the caller's thread, exactly as fast as it can, the same on every run of a seed.
     */
    VIRTUAL,
    /** An event loop (one owner thread) per NIC and per switch, on the wall clock. */
    REAL_TIME
}
