package io.rocelab.sw.forward;

import io.rocelab.sw.pipeline.PacketContext;

/**
 * Static ECMP: the seeded flow hash alone picks the member, so a flow keeps its path for as long as
 * the group's live members stay the same (SAI's {@code SAI_ARS_MODE_FIXED}; what a switch does
 * without ARS). The default.
 */
public final class HashBalancer implements LoadBalancer {
    private final PortView ports;

    /** @param ports the switch's link state */
    public HashBalancer(PortView ports) {
        this.ports = ports;
    }

    @Override
    public int select(EcmpGroup group, long hash, PacketContext ctx, long now) {
        return group.select(hash, ports);
    }

    @Override
    public String mode() {
        return "ecmp";
    }
}
