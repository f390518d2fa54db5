package io.rocelab.codec.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageDecoder;
import io.rocelab.codec.DecodeCounters;
import io.rocelab.codec.DecodeError;
import io.rocelab.codec.Icrc;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.header.Ipv4;
import java.util.List;

/**
 * Ethernet frames ({@link ByteBuf}) in, {@link RocePacket}s out. A malformed frame, a bad IPv4
 * header checksum or a bad ICRC is counted by reason and dropped (IBA C9-... : a packet failing
 * the ICRC check is silently dropped); nothing is thrown through the pipeline. Frames that are not
 * RoCEv2 (ARP, PFC, TCP, ...) are passed on unchanged for the next handler.
 *
 * <p>Not sharable: it keeps a reusable parser and ICRC engine for its channel's event loop.
 */
public final class RoceFrameDecoder extends MessageToMessageDecoder<ByteBuf> {
    private final ParsedFrame parsed = new ParsedFrame();
    private final Icrc icrc = new Icrc();
    private final DecodeCounters counters;

    public RoceFrameDecoder() {
        this(new DecodeCounters());
    }

    public RoceFrameDecoder(DecodeCounters counters) {
        super(ByteBuf.class);
        this.counters = counters;
    }

    public DecodeCounters counters() {
        return counters;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) {
        DecodeError error = parsed.parse(frame);
        if (error == null && parsed.isRoce()) {
            if (parsed.ipVersion() == 4 && !Ipv4.checksumOk(frame, parsed.l3Offset())) {
                error = DecodeError.BAD_IPV4_CHECKSUM;
            } else if (!icrc.verify(parsed)) {
                error = DecodeError.BAD_ICRC;
            }
        }
        if (error != null) {
            counters.drop(error);
            return; // MessageToMessageDecoder releases the frame
        }
        if (!parsed.isRoce()) {
            out.add(frame.retain());
            return;
        }
        counters.accept();
        out.add(DefaultRocePacket.of(frame.retain(), parsed, true, null, null));
    }
}
