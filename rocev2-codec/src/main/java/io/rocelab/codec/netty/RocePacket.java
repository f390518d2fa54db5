package io.rocelab.codec.netty;

import io.netty.buffer.ByteBufHolder;
import io.rocelab.codec.ib.Opcode;
import java.net.InetSocketAddress;

/**
 * One received or to-be-sent RoCEv2 packet in a Netty pipeline. {@link #content()} holds the bytes
 * as they travel: the whole Ethernet frame in frame mode, or the UDP payload (BTH first, ICRC last)
 * in UDP endpoint mode. Offsets are relative to the content's reader index.
 *
 * <p>Reference counted like every {@link ByteBufHolder}: the handler that consumes a packet
 * releases it.
 */
public interface RocePacket extends ByteBufHolder {
    /** Offset of the BTH in the content: 0 in UDP endpoint mode. */
    int bthOffset();

    int payloadOffset();

    int payloadLength();

    int icrcOffset();

    Opcode opcode();

    /** Offset of the IP header in the content, or -1 in UDP endpoint mode. */
    int l3Offset();

    /** 4 or 6; 0 when unknown (UDP endpoint mode with no addresses). */
    int ipVersion();

    /** Whether the ICRC was verified on receipt (frame mode) or not checkable (UDP endpoint mode). */
    boolean icrcVerified();

    /** The remote UDP endpoint in UDP endpoint mode, else null. */
    InetSocketAddress sender();

    /** The local (receive) or remote (send) UDP endpoint in UDP endpoint mode, else null. */
    InetSocketAddress recipient();

    /** Destination QP number from the BTH. */
    int destQp();

    /** 24-bit PSN from the BTH. */
    int psn();

    @Override
    RocePacket retain();

    @Override
    RocePacket retainedDuplicate();

    @Override
    RocePacket replace(io.netty.buffer.ByteBuf content);
}
