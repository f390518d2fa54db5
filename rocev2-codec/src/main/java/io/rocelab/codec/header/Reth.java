package io.rocelab.codec.header;

import io.netty.buffer.ByteBuf;

/** RDMA Extended Transport Header (IBA 9.3.3, 16 bytes): virtual address, R_Key, DMA length. */
public final class Reth {
    public static final int VA = 0;
    public static final int RKEY = 8;
    public static final int DMA_LENGTH = 12;
    public static final int LENGTH = 16;

    private Reth() {
    }

    public static long va(ByteBuf b, int off) {
        return b.getLong(off + VA);
    }

    public static int rkey(ByteBuf b, int off) {
        return b.getInt(off + RKEY);
    }

    /** DMA length as an unsigned 32-bit value. */
    public static long dmaLength(ByteBuf b, int off) {
        return b.getUnsignedInt(off + DMA_LENGTH);
    }

    public static void write(ByteBuf b, int off, long va, int rkey, long dmaLength) {
        b.setLong(off + VA, va);
        b.setInt(off + RKEY, rkey);
        b.setInt(off + DMA_LENGTH, (int) dmaLength);
    }
}
