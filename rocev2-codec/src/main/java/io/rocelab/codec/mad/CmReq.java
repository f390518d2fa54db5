package io.rocelab.codec.mad;

import io.netty.buffer.ByteBuf;

/**
 * ConnectRequest (REQ, IBA 12.6.5 table 99): the active side's QPN, starting PSN, Q_Key, timeouts
 * and retry counts, path MTU and the paths, with 92 bytes of private data (where rdma_cm puts its
 * {@link CmaIpHeader}). Offsets are from the start of the MAD data, after the MAD header.
 */
public record CmReq(int localCommId, int reserved0, long serviceId, long localCaGuid, int reserved1,
                    int localQkey, int localQpn, int responderResources, int localEecn, int initiatorDepth,
                    int remoteEecn, int remoteCmResponseTimeout, int transportServiceType, int endToEndFlowControl,
                    int startingPsn, int localCmResponseTimeout, int retryCount, int pkey, int pathMtu,
                    int rdcExists, int rnrRetryCount, int maxCmRetries, int srq, int extendedTransportType,
                    CmPath primary, CmPath alternate, byte[] privateData) {
    public static final int PRIMARY_PATH = 52;
    public static final int ALTERNATE_PATH = 96;
    public static final int PRIVATE_DATA = 140;
    public static final int PRIVATE_DATA_LENGTH = 92;

    public CmReq {
        privateData = Bits.copy(privateData, PRIVATE_DATA_LENGTH, "privateData");
    }

    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    /** Decodes the REQ whose MAD data (after the 24-byte MAD header) starts at {@code off}. */
    public static CmReq decode(ByteBuf b, int off) {
        int w32 = b.getInt(off + 32);
        int w36 = b.getInt(off + 36);
        int w40 = b.getInt(off + 40);
        int w44 = b.getInt(off + 44);
        int b50 = b.getUnsignedByte(off + 50);
        int b51 = b.getUnsignedByte(off + 51);
        byte[] pd = new byte[PRIVATE_DATA_LENGTH];
        b.getBytes(off + PRIVATE_DATA, pd);
        return new CmReq(b.getInt(off), b.getInt(off + 4), b.getLong(off + 8), b.getLong(off + 16), b.getInt(off + 24),
                b.getInt(off + 28), Bits.get(w32, 8, 24), Bits.get(w32, 0, 8), Bits.get(w36, 8, 24), Bits.get(w36, 0, 8),
                Bits.get(w40, 8, 24), Bits.get(w40, 3, 5), Bits.get(w40, 1, 2), Bits.get(w40, 0, 1),
                Bits.get(w44, 8, 24), Bits.get(w44, 3, 5), Bits.get(w44, 0, 3), b.getUnsignedShort(off + 48),
                Bits.get(b50, 4, 4), Bits.get(b50, 3, 1), Bits.get(b50, 0, 3),
                Bits.get(b51, 4, 4), Bits.get(b51, 3, 1), Bits.get(b51, 0, 3),
                CmPath.decode(b, off + PRIMARY_PATH), CmPath.decode(b, off + ALTERNATE_PATH), pd);
    }

    /** Writes the 232 bytes of MAD data at {@code off}. */
    public void encode(ByteBuf b, int off) {
        b.setInt(off, localCommId);
        b.setInt(off + 4, reserved0);
        b.setLong(off + 8, serviceId);
        b.setLong(off + 16, localCaGuid);
        b.setInt(off + 24, reserved1);
        b.setInt(off + 28, localQkey);
        b.setInt(off + 32, Bits.put(localQpn, 8, 24, "localQpn") | Bits.put(responderResources, 0, 8, "responderResources"));
        b.setInt(off + 36, Bits.put(localEecn, 8, 24, "localEecn") | Bits.put(initiatorDepth, 0, 8, "initiatorDepth"));
        b.setInt(off + 40, Bits.put(remoteEecn, 8, 24, "remoteEecn")
                | Bits.put(remoteCmResponseTimeout, 3, 5, "remoteCmResponseTimeout")
                | Bits.put(transportServiceType, 1, 2, "transportServiceType")
                | Bits.put(endToEndFlowControl, 0, 1, "endToEndFlowControl"));
        b.setInt(off + 44, Bits.put(startingPsn, 8, 24, "startingPsn")
                | Bits.put(localCmResponseTimeout, 3, 5, "localCmResponseTimeout")
                | Bits.put(retryCount, 0, 3, "retryCount"));
        b.setShort(off + 48, pkey);
        b.setByte(off + 50, Bits.put(pathMtu, 4, 4, "pathMtu") | Bits.put(rdcExists, 3, 1, "rdcExists")
                | Bits.put(rnrRetryCount, 0, 3, "rnrRetryCount"));
        b.setByte(off + 51, Bits.put(maxCmRetries, 4, 4, "maxCmRetries") | Bits.put(srq, 3, 1, "srq")
                | Bits.put(extendedTransportType, 0, 3, "extendedTransportType"));
        primary.encode(b, off + PRIMARY_PATH);
        alternate.encode(b, off + ALTERNATE_PATH);
        b.setBytes(off + PRIVATE_DATA, privateData);
    }
}
