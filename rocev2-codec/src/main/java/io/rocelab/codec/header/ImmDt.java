package io.rocelab.codec.header;

import io.netty.buffer.ByteBuf;

/** Immediate Data Extended Transport Header (IBA 9.3.7, 4 bytes), as it travels: big-endian. */
public final class ImmDt {
    public static final int LENGTH = 4;

    private ImmDt() {
    }

    public static int immediate(ByteBuf b, int off) {
        return b.getInt(off);
    }

    public static void write(ByteBuf b, int off, int immediate) {
        b.setInt(off, immediate);
    }
}
