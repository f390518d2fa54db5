package io.rocelab.codec.mad;

import io.netty.buffer.ByteBuf;

/**
 * The layout of ReadyToUse (RTU, IBA 12.6.9) and DisconnectReply (DREP, IBA 12.6.11): the two
 * communication IDs and 224 bytes of private data. The MAD header's attribute ID says which.
 */
public record CmIdPair(int localCommId, int remoteCommId, byte[] privateData) {
    public static final int PRIVATE_DATA = 8;
    public static final int PRIVATE_DATA_LENGTH = 224;

    public CmIdPair {
        privateData = Bits.copy(privateData, PRIVATE_DATA_LENGTH, "privateData");
    }

    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    public static CmIdPair decode(ByteBuf b, int off) {
        byte[] pd = new byte[PRIVATE_DATA_LENGTH];
        b.getBytes(off + PRIVATE_DATA, pd);
        return new CmIdPair(b.getInt(off), b.getInt(off + 4), pd);
    }

    public void encode(ByteBuf b, int off) {
        b.setInt(off, localCommId);
        b.setInt(off + 4, remoteCommId);
        b.setBytes(off + PRIVATE_DATA, privateData);
    }
}
