package io.rocelab.codec.routing;

import io.netty.buffer.ByteBuf;

/**
 * A BFD control packet (RFC 5880 section 4.1, mandatory section only, no authentication), as
 * single-hop BFD sends it in UDP to port {@value #PORT} (RFC 5881).
 *
 * @param state                 0 AdminDown, 1 Down, 2 Init, 3 Up
 * @param diagnostic            the diagnostic code (1: control detection time expired)
 * @param detectMultiplier      Detect Mult
 * @param myDiscriminator       My Discriminator
 * @param yourDiscriminator     Your Discriminator (0 until the peer's is known)
 * @param desiredMinTxMicros    Desired Min TX Interval
 * @param requiredMinRxMicros   Required Min RX Interval
 */
public record BfdPacket(int state, int diagnostic, int detectMultiplier, int myDiscriminator, int yourDiscriminator,
                        long desiredMinTxMicros, long requiredMinRxMicros) {
    /** RFC 5881 section 4: the destination port of single-hop control packets. */
    public static final int PORT = 3784;
    /** RFC 5881 section 4: source ports are taken from 49152..65535. */
    public static final int SOURCE_PORT = 49152;
    public static final int LENGTH = 24;
    public static final int ADMIN_DOWN = 0;
    public static final int DOWN = 1;
    public static final int INIT = 2;
    public static final int UP = 3;
    public static final int DIAG_DETECTION_EXPIRED = 1;
    public static final int DIAG_NEIGHBOR_DOWN = 3;

    /** Writes the packet at {@code b}'s writer index. */
    public void write(ByteBuf b) {
        b.writeByte(1 << 5 | diagnostic & 0x1F);
        b.writeByte(state << 6);
        b.writeByte(detectMultiplier);
        b.writeByte(LENGTH);
        b.writeInt(myDiscriminator);
        b.writeInt(yourDiscriminator);
        b.writeInt((int) desiredMinTxMicros);
        b.writeInt((int) requiredMinRxMicros);
        b.writeInt(0);
    }

    /**
     * @throws IllegalArgumentException if the version is not 1 or the length is short (RFC 5880
     *                                  section 6.8.6: such a packet is discarded)
     */
    public static BfdPacket read(ByteBuf b, int off) {
        int v = b.getUnsignedByte(off);
        int length = b.getUnsignedByte(off + 3);
        if (v >>> 5 != 1 || length < LENGTH || off + LENGTH > b.writerIndex()) {
            throw new IllegalArgumentException("not a BFD version 1 control packet");
        }
        return new BfdPacket(b.getUnsignedByte(off + 1) >>> 6, v & 0x1F, b.getUnsignedByte(off + 2), b.getInt(off + 4),
            b.getInt(off + 8), b.getUnsignedInt(off + 12), b.getUnsignedInt(off + 16));
    }

    /** @return the state's name as RFC 5880 and FRR's {@code show bfd peers} spell it */
    public static String stateName(int state) {
        return switch (state) {
            case ADMIN_DOWN -> "AdminDown";
            case DOWN -> "Down";
            case INIT -> "Init";
            default -> "Up";
        };
    }
}
