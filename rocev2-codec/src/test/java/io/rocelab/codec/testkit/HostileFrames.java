package io.rocelab.codec.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.Icrc;
import io.rocelab.codec.header.Arp;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.Pfc;
import io.rocelab.codec.header.Udp;
import java.util.Arrays;

/**
 * The envelopes of hostile frames, as bytes: what an attacker on the same Ethernet does to a frame
 * around its transport (VLAN stacks, IPv4 options, lying IP and UDP lengths, truncation) and the
 * link-level frames it sends (PFC with any vector, ARP and ICMPv6 of any shape). An attacker
 * computes checksums and ICRCs as well as anyone: {@link #reseal} makes a mutated frame carry the
 * IPv4 header checksum and the ICRC a sender would have put there, whenever the frame parses far
 * enough to have them. Used by the NIC's and the switch's hostile-input properties.
 */
public final class HostileFrames {
    /** 802.1Q, 802.1ad, and the pre-standard QinQ TPID a switch treats as data. */
    public static final int[] TPIDS = {EtherType.VLAN, EtherType.QINQ, 0x9100};

    private HostileFrames() {
    }

    /**
     * The IPv4 header checksum (when the header's length fits the frame) and the ICRC (when the
     * frame parses as RoCEv2) recomputed; returns {@code frame}, changed in place.
     */
    public static byte[] reseal(byte[] frame) {
        ByteBuf b = Unpooled.wrappedBuffer(frame);
        int l3 = l3Offset(frame);
        if (l3 >= 0 && l3 + Ipv4.MIN_LENGTH <= frame.length && etherTypeAt(frame, l3 - 2) == EtherType.IPV4
                && (frame[l3] & 0xF0) == 0x40) {
            int ihl = (frame[l3] & 0x0F) * 4;
            if (ihl >= Ipv4.MIN_LENGTH && l3 + ihl <= frame.length) {
                Ipv4.updateChecksum(b, l3);
            }
        }
        ParsedFrame f = new ParsedFrame();
        if (f.parse(b) == null && f.isRoce()) {
            new Icrc().fill(f);
        }
        return frame;
    }

    /** Where the network header starts after any VLAN tags the codec would skip, or -1 if the frame ends first. */
    public static int l3Offset(byte[] frame) {
        int at = Ethernet.ETHER_TYPE;
        while (at + 2 <= frame.length && EtherType.isVlanTag(etherTypeAt(frame, at))) {
            at += 4;
        }
        return at + 2 <= frame.length ? at + 2 : -1;
    }

    private static int etherTypeAt(byte[] frame, int at) {
        return ((frame[at] & 0xFF) << 8) | (frame[at + 1] & 0xFF);
    }

    /**
     * {@code frame} with VLAN tags inserted after its MAC addresses, outermost first: TPID
     * {@code tpids[i]} and TCI {@code tcis[i]} (PCP, DEI and VID). The tags are outside the IP
     * datagram, so checksums and ICRC stay valid.
     */
    public static byte[] withVlanTags(byte[] frame, int[] tpids, int[] tcis) {
        int n = tpids.length;
        byte[] out = new byte[frame.length + 4 * n];
        System.arraycopy(frame, 0, out, 0, Ethernet.ETHER_TYPE);
        for (int i = 0; i < n; i++) {
            int at = Ethernet.ETHER_TYPE + 4 * i;
            out[at] = (byte) (tpids[i] >> 8);
            out[at + 1] = (byte) tpids[i];
            out[at + 2] = (byte) (tcis[i] >> 8);
            out[at + 3] = (byte) tcis[i];
        }
        System.arraycopy(frame, Ethernet.ETHER_TYPE, out, Ethernet.ETHER_TYPE + 4 * n,
                frame.length - Ethernet.ETHER_TYPE);
        return out;
    }

    /**
     * An untagged IPv4 {@code frame} with {@code options} (a multiple of 4 bytes, at most 40) after
     * its 20-byte header: header length and total length grown to match, checksum and ICRC resealed.
     */
    public static byte[] withIpv4Options(byte[] frame, byte[] options) {
        if (options.length % 4 != 0 || options.length > 40) {
            throw new IllegalArgumentException("IPv4 options are 0..40 bytes, in words: " + options.length);
        }
        int l3 = Ethernet.LENGTH;
        int ipEnd = l3 + ((frame[l3] & 0x0F) * 4);
        byte[] out = new byte[frame.length + options.length];
        System.arraycopy(frame, 0, out, 0, ipEnd);
        System.arraycopy(options, 0, out, ipEnd, options.length);
        System.arraycopy(frame, ipEnd, out, ipEnd + options.length, frame.length - ipEnd);
        int ihl = (ipEnd - l3 + options.length) / 4;
        out[l3] = (byte) (0x40 | ihl);
        ByteBuf b = Unpooled.wrappedBuffer(out);
        b.setShort(l3 + Ipv4.TOTAL_LENGTH, Ipv4.totalLength(b, l3) + options.length);
        return reseal(out);
    }

    /**
     * Sets the IP datagram's length field (IPv4 total length, IPv6 payload length) and, if
     * {@code udpLength} is not negative, the UDP length, to what the caller chooses, true or not;
     * then reseals. The frame's own length does not change.
     */
    public static byte[] withLengths(byte[] frame, int ipLength, int udpLength) {
        byte[] out = frame.clone();
        int l3 = l3Offset(out);
        ByteBuf b = Unpooled.wrappedBuffer(out);
        int type = etherTypeAt(out, l3 - 2);
        int l4;
        if (type == EtherType.IPV4) {
            b.setShort(l3 + Ipv4.TOTAL_LENGTH, ipLength);
            l4 = l3 + (out[l3] & 0x0F) * 4;
        } else if (type == EtherType.IPV6) {
            b.setShort(l3 + Ipv6.PAYLOAD_LENGTH, ipLength);
            l4 = l3 + Ipv6.LENGTH;
        } else {
            throw new IllegalArgumentException("not an IP frame: EtherType 0x" + Integer.toHexString(type));
        }
        if (udpLength >= 0 && l4 + Udp.LENGTH <= out.length) {
            b.setShort(l4 + Udp.LENGTH_FIELD, udpLength);
        }
        return reseal(out);
    }

    /** The first {@code n} bytes of {@code frame}: the rest never arrived, the lengths still claim it. */
    public static byte[] truncated(byte[] frame, int n) {
        return Arrays.copyOf(frame, Math.min(n, frame.length));
    }

    /**
     * A PFC frame (IEEE 802.1Qbb) of {@code length} bytes (at least 14; a PFC body needs 34, the
     * Ethernet minimum is 60): {@code cev} is written as the whole 16-bit class-enable field.
     */
    public static byte[] pfc(long dst, long src, int opcode, int cev, int[] quanta, int length) {
        byte[] out = new byte[Math.max(Ethernet.LENGTH, length)];
        ByteBuf b = Unpooled.wrappedBuffer(new byte[Math.max(out.length, Ethernet.LENGTH + Pfc.LENGTH)]);
        Ethernet.write(b, 0, dst, src, EtherType.MAC_CONTROL);
        Pfc.write(b, Ethernet.LENGTH, cev & 0xFF, quanta);
        b.setShort(Ethernet.LENGTH + Pfc.OPCODE, opcode);
        b.setShort(Ethernet.LENGTH + Pfc.CLASS_ENABLE, cev);
        b.getBytes(0, out);
        return out;
    }

    /**
     * An ARP packet of {@code length} bytes (the body is 28; shorter cuts it) with every field
     * chosen by the caller: hardware and protocol types and sizes, operation, addresses.
     */
    public static byte[] arp(long dst, long src, int htype, int ptype, int hlen, int plen, int op, long senderMac,
                             int senderIp, long targetMac, int targetIp, int length) {
        ByteBuf b = Unpooled.wrappedBuffer(new byte[Math.max(length, Ethernet.LENGTH + Arp.LENGTH)]);
        Ethernet.write(b, 0, dst, src, EtherType.ARP);
        int l3 = Ethernet.LENGTH;
        Arp.write(b, l3, op, senderMac, senderIp, targetMac, targetIp);
        b.setShort(l3 + Arp.HTYPE, htype);
        b.setShort(l3 + Arp.PTYPE, ptype);
        b.setByte(l3 + Arp.HLEN, hlen);
        b.setByte(l3 + Arp.PLEN, plen);
        byte[] out = new byte[Math.max(length, 0)];
        b.getBytes(0, out, 0, Math.min(out.length, b.capacity()));
        return out;
    }

    /**
     * An ICMPv6 packet: the IPv6 header from {@code src} to {@code dst} with {@code hopLimit} and a
     * payload length of {@code payloadLength} (which may lie), then {@code icmp} as the message; its
     * checksum is computed over the message if {@code goodChecksum} and the message has room for it.
     */
    public static byte[] icmpv6(long ethDst, long ethSrc, byte[] src, byte[] dst, int hopLimit, byte[] icmp,
                                int payloadLength, boolean goodChecksum) {
        int l3 = Ethernet.LENGTH;
        byte[] out = new byte[l3 + Ipv6.LENGTH + icmp.length];
        ByteBuf b = Unpooled.wrappedBuffer(out);
        Ethernet.write(b, 0, ethDst, ethSrc, EtherType.IPV6);
        Ipv6.write(b, l3, 0, 0, payloadLength, 58, hopLimit, src, dst);
        System.arraycopy(icmp, 0, out, l3 + Ipv6.LENGTH, icmp.length);
        if (goodChecksum && icmp.length >= 4) {
            b.setShort(l3 + Ipv6.LENGTH + 2, 0);
            b.setShort(l3 + Ipv6.LENGTH + 2, icmpv6Checksum(b, l3, icmp.length));
        }
        return out;
    }

    /**
     * RFC 4443 2.3: the Internet checksum over the IPv6 pseudo-header (IPv6 header at {@code ip})
     * and the {@code len} bytes of message after it. With the message's checksum field zero it is the
     * value to put there; over a received message, 0 means the checksum is right.
     */
    public static int icmpv6Checksum(ByteBuf b, int ip, int len) {
        long sum = 0;
        for (int i = 0; i < 32; i += 2) {
            sum += b.getUnsignedShort(ip + Ipv6.SRC + i);
        }
        sum += len + 58;
        int icmp = ip + Ipv6.LENGTH;
        for (int i = 0; i + 1 < len; i += 2) {
            sum += b.getUnsignedShort(icmp + i);
        }
        if ((len & 1) != 0) {
            sum += (b.getUnsignedByte(icmp + len - 1) << 8);
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (int) (~sum & 0xFFFF);
    }

    /** The solicited-node multicast group of an IPv6 address (RFC 4291 2.7.1) and its MAC. */
    public static byte[] solicitedNode(byte[] address) {
        byte[] g = Ipv6.parse("ff02::1:ff00:0");
        g[13] = address[13];
        g[14] = address[14];
        g[15] = address[15];
        return g;
    }

    /** The multicast MAC of an IPv6 group (RFC 2464 7). */
    public static long multicastMac(byte[] group) {
        return 0x3333_0000_0000L | ((group[12] & 0xFFL) << 24) | ((group[13] & 0xFFL) << 16)
                | ((group[14] & 0xFFL) << 8) | (group[15] & 0xFFL);
    }
}
