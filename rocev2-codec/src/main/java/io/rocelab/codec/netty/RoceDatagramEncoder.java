package io.rocelab.codec.netty;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.DatagramPacket;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.util.List;

/**
 * {@link RocePacket}s holding a UDP payload (BTH first, ICRC last) and a
 * {@link RocePacket#recipient()} in, {@link DatagramPacket}s to that recipient out, for the UDP
 * endpoint mode. The kernel builds the IP and UDP headers; the ICRC field travels as the sender
 * wrote it, since no sender on a UDP socket can know the IPv4 identification it covers.
 */
@Sharable
public final class RoceDatagramEncoder extends MessageToMessageEncoder<RocePacket> {
    @Override
    protected void encode(ChannelHandlerContext ctx, RocePacket packet, List<Object> out) {
        if (packet.recipient() == null) {
            throw new EncoderException("a UDP endpoint packet needs a recipient: " + packet);
        }
        if (packet.bthOffset() != 0) {
            throw new EncoderException("a UDP endpoint packet starts with its BTH, not at offset "
                    + packet.bthOffset() + ": " + packet);
        }
        out.add(new DatagramPacket(packet.content().retain(), packet.recipient(), packet.sender()));
    }
}
