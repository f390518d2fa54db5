package io.rocelab.sw.forward;

import io.rocelab.sw.pipeline.PacketContext;

/**
 * Flowlets ({@link FlowletTable}): a flow may move to the best member after a gap longer than the
 * idle time, and only then, so it is never reordered. Two modes share it: {@code flowlet}
 * (rocelab's {@code SWITCH|switch flowlet_timeout}: the member with the fewest queued bytes, so a
 * port that carries one flow at line rate looks idle) and {@code flowlet-quality} (SAI's
 * {@code SAI_ARS_MODE_FLOWLET_QUALITY}, SONiC's {@code ARS_OBJECT assign_mode per_flowlet_quality},
 * Broadcom's DLB: the best {@link PortQuality} band, which weighs the port's recent load as well
 * as its queue), for the traffic classes it is given; other classes keep their hash.
 */
public final class FlowletBalancer implements LoadBalancer {
    private final FlowletTable table;
    private final PortView ports;
    private final int trafficClasses;
    private final String mode;

    /** Queue-only flowlets for every class: {@code SWITCH|switch flowlet_timeout}. */
    public static FlowletBalancer queueOnly(long idleNanos, PortView ports, PathChanges changes) {
        return new FlowletBalancer(new FlowletTable(idleNanos, 4096, null, changes), ports, 0xFF, "flowlet");
    }

    /**
     * Flowlets by quality: {@code SAI_ARS_MODE_FLOWLET_QUALITY}.
     *
     * @param trafficClasses bit t set: TC t is adaptive; the others keep their hash
     */
    public static FlowletBalancer byQuality(long idleNanos, int maxFlows, PortQuality quality, int trafficClasses,
                                            PortView ports, PathChanges changes) {
        return new FlowletBalancer(new FlowletTable(idleNanos, maxFlows, quality::best, changes), ports,
            trafficClasses, "flowlet-quality");
    }

    private FlowletBalancer(FlowletTable table, PortView ports, int trafficClasses, String mode) {
        this.table = table;
        this.ports = ports;
        this.trafficClasses = trafficClasses;
        this.mode = mode;
    }

    /** Every packet goes through the table, even with one live member, so a flow's gap is measured from its last packet. */
    @Override
    public int withoutHash(EcmpGroup group, PortView view) {
        return EcmpGroup.MANY;
    }

    @Override
    public int select(EcmpGroup group, long hash, PacketContext ctx, long now) {
        if ((trafficClasses >>> (ctx.tc & 7) & 1) == 0) {
            return group.select(hash, ports);
        }
        return table.select(hash, group, ports, now);
    }

    /** @return the flowlet table */
    public FlowletTable table() {
        return table;
    }

    @Override
    public String mode() {
        return mode;
    }
}
