package io.rocelab.sw.pipeline;

import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.Vlan;
import io.rocelab.sw.config.PortConfig;

/**
 * The port MAC's frame size checks, ahead of the parser, as a hardware switch makes them: a frame
 * shorter than IEEE 802.3's 64-byte minimum is a runt ({@code etherStatsUndersizePkts}, part of
 * SONiC's {@code RX_ERR}), one longer than the port's maximum frame is oversize
 * ({@code SAI_PORT_STAT_ETHER_RX_OVERSIZE_PKTS}, SONiC's {@code RX_OVR}); both are counted and
 * dropped. The frames a port delivers here carry no FCS, so the minimum is 60 bytes, and the
 * maximum is what SONiC's portsorch gives the ASIC for the port's {@code mtu} ({@code
 * SAI_PORT_ATTR_MTU} = mtu + 14 bytes of Ethernet header + 4 of a VLAN tag + 4 of FCS) less the
 * FCS: mtu + 18.
 */
public final class FrameSizeStage {
    /** The shortest frame without its FCS: 64 bytes on the wire (IEEE 802.3 4.4.2) less 4. */
    public static final int MIN_FRAME = Ethernet.MIN_FRAME;
    /** What a frame may carry around an L3 packet of the port's MTU: the Ethernet header and one VLAN tag. */
    public static final int L2_OVERHEAD = Ethernet.LENGTH + Vlan.LENGTH;

    private final int[] maxFrame;

    public FrameSizeStage(PortConfig[] ports) {
        maxFrame = new int[ports.length];
        for (int i = 0; i < ports.length; i++) {
            maxFrame[i] = ports[i].mtu() + L2_OVERHEAD;
        }
    }

    /** @return null if the frame's size is fine for its ingress port, else why it is dropped */
    public DropReason apply(PacketContext ctx) {
        int length = ctx.length;
        if (length < MIN_FRAME) {
            return DropReason.UNDERSIZE;
        }
        return length > maxFrame[ctx.ingressPort] ? DropReason.OVERSIZE : null;
    }

    /** @return the longest frame (without FCS) port {@code port} takes */
    public int maxFrame(int port) {
        return maxFrame[port];
    }
}
