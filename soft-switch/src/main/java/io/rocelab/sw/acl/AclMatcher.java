package io.rocelab.sw.acl;

import io.netty.buffer.ByteBuf;
import io.rocelab.sw.config.AclConfig;
import io.rocelab.sw.pipeline.PacketContext;

/**
 * Whether a rule's match holds for a parsed packet: every field the rule gives must hold, and a
 * field of a header the packet does not have (an L4 port of a non-TCP/UDP packet, an IPv4 address
 * of an IPv6 packet) does not hold, as in SAI's ACL entries.
 */
final class AclMatcher {
    private static final int TCP = 6;
    private static final int UDP = 17;

    private AclMatcher() {
    }

    static boolean matches(AclConfig.Match m, PacketContext ctx) {
        ByteBuf f = ctx.frame;
        int v = ctx.ipVersion;
        if (!ipType(m.ipType(), v)) {
            return false;
        }
        // the parser puts the L3 offset just past the EtherType (after any VLAN tags)
        if (m.etherType() >= 0 && f.getUnsignedShort(ctx.l3Offset - 2) != m.etherType()) {
            return false;
        }
        if (m.srcLen() >= 0 && (v != 4 || !prefix4(f.getInt(ctx.l3Offset + 12), m.srcIp(), m.srcLen()))) {
            return false;
        }
        if (m.dstLen() >= 0 && (v != 4 || !prefix4(f.getInt(ctx.l3Offset + 16), m.dstIp(), m.dstLen()))) {
            return false;
        }
        if (m.srcIp6() != null && (v != 6 || !prefix6(f, ctx.l3Offset + 8, m.srcIp6()))) {
            return false;
        }
        if (m.dstIp6() != null && (v != 6 || !prefix6(f, ctx.l3Offset + 24, m.dstIp6()))) {
            return false;
        }
        if (m.dscp() >= 0 && (v == 0 || ctx.dscp != m.dscp())) {
            return false;
        }
        if (m.ipProtocol() >= 0 && (v == 0 || ctx.l4Protocol != m.ipProtocol())) {
            return false;
        }
        int l4Bytes = l4Bytes(ctx);
        boolean l4 = l4Bytes >= 4 && (ctx.l4Protocol == TCP || ctx.l4Protocol == UDP);
        if (m.l4SrcLo() >= 0 && (!l4 || !in(f.getUnsignedShort(ctx.l4Offset), m.l4SrcLo(), m.l4SrcHi()))) {
            return false;
        }
        if (m.l4DstLo() >= 0 && (!l4 || !in(f.getUnsignedShort(ctx.l4Offset + 2), m.l4DstLo(), m.l4DstHi()))) {
            return false;
        }
        if (m.tcpMask() >= 0) {
            // TCP header byte 13: CWR ECE URG ACK PSH RST SYN FIN
            return ctx.l4Protocol == TCP && l4Bytes >= 14
                && (f.getUnsignedByte(ctx.l4Offset + 13) & m.tcpMask()) == m.tcpFlags();
        }
        return true;
    }

    /**
     * The L4 header bytes the frame holds: 0 for a non-IP packet and for an IPv4 fragment other than
     * the first (it carries no L4 header), else what is left of the frame (the parser checks UDP's
     * 8 bytes, not TCP's, so a matcher must not read past the frame).
     */
    private static int l4Bytes(PacketContext ctx) {
        if (ctx.l4Offset < 0 || ctx.ipVersion == 0) {
            return 0;
        }
        if (ctx.ipVersion == 4 && (ctx.frame.getUnsignedShort(ctx.l3Offset + 6) & 0x1FFF) != 0) {
            return 0;
        }
        return Math.max(0, ctx.frame.writerIndex() - ctx.l4Offset);
    }

    private static boolean ipType(int type, int version) {
        return switch (type) {
            case AclConfig.Match.IP_IP -> version != 0;
            case AclConfig.Match.IP_V4 -> version == 4;
            case AclConfig.Match.IP_V6 -> version == 6;
            case AclConfig.Match.IP_NON_IP -> version == 0;
            case AclConfig.Match.IP_NON_V4 -> version != 4;
            case AclConfig.Match.IP_NON_V6 -> version != 6;
            default -> true;
        };
    }

    private static boolean in(int value, int lo, int hi) {
        return value >= lo && value <= hi;
    }

    private static boolean prefix4(int address, int prefix, int length) {
        int mask = length == 0 ? 0 : -1 << (32 - length);
        return (address & mask) == (prefix & mask);
    }

    private static boolean prefix6(ByteBuf f, int at, long[] p) {
        int len = (int) p[2];
        long hiMask = len == 0 ? 0 : len >= 64 ? -1L : -1L << (64 - len);
        long loMask = len <= 64 ? 0 : len == 128 ? -1L : -1L << (128 - len);
        return (f.getLong(at) & hiMask) == p[0] && (f.getLong(at + 8) & loMask) == p[1];
    }
}
