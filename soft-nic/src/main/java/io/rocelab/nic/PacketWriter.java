package io.rocelab.nic;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.Icrc;
import io.rocelab.codec.header.Bth;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Grh;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.Udp;
import io.rocelab.codec.ib.ExtHeader;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.endpoint.UdpPayloadSink;
import io.rocelab.nic.net.L2Framing;

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
 * <p>On a port that takes UDP payloads in place ({@link UdpPayloadSink}: UDP endpoint mode, NIC built
 * with a fixed IPv4 identification), an IPv4 packet is written straight into the port's send buffer,
 * BTH to ICRC, with no Ethernet/IPv4/UDP headers: the port would strip them anyway and copy the rest
 * into the buffer of a GSO send. Its ICRC is computed over the IPv4 and UDP headers the receiver
 * rebuilds (the same fields as in a frame: the identification fixed, DF, the lengths, addresses and
 * ports), written aside in a 28-byte scratch buffer. {@link #finish()} then returns the port's buffer,
 * and {@link NicPort#emit} or {@link NicPort#sendControl} commits the packet there instead of
 * sending a frame ({@link #takeClaim}).
 * Where the port declines (another thread, GSO off, a source address not its own), a frame is built.
 *
 * <p>Along a RoCEv1 route ({@link Route#roceV1}) the frame is IBA Annex A16's instead: Ethernet
 * [802.1Q tag with the RoCE PCP, which alone carries a RoCEv1 frame's priority] / EtherType 0x8915 /
 * GRH (the route's traffic class, flow label 0, hop limit 64, the two GIDs, next header 0x1B) /
 * BTH / ... / ICRC (Annex A16: the GRH masked as the IPv6 header is, no UDP header).
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

    /** The port's in-place payload path, or null: see the class comment. */
    private final UdpPayloadSink sink;
    /** IPv4 + UDP headers of the packet being written in place, for its ICRC. */
    private final ByteBuf pseudo = Unpooled.buffer(Ipv4.MIN_LENGTH + Udp.LENGTH);
    /** The addresses (source, destination) the pseudo header holds now. */
    private long pseudoAddresses = -1;
    /** Its traffic class, identification, source port and UDP payload length; -1: none yet. */
    private long pseudoRest = -1;
    /** The port's buffer holding the packet just finished in place, until {@link #takeClaim}. */
    private ByteBuf claimed;
    private boolean inPlace;

    private ByteBuf buf;
    private Opcode opcode;
    private int ipOffset;
    private int ipVersion;
    private int udpOffset;
    private int bthOffset;
    private int icrcOffset;

    PacketWriter(ByteBufAllocator alloc, L2Framing l2, int firstIpId, boolean fixedIpId) {
        this(alloc, l2, firstIpId, fixedIpId, null);
    }

    /**
     * @param sink the port's in-place payload path, used only with a fixed identification (the
     *             receiver puts the same one in the ICRC's pseudo header); null for frames only
     */
    PacketWriter(ByteBufAllocator alloc, L2Framing l2, int firstIpId, boolean fixedIpId, UdpPayloadSink sink) {
        this.alloc = alloc;
        this.l2 = l2;
        this.ipId = firstIpId;
        this.ipIdStep = fixedIpId ? 0 : 1;
        this.sink = fixedIpId ? sink : null;
    }

    /** Starts a frame; returns the buffer with all headers before the extension headers written. */
    ByteBuf begin(int srcPort, Route route, Opcode op, boolean solicited, int pkey, int destQp, boolean ackReq,
                  int psn, int payloadLength) {
        int pad = (-payloadLength) & 3;
        inPlace = false; // a packet begun and never finished (an exception on the way) is forgotten
        claimed = null;
        if (sink != null && !route.ipv6 && !route.roceV1) {
            int length = op.headerLength() + payloadLength + pad + Icrc.LENGTH;
            ByteBuf b = sink.claim(route.srcIpv4, srcPort, route.dstIpv4, ipId, length);
            if (b != null) {
                return beginInPlace(b, length, srcPort, route, op, solicited, pkey, destQp, ackReq, psn, pad);
            }
        }
        return beginFrame(srcPort, route, route.trafficClass, l2.rocePcp(), op, solicited, pkey, destQp, ackReq, psn,
                payloadLength, pad);
    }

    /**
     * Starts a congestion notification packet (IBA annex A17.9.2) to {@code destQp} along
     * {@code route}, as a ConnectX NIC sends it: opcode 0x81, BECN set, P_Key 0xFFFF, PSN 0, no
     * AckReq, UDP source port 0, 16 reserved zero bytes, with its own traffic class and priority
     * ({@code np_cnp_dscp}, {@code np_cnp_prio}); always a frame of its own.
     */
    ByteBuf beginCnp(Route route, int destQp, int trafficClass, int pcp) {
        inPlace = false;
        claimed = null;
        ByteBuf b = beginFrame(Cnp.UDP_SOURCE_PORT, route, trafficClass, pcp, Opcode.CNP, false, Cnp.PKEY, destQp,
                false, 0, 0, 0);
        b.setZero(payloadOffset() - Cnp.RESERVED_BYTES, Cnp.RESERVED_BYTES);
        Bth.setBecn(b, bthOffset, 1);
        return b;
    }

    private ByteBuf beginFrame(int srcPort, Route route, int trafficClass, int pcp, Opcode op, boolean solicited,
                               int pkey, int destQp, boolean ackReq, int psn, int payloadLength, int pad) {
        if (route.roceV1) {
            return beginRoceV1Frame(route, trafficClass, pcp, op, solicited, pkey, destQp, ackReq, psn,
                    payloadLength, pad);
        }
        int ip = l2.length();
        int ipLength = route.ipv6 ? Ipv6.LENGTH : Ipv4.MIN_LENGTH;
        int udp = ip + ipLength;
        int bth = udp + Udp.LENGTH;
        int total = bth + op.headerLength() + payloadLength + pad + Icrc.LENGTH;
        ByteBuf b = alloc.buffer(total);
        b.writerIndex(total);
        if (route.ipv6) {
            l2.write(b, 0L, EtherType.IPV6, pcp);
            Ipv6.write(b, ip, trafficClass, Route.FLOW_LABEL, total - udp, Ipv4.PROTO_UDP, Route.HOP_LIMIT,
                    route.srcGid.rawBytes(), route.dstGid.rawBytes());
        } else {
            l2.write(b, 0L, EtherType.IPV4, pcp);
            Ipv4.write(b, ip, trafficClass, total - ip, ipId, Ipv4.FLAG_DF, Route.HOP_LIMIT, Ipv4.PROTO_UDP,
                    route.srcIpv4, route.dstIpv4);
            ipId = (ipId + ipIdStep) & 0xFFFF;
        }
        Udp.write(b, udp, srcPort, Udp.ROCEV2_PORT, total - udp, 0);
        Bth.write(b, bth, op.code(), solicited, pad, pkey, destQp, ackReq, psn);
        if (route.migReq) {
            setMigReq(b, bth);
        }
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

    /** A RoCEv1 frame (IBA Annex A16): GRH then BTH, no IP, no UDP; see the class comment. */
    private ByteBuf beginRoceV1Frame(Route route, int trafficClass, int pcp, Opcode op, boolean solicited, int pkey,
                                     int destQp, boolean ackReq, int psn, int payloadLength, int pad) {
        int grh = l2.length();
        int bth = grh + Grh.LENGTH;
        int total = bth + op.headerLength() + payloadLength + pad + Icrc.LENGTH;
        ByteBuf b = alloc.buffer(total);
        b.writerIndex(total);
        l2.write(b, 0L, EtherType.ROCE, pcp);
        Grh.write(b, grh, trafficClass, Route.FLOW_LABEL, total - bth, Route.HOP_LIMIT, route.srcGid.rawBytes(),
                route.dstGid.rawBytes());
        Bth.write(b, bth, op.code(), solicited, pad, pkey, destQp, ackReq, psn);
        if (route.migReq) {
            setMigReq(b, bth);
        }
        icrcOffset = total - Icrc.LENGTH;
        b.setZero(icrcOffset - pad, pad);
        this.buf = b;
        this.opcode = op;
        this.ipOffset = grh;
        this.ipVersion = 6;
        this.udpOffset = -1; // finish() computes Annex A16's ICRC: no UDP header
        this.bthOffset = bth;
        return b;
    }

    private ByteBuf beginInPlace(ByteBuf b, int length, int srcPort, Route route, Opcode op, boolean solicited,
                                 int pkey, int destQp, boolean ackReq, int psn, int pad) {
        int bth = b.writerIndex() - length;
        long addresses = (long) route.srcIpv4 << 32 | route.dstIpv4 & 0xFFFF_FFFFL;
        long rest = (long) route.trafficClass << 48 | (long) ipId << 32 | (long) srcPort << 16 | length;
        if (addresses != pseudoAddresses || rest != pseudoRest) {
            // a stream of full-size packets of one QP has the same pseudo header every time
            Ipv4.write(pseudo, 0, route.trafficClass, Ipv4.MIN_LENGTH + Udp.LENGTH + length, ipId, Ipv4.FLAG_DF,
                    Route.HOP_LIMIT, Ipv4.PROTO_UDP, route.srcIpv4, route.dstIpv4);
            Udp.write(pseudo, Ipv4.MIN_LENGTH, srcPort, Udp.ROCEV2_PORT, Udp.LENGTH + length, 0);
            pseudoAddresses = addresses;
            pseudoRest = rest;
        }
        Bth.write(b, bth, op.code(), solicited, pad, pkey, destQp, ackReq, psn);
        if (route.migReq) {
            setMigReq(b, bth);
        }
        icrcOffset = bth + length - Icrc.LENGTH;
        b.setZero(icrcOffset - pad, pad);
        this.buf = b;
        this.opcode = op;
        this.bthOffset = bth;
        this.inPlace = true;
        return b;
    }

    /** Sets the BTH's MigReq bit (IBA 9.2: bit 6 of the flags byte), which the ICRC covers. */
    private static void setMigReq(ByteBuf b, int bth) {
        b.setByte(bth + Bth.FLAGS, b.getUnsignedByte(bth + Bth.FLAGS) | 0x40);
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

    /** Fills the ICRC and hands the frame over (or the port's buffer, for a packet written in place). */
    ByteBuf finish() {
        ByteBuf b = buf;
        buf = null;
        if (inPlace) {
            inPlace = false;
            b.setIntLE(icrcOffset, icrc.compute(pseudo, 0, 4, Ipv4.MIN_LENGTH, pseudo, Ipv4.MIN_LENGTH, b,
                    bthOffset, icrcOffset));
            claimed = b;
            return b;
        }
        // the frame is ours alone until it is handed over: mask, CRC and restore in place (one pass)
        b.setIntLE(icrcOffset, udpOffset < 0 ? icrc.computeRoceV1InPlace(b, ipOffset, bthOffset, icrcOffset)
                : icrc.computeInPlace(b, ipOffset, ipVersion, udpOffset, bthOffset, icrcOffset));
        return b;
    }

    /**
     * Whether {@code frame} is the packet just finished in place (then the port holds it, and it
     * must be committed or aborted there, not sent or released); forgets it either way.
     */
    boolean takeClaim(ByteBuf frame) {
        boolean mine = frame != null && frame == claimed;
        claimed = null;
        return mine;
    }

    /** The port's in-place path, or null. */
    UdpPayloadSink sink() {
        return sink;
    }
}
