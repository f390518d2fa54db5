package io.rocelab.codec.header;

import io.netty.buffer.ByteBuf;

/**
 * The 16 reserved bytes of a RoCEv2 congestion notification packet (IBA Annex A17.9.3); they are
 * sent as zeros and ignored on receipt, but kept so a frame re-encodes byte for byte.
 */
public final class CnpHeader {
    public static final int LENGTH = 16;

    private CnpHeader() {
    }

    public static boolean reservedIsZero(ByteBuf b, int off) {
        return b.getLong(off) == 0 && b.getLong(off + 8) == 0;
    }

    public static void writeZeros(ByteBuf b, int off) {
        b.setLong(off, 0);
        b.setLong(off + 8, 0);
    }
}
