package io.rocelab.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Udp;
import io.rocelab.codec.header.Vlan;
import io.rocelab.codec.header.Vxlan;

/**
 * A VXLAN packet over IPv4 (RFC 7348 section 5): outer Ethernet, IPv4 (no options, DF set), UDP
 * to port 4789 with a zero checksum ("SHOULD be transmitted as zero", section 5) and the VXLAN
 * header, then the inner Ethernet frame without its 802.1Q tag ("a VTEP SHOULD NOT include an inner
 * VLAN tag on tunnel packets", section 6.1). A RoCEv2 inner frame keeps its bytes: its ICRC, which
 * covers the inner IP and transport headers, stays valid.
 */
public final class VxlanFrame {
    /** The outer TTL rocelab's VTEPs send with: Linux's vxlan default (ip4_dst_hoplimit, 64). */
    public static final int DEFAULT_TTL = 64;

    /**
     * The outer headers' fields.
     *
     * @param dstMac  the next hop's MAC toward the remote VTEP
     * @param srcMac  the encapsulating switch's MAC
     * @param srcIp   the local VTEP's {@code src_ip}
     * @param dstIp   the remote VTEP
     * @param dscp    the outer DSCP (uniform: the inner's; pipe: the tunnel's)
     * @param ecn     the outer ECN (RFC 6040 normal mode: the inner's)
     * @param ttl     the outer TTL
     * @param srcPort the outer UDP source port, from the inner flow's hash ({@link Vxlan#sourcePort})
     * @param vni     the VXLAN Network Identifier
     */
    public record Outer(long dstMac, long srcMac, int srcIp, int dstIp, int dscp, int ecn, int ttl, int srcPort,
                        int vni) {
    }

    private VxlanFrame() {
    }

    /**
     * Encapsulates the Ethernet frame between {@code inner}'s reader and writer index into a new
     * buffer, leaving {@code inner} as it is. An 802.1Q tag right after the inner MACs is left out.
     *
     * @return the VXLAN packet, a frame of its own (the caller owns it)
     */
    public static ByteBuf encapsulate(ByteBufAllocator alloc, ByteBuf inner, Outer o) {
        int start = inner.readerIndex();
        int len = inner.readableBytes();
        boolean tagged = len >= Ethernet.LENGTH + Vlan.LENGTH
            && EtherType.isVlanTag(inner.getUnsignedShort(start + Ethernet.ETHER_TYPE));
        int innerLength = tagged ? len - Vlan.LENGTH : len;
        ByteBuf out = alloc.directBuffer(Vxlan.IPV4_OVERHEAD + innerLength);
        int base = out.writerIndex();
        out.writerIndex(base + Vxlan.IPV4_OVERHEAD);
        Ethernet.write(out, base, o.dstMac(), o.srcMac(), EtherType.IPV4);
        int ip = base + Ethernet.LENGTH;
        int udpLength = Udp.LENGTH + Vxlan.LENGTH + innerLength;
        Ipv4.write(out, ip, (o.dscp() & 0x3F) << 2 | (o.ecn() & 3), Ipv4.MIN_LENGTH + udpLength, 0, Ipv4.FLAG_DF,
            o.ttl(), Ipv4.PROTO_UDP, o.srcIp(), o.dstIp());
        int udp = ip + Ipv4.MIN_LENGTH;
        Udp.write(out, udp, o.srcPort(), Vxlan.PORT, udpLength, 0);
        Vxlan.write(out, udp + Udp.LENGTH, o.vni());
        if (tagged) {
            out.writeBytes(inner, start, 12);
            out.writeBytes(inner, start + 12 + Vlan.LENGTH, len - 12 - Vlan.LENGTH);
        } else {
            out.writeBytes(inner, start, len);
        }
        return out;
    }

    /**
     * Where the inner frame of a parsed VXLAN packet starts: IPv4 or IPv6, not a fragment, UDP to
     * port 4789, the I flag set, and room for the VXLAN header and an inner Ethernet header.
     *
     * @param outer a frame {@link ParsedFrame#parse} accepted
     * @return the buffer index of the inner Ethernet header, or -1 if the frame is not such a packet
     */
    public static int innerOffset(ParsedFrame outer) {
        if (outer.l4Protocol() != Ipv4.PROTO_UDP || outer.udpOffset() < 0) {
            return -1;
        }
        ByteBuf b = outer.buffer();
        int udp = outer.udpOffset();
        if (Udp.dstPort(b, udp) != Vxlan.PORT) {
            return -1;
        }
        int vx = udp + Udp.LENGTH;
        int inner = vx + Vxlan.LENGTH;
        if (inner + Ethernet.LENGTH > outer.end() || !Vxlan.validVni(b, vx)) {
            return -1;
        }
        return inner;
    }

    /** @return the VNI of a packet {@link #innerOffset} accepted */
    public static int vni(ParsedFrame outer) {
        return Vxlan.vni(outer.buffer(), outer.udpOffset() + Udp.LENGTH);
    }

    /**
     * @return the inner frame of a packet {@link #innerOffset} accepted, as a slice sharing the
     *         outer buffer (not retained): what the outer IP length covers after the VXLAN header
     */
    public static ByteBuf inner(ParsedFrame outer) {
        int at = innerOffset(outer);
        if (at < 0) {
            throw new IllegalArgumentException("not a VXLAN packet");
        }
        return outer.buffer().slice(at, outer.end() - at);
    }
}
