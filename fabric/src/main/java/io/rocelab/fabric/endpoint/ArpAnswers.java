package io.rocelab.fabric.endpoint;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.header.Arp;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Ethernet;

/**
 * Answers the NIC's ARP requests for a {@link UdpEndpointPort}: every address is "at" the port's
 * gateway MAC. Why: in UDP endpoint mode the kernel routes by the destination IP and makes the
 * Ethernet header itself, so there is no next hop for the NIC to resolve; answering at once lets the
 * soft NIC keep its ordinary ARP step (and park nothing for long) while the port maps the
 * destination IP of each frame directly to a socket address.
 */
final class ArpAnswers {
    /** A locally administered MAC for the port's side of the NIC's link: 02:00:00:00:12:b7 (4791). */
    static final long GATEWAY_MAC = 0x0200_0000_12B7L;

    private ArpAnswers() {
    }

    /**
     * @return whether {@code frame} is an Ethernet/IPv4 ARP request
     */
    static boolean isRequest(ByteBuf frame) {
        final int start = frame.readerIndex();
        return frame.readableBytes() >= Ethernet.LENGTH + Arp.LENGTH
            && frame.getUnsignedShort(start + Ethernet.ETHER_TYPE) == EtherType.ARP
            && Arp.isEthernetIpv4(frame, start + Ethernet.LENGTH)
            && Arp.operation(frame, start + Ethernet.LENGTH) == Arp.REQUEST;
    }

    /**
     * The reply to an ARP request: the target address is at {@link #GATEWAY_MAC}.
     *
     * @param request a frame for which {@link #isRequest} holds; not released here
     * @return the reply frame, owned by the caller
     */
    static ByteBuf reply(ByteBufAllocator alloc, ByteBuf request) {
        final int arp = request.readerIndex() + Ethernet.LENGTH;
        final long askerMac = Arp.senderMac(request, arp);
        final int askerIp = Arp.senderIp(request, arp);
        final int wantedIp = Arp.targetIp(request, arp);
        // 60 bytes: the shortest Ethernet frame without FCS, as a NIC would pad it
        final ByteBuf reply = alloc.buffer(60);
        reply.writerIndex(60);
        reply.setZero(0, 60);
        Ethernet.write(reply, 0, askerMac, GATEWAY_MAC, EtherType.ARP);
        Arp.write(reply, Ethernet.LENGTH, Arp.REPLY, GATEWAY_MAC, wantedIp, askerMac, askerIp);
        return reply;
    }
}
