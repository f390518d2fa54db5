package io.rocelab.nic;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.header.Bth;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.ib.ExtHeader;
import io.rocelab.codec.ib.Opcode;

/**
 * The fields of a received RoCEv2 packet that the responder and completer use (rxe's
 * {@code struct rxe_pkt_info}), read once from a {@link ParsedFrame}. Reused by the owner thread.
 */
final class RxPacket {
    ByteBuf buf;
    int bth;
    Opcode opcode;
    int psn;
    boolean ackReq;
    boolean solicited;
    int pkey;
    int destQp;
    int payloadOffset;
    int payloadLength;
    /** IPv4 source and destination addresses (0 for IPv6: see {@link #ipHeaderOffset}). */
    int srcIp;
    int dstIp;
    int ipVersion;
    /** The IP header's offset, or a RoCEv1 packet's GRH's (then {@link #ipVersion} is 6: it has IPv6's layout). */
    int ipHeaderOffset;
    /** A RoCEv1 packet (EtherType 0x8915, GRH; IBA Annex A16). */
    boolean roceV1;
    /**
     * A packet held in a {@link ReorderWindow} whose payload is already in memory (a WRITE placed
     * by its offset before the packets ahead of it came): executing it in order moves no byte again.
     */
    boolean placed;

    void load(ParsedFrame f) {
        placed = false;
        buf = f.buffer();
        bth = f.bthOffset();
        opcode = f.opcode();
        // the BTH as three 32-bit words (IBA 9.2): opcode, SE/M/pad/tver, P_Key | FECN/BECN, DestQP |
        // AckReq, PSN; read once instead of field by field
        final int word0 = buf.getInt(bth + Bth.OPCODE);
        final int word1 = buf.getInt(bth + Bth.FECN_BECN);
        final int word2 = buf.getInt(bth + Bth.ACKREQ_PSN);
        solicited = (word0 & 0x0080_0000) != 0;
        pkey = word0 & 0xFFFF;
        destQp = word1 & 0xFF_FFFF;
        ackReq = word2 < 0;
        psn = word2 & 0xFF_FFFF;
        payloadOffset = f.payloadOffset();
        payloadLength = f.payloadLength();
        ipHeaderOffset = f.l3Offset();
        roceV1 = f.isRoceV1();
        // a GRH reads as an IPv6 header: its GIDs where the addresses are, copied whole to a UD receive
        ipVersion = roceV1 ? 6 : f.ipVersion();
        srcIp = ipVersion == 4 ? Ipv4.src(buf, ipHeaderOffset) : 0;
        dstIp = ipVersion == 4 ? Ipv4.dst(buf, ipHeaderOffset) : 0;
    }

    /**
     * A copy of this packet that owns a copy of its frame (same offsets), for a {@link ReorderWindow}
     * to hold after the received frame is released.
     */
    RxPacket copy() {
        RxPacket c = new RxPacket();
        // on the heap, not from the frame's pool: what a window holds must not keep pool slots
        c.buf = io.netty.buffer.Unpooled.buffer(buf.writerIndex()).writeBytes(buf, 0, buf.writerIndex());
        c.bth = bth;
        c.opcode = opcode;
        c.psn = psn;
        c.ackReq = ackReq;
        c.solicited = solicited;
        c.pkey = pkey;
        c.destQp = destQp;
        c.payloadOffset = payloadOffset;
        c.payloadLength = payloadLength;
        c.srcIp = srcIp;
        c.dstIp = dstIp;
        c.ipVersion = ipVersion;
        c.ipHeaderOffset = ipHeaderOffset;
        c.roceV1 = roceV1;
        c.placed = placed;
        return c;
    }

    int ext(ExtHeader h) {
        return bth + opcode.offsetOf(h);
    }

    boolean is(int flag) {
        return opcode.has(flag);
    }

    /** FIRST or ONLY: the packet starts a message (or is a whole READ/ATOMIC request). */
    boolean starts() {
        return opcode.has(Opcode.FIRST) || opcode.has(Opcode.ONLY);
    }

    /** LAST or ONLY: the packet ends a message. */
    boolean ends() {
        return opcode.has(Opcode.LAST) || opcode.has(Opcode.ONLY);
    }
}
