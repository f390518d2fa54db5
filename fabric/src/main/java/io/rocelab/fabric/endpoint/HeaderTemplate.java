package io.rocelab.fabric.endpoint;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * The rebuilt Ethernet/IPv4/UDP headers of the last datagram received, kept to copy in front of the
 * next one: the datagrams of a stream come from one QP's source port at one length (every packet of
 * a message but its last is a full MTU), so their 42 bytes are the same, and copying them costs less
 * than writing the fields and summing the IPv4 checksum each time. Owner thread only.
 */
final class HeaderTemplate {
    private final long nicMac;
    private final long srcMac;
    private final byte[] bytes = new byte[DatagramFrames.HEADERS];
    private final ByteBuf view = Unpooled.wrappedBuffer(bytes);
    /** Source address and port, destination address and port, UDP payload length; valid once {@link #filled}. */
    private int srcIp;
    private int srcPort;
    private int dstIp;
    private int dstPort;
    private int length;
    private boolean filled;

    /**
     * @param nicMac the receiving NIC's MAC (every frame's destination)
     * @param srcMac the MAC frames seem to come from
     */
    HeaderTemplate(long nicMac, long srcMac) {
        this.nicMac = nicMac;
        this.srcMac = srcMac;
    }

    /**
     * Writes the headers of a frame for a datagram of {@code length} bytes into the first
     * {@link DatagramFrames#HEADERS} bytes of {@code frame} (from its reader index).
     */
    void write(ByteBuf frame, int srcIp, int srcPort, int dstIp, int dstPort, int length) {
        if (!filled || srcIp != this.srcIp || srcPort != this.srcPort || dstIp != this.dstIp
            || dstPort != this.dstPort || length != this.length) {
            DatagramFrames.writeHeaders(view.clear(), nicMac, srcMac, srcIp, srcPort, dstIp, dstPort, length);
            this.srcIp = srcIp;
            this.srcPort = srcPort;
            this.dstIp = dstIp;
            this.dstPort = dstPort;
            this.length = length;
            filled = true;
        }
        frame.setBytes(frame.readerIndex(), bytes);
    }
}
