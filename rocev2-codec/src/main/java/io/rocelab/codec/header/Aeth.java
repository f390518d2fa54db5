package io.rocelab.codec.header;

import io.netty.buffer.ByteBuf;

/**
 * ACK Extended Transport Header (IBA 9.3.5, 4 bytes): the syndrome (see
 * {@link io.rocelab.codec.ib.AethSyndrome}) and the 24-bit message sequence number.
 */
public final class Aeth {
    public static final int SYNDROME = 0;
    public static final int MSN = 1;
    public static final int LENGTH = 4;

    private Aeth() {
    }

    public static int syndrome(ByteBuf b, int off) {
        return b.getUnsignedByte(off + SYNDROME);
    }

    public static int msn(ByteBuf b, int off) {
        return b.getUnsignedMedium(off + MSN);
    }

    public static void write(ByteBuf b, int off, int syndrome, int msn) {
        b.setByte(off + SYNDROME, syndrome);
        b.setMedium(off + MSN, msn);
    }
}
