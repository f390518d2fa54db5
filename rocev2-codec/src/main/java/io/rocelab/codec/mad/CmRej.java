package io.rocelab.codec.mad;

import io.netty.buffer.ByteBuf;

/**
 * Reject (REJ, IBA 12.6.7 table 101): which message is rejected (0 REQ, 1 REP, 2 other), the
 * reason code (table 102; e.g. 28 "consumer reject", 8 "invalid service ID"), up to 72 bytes of
 * additional reject information and 148 bytes of private data.
 */
public record CmRej(int localCommId, int remoteCommId, int messageRejected, int reserved0, int rejectInfoLength,
                    int reserved1, int reason, byte[] additionalRejectInfo, byte[] privateData) {
    public static final int ARI = 12;
    public static final int ARI_LENGTH = 72;
    public static final int PRIVATE_DATA = 84;
    public static final int PRIVATE_DATA_LENGTH = 148;
    /** IBA 12.6.7.2 table 102: the consumer (here rdma_cm's user) rejected the connection. */
    public static final int REASON_CONSUMER_REJECT = 28;
    /** No listener for the service ID. */
    public static final int REASON_INVALID_SERVICE_ID = 8;
    /** The REQ asks for a transport service the passive side does not offer (e.g. UC to an RC listener). */
    public static final int REASON_INVALID_TRANSPORT_TYPE = 9;
    /** The REQ's path MTU is not one of IBA's five (256 to 4096 bytes, enum 1 to 5). */
    public static final int REASON_INVALID_MTU = 26;

    public CmRej {
        additionalRejectInfo = Bits.copy(additionalRejectInfo, ARI_LENGTH, "additionalRejectInfo");
        privateData = Bits.copy(privateData, PRIVATE_DATA_LENGTH, "privateData");
    }

    @Override
    public byte[] additionalRejectInfo() {
        return additionalRejectInfo.clone();
    }

    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    public static CmRej decode(ByteBuf b, int off) {
        int b8 = b.getUnsignedByte(off + 8);
        int b9 = b.getUnsignedByte(off + 9);
        byte[] ari = new byte[ARI_LENGTH];
        byte[] pd = new byte[PRIVATE_DATA_LENGTH];
        b.getBytes(off + ARI, ari);
        b.getBytes(off + PRIVATE_DATA, pd);
        return new CmRej(b.getInt(off), b.getInt(off + 4), Bits.get(b8, 6, 2), Bits.get(b8, 0, 6),
                Bits.get(b9, 1, 7), Bits.get(b9, 0, 1), b.getUnsignedShort(off + 10), ari, pd);
    }

    public void encode(ByteBuf b, int off) {
        b.setInt(off, localCommId);
        b.setInt(off + 4, remoteCommId);
        b.setByte(off + 8, Bits.put(messageRejected, 6, 2, "messageRejected") | Bits.put(reserved0, 0, 6, "reserved0"));
        b.setByte(off + 9, Bits.put(rejectInfoLength, 1, 7, "rejectInfoLength") | Bits.put(reserved1, 0, 1, "reserved1"));
        b.setShort(off + 10, reason);
        b.setBytes(off + ARI, additionalRejectInfo);
        b.setBytes(off + PRIVATE_DATA, privateData);
    }
}
