package io.rocelab.nic.net;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.Vlan;

/**
 * The NIC's Ethernet header: untagged, or one 802.1Q tag when the port sits on a VLAN. Lossless
 * RoCE setups put RoCE traffic in its own priority (PCP 3 in most PFC configurations) and send
 * everything else, ARP and neighbour discovery included, at PCP 0 (Linux's default egress QoS
 * map), so the priority is chosen per frame. The destination MAC is always at offset 0, so it can
 * be filled in after neighbour resolution whatever the tag.
 */
public final class L2Framing {
    /** No VLAN: untagged frames. */
    public static final int NO_VLAN = -1;

    private final long srcMac;
    private final int vid;
    private int rocePcp;

    public L2Framing(long srcMac, int vid, int rocePcp) {
        this.srcMac = srcMac;
        this.vid = vid;
        this.rocePcp = rocePcp;
    }

    /** Bytes before the L3 header: 14, or 18 with a tag. */
    public int length() {
        return vid == NO_VLAN ? Ethernet.LENGTH : Ethernet.LENGTH + Vlan.LENGTH;
    }

    public int vid() {
        return vid;
    }

    /** The PCP of RoCE frames (data, ACKs, CNPs) on a VLAN. */
    public int rocePcp() {
        return rocePcp;
    }

    /**
     * RoCE frames on the VLAN take PCP {@code pcp} from now on: the priority DCBX's application
     * priority table gives RoCEv2 (UDP port 4791), or the configured one back. Owner thread.
     */
    public void rocePcp(int pcp) {
        if (pcp < 0 || pcp > 7) {
            throw new IllegalArgumentException("pcp must be 0..7: " + pcp);
        }
        rocePcp = pcp;
    }

    /** Writes the header for {@code etherType} at priority {@code pcp}; returns the L3 offset. */
    public int write(ByteBuf b, long dstMac, int etherType, int pcp) {
        if (vid == NO_VLAN) {
            Ethernet.write(b, 0, dstMac, srcMac, etherType);
            return Ethernet.LENGTH;
        }
        Ethernet.write(b, 0, dstMac, srcMac, EtherType.VLAN);
        // Ethernet.write put the TPID at 12; the TCI and the inner type follow (IEEE 802.1Q 9.6)
        Vlan.write(b, Ethernet.ETHER_TYPE, EtherType.VLAN, pcp, 0, vid);
        b.setShort(Ethernet.ETHER_TYPE + Vlan.LENGTH, etherType);
        return Ethernet.LENGTH + Vlan.LENGTH;
    }

    /**
     * Whether a received frame belongs to this port: on a VLAN, exactly one tag with our VID (as a
     * Linux VLAN device receives); otherwise untagged or priority-tagged (VID 0).
     */
    public boolean accepts(ParsedFrame f) {
        if (vid == NO_VLAN) {
            return f.vlanCount() == 0 || f.vlanCount() == 1 && Vlan.vid(f.buffer(), f.vlanOffset(0)) == 0;
        }
        return f.vlanCount() == 1 && Vlan.vid(f.buffer(), f.vlanOffset(0)) == vid;
    }
}
