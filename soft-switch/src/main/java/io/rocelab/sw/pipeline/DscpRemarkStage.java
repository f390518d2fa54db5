package io.rocelab.sw.pipeline;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.sw.config.PortConfig;

/**
 * Egress DSCP remarking at a trust boundary: a port with a {@code tc_to_dscp_map} bound in
 * {@code PORT_QOS_MAP} (SONiC's {@code TC_TO_DSCP_MAP}, SAI's
 * {@code SAI_PORT_ATTR_QOS_TC_AND_COLOR_TO_DSCP_MAP}) rewrites the DSCP of every IP packet that
 * leaves it to the DSCP of the packet's traffic class, so the next switch classifies it as this one
 * did: a tenant's frames put in TC 0 at ingress leave with TC 0's (lossy) DSCP, whatever they
 * claimed. The ECN bits are kept; IPv4's header checksum is patched (the RoCEv2 ICRC masks the
 * DSCP, so it stays good). The switch counts a packet whose DSCP changed on its egress port
 * ({@code PortCounters.egressDscpRemarked}). Colour is not an input here (rocelab's maps are by TC).
 *
 * <p>Also the helper for an ACL's {@code SET_DSCP}: {@link #setDscp}. Owner thread only.
 */
public final class DscpRemarkStage {
    /** Per port, its {@code tcToDscp()}, or null. */
    private final int[][] maps;

    /** @param ports per-port configuration, indexed like the switch's ports */
    public DscpRemarkStage(PortConfig[] ports) {
        this.maps = new int[ports.length][];
        for (int i = 0; i < ports.length; i++) {
            maps[i] = ports[i].tcToDscp();
        }
    }

    /**
     * Rewrites the DSCP of a packet about to be queued on {@link PacketContext#egressPort}.
     *
     * @return true if it changed (the switch counts it)
     */
    public boolean egress(PacketContext ctx) {
        int[] map = maps[ctx.egressPort];
        return map != null && ctx.dscp >= 0 && setDscp(ctx, map[ctx.tc]);
    }

    /**
     * Sets the IP DSCP of the frame (IPv4 TOS or IPv6 traffic class, ECN kept) and {@link PacketContext#dscp}.
     *
     * @return true if it changed
     */
    public static boolean setDscp(PacketContext ctx, int dscp) {
        if (ctx.dscp < 0 || ctx.dscp == dscp) {
            return false;
        }
        if (ctx.ipVersion == 4) {
            Ipv4.setDscp(ctx.frame, ctx.l3Offset, dscp);
        } else if (ctx.ipVersion == 6) {
            int ecn = Ipv6.ecn(ctx.frame, ctx.l3Offset);
            Ipv6.setTrafficClass(ctx.frame, ctx.l3Offset, dscp << 2 | ecn);
        } else {
            return false;
        }
        ctx.dscp = dscp;
        return true;
    }
}
