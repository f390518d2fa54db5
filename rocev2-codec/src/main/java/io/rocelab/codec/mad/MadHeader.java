package io.rocelab.codec.mad;

import io.netty.buffer.ByteBuf;

/**
 * The common MAD header (IBA 13.4.2, 24 bytes) that starts every management datagram: versions,
 * class, method, status, transaction ID and the attribute the data that follows is.
 */
public final class MadHeader {
    public static final int BASE_VERSION = 0;
    public static final int MGMT_CLASS = 1;
    public static final int CLASS_VERSION = 2;
    public static final int METHOD = 3;
    public static final int STATUS = 4;
    public static final int CLASS_SPECIFIC = 6;
    public static final int TRANSACTION_ID = 8;
    public static final int ATTRIBUTE_ID = 16;
    public static final int RESERVED = 18;
    public static final int ATTRIBUTE_MODIFIER = 20;
    public static final int LENGTH = 24;
    /** Every MAD is 256 bytes (IBA 13.4.1): the header and 232 bytes of class data. */
    public static final int MAD_SIZE = 256;
    public static final int DATA_LENGTH = MAD_SIZE - LENGTH;
    /** Management class of the Communication Manager (IBA 13.4.4 table 148). */
    public static final int CLASS_CM = 0x07;
    /** CM class version 2 (IBA 12.6.1). */
    public static final int CM_CLASS_VERSION = 2;
    /** Method Send(): CM messages are unsolicited sends, not get/set (IBA 12.6.1). */
    public static final int METHOD_SEND = 0x03;
    /** The Q_Key of QP1, the General Services Interface (IBA 13.5.1 "well-known Q_Key"). */
    public static final int GSI_QKEY = 0x80010000;
    /** The QP every node's GSI listens on. */
    public static final int GSI_QPN = 1;

    private MadHeader() {
    }

    public static int baseVersion(ByteBuf b, int off) {
        return b.getUnsignedByte(off + BASE_VERSION);
    }

    public static int mgmtClass(ByteBuf b, int off) {
        return b.getUnsignedByte(off + MGMT_CLASS);
    }

    public static int classVersion(ByteBuf b, int off) {
        return b.getUnsignedByte(off + CLASS_VERSION);
    }

    /** The method byte, its top bit (the response bit R) included. */
    public static int method(ByteBuf b, int off) {
        return b.getUnsignedByte(off + METHOD);
    }

    public static int status(ByteBuf b, int off) {
        return b.getUnsignedShort(off + STATUS);
    }

    public static int classSpecific(ByteBuf b, int off) {
        return b.getUnsignedShort(off + CLASS_SPECIFIC);
    }

    public static long transactionId(ByteBuf b, int off) {
        return b.getLong(off + TRANSACTION_ID);
    }

    public static int attributeId(ByteBuf b, int off) {
        return b.getUnsignedShort(off + ATTRIBUTE_ID);
    }

    public static int reserved(ByteBuf b, int off) {
        return b.getUnsignedShort(off + RESERVED);
    }

    public static int attributeModifier(ByteBuf b, int off) {
        return b.getInt(off + ATTRIBUTE_MODIFIER);
    }

    /** True when the 256 bytes at {@code off} are a CM MAD: base version 1, class 0x07. */
    public static boolean isCm(ByteBuf b, int off, int length) {
        return length >= MAD_SIZE && baseVersion(b, off) == 1 && mgmtClass(b, off) == CLASS_CM;
    }

    /** Writes a header; {@code reserved} is kept as given so a real MAD round-trips exactly. */
    public static void write(ByteBuf b, int off, int baseVersion, int mgmtClass, int classVersion, int method,
                             int status, int classSpecific, long transactionId, int attributeId, int reserved,
                             int attributeModifier) {
        b.setByte(off + BASE_VERSION, baseVersion);
        b.setByte(off + MGMT_CLASS, mgmtClass);
        b.setByte(off + CLASS_VERSION, classVersion);
        b.setByte(off + METHOD, method);
        b.setShort(off + STATUS, status);
        b.setShort(off + CLASS_SPECIFIC, classSpecific);
        b.setLong(off + TRANSACTION_ID, transactionId);
        b.setShort(off + ATTRIBUTE_ID, attributeId);
        b.setShort(off + RESERVED, reserved);
        b.setInt(off + ATTRIBUTE_MODIFIER, attributeModifier);
    }

    /** A CM Send() header (base version 1, class 0x07, class version 2), as rdma_cm's CM sends it. */
    public static void writeCm(ByteBuf b, int off, long transactionId, CmAttribute attribute) {
        write(b, off, 1, CLASS_CM, CM_CLASS_VERSION, METHOD_SEND, 0, 0, transactionId, attribute.id(), 0, 0);
    }
}
