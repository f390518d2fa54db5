package io.rocelab.codec.routing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Udp;

/**
 * The frames a router's control plane sends to its neighbour on a point-to-point link: BGP in a
 * TCP segment (RFC 4271 section 8: port 179) and BFD in a UDP datagram (RFC 5881: port 3784), in
 * IPv4 from one interface address to the other, DSCP 48 (CS6, network control, RFC 4594), TTL 255
 * (RFC 5881 section 5 and the generalized TTL security of RFC 5082), checksums right, so that
 * Wireshark decodes them as BGP and BFD.
 *
 * <p>TCP: one message per segment with PSH|ACK (or a pure ACK), sequence numbers advancing by the
 * bytes sent and the acknowledgement echoing the peer's; the speaker resends what is not
 * acknowledged (no handshake or window is modelled).
 */
public final class ControlFrame {
    /** RFC 4271 section 8: BGP listens on TCP port 179. */
    public static final int BGP_PORT = 179;
    /** DSCP 48, CS6: network control. */
    public static final int DSCP_CS6 = 48;
    public static final int TTL = 255;
    /** Ethernet + IPv4 (no options) + TCP (no options). */
    public static final int TCP_PAYLOAD = Ethernet.LENGTH + Ipv4.MIN_LENGTH + 20;
    public static final int UDP_PAYLOAD = Ethernet.LENGTH + Ipv4.MIN_LENGTH + Udp.LENGTH;

    private ControlFrame() {
    }

    /**
     * @return a frame holding a TCP segment with {@code message} (a BGP message) as payload, or a pure
     *         acknowledgement if {@code message} is null
     */
    public static ByteBuf bgp(ByteBufAllocator alloc, long dstMac, long srcMac, int src, int dst, int srcPort,
                              int dstPort, long seq, long ack, BgpMessage message) {
        ByteBuf b = alloc.buffer(TCP_PAYLOAD + 128);
        b.writerIndex(TCP_PAYLOAD);
        int payload = message == null ? 0 : BgpMessage.write(message, b);
        int l3 = Ethernet.LENGTH;
        int l4 = l3 + Ipv4.MIN_LENGTH;
        Ethernet.write(b, 0, dstMac, srcMac, EtherType.IPV4);
        Ipv4.write(b, l3, DSCP_CS6 << 2, Ipv4.MIN_LENGTH + 20 + payload, 0, Ipv4.FLAG_DF, TTL, Ipv4.PROTO_TCP, src, dst);
        b.setShort(l4, srcPort);
        b.setShort(l4 + 2, dstPort);
        b.setInt(l4 + 4, (int) seq);
        b.setInt(l4 + 8, (int) ack);
        b.setByte(l4 + 12, 5 << 4);
        b.setByte(l4 + 13, 0x18); // PSH, ACK
        b.setShort(l4 + 14, 0xFFFF);
        b.setShort(l4 + 16, 0);
        b.setShort(l4 + 18, 0);
        b.setShort(l4 + 16, checksum(b, l4, 20 + payload, Ipv4.PROTO_TCP, src, dst));
        padToMinimum(b);
        return b;
    }

    /** @return a frame holding a UDP datagram with {@code packet} as payload */
    public static ByteBuf bfd(ByteBufAllocator alloc, long dstMac, long srcMac, int src, int dst, int srcPort,
                              BfdPacket packet) {
        ByteBuf b = alloc.buffer(UDP_PAYLOAD + BfdPacket.LENGTH + 8);
        b.writerIndex(UDP_PAYLOAD);
        packet.write(b);
        int l3 = Ethernet.LENGTH;
        int l4 = l3 + Ipv4.MIN_LENGTH;
        int udpLength = Udp.LENGTH + BfdPacket.LENGTH;
        Ethernet.write(b, 0, dstMac, srcMac, EtherType.IPV4);
        Ipv4.write(b, l3, DSCP_CS6 << 2, Ipv4.MIN_LENGTH + udpLength, 0, Ipv4.FLAG_DF, TTL, Ipv4.PROTO_UDP, src, dst);
        Udp.write(b, l4, srcPort, BfdPacket.PORT, udpLength, 0);
        int sum = checksum(b, l4, udpLength, Ipv4.PROTO_UDP, src, dst);
        b.setShort(l4 + Udp.CHECKSUM, sum == 0 ? 0xFFFF : sum);
        padToMinimum(b);
        return b;
    }

    private static void padToMinimum(ByteBuf b) {
        while (b.writerIndex() < Ethernet.MIN_FRAME) {
            b.writeByte(0);
        }
    }

    /** The RFC 793 / RFC 768 checksum over the IPv4 pseudo-header and the segment. */
    static int checksum(ByteBuf b, int l4, int length, int protocol, int src, int dst) {
        long sum = (src >>> 16) + (src & 0xFFFF) + (dst >>> 16) + (dst & 0xFFFF) + protocol + length;
        for (int i = 0; i + 1 < length; i += 2) {
            sum += b.getUnsignedShort(l4 + i);
        }
        if ((length & 1) != 0) {
            sum += b.getUnsignedByte(l4 + length - 1) << 8;
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (int) (~sum & 0xFFFF);
    }

    /** @return whether the TCP segment at {@code l4} has a good checksum */
    public static boolean tcpChecksumOk(ByteBuf b, int l3, int l4) {
        int length = Ipv4.totalLength(b, l3) - (l4 - l3);
        return checksum(b, l4, length, Ipv4.PROTO_TCP, Ipv4.src(b, l3), Ipv4.dst(b, l3)) == 0;
    }
}
