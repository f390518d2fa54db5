package io.rocelab.sw.forward;

import io.rocelab.fabric.random.SplitMix64;
import io.rocelab.sw.pipeline.PacketContext;

/**
 * Per-packet adaptive routing (SAI's {@code SAI_ARS_MODE_PER_PACKET_QUALITY}, SONiC's
 * {@code ARS_OBJECT assign_mode per_packet_quality}; what NVIDIA Spectrum-X does for RoCE): each
 * packet of the adaptive traffic classes goes to the member of the best {@link PortQuality} band,
 * equally good members taken in turn from a sequence seeded by the switch's hash seed, so the
 * packets of one flow are sprayed over every uncongested path. Other classes keep their hash.
 *
 * <p>Spraying reorders a flow's packets: a receiver must accept them out of order (Spectrum-X
 * pairs its switches with ConnectX NICs that place them directly); a NIC that answers the first
 * out-of-order packet with a NAK and goes back N (rxe, and rocelab's NIC by default) retransmits
 * much of what was sprayed.
 */
public final class PerPacketBalancer implements LoadBalancer {
    private final PortQuality quality;
    private final PortView ports;
    private final PathChanges changes;
    /** Bit t: TC t is sprayed; 0: the lossless classes are. */
    private final int trafficClasses;
    private final long seed;
    private long packets;

    /**
     * @param quality        the ports' quality
     * @param trafficClasses bit t set: TC t is sprayed; 0: the packets the switch classifies lossless are
     * @param seed           the switch's hash seed: the order in which equally good members take turns
     */
    public PerPacketBalancer(PortQuality quality, int trafficClasses, long seed, PortView ports, PathChanges changes) {
        this.quality = quality;
        this.trafficClasses = trafficClasses;
        this.seed = seed;
        this.ports = ports;
        this.changes = changes;
    }

    @Override
    public int select(EcmpGroup group, long hash, PacketContext ctx, long now) {
        int hashed = group.select(hash, ports);
        boolean adaptive = trafficClasses == 0 ? ctx.lossless : (trafficClasses >>> (ctx.tc & 7) & 1) != 0;
        if (!adaptive || hashed < 0) {
            return hashed;
        }
        int member = quality.best(group, SplitMix64.mix(seed + packets++), now);
        if (member != hashed) {
            changes.changed(group, member);
        }
        return member;
    }

    @Override
    public String mode() {
        return "per-packet";
    }
}
