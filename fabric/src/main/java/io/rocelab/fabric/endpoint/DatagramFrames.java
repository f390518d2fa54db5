package io.rocelab.fabric.endpoint;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Udp;

/**
 * Rebuilds the frame a NIC would have received for a RoCEv2 datagram read from a socket, and
 * checks the headers of a frame a NIC sends before its UDP payload goes out by a socket.
 *
 * <p>The ICRC (IBA Annex A17.4.1) covers the IPv4 header except TOS, TTL and checksum, and the UDP
 * header except its checksum: version, lengths, identification, flags, protocol, both addresses and
 * both ports. A socket tells the receiver the sender's address and port, the address the datagram
 * was sent to (the bound one) and the length; the identification and flags it cannot tell. Both ends
 * therefore use the same fixed values: identification 0 and DF, which is also what Linux writes on
 * the DF datagrams of an unconnected UDP socket when it sends them one at a time. TTL and TOS are
 * masked, so the values put here (64, 0) do not matter to the ICRC; the ECN bits of the real
 * datagram are not visible through Netty (see {@link UdpEndpointPort}), so the rebuilt frame is never
 * CE-marked.
 */
final class DatagramFrames {
    /** Ethernet + IPv4 without options + UDP. */
    static final int HEADERS = Ethernet.LENGTH + Ipv4.MIN_LENGTH + Udp.LENGTH;
    /** The IPv4 identification both ends put in the ICRC's pseudo header. */
    static final int IP_ID = 0;
    /** The IPv4 flags both ends put there: don't fragment, as RoCEv2 NICs send. */
    static final int IP_FLAGS = Ipv4.FLAG_DF;
    /** The smallest RoCEv2 UDP payload: a BTH (12 bytes) and an ICRC (4). */
    static final int MIN_PAYLOAD = 16;
    private static final int TTL = 64;

    private DatagramFrames() {
    }

    /**
     * A frame holding a copy of {@code payload} behind {@link #HEADERS} bytes left for its headers
     * ({@link HeaderTemplate} writes them).
     *
     * @param alloc   where the frame comes from
     * @param payload the datagram's payload, read from its reader index, not released here
     * @return the frame; the caller owns it
     */
    static ByteBuf copyBehindHeaders(ByteBufAllocator alloc, ByteBuf payload) {
        final int length = payload.readableBytes();
        final ByteBuf frame = alloc.directBuffer(HEADERS + length);
        frame.writerIndex(HEADERS);
        frame.writeBytes(payload, payload.readerIndex(), length);
        return frame;
    }

    /**
     * Writes the headers of a rebuilt frame into its first {@link #HEADERS} bytes (from its reader
     * index), in front of a UDP payload of {@code length} bytes.
     */
    static void writeHeaders(ByteBuf frame, long nicMac, long srcMac, int srcIp, int srcPort, int dstIp, int dstPort,
                             int length) {
        final int at = frame.readerIndex();
        Ethernet.write(frame, at, nicMac, srcMac, EtherType.IPV4);
        Ipv4.write(frame, at + Ethernet.LENGTH, 0, Ipv4.MIN_LENGTH + Udp.LENGTH + length, IP_ID, IP_FLAGS, TTL,
            Ipv4.PROTO_UDP, srcIp, dstIp);
        // checksum 0: "not computed" over IPv4 (RFC 768); the kernel checked the real one
        Udp.write(frame, at + Ethernet.LENGTH + Ipv4.MIN_LENGTH, srcPort, dstPort, Udp.LENGTH + length, 0);
    }

    /**
     * Why a frame from the NIC cannot go out as a UDP endpoint datagram, or {@code null} if it can:
     * Ethernet/IPv4 (20-byte header, not a fragment, identification and flags as {@link #IP_ID} and
     * {@link #IP_FLAGS}) / UDP to 4791 from {@code localIp}, with lengths that fit in the frame.
     */
    static UdpEndpointCounter rejectReason(ByteBuf frame, int localIp) {
        final int start = frame.readerIndex();
        final int length = frame.readableBytes();
        if (length < Ethernet.LENGTH || frame.getUnsignedShort(start + Ethernet.ETHER_TYPE) != EtherType.IPV4) {
            return UdpEndpointCounter.TX_DROPPED_NOT_IPV4;
        }
        final int ip = start + Ethernet.LENGTH;
        if (length < HEADERS) {
            return UdpEndpointCounter.TX_DROPPED_MALFORMED;
        }
        if (frame.getUnsignedByte(ip + Ipv4.VERSION_IHL) != 0x45 || Ipv4.protocol(frame, ip) != Ipv4.PROTO_UDP) {
            return UdpEndpointCounter.TX_DROPPED_NOT_ROCE;
        }
        final int udp = ip + Ipv4.MIN_LENGTH;
        if (Udp.dstPort(frame, udp) != Udp.ROCEV2_PORT) {
            return UdpEndpointCounter.TX_DROPPED_NOT_ROCE;
        }
        // a total length below the frame's is Ethernet padding (the 60-byte minimum), trimmed later
        final int total = Ipv4.totalLength(frame, ip);
        if (total > length - Ethernet.LENGTH || Udp.length(frame, udp) != total - Ipv4.MIN_LENGTH
            || total - Ipv4.MIN_LENGTH - Udp.LENGTH < MIN_PAYLOAD) {
            return UdpEndpointCounter.TX_DROPPED_MALFORMED;
        }
        if (Ipv4.src(frame, ip) != localIp) {
            return UdpEndpointCounter.TX_DROPPED_WRONG_SOURCE;
        }
        if (Ipv4.id(frame, ip) != IP_ID || Ipv4.flagsFragment(frame, ip) != IP_FLAGS) {
            return UdpEndpointCounter.TX_DROPPED_IP_ID;
        }
        return null;
    }

    /** The UDP source port of a frame that passed {@link #rejectReason}. */
    static int srcPort(ByteBuf frame) {
        return Udp.srcPort(frame, frame.readerIndex() + Ethernet.LENGTH + Ipv4.MIN_LENGTH);
    }

    /** The UDP payload length (BTH to ICRC) of a frame that passed {@link #rejectReason}. */
    static int payloadLength(ByteBuf frame) {
        return Ipv4.totalLength(frame, frame.readerIndex() + Ethernet.LENGTH) - Ipv4.MIN_LENGTH - Udp.LENGTH;
    }

    /** The IPv4 destination of a frame that passed {@link #rejectReason}. */
    static int dstIp(ByteBuf frame) {
        return Ipv4.dst(frame, frame.readerIndex() + Ethernet.LENGTH);
    }
}
