package io.rocelab.nic;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.FrameKind;
import io.rocelab.codec.Icrc;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.header.Arp;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.header.Pfc;
import io.rocelab.codec.header.Vlan;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.codec.testkit.HostileFrames;
import io.rocelab.nic.net.Icmpv6;
import io.rocelab.nic.stats.NicCounter;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What an untagged NIC must count when a frame arrives, before any QP sees it (docs/design.md §3,
 * §10 step 4), worked out from the frame's bytes and the NIC's addresses alone: a frame the codec
 * refuses is malformed; PFC is for the NIC if sent to the MAC control group or its MAC, and pauses
 * each enabled priority with a non-zero time; an 802.3x PAUSE for it is counted
 * ({@code rx_pause_ctrl_phy}); a tag other than a priority tag is another VLAN's;
 * ARP for its address is answered; a neighbour solicitation or advertisement that breaks RFC 4861
 * 7.1 is malformed and a valid solicitation for one of its addresses is answered; a RoCEv2 packet
 * for another MAC or IP is not for it, a bad ICRC is dropped, the rest is received and goes to the
 * transport. Every other frame (another EtherType, IP that is not RoCEv2) is ignored.
 */
final class NicFrameOracle {
    /** Where a frame ends on the NIC's receive path. */
    enum Fate { MALFORMED, PFC, PAUSE, NOT_FOR_US, VLAN, ARP, ND, BAD_ICRC, TRANSPORT, IGNORED }

    /** The fate of one frame and the counters it must move. */
    record Verdict(Fate fate, Map<NicCounter, Integer> counts, int destQp, boolean cnp) {
    }

    private final long mac;
    private final int ipv4;
    private final List<byte[]> ownIpv6;

    NicFrameOracle(long mac, int ipv4, List<byte[]> ownIpv6) {
        this.mac = mac;
        this.ipv4 = ipv4;
        this.ownIpv6 = ownIpv6;
    }

    Verdict judge(byte[] frame) {
        Map<NicCounter, Integer> c = new EnumMap<>(NicCounter.class);
        ParsedFrame f = new ParsedFrame();
        ByteBuf b = Unpooled.wrappedBuffer(frame.clone());
        if (f.parse(b) != null) {
            return verdict(Fate.MALFORMED, c, NicCounter.DROP_MALFORMED);
        }
        if (f.kind() == FrameKind.PFC) {
            if (f.dstMac() != MacAddress.PAUSE_MULTICAST && f.dstMac() != mac) {
                return verdict(Fate.NOT_FOR_US, c, NicCounter.DROP_NOT_FOR_US);
            }
            int off = f.l3Offset();
            for (int p = 0; p < Pfc.PRIORITIES; p++) {
                if (Pfc.enabled(b, off, p)) { // XOFF or XON: every PFC frame naming p (rx_prio<p>_pause)
                    c.merge(NicCounter.valueOf("RX_PRIO" + p + "_PAUSE"), 1, Integer::sum);
                }
            }
            return new Verdict(Fate.PFC, c, -1, false);
        }
        if (f.kind() == FrameKind.PAUSE) {
            // 802.3x (opcode 0x0001), before the VLAN as PFC: counted (rx_pause_ctrl_phy) if for us
            if (f.dstMac() != MacAddress.PAUSE_MULTICAST && f.dstMac() != mac) {
                return verdict(Fate.NOT_FOR_US, c, NicCounter.DROP_NOT_FOR_US);
            }
            c.put(NicCounter.RX_PAUSE_CTRL_PHY, 1);
            return new Verdict(Fate.PAUSE, c, -1, false);
        }
        if (!(f.vlanCount() == 0 || f.vlanCount() == 1 && Vlan.vid(b, f.vlanOffset(0)) == 0)) {
            return verdict(Fate.VLAN, c, NicCounter.DROP_VLAN);
        }
        if (f.kind() == FrameKind.ARP) {
            int off = f.l3Offset();
            if (Arp.isEthernetIpv4(b, off) && Arp.operation(b, off) == Arp.REQUEST && Arp.targetIp(b, off) == ipv4) {
                c.put(NicCounter.ARP_REPLIES_SENT, 1);
            }
            return new Verdict(Fate.ARP, c, -1, false);
        }
        boolean ourMac = f.dstMac() == mac || MacAddress.isMulticast(f.dstMac());
        if (f.kind() == FrameKind.IPV6 && f.l4Protocol() == Icmpv6.NEXT_HEADER) {
            return ourMac ? neighbourDiscovery(b, f.l3Offset(), c) : new Verdict(Fate.IGNORED, c, -1, false);
        }
        if (f.kind() != FrameKind.ROCEV2) {
            return new Verdict(Fate.IGNORED, c, -1, false);
        }
        boolean ourIp = f.ipVersion() == 4 ? Ipv4.dst(b, f.l3Offset()) == ipv4 : isOwn(b, f.l3Offset() + Ipv6.DST);
        if (!ourMac || !ourIp) {
            return verdict(Fate.NOT_FOR_US, c, NicCounter.DROP_NOT_FOR_US);
        }
        if (!new Icrc().verify(f)) {
            return verdict(Fate.BAD_ICRC, c, NicCounter.DROP_BAD_ICRC);
        }
        c.put(NicCounter.RCVD_PKTS, 1);
        return new Verdict(Fate.TRANSPORT, c, f.destQp(), f.opcode().code() == Opcode.CNP_CODE);
    }

    /** RFC 4443 2.1 and RFC 4861 7.1.1 / 7.1.2, as a host must check them. */
    private Verdict neighbourDiscovery(ByteBuf b, int ip, Map<NicCounter, Integer> c) {
        int len = Ipv6.payloadLength(b, ip);
        int icmp = ip + Ipv6.LENGTH;
        if (len < 4) {
            return verdict(Fate.ND, c, NicCounter.DROP_MALFORMED);
        }
        int type = b.getUnsignedByte(icmp);
        if (type != 135 && type != 136) {
            return new Verdict(Fate.ND, c, -1, false);
        }
        if (Ipv6.hopLimit(b, ip) != 255 || b.getUnsignedByte(icmp + 1) != 0 || len < 24
                || HostileFrames.icmpv6Checksum(b, ip, len) != 0) {
            return verdict(Fate.ND, c, NicCounter.DROP_MALFORMED);
        }
        if (type == 135 && isOwn(b, icmp + 8)) {
            c.put(NicCounter.ND_ADVERTS_SENT, 1);
        }
        return new Verdict(Fate.ND, c, -1, false);
    }

    private boolean isOwn(ByteBuf b, int off) {
        byte[] a = new byte[16];
        b.getBytes(off, a);
        return ownIpv6.stream().anyMatch(o -> Arrays.equals(o, a));
    }

    private static Verdict verdict(Fate fate, Map<NicCounter, Integer> c, NicCounter counter) {
        c.put(counter, 1);
        return new Verdict(fate, c, -1, false);
    }
}
