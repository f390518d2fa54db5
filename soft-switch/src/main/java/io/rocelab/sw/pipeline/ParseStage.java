package io.rocelab.sw.pipeline;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.FrameKind;
import io.rocelab.codec.header.Arp;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.Pfc;
import io.rocelab.codec.header.Udp;
import io.rocelab.codec.header.Vlan;

/**
 * Parser: reads the L2-L4 headers a switch forwards on, with the codec's header flyweights, into
 * the {@link PacketContext}. A malformed frame is reported, never thrown.
 *
 * <p>Why not the codec's full {@code ParsedFrame}: routing, classification, MMU, ECN and the
 * watchdog need Ethernet, VLAN, IP and the UDP ports only. Like a switch ASIC's parser this one
 * stops at the UDP header, so the InfiniBand transport (BTH, extension headers, pad, ICRC) is
 * neither located nor checked: a RoCEv2 frame with a bad BTH is forwarded for its endpoint to drop.
 * The L2-L4 checks are the codec's: truncated Ethernet, VLAN, IP or MAC control body, more than two
 * VLAN tags, a bad IP version or header length, a UDP length that does not fit.
 */
public final class ParseStage {
    private static final int MAX_VLAN_TAGS = 2;

    /**
     * @param ctx a context holding a frame
     * @return true if the frame can go on; false if it is malformed
     */
    public boolean apply(PacketContext ctx) {
        ByteBuf b = ctx.frame;
        int start = b.readerIndex();
        int limit = b.writerIndex();
        if (limit - start < Ethernet.LENGTH) {
            return false;
        }
        // the 14 header bytes in two overlapping reads: destination + 2 bytes, source + EtherType
        ctx.dstMac = b.getLong(start + Ethernet.DST) >>> 16;
        long srcType = b.getLong(start + Ethernet.SRC);
        ctx.srcMac = srcType >>> 16;
        int typeOffset = start + Ethernet.ETHER_TYPE;
        int type = (int) srcType & 0xFFFF;
        int tags = 0;
        ctx.vlanOffset = -1;
        ctx.pcp = -1;
        while (EtherType.isVlanTag(type)) {
            if (tags == MAX_VLAN_TAGS || typeOffset + Vlan.LENGTH + 2 > limit) {
                return false;
            }
            tags++;
            ctx.vlanOffset = typeOffset;
            typeOffset += Vlan.LENGTH;
            type = b.getUnsignedShort(typeOffset);
        }
        if (tags > 0) {
            ctx.pcp = Vlan.pcp(b, ctx.vlanOffset);
        }
        int l3 = typeOffset + 2;
        ctx.l3Offset = l3;
        ctx.ipVersion = 0;
        ctx.l4Protocol = -1;
        ctx.l4Offset = -1;
        ctx.dscp = -1;
        ctx.ecn = -1;
        switch (type) {
            case EtherType.IPV4:
                return ipv4(ctx, b, l3, limit);
            case EtherType.IPV6:
                return ipv6(ctx, b, l3, limit);
            case EtherType.MAC_CONTROL:
                return macControl(ctx, b, l3, limit);
            case EtherType.ARP:
                ctx.kind = FrameKind.ARP;
                return limit - l3 >= Arp.LENGTH;
            case EtherType.ROCE:
                // RoCEv1 (IBA Annex A16): bridged by its MAC and classified by its PCP like any non-IP
                // frame; the parser, as an ASIC's, goes no deeper than the EtherType
                ctx.kind = FrameKind.ROCEV1;
                return true;
            default:
                ctx.kind = FrameKind.OTHER;
                return true;
        }
    }

    private static boolean ipv4(PacketContext ctx, ByteBuf b, int l3, int limit) {
        if (limit - l3 < Ipv4.MIN_LENGTH) {
            return false;
        }
        // version/IHL, TOS, total length, identification, flags/fragment offset in one read
        long head = b.getLong(l3);
        int versionIhl = (int) (head >>> 56);
        int headerLength = (versionIhl & 0xF) * 4;
        if (versionIhl >> 4 != 4 || headerLength < Ipv4.MIN_LENGTH) {
            return false;
        }
        int total = (int) (head >>> 32) & 0xFFFF;
        if (total < headerLength || l3 + total > limit) {
            return false;
        }
        int tos = (int) (head >>> 48) & 0xFF;
        ctx.ipVersion = 4;
        ctx.dscp = tos >> 2;
        ctx.ecn = tos & 3;
        ctx.kind = FrameKind.IPV4;
        int proto = b.getUnsignedByte(l3 + Ipv4.PROTOCOL);
        ctx.l4Protocol = proto;
        ctx.l4Offset = l3 + headerLength;
        int flagsFragment = (int) head & 0xFFFF;
        if (proto != Ipv4.PROTO_UDP || (flagsFragment & (Ipv4.FLAG_MF | Ipv4.FRAGMENT_OFFSET_MASK)) != 0) {
            // a fragment is forwarded as it is: only an endpoint reassembles (or, for RoCE, drops) it
            return true;
        }
        return udp(ctx, b, total - headerLength);
    }

    private static boolean ipv6(PacketContext ctx, ByteBuf b, int l3, int limit) {
        if (limit - l3 < Ipv6.LENGTH || Ipv6.version(b, l3) != 6) {
            return false;
        }
        int payload = Ipv6.payloadLength(b, l3);
        if (l3 + Ipv6.LENGTH + payload > limit) {
            return false;
        }
        int tc = Ipv6.trafficClass(b, l3);
        ctx.ipVersion = 6;
        ctx.dscp = tc >> 2;
        ctx.ecn = tc & 3;
        ctx.kind = FrameKind.IPV6;
        ctx.l4Protocol = Ipv6.nextHeader(b, l3);
        ctx.l4Offset = l3 + Ipv6.LENGTH;
        return ctx.l4Protocol != Ipv4.PROTO_UDP || udp(ctx, b, payload);
    }

    private static boolean udp(PacketContext ctx, ByteBuf b, int ipPayload) {
        if (ipPayload < Udp.LENGTH) {
            return false;
        }
        // ports, length and checksum in one read (the IP payload holds the 8 bytes)
        long udp = b.getLong(ctx.l4Offset);
        int udpLength = (int) (udp >>> 16) & 0xFFFF;
        if (udpLength < Udp.LENGTH || udpLength > ipPayload) {
            return false;
        }
        if (((int) (udp >>> 32) & 0xFFFF) == Udp.ROCEV2_PORT) {
            ctx.kind = FrameKind.ROCEV2;
        }
        return true;
    }

    private static boolean macControl(PacketContext ctx, ByteBuf b, int l3, int limit) {
        ctx.kind = FrameKind.OTHER;
        if (limit - l3 < 2) {
            return false;
        }
        int op = b.getUnsignedShort(l3);
        if (op == Pfc.OPCODE_PFC) {
            ctx.kind = FrameKind.PFC;
            return limit - l3 >= Pfc.LENGTH;
        }
        if (op == Pfc.OPCODE_PAUSE) {
            ctx.kind = FrameKind.PAUSE;
            return limit - l3 >= 4;
        }
        return true;
    }
}
