package io.rocelab.codec.mad;

import io.netty.buffer.ByteBuf;

/** DisconnectRequest (DREQ, IBA 12.6.10 table 105): the IDs, the peer's QPN, 220 bytes of private data. */
public record CmDreq(int localCommId, int remoteCommId, int remoteQpn, int reserved, byte[] privateData) {
    public static final int PRIVATE_DATA = 12;
    public static final int PRIVATE_DATA_LENGTH = 220;

    public CmDreq {
        privateData = Bits.copy(privateData, PRIVATE_DATA_LENGTH, "privateData");
    }

    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    public static CmDreq decode(ByteBuf b, int off) {
        int w8 = b.getInt(off + 8);
        byte[] pd = new byte[PRIVATE_DATA_LENGTH];
        b.getBytes(off + PRIVATE_DATA, pd);
        return new CmDreq(b.getInt(off), b.getInt(off + 4), Bits.get(w8, 8, 24), Bits.get(w8, 0, 8), pd);
    }

    public void encode(ByteBuf b, int off) {
        b.setInt(off, localCommId);
        b.setInt(off + 4, remoteCommId);
        b.setInt(off + 8, Bits.put(remoteQpn, 8, 24, "remoteQpn") | Bits.put(reserved, 0, 8, "reserved"));
        b.setBytes(off + PRIVATE_DATA, privateData);
    }
}
