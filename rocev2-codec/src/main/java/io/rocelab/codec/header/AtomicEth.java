package io.rocelab.codec.header;

import io.netty.buffer.ByteBuf;

/** Atomic Extended Transport Header (IBA 9.3.4, 28 bytes): VA, R_Key, swap (or add) data, compare data. */
public final class AtomicEth {
    public static final int VA = 0;
    public static final int RKEY = 8;
    public static final int SWAP_ADD = 12;
    public static final int COMPARE = 20;
    public static final int LENGTH = 28;

    private AtomicEth() {
    }

    public static long va(ByteBuf b, int off) {
        return b.getLong(off + VA);
    }

    public static int rkey(ByteBuf b, int off) {
        return b.getInt(off + RKEY);
    }

    public static long swapAdd(ByteBuf b, int off) {
        return b.getLong(off + SWAP_ADD);
    }

    public static long compare(ByteBuf b, int off) {
        return b.getLong(off + COMPARE);
    }

    public static void write(ByteBuf b, int off, long va, int rkey, long swapAdd, long compare) {
        b.setLong(off + VA, va);
        b.setInt(off + RKEY, rkey);
        b.setLong(off + SWAP_ADD, swapAdd);
        b.setLong(off + COMPARE, compare);
    }
}
