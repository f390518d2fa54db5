package io.rocelab.codec.header;

import io.netty.buffer.ByteBuf;

/** Datagram Extended Transport Header (IBA 9.3.2, 8 bytes): Q_Key, reserved byte, source QP. */
public final class Deth {
    public static final int QKEY = 0;
    public static final int RESV8 = 4;
    public static final int SRC_QP = 5;
    public static final int LENGTH = 8;

    private Deth() {
    }

    public static int qkey(ByteBuf b, int off) {
        return b.getInt(off + QKEY);
    }

    public static int resv8(ByteBuf b, int off) {
        return b.getUnsignedByte(off + RESV8);
    }

    public static int srcQp(ByteBuf b, int off) {
        return b.getUnsignedMedium(off + SRC_QP);
    }

    public static void write(ByteBuf b, int off, int qkey, int resv8, int srcQp) {
        b.setInt(off + QKEY, qkey);
        b.setByte(off + RESV8, resv8);
        b.setMedium(off + SRC_QP, srcQp);
    }
}
