package io.rocelab.codec.header;

import io.netty.buffer.ByteBuf;

/**
 * FLUSH Extended Transport Header (IBA 1.5 memory placement extensions, 4 bytes): reserved bits,
 * the selectivity level and the placement type.
 */
public final class Feth {
    public static final int LENGTH = 4;

    private Feth() {
    }

    public static int value(ByteBuf b, int off) {
        return b.getInt(off);
    }

    /** Placement type: bits 3..0 of the last byte (1 = global visibility, 2 = persistence). */
    public static int placementType(ByteBuf b, int off) {
        return b.getUnsignedByte(off + 3) & 0xF;
    }

    /** Selectivity level: bits 5..4 (A19.4.1.2: 0 = memory region range, 1 = memory region). */
    public static int selectivityLevel(ByteBuf b, int off) {
        return (b.getUnsignedByte(off + 3) >>> 4) & 3;
    }

    public static void write(ByteBuf b, int off, int value) {
        b.setInt(off, value);
    }
}
