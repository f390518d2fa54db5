package io.rocelab.codec.header;

import io.netty.buffer.ByteBuf;

/**
 * IEEE 802.3 Annex 31B link-level flow control, the MAC Control PAUSE frame (802.3x): EtherType
 * 0x8808 ({@link EtherType#MAC_CONTROL}), opcode 0x0001, then one 16-bit {@code pause_time} in
 * quanta of 512 bit times at the port's speed (31B.3.2), addressed to the MAC Control group
 * 01:80:C2:00:00:01 ({@link MacAddress#PAUSE_MULTICAST}, 31B.3.1). Unlike PFC ({@link Pfc},
 * opcode 0x0101, IEEE 802.1Qbb) it has no class-enable vector: it stops every frame of the port,
 * whatever its priority. A time of zero resumes at once. The frame is padded to the Ethernet minimum
 * (60 bytes without the FCS: 14 + 4 + 42 reserved zeros, 31B.2).
 */
public final class Pause {
    public static final int OPCODE = 0;
    public static final int TIME = 2;
    /** Opcode and pause time. */
    public static final int LENGTH = 4;
    /** 31B.2: the MAC Control opcode of PAUSE. */
    public static final int OPCODE_PAUSE = Pfc.OPCODE_PAUSE;
    /** The reserved zeros after the pause time that make the frame 60 bytes: 14 + 4 + 42. */
    public static final int PADDING = Ethernet.MIN_FRAME - Ethernet.LENGTH - LENGTH;
    /** The whole frame without the FCS. */
    public static final int FRAME_LENGTH = Ethernet.MIN_FRAME;

    private Pause() {
    }

    /** @return whether the MAC Control body at {@code off} is a PAUSE (opcode 0x0001), not PFC (0x0101) */
    public static boolean isPause(ByteBuf b, int off) {
        return b.getUnsignedShort(off + OPCODE) == OPCODE_PAUSE;
    }

    /** @return the pause time in quanta of 512 bit times (0: resume) */
    public static int quanta(ByteBuf b, int off) {
        return b.getUnsignedShort(off + TIME);
    }

    /** Writes the opcode and the pause time at {@code off} (the byte after the EtherType). */
    public static void write(ByteBuf b, int off, int quanta) {
        if (quanta < 0 || quanta > 0xFFFF) {
            throw new IllegalArgumentException("pause_time is 16 bits: " + quanta);
        }
        b.setShort(off + OPCODE, OPCODE_PAUSE);
        b.setShort(off + TIME, quanta);
    }

    /**
     * A whole PAUSE frame, padded to 60 bytes with zeros: from {@code src} to the MAC Control group.
     *
     * @param b      a buffer of at least {@link #FRAME_LENGTH} writable bytes; the frame is written at
     *               its writer index, which advances past it
     * @param src    the sending port's MAC
     * @param quanta the pause time (0: resume)
     */
    public static void writeFrame(ByteBuf b, long src, int quanta) {
        int at = b.writerIndex();
        b.writeZero(FRAME_LENGTH);
        Ethernet.write(b, at, MacAddress.PAUSE_MULTICAST, src, EtherType.MAC_CONTROL);
        write(b, at + Ethernet.LENGTH, quanta);
    }
}
