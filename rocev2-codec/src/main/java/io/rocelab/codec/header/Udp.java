package io.rocelab.codec.header;

import io.netty.buffer.ByteBuf;

/** UDP header flyweight (RFC 768). */
public final class Udp {
    public static final int SRC_PORT = 0;
    public static final int DST_PORT = 2;
    public static final int LENGTH_FIELD = 4;
    public static final int CHECKSUM = 6;
    public static final int LENGTH = 8;
    /** IANA port of RoCEv2 (IBA Annex A17.2.1). */
    public static final int ROCEV2_PORT = 4791;
    /** Linux rxe and hardware pick source ports from this range, per QP, for ECMP entropy. */
    public static final int ROCE_SOURCE_PORT_MIN = 0xC000;

    private Udp() {
    }

    public static int srcPort(ByteBuf b, int off) {
        return b.getUnsignedShort(off + SRC_PORT);
    }

    public static int dstPort(ByteBuf b, int off) {
        return b.getUnsignedShort(off + DST_PORT);
    }

    public static int length(ByteBuf b, int off) {
        return b.getUnsignedShort(off + LENGTH_FIELD);
    }

    public static int checksum(ByteBuf b, int off) {
        return b.getUnsignedShort(off + CHECKSUM);
    }

    public static void write(ByteBuf b, int off, int srcPort, int dstPort, int length, int checksum) {
        b.setInt(off + SRC_PORT, ((srcPort & 0xFFFF) << 16) | (dstPort & 0xFFFF));
        b.setInt(off + LENGTH_FIELD, ((length & 0xFFFF) << 16) | (checksum & 0xFFFF));
    }
}
