package io.rocelab.codec.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.MessageToMessageEncoder;
import io.rocelab.codec.DecodeError;
import io.rocelab.codec.Icrc;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.header.Ipv4;
import java.util.List;

/**
 * {@link RocePacket}s (whole Ethernet frames whose headers and payload are final) and
 * {@link RoceFrame} values in, wire-ready Ethernet frames out: the IPv4 header checksum and the
 * ICRC are computed here, last, so every field the sender set is covered.
 *
 * <p>Not sharable: it keeps a reusable parser and ICRC engine for its channel's event loop.
 */
public final class RoceFrameEncoder extends MessageToMessageEncoder<Object> {
    private final ParsedFrame parsed = new ParsedFrame();
    private final Icrc icrc = new Icrc();

    @Override
    public boolean acceptOutboundMessage(Object msg) {
        return msg instanceof RocePacket || msg instanceof RoceFrame;
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, Object msg, List<Object> out) {
        if (msg instanceof RoceFrame frame) {
            out.add(frame.encode(ctx.alloc()));
            return;
        }
        RocePacket packet = (RocePacket) msg;
        ByteBuf content = packet.content();
        if (packet.l3Offset() < 0) {
            throw new EncoderException("a frame-mode channel needs whole Ethernet frames, got a UDP payload: "
                    + packet);
        }
        DecodeError error = parsed.parse(content);
        if (error != null || !parsed.isRoce()) {
            throw new EncoderException("not a well-formed RoCEv2 frame (" + (error != null ? error : parsed.kind())
                    + "): " + packet);
        }
        if (parsed.ipVersion() == 4) {
            Ipv4.updateChecksum(content, parsed.l3Offset());
        }
        icrc.fill(parsed);
        out.add(content.retain());
    }
}
