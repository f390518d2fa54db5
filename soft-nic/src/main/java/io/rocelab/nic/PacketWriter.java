package io.rocelab.nic;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.Icrc;
import io.rocelab.codec.header.Bth;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.Udp;
import io.rocelab.codec.ib.ExtHeader;
import io.rocelab.codec.ib.Opcode;

/**
 * Builds one outgoing RoCEv2 frame in place, the way rxe does (rxe_net.c, rxe_icrc.c):
 * Ethernet [802.1Q tag with the RoCE PCP] / IPv4 (DF, TTL 64, TOS = traffic class, identification
 * incremented per packet, or fixed for a UDP endpoint port) or IPv6 (traffic class, flow label 0,
 * hop limit 64; see {@link Route}) /
 * UDP (destination 4791, the QP's source port, checksum 0) / BTH / extension headers / payload /
 * pad / ICRC. The caller writes the extension headers and the payload at the offsets this gives,
 * then calls {@link #finish()}, which fills the ICRC (IBA A17.4.1). The destination MAC is set
 * when the frame leaves (after ARP or neighbour discovery); it is not covered by the ICRC.
 *
 * <p>Owner-thread only: one instance per NIC, one frame at a time; nothing is allocated but the
 * frame's buffer.
 */
final class PacketWriter {
    private final ByteBufAllocator alloc;
    private final Icrc icrc = new Icrc();
    private final L2Framing l2;
    private int ipId;
    /** 1: a new identification per frame, as rxe; 0: every frame carries the same one. */
    private final int ipIdStep;

    private ByteBuf buf;
    private Opcode opcode;
    private int ipOffset;
    private int ipVersion;
    private int udpOffset;
    private int bthOffset;
    private int icrcOffset;

    PacketWriter(ByteBufAllocator alloc, L2Framing l2, int firstIpId, boolean fixedIpId) {
        this.alloc = alloc;
        this.l2 = l2;
        this.ipId = firstIpId;
        this.ipIdStep = fixedIpId ? 0 : 1;
    }

    /** Starts a frame; returns the buffer with all headers before the extension headers written. */
    ByteBuf begin(int srcPort, Route route, Opcode op, boolean solicited, int pkey, int destQp, boolean ackReq,
                  int psn, int payloadLength) {
        int pad = (-payloadLength) & 3;
        int ip = l2.length();
        int ipLength = route.ipv6 ? Ipv6.LENGTH : Ipv4.MIN_LENGTH;
        int udp = ip + ipLength;
        int bth = udp + Udp.LENGTH;
        int total = bth + op.headerLength() + payloadLength + pad + Icrc.LENGTH;
        ByteBuf b = alloc.buffer(total);
        b.writerIndex(total);
        if (route.ipv6) {
            l2.write(b, 0L, EtherType.IPV6, l2.rocePcp());
            Ipv6.write(b, ip, route.trafficClass, Route.FLOW_LABEL, total - udp, Ipv4.PROTO_UDP, Route.HOP_LIMIT,
                    route.srcGid.bytes(), route.dstGid.bytes());
        } else {
            l2.write(b, 0L, EtherType.IPV4, l2.rocePcp());
            Ipv4.write(b, ip, route.trafficClass, total - ip, ipId, Ipv4.FLAG_DF, Route.HOP_LIMIT, Ipv4.PROTO_UDP,
                    route.srcIpv4, route.dstIpv4);
            ipId = (ipId + ipIdStep) & 0xFFFF;
        }
        Udp.write(b, udp, srcPort, Udp.ROCEV2_PORT, total - udp, 0);
        Bth.write(b, bth, op.code(), solicited, pad, pkey, destQp, ackReq, psn);
        icrcOffset = total - Icrc.LENGTH;
        b.setZero(icrcOffset - pad, pad);
        this.buf = b;
        this.opcode = op;
        this.ipOffset = ip;
        this.ipVersion = route.ipv6 ? 6 : 4;
        this.udpOffset = udp;
        this.bthOffset = bth;
        return b;
    }

    /** Offset of extension header {@code h} in the frame being built. */
    int ext(ExtHeader h) {
        int off = opcode.offsetOf(h);
        if (off < 0) {
            throw new IllegalStateException(opcode + " has no " + h);
        }
        return bthOffset + off;
    }

    int payloadOffset() {
        return bthOffset + opcode.headerLength();
    }

    /** Fills the ICRC and hands the frame over. */
    ByteBuf finish() {
        ByteBuf b = buf;
        buf = null;
        // the frame is ours alone until it is handed over: mask, CRC and restore in place (one pass)
        b.setIntLE(icrcOffset, icrc.computeInPlace(b, ipOffset, ipVersion, udpOffset, bthOffset, icrcOffset));
        return b;
    }
}
