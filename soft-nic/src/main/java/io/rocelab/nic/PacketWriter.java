package io.rocelab.nic;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.Icrc;
import io.rocelab.codec.header.Bth;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Udp;
import io.rocelab.codec.ib.ExtHeader;
import io.rocelab.codec.ib.Opcode;

/**
 * Builds one outgoing RoCEv2 frame in place, the way rxe does (rxe_net.c, rxe_icrc.c):
 * Ethernet / IPv4 (DF, TTL 64, TOS 0, identification incremented per packet) / UDP (destination
 * 4791, the QP's source port, checksum 0) / BTH / extension headers / payload / pad / ICRC.
 * The caller writes the extension headers and the payload at the offsets this gives, then calls
 * {@link #finish()}, which fills the ICRC (IBA A17.4.1). The destination MAC is set when the
 * frame leaves (after ARP); it is not covered by the ICRC.
 *
 * <p>Owner-thread only: one instance per NIC, one frame at a time.
 */
final class PacketWriter {
    static final int IP = Ethernet.LENGTH;
    static final int UDP = IP + Ipv4.MIN_LENGTH;
    static final int BTH = UDP + Udp.LENGTH;

    private final ByteBufAllocator alloc;
    private final Icrc icrc = new Icrc();
    private final long srcMac;
    private final int srcIp;
    private int ipId;

    private ByteBuf buf;
    private Opcode opcode;
    private int icrcOffset;

    PacketWriter(ByteBufAllocator alloc, long srcMac, int srcIp, int firstIpId) {
        this.alloc = alloc;
        this.srcMac = srcMac;
        this.srcIp = srcIp;
        this.ipId = firstIpId;
    }

    /** Starts a frame; returns the buffer with all headers before the extension headers written. */
    ByteBuf begin(int srcPort, int dstIp, Opcode op, boolean solicited, int pkey, int destQp, boolean ackReq,
                  int psn, int payloadLength) {
        int pad = (-payloadLength) & 3;
        int total = BTH + op.headerLength() + payloadLength + pad + Icrc.LENGTH;
        ByteBuf b = alloc.buffer(total);
        b.writerIndex(total);
        Ethernet.write(b, 0, 0L, srcMac, EtherType.IPV4);
        Ipv4.write(b, IP, 0, total - IP, ipId, Ipv4.FLAG_DF, 64, Ipv4.PROTO_UDP, srcIp, dstIp);
        ipId = (ipId + 1) & 0xFFFF;
        Udp.write(b, UDP, srcPort, Udp.ROCEV2_PORT, total - UDP, 0);
        Bth.write(b, BTH, op.code(), solicited, pad, pkey, destQp, ackReq, psn);
        icrcOffset = total - Icrc.LENGTH;
        b.setZero(icrcOffset - pad, pad);
        this.buf = b;
        this.opcode = op;
        return b;
    }

    /** Offset of extension header {@code h} in the frame being built. */
    int ext(ExtHeader h) {
        int off = opcode.offsetOf(h);
        if (off < 0) {
            throw new IllegalStateException(opcode + " has no " + h);
        }
        return BTH + off;
    }

    int payloadOffset() {
        return BTH + opcode.headerLength();
    }

    /** Fills the ICRC and hands the frame over. */
    ByteBuf finish() {
        ByteBuf b = buf;
        buf = null;
        b.setIntLE(icrcOffset, icrc.compute(b, IP, 4, Ipv4.MIN_LENGTH, b, UDP, BTH, icrcOffset));
        return b;
    }
}
