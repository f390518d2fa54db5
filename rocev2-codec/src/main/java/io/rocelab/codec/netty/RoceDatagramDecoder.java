package io.rocelab.codec.netty;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.DatagramPacket;
import io.netty.handler.codec.MessageToMessageDecoder;
import io.rocelab.codec.DecodeCounters;
import io.rocelab.codec.DecodeError;
import io.rocelab.codec.ParsedFrame;
import java.util.List;

/**
 * UDP datagrams received on port 4791 ({@link DatagramPacket}) in, {@link RocePacket}s out, for
 * the UDP endpoint mode. The ICRC covers the IPv4 identification, which the kernel chose, so it
 * cannot be checked here: integrity comes from the UDP checksum, and packets say
 * {@link RocePacket#icrcVerified()} false. Malformed payloads are counted and dropped.
 *
 * <p>Sharable: it holds no per-channel state beyond thread-safe counters.
 */
@Sharable
public final class RoceDatagramDecoder extends MessageToMessageDecoder<DatagramPacket> {
    private static final ThreadLocal<ParsedFrame> PARSER = ThreadLocal.withInitial(ParsedFrame::new);
    private final DecodeCounters counters;

    public RoceDatagramDecoder() {
        this(new DecodeCounters());
    }

    public RoceDatagramDecoder(DecodeCounters counters) {
        super(DatagramPacket.class);
        this.counters = counters;
    }

    public DecodeCounters counters() {
        return counters;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, DatagramPacket datagram, List<Object> out) {
        ParsedFrame parsed = PARSER.get();
        DecodeError error = parsed.parseTransport(datagram.content());
        if (error != null) {
            counters.drop(error);
            return;
        }
        counters.accept();
        out.add(DefaultRocePacket.of(datagram.content().retain(), parsed, false, datagram.sender(),
                datagram.recipient()));
    }
}
