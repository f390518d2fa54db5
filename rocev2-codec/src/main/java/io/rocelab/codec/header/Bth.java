package io.rocelab.codec.header;

import io.netty.buffer.ByteBuf;

/**
 * Base Transport Header flyweight (IBA 9.2, 12 bytes): opcode; SE, MigReq, PadCnt, TVer;
 * P_Key; FECN, BECN (RoCEv2 Annex A17.9) and six reserved bits; DestQP; AckReq, seven reserved
 * bits and the 24-bit PSN.
 */
public final class Bth {
    public static final int OPCODE = 0;
    public static final int FLAGS = 1;
    public static final int PKEY = 2;
    /** FECN, BECN and resv6: the byte the ICRC masks to all ones. */
    public static final int FECN_BECN = 4;
    public static final int DEST_QP = 5;
    public static final int ACKREQ_PSN = 8;
    public static final int LENGTH = 12;

    public static final int DEFAULT_PKEY = 0xFFFF;

    private Bth() {
    }

    public static int opcode(ByteBuf b, int off) {
        return b.getUnsignedByte(off + OPCODE);
    }

    /** Solicited event. */
    public static int solicited(ByteBuf b, int off) {
        return b.getUnsignedByte(off + FLAGS) >>> 7;
    }

    public static int migReq(ByteBuf b, int off) {
        return (b.getUnsignedByte(off + FLAGS) >>> 6) & 1;
    }

    /** Bytes of pad between the payload and the ICRC (0..3). */
    public static int padCount(ByteBuf b, int off) {
        return (b.getUnsignedByte(off + FLAGS) >>> 4) & 3;
    }

    /** Transport header version: 0 (C9-3: packets with another version are dropped). */
    public static int tver(ByteBuf b, int off) {
        return b.getUnsignedByte(off + FLAGS) & 0xF;
    }

    public static int pkey(ByteBuf b, int off) {
        return b.getUnsignedShort(off + PKEY);
    }

    public static int fecn(ByteBuf b, int off) {
        return b.getUnsignedByte(off + FECN_BECN) >>> 7;
    }

    public static int becn(ByteBuf b, int off) {
        return (b.getUnsignedByte(off + FECN_BECN) >>> 6) & 1;
    }

    public static int resv6(ByteBuf b, int off) {
        return b.getUnsignedByte(off + FECN_BECN) & 0x3F;
    }

    public static int destQp(ByteBuf b, int off) {
        return b.getUnsignedMedium(off + DEST_QP);
    }

    public static int ackReq(ByteBuf b, int off) {
        return b.getUnsignedByte(off + ACKREQ_PSN) >>> 7;
    }

    public static int resv7(ByteBuf b, int off) {
        return b.getUnsignedByte(off + ACKREQ_PSN) & 0x7F;
    }

    public static int psn(ByteBuf b, int off) {
        return b.getUnsignedMedium(off + ACKREQ_PSN + 1);
    }

    public static void write(ByteBuf b, int off, int opcode, boolean solicited, int padCount, int pkey,
                             int destQp, boolean ackReq, int psn) {
        write(b, off, opcode, solicited ? 1 : 0, 0, padCount, 0, pkey, 0, 0, 0, destQp, ackReq ? 1 : 0, 0, psn);
    }

    public static void write(ByteBuf b, int off, int opcode, int solicited, int migReq, int padCount, int tver,
                             int pkey, int fecn, int becn, int resv6, int destQp, int ackReq, int resv7, int psn) {
        // three 32-bit words: opcode, flags, P_Key | FECN/BECN/resv6, DestQP | AckReq/resv7, PSN
        b.setInt(off + OPCODE, ((opcode & 0xFF) << 24)
                | ((((solicited & 1) << 7) | ((migReq & 1) << 6) | ((padCount & 3) << 4) | (tver & 0xF)) << 16)
                | (pkey & 0xFFFF));
        b.setInt(off + FECN_BECN, ((((fecn & 1) << 7) | ((becn & 1) << 6) | (resv6 & 0x3F)) << 24)
                | (destQp & 0xFFFFFF));
        b.setInt(off + ACKREQ_PSN, ((((ackReq & 1) << 7) | (resv7 & 0x7F)) << 24) | (psn & 0xFFFFFF));
    }

    /** Sets FECN, as a RoCEv2 receiver's view of an ECN CE mark (not covered by the ICRC). */
    public static void setFecn(ByteBuf b, int off, int fecn) {
        int v = b.getUnsignedByte(off + FECN_BECN);
        b.setByte(off + FECN_BECN, (v & 0x7F) | ((fecn & 1) << 7));
    }

    public static void setBecn(ByteBuf b, int off, int becn) {
        int v = b.getUnsignedByte(off + FECN_BECN);
        b.setByte(off + FECN_BECN, (v & 0xBF) | ((becn & 1) << 6));
    }
}
