package io.rocelab.codec.header;

import io.netty.buffer.ByteBuf;

/** Invalidate Extended Transport Header (IBA 9.3.8, 4 bytes): the R_Key to invalidate. */
public final class Ieth {
    public static final int LENGTH = 4;

    private Ieth() {
    }

    public static int rkey(ByteBuf b, int off) {
        return b.getInt(off);
    }

    public static void write(ByteBuf b, int off, int rkey) {
        b.setInt(off, rkey);
    }
}
