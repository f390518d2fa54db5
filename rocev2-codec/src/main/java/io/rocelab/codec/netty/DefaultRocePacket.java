package io.rocelab.codec.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.DefaultByteBufHolder;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.header.Bth;
import io.rocelab.codec.ib.Opcode;
import java.net.InetSocketAddress;

/** The {@link RocePacket} the codec's decoders produce. */
public class DefaultRocePacket extends DefaultByteBufHolder implements RocePacket {
    private final int bthOffset;
    private final int payloadOffset;
    private final int payloadLength;
    private final int icrcOffset;
    private final int l3Offset;
    private final int ipVersion;
    private final Opcode opcode;
    private final boolean icrcVerified;
    private final InetSocketAddress sender;
    private final InetSocketAddress recipient;

    public DefaultRocePacket(ByteBuf content, int bthOffset, int payloadOffset, int payloadLength, int icrcOffset,
                             int l3Offset, int ipVersion, Opcode opcode, boolean icrcVerified,
                             InetSocketAddress sender, InetSocketAddress recipient) {
        super(content);
        this.bthOffset = bthOffset;
        this.payloadOffset = payloadOffset;
        this.payloadLength = payloadLength;
        this.icrcOffset = icrcOffset;
        this.l3Offset = l3Offset;
        this.ipVersion = ipVersion;
        this.opcode = opcode;
        this.icrcVerified = icrcVerified;
        this.sender = sender;
        this.recipient = recipient;
    }

    /** A packet over {@code content} as {@code parsed} found it (offsets made relative to the reader index). */
    public static DefaultRocePacket of(ByteBuf content, ParsedFrame parsed, boolean icrcVerified,
                                       InetSocketAddress sender, InetSocketAddress recipient) {
        int base = parsed.start();
        return new DefaultRocePacket(content, parsed.bthOffset() - base, parsed.payloadOffset() - base,
                parsed.payloadLength(), parsed.icrcOffset() - base,
                parsed.l3Offset() < 0 ? -1 : parsed.l3Offset() - base, parsed.ipVersion(), parsed.opcode(),
                icrcVerified, sender, recipient);
    }

    @Override
    public int bthOffset() {
        return bthOffset;
    }

    @Override
    public int payloadOffset() {
        return payloadOffset;
    }

    @Override
    public int payloadLength() {
        return payloadLength;
    }

    @Override
    public int icrcOffset() {
        return icrcOffset;
    }

    @Override
    public int l3Offset() {
        return l3Offset;
    }

    @Override
    public int ipVersion() {
        return ipVersion;
    }

    @Override
    public Opcode opcode() {
        return opcode;
    }

    @Override
    public boolean icrcVerified() {
        return icrcVerified;
    }

    @Override
    public InetSocketAddress sender() {
        return sender;
    }

    @Override
    public InetSocketAddress recipient() {
        return recipient;
    }

    @Override
    public int destQp() {
        return Bth.destQp(content(), content().readerIndex() + bthOffset);
    }

    @Override
    public int psn() {
        return Bth.psn(content(), content().readerIndex() + bthOffset);
    }

    @Override
    public DefaultRocePacket replace(ByteBuf content) {
        return new DefaultRocePacket(content, bthOffset, payloadOffset, payloadLength, icrcOffset, l3Offset,
                ipVersion, opcode, icrcVerified, sender, recipient);
    }

    @Override
    public DefaultRocePacket retain() {
        super.retain();
        return this;
    }

    @Override
    public DefaultRocePacket retain(int increment) {
        super.retain(increment);
        return this;
    }

    @Override
    public DefaultRocePacket retainedDuplicate() {
        return replace(content().retainedDuplicate());
    }

    @Override
    public DefaultRocePacket duplicate() {
        return replace(content().duplicate());
    }

    @Override
    public DefaultRocePacket copy() {
        return replace(content().copy());
    }

    @Override
    public DefaultRocePacket touch() {
        super.touch();
        return this;
    }

    @Override
    public DefaultRocePacket touch(Object hint) {
        super.touch(hint);
        return this;
    }

    @Override
    public String toString() {
        return "RocePacket(" + opcode + " qp=0x" + Integer.toHexString(destQp()) + " psn=" + psn() + " payload="
                + payloadLength + (sender != null ? " from " + sender : "") + ")";
    }
}
