package io.rocelab.codec.header;

import io.netty.buffer.ByteBuf;

/**
 * An IEEE 802.1Q / 802.1ad tag flyweight. The offset points at the tag's TPID (the two bytes
 * where an untagged frame has its EtherType); the TCI follows, then the inner EtherType.
 */
public final class Vlan {
    public static final int TPID = 0;
    public static final int TCI = 2;
    public static final int INNER_ETHER_TYPE = 4;
    public static final int LENGTH = 4;

    private Vlan() {
    }

    public static int tpid(ByteBuf b, int off) {
        return b.getUnsignedShort(off + TPID);
    }

    /** Priority code point: 802.1p priority, what PFC pauses. */
    public static int pcp(ByteBuf b, int off) {
        return b.getUnsignedByte(off + TCI) >>> 5;
    }

    /** Drop eligible indicator. */
    public static int dei(ByteBuf b, int off) {
        return (b.getUnsignedByte(off + TCI) >>> 4) & 1;
    }

    public static int vid(ByteBuf b, int off) {
        return b.getUnsignedShort(off + TCI) & 0xFFF;
    }

    public static int innerEtherType(ByteBuf b, int off) {
        return b.getUnsignedShort(off + INNER_ETHER_TYPE);
    }

    public static void write(ByteBuf b, int off, int tpid, int pcp, int dei, int vid) {
        b.setShort(off + TPID, tpid);
        b.setShort(off + TCI, ((pcp & 7) << 13) | ((dei & 1) << 12) | (vid & 0xFFF));
    }

    public static void setPcp(ByteBuf b, int off, int pcp) {
        int tci = b.getUnsignedShort(off + TCI);
        b.setShort(off + TCI, (tci & 0x1FFF) | ((pcp & 7) << 13));
    }
}
