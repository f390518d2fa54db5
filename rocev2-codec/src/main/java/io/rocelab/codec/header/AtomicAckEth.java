package io.rocelab.codec.header;

import io.netty.buffer.ByteBuf;

/** Atomic Acknowledge Extended Transport Header (IBA 9.3.6, 8 bytes): the original remote data. */
public final class AtomicAckEth {
    public static final int ORIG_DATA = 0;
    public static final int LENGTH = 8;

    private AtomicAckEth() {
    }

    public static long origRemoteData(ByteBuf b, int off) {
        return b.getLong(off + ORIG_DATA);
    }

    public static void write(ByteBuf b, int off, long origRemoteData) {
        b.setLong(off + ORIG_DATA, origRemoteData);
    }
}
