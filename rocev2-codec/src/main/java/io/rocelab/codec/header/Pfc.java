package io.rocelab.codec.header;

import io.netty.buffer.ByteBuf;

/**
 * IEEE 802.1Qbb priority-based flow control frame body (the MAC Control payload after the
 * Ethernet header, EtherType 0x8808): opcode 0x0101, the class-enable vector (bit n = priority n),
 * then eight 16-bit pause times in quanta of 512 bit times at the port's speed; a time of zero
 * resumes the priority at once. The frame is padded to the Ethernet minimum.
 */
public final class Pfc {
    public static final int OPCODE = 0;
    public static final int CLASS_ENABLE = 2;
    public static final int TIMES = 4;
    /** Opcode, class-enable vector and eight times. */
    public static final int LENGTH = 20;
    public static final int OPCODE_PFC = 0x0101;
    /** IEEE 802.3 Annex 31B: classic link-level PAUSE. */
    public static final int OPCODE_PAUSE = 0x0001;
    /** One quantum is 512 bit times (802.1Qbb 36.1.3.2 / 802.3 31B.2). */
    public static final int BITS_PER_QUANTUM = 512;
    public static final int PRIORITIES = 8;

    private Pfc() {
    }

    public static int opcode(ByteBuf b, int off) {
        return b.getUnsignedShort(off + OPCODE);
    }

    public static int classEnableVector(ByteBuf b, int off) {
        return b.getUnsignedShort(off + CLASS_ENABLE);
    }

    public static boolean enabled(ByteBuf b, int off, int priority) {
        return (classEnableVector(b, off) & (1 << priority)) != 0;
    }

    /** Pause time for {@code priority} in quanta. */
    public static int quanta(ByteBuf b, int off, int priority) {
        return b.getUnsignedShort(off + TIMES + 2 * priority);
    }

    public static void write(ByteBuf b, int off, int classEnableVector, int[] quanta) {
        if (quanta.length != PRIORITIES) {
            throw new IllegalArgumentException("PFC carries 8 pause times, got " + quanta.length);
        }
        b.setShort(off + OPCODE, OPCODE_PFC);
        b.setShort(off + CLASS_ENABLE, classEnableVector);
        for (int p = 0; p < PRIORITIES; p++) {
            b.setShort(off + TIMES + 2 * p, quanta[p]);
        }
    }

    /** Nanoseconds that {@code quanta} pause lasts on a port of {@code bitsPerSecond}. */
    public static long quantaToNanos(int quanta, long bitsPerSecond) {
        return (long) Math.ceil(quanta * (double) BITS_PER_QUANTUM * 1e9 / bitsPerSecond);
    }

    /** The quanta (rounded up, at most 0xFFFF) that cover {@code nanos} on a port of {@code bitsPerSecond}. */
    public static int nanosToQuanta(long nanos, long bitsPerSecond) {
        double q = Math.ceil(nanos * (double) bitsPerSecond / 1e9 / BITS_PER_QUANTUM);
        return (int) Math.min(0xFFFF, Math.max(0, q));
    }
}
