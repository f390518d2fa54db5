package io.rocelab.codec.header;

import io.netty.buffer.ByteBuf;

/** Ethernet II header flyweight: destination, source, EtherType (no FCS: ports never carry it). */
public final class Ethernet {
    public static final int DST = 0;
    public static final int SRC = 6;
    public static final int ETHER_TYPE = 12;
    public static final int LENGTH = 14;
    /** IEEE 802.3 minimum frame without FCS: shorter frames are padded with zeros. */
    public static final int MIN_FRAME = 60;

    private Ethernet() {
    }

    public static long dst(ByteBuf b, int off) {
        return MacAddress.get(b, off + DST);
    }

    public static long src(ByteBuf b, int off) {
        return MacAddress.get(b, off + SRC);
    }

    public static int etherType(ByteBuf b, int off) {
        return b.getUnsignedShort(off + ETHER_TYPE);
    }

    public static void write(ByteBuf b, int off, long dst, long src, int etherType) {
        // three writes: the destination and the first two bytes of the source, the rest of the source,
        // the EtherType
        b.setLong(off + DST, (dst << 16) | ((src >>> 32) & 0xFFFF));
        b.setInt(off + SRC + 2, (int) src);
        b.setShort(off + ETHER_TYPE, etherType);
    }
}
