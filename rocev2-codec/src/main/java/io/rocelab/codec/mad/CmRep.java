package io.rocelab.codec.mad;

import io.netty.buffer.ByteBuf;

/**
 * ConnectReply (REP, IBA 12.6.8 table 103): the passive side's QPN, starting PSN, RDMA read
 * resources, target ACK delay and RNR retry count, with 196 bytes of private data.
 */
public record CmRep(int localCommId, int remoteCommId, int localQkey, int localQpn, int reserved0, int localEecn,
                    int reserved1, int startingPsn, int reserved2, int responderResources, int initiatorDepth,
                    int targetAckDelay, int failoverAccepted, int endToEndFlowControl, int rnrRetryCount, int srq,
                    int reserved3, long localCaGuid, byte[] privateData) {
    public static final int PRIVATE_DATA = 36;
    public static final int PRIVATE_DATA_LENGTH = 196;

    public CmRep {
        privateData = Bits.copy(privateData, PRIVATE_DATA_LENGTH, "privateData");
    }

    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    public static CmRep decode(ByteBuf b, int off) {
        int w12 = b.getInt(off + 12);
        int w16 = b.getInt(off + 16);
        int w20 = b.getInt(off + 20);
        int b26 = b.getUnsignedByte(off + 26);
        int b27 = b.getUnsignedByte(off + 27);
        byte[] pd = new byte[PRIVATE_DATA_LENGTH];
        b.getBytes(off + PRIVATE_DATA, pd);
        return new CmRep(b.getInt(off), b.getInt(off + 4), b.getInt(off + 8),
                Bits.get(w12, 8, 24), Bits.get(w12, 0, 8), Bits.get(w16, 8, 24), Bits.get(w16, 0, 8),
                Bits.get(w20, 8, 24), Bits.get(w20, 0, 8), b.getUnsignedByte(off + 24), b.getUnsignedByte(off + 25),
                Bits.get(b26, 3, 5), Bits.get(b26, 1, 2), Bits.get(b26, 0, 1),
                Bits.get(b27, 5, 3), Bits.get(b27, 4, 1), Bits.get(b27, 0, 4), b.getLong(off + 28), pd);
    }

    public void encode(ByteBuf b, int off) {
        b.setInt(off, localCommId);
        b.setInt(off + 4, remoteCommId);
        b.setInt(off + 8, localQkey);
        b.setInt(off + 12, Bits.put(localQpn, 8, 24, "localQpn") | Bits.put(reserved0, 0, 8, "reserved0"));
        b.setInt(off + 16, Bits.put(localEecn, 8, 24, "localEecn") | Bits.put(reserved1, 0, 8, "reserved1"));
        b.setInt(off + 20, Bits.put(startingPsn, 8, 24, "startingPsn") | Bits.put(reserved2, 0, 8, "reserved2"));
        b.setByte(off + 24, responderResources);
        b.setByte(off + 25, initiatorDepth);
        b.setByte(off + 26, Bits.put(targetAckDelay, 3, 5, "targetAckDelay")
                | Bits.put(failoverAccepted, 1, 2, "failoverAccepted")
                | Bits.put(endToEndFlowControl, 0, 1, "endToEndFlowControl"));
        b.setByte(off + 27, Bits.put(rnrRetryCount, 5, 3, "rnrRetryCount") | Bits.put(srq, 4, 1, "srq")
                | Bits.put(reserved3, 0, 4, "reserved3"));
        b.setLong(off + 28, localCaGuid);
        b.setBytes(off + PRIVATE_DATA, privateData);
    }
}
