package io.rocelab.codec;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.header.Arp;
import io.rocelab.codec.header.Bth;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Grh;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.header.Pfc;
import io.rocelab.codec.header.Udp;
import io.rocelab.codec.header.Vlan;
import io.rocelab.codec.ib.ExtHeader;
import io.rocelab.codec.ib.Opcode;

/**
 * A reusable flyweight that locates the headers of one Ethernet frame (or of one RoCEv2 UDP
 * payload) in a {@link ByteBuf}, without copying or allocating. {@link #parse(ByteBuf)} checks
 * every length before anything is read, so a malformed frame yields a {@link DecodeError} and
 * never an exception. Field values are then read with the header flyweights at the offsets this
 * object exposes (all absolute buffer indices).
 *
 * <p>Not thread-safe: one instance per owning thread, reused for every frame. It does not retain
 * the buffer.
 */
public final class ParsedFrame {
    public static final int MAX_VLAN_TAGS = 2;

    private ByteBuf buf;
    private FrameKind kind;
    private int start;
    private int limit;
    private int end;
    private int vlanCount;
    private final int[] vlanOffsets = new int[MAX_VLAN_TAGS];
    private int etherType;
    private int l3Offset;
    private int ipVersion;
    private int ipHeaderLength;
    private int l4Protocol;
    private int l4Offset;
    private int udpOffset;
    private int bthOffset;
    private Opcode opcode;
    private int payloadOffset;
    private int payloadLength;
    private int icrcOffset;

    /**
     * Parses the Ethernet frame between the buffer's reader and writer index.
     *
     * @return null when the frame is well-formed, otherwise why it must be dropped
     */
    public DecodeError parse(ByteBuf frame) {
        reset(frame, frame.readerIndex(), frame.writerIndex());
        if (limit - start < Ethernet.LENGTH) {
            return DecodeError.TRUNCATED_ETHERNET;
        }
        int typeOffset = start + Ethernet.ETHER_TYPE;
        int type = buf.getUnsignedShort(typeOffset);
        while (EtherType.isVlanTag(type)) {
            if (vlanCount == MAX_VLAN_TAGS) {
                return DecodeError.TOO_MANY_VLAN_TAGS;
            }
            if (typeOffset + Vlan.LENGTH + 2 > limit) {
                return DecodeError.TRUNCATED_VLAN;
            }
            vlanOffsets[vlanCount++] = typeOffset;
            typeOffset += Vlan.LENGTH;
            type = buf.getUnsignedShort(typeOffset);
        }
        etherType = type;
        l3Offset = typeOffset + 2;
        switch (type) {
            case EtherType.IPV4:
                return parseIpv4();
            case EtherType.IPV6:
                return parseIpv6();
            case EtherType.ARP:
                if (limit - l3Offset < Arp.LENGTH) {
                    return DecodeError.TRUNCATED_ARP;
                }
                kind = FrameKind.ARP;
                end = l3Offset + Arp.LENGTH;
                return null;
            case EtherType.MAC_CONTROL:
                return parseMacControl();
            case EtherType.ROCE:
                return parseGrh();
            default:
                kind = FrameKind.OTHER;
                return null;
        }
    }

    /**
     * Parses a RoCEv2 UDP payload (BTH first, ICRC last) as received on a UDP socket, between the
     * buffer's reader and writer index. There are no Ethernet/IP/UDP headers: {@link #udpOffset()}
     * and the IP accessors are -1/0.
     */
    public DecodeError parseTransport(ByteBuf payload) {
        reset(payload, payload.readerIndex(), payload.writerIndex());
        kind = FrameKind.ROCEV2;
        return parseBth(start, limit - start);
    }

    private void reset(ByteBuf frame, int from, int to) {
        buf = frame;
        start = from;
        limit = to;
        end = to;
        kind = FrameKind.OTHER;
        vlanCount = 0;
        etherType = -1;
        l3Offset = -1;
        ipVersion = 0;
        ipHeaderLength = 0;
        l4Protocol = -1;
        l4Offset = -1;
        udpOffset = -1;
        bthOffset = -1;
        opcode = null;
        payloadOffset = -1;
        payloadLength = 0;
        icrcOffset = -1;
    }

    private DecodeError parseMacControl() {
        if (limit - l3Offset < 2) {
            return DecodeError.TRUNCATED_MAC_CONTROL;
        }
        int op = buf.getUnsignedShort(l3Offset);
        if (op == Pfc.OPCODE_PFC) {
            if (limit - l3Offset < Pfc.LENGTH) {
                return DecodeError.TRUNCATED_MAC_CONTROL;
            }
            kind = FrameKind.PFC;
            end = l3Offset + Pfc.LENGTH;
        } else if (op == Pfc.OPCODE_PAUSE) {
            if (limit - l3Offset < 4) {
                return DecodeError.TRUNCATED_MAC_CONTROL;
            }
            kind = FrameKind.PAUSE;
            end = l3Offset + 4;
        } else {
            kind = FrameKind.OTHER;
        }
        return null;
    }

    /**
     * A RoCEv1 frame (IBA Annex A16): the GRH (IBA 8.3.1: IPVer 6, NxtHdr 0x1B, PayLen the bytes
     * from the BTH to the ICRC inclusive), then the transport as in RoCEv2. Not IP: the IP accessors
     * stay 0/-1, {@link #grhOffset()} locates the GRH.
     */
    private DecodeError parseGrh() {
        if (limit - l3Offset < Grh.LENGTH) {
            return DecodeError.TRUNCATED_GRH;
        }
        if (Ipv6.version(buf, l3Offset) != Grh.IP_VERSION
                || Ipv6.nextHeader(buf, l3Offset) != Grh.NEXT_HEADER_IBA) {
            return DecodeError.BAD_GRH;
        }
        int payload = Ipv6.payloadLength(buf, l3Offset);
        if (l3Offset + Grh.LENGTH + payload > limit) {
            return DecodeError.TRUNCATED_GRH;
        }
        end = l3Offset + Grh.LENGTH + payload;
        kind = FrameKind.ROCEV1;
        return parseBth(l3Offset + Grh.LENGTH, payload);
    }

    private DecodeError parseIpv4() {
        if (limit - l3Offset < Ipv4.MIN_LENGTH) {
            return DecodeError.TRUNCATED_IP;
        }
        // the first 12 bytes as three words (RFC 791): version/IHL/TOS/total length,
        // identification/flags/fragment offset, TTL/protocol/checksum
        final int word0 = buf.getInt(l3Offset);
        final int word1 = buf.getInt(l3Offset + Ipv4.ID);
        final int word2 = buf.getInt(l3Offset + Ipv4.TTL);
        ipVersion = word0 >>> 28;
        ipHeaderLength = ((word0 >>> 24) & 0xF) * 4;
        if (ipVersion != 4 || ipHeaderLength < Ipv4.MIN_LENGTH) {
            return DecodeError.BAD_IP_HEADER;
        }
        int total = word0 & 0xFFFF;
        if (total < ipHeaderLength) {
            return DecodeError.BAD_IP_HEADER;
        }
        if (l3Offset + total > limit) {
            return DecodeError.TRUNCATED_IP;
        }
        end = l3Offset + total;
        kind = FrameKind.IPV4;
        l4Protocol = (word2 >>> 16) & 0xFF;
        l4Offset = l3Offset + ipHeaderLength;
        if (l4Protocol != Ipv4.PROTO_UDP) {
            return null;
        }
        if ((word1 & (Ipv4.FLAG_MF | Ipv4.FRAGMENT_OFFSET_MASK)) != 0) {
            return isRoceFirstFragment() ? DecodeError.IP_FRAGMENT : null;
        }
        return parseUdp(total - ipHeaderLength);
    }

    /** A fragment that claims RoCEv2's port: the first fragment holds the UDP header. */
    private boolean isRoceFirstFragment() {
        return (Ipv4.flagsFragment(buf, l3Offset) & Ipv4.FRAGMENT_OFFSET_MASK) == 0
                && end - l4Offset >= Udp.LENGTH && Udp.dstPort(buf, l4Offset) == Udp.ROCEV2_PORT;
    }

    private DecodeError parseIpv6() {
        if (limit - l3Offset < Ipv6.LENGTH) {
            return DecodeError.TRUNCATED_IP;
        }
        ipVersion = Ipv6.version(buf, l3Offset);
        if (ipVersion != 6) {
            return DecodeError.BAD_IP_HEADER;
        }
        ipHeaderLength = Ipv6.LENGTH;
        int payload = Ipv6.payloadLength(buf, l3Offset);
        if (l3Offset + Ipv6.LENGTH + payload > limit) {
            return DecodeError.TRUNCATED_IP;
        }
        end = l3Offset + Ipv6.LENGTH + payload;
        kind = FrameKind.IPV6;
        l4Protocol = Ipv6.nextHeader(buf, l3Offset);
        l4Offset = l3Offset + Ipv6.LENGTH;
        if (l4Protocol != Ipv4.PROTO_UDP) {
            return null;
        }
        return parseUdp(payload);
    }

    private DecodeError parseUdp(int ipPayload) {
        if (ipPayload < Udp.LENGTH) {
            return DecodeError.BAD_UDP_LENGTH;
        }
        // source port, destination port, length, checksum in one read
        final long udp = buf.getLong(l4Offset);
        int udpLength = (int) (udp >>> 16) & 0xFFFF;
        if (udpLength < Udp.LENGTH || udpLength > ipPayload) {
            return DecodeError.BAD_UDP_LENGTH;
        }
        udpOffset = l4Offset;
        if (((int) (udp >>> 32) & 0xFFFF) != Udp.ROCEV2_PORT) {
            return null;
        }
        kind = FrameKind.ROCEV2;
        return parseBth(udpOffset + Udp.LENGTH, udpLength - Udp.LENGTH);
    }

    /** Locates the transport headers of a RoCEv2 UDP payload of {@code length} bytes at {@code offset}. */
    private DecodeError parseBth(int offset, int length) {
        if (length < Bth.LENGTH + Icrc.LENGTH) {
            return DecodeError.TRUNCATED_BTH;
        }
        bthOffset = offset;
        icrcOffset = offset + length - Icrc.LENGTH;
        final int bth0 = buf.getUnsignedShort(offset + Bth.OPCODE); // opcode, then SE/M/pad/tver
        if ((bth0 & 0xF) != 0) {
            return DecodeError.BAD_TRANSPORT_VERSION;
        }
        opcode = Opcode.of(bth0 >>> 8);
        int headers = opcode.headerLength();
        if (headers + Icrc.LENGTH > length) {
            return DecodeError.TRUNCATED_HEADERS;
        }
        payloadOffset = offset + headers;
        payloadLength = icrcOffset - payloadOffset - ((bth0 >>> 4) & 3);
        if (payloadLength < 0) {
            payloadLength = 0;
            return DecodeError.BAD_PAD_COUNT;
        }
        return null;
    }

    public ByteBuf buffer() {
        return buf;
    }

    public FrameKind kind() {
        return kind;
    }

    /** RoCEv2 (over UDP); see {@link #isRoceV1()} for the other encapsulation. */
    public boolean isRoce() {
        return kind == FrameKind.ROCEV2;
    }

    /** RoCEv1: EtherType 0x8915, GRH, BTH (IBA Annex A16). */
    public boolean isRoceV1() {
        return kind == FrameKind.ROCEV1;
    }

    /** Offset of a RoCEv1 frame's GRH, or -1 for any other frame. */
    public int grhOffset() {
        return kind == FrameKind.ROCEV1 ? l3Offset : -1;
    }

    /** Index of the first byte of the frame (the destination MAC, or the BTH for a transport parse). */
    public int start() {
        return start;
    }

    /** One past the last byte of the frame proper: for IP, where the datagram ends. */
    public int end() {
        return end;
    }

    /** Bytes after the end of the IP datagram: Ethernet padding to the 60-byte minimum, or a trailer. */
    public int trailerLength() {
        return limit - end;
    }

    public int limit() {
        return limit;
    }

    public long dstMac() {
        return Ethernet.dst(buf, start);
    }

    public long srcMac() {
        return Ethernet.src(buf, start);
    }

    public String dstMacText() {
        return MacAddress.toString(dstMac());
    }

    public int vlanCount() {
        return vlanCount;
    }

    /** Offset of tag {@code i}'s TPID (0 = outermost). */
    public int vlanOffset(int i) {
        if (i >= vlanCount) {
            throw new IndexOutOfBoundsException("frame has " + vlanCount + " VLAN tags, asked for tag " + i);
        }
        return vlanOffsets[i];
    }

    /** 802.1p priority of the innermost tag, or -1 when untagged. */
    public int pcp() {
        return vlanCount == 0 ? -1 : Vlan.pcp(buf, vlanOffsets[vlanCount - 1]);
    }

    /** EtherType after any VLAN tags. */
    public int etherType() {
        return etherType;
    }

    /** Offset of the layer-3 header (IP, ARP body, MAC control body). */
    public int l3Offset() {
        return l3Offset;
    }

    /** 4, 6, or 0 when not IP. */
    public int ipVersion() {
        return ipVersion;
    }

    public int ipHeaderLength() {
        return ipHeaderLength;
    }

    /** IP protocol / next header, or -1. */
    public int l4Protocol() {
        return l4Protocol;
    }

    public int l4Offset() {
        return l4Offset;
    }

    public int udpOffset() {
        return udpOffset;
    }

    public int bthOffset() {
        return bthOffset;
    }

    public Opcode opcode() {
        return opcode;
    }

    /** Offset of extension header {@code h}, or -1 when this packet's opcode does not carry it. */
    public int offsetOf(ExtHeader h) {
        int rel = opcode.offsetOf(h);
        return rel < 0 ? -1 : bthOffset + rel;
    }

    public int payloadOffset() {
        return payloadOffset;
    }

    public int payloadLength() {
        return payloadLength;
    }

    public int padCount() {
        return Bth.padCount(buf, bthOffset);
    }

    public int icrcOffset() {
        return icrcOffset;
    }

    /** The ICRC as a CRC-32 value (it travels least-significant byte first). */
    public int icrc() {
        return buf.getIntLE(icrcOffset);
    }

    public int destQp() {
        return Bth.destQp(buf, bthOffset);
    }

    public int psn() {
        return Bth.psn(buf, bthOffset);
    }

    /** DSCP of the IP header, or -1 when not IP. */
    public int dscp() {
        return switch (ipVersion) {
            case 4 -> Ipv4.dscp(buf, l3Offset);
            case 6 -> Ipv6.dscp(buf, l3Offset);
            default -> -1;
        };
    }

    /** ECN codepoint of the IP header (0 Not-ECT, 1 ECT(1), 2 ECT(0), 3 CE), or -1 when not IP. */
    public int ecn() {
        return switch (ipVersion) {
            case 4 -> Ipv4.ecn(buf, l3Offset);
            case 6 -> Ipv6.ecn(buf, l3Offset);
            default -> -1;
        };
    }
}
