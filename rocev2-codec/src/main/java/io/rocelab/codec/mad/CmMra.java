package io.rocelab.codec.mad;

import io.netty.buffer.ByteBuf;

/**
 * MessageReceiptAcknowledgement (MRA, IBA 12.6.6 table 100): "I got your REQ/REP/LAP, give me
 * 4.096 µs × 2^serviceTimeout more", with 222 bytes of private data.
 */
public record CmMra(int localCommId, int remoteCommId, int messageMraed, int reserved0, int serviceTimeout,
                    int reserved1, byte[] privateData) {
    public static final int PRIVATE_DATA = 10;
    public static final int PRIVATE_DATA_LENGTH = 222;

    public CmMra {
        privateData = Bits.copy(privateData, PRIVATE_DATA_LENGTH, "privateData");
    }

    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    public static CmMra decode(ByteBuf b, int off) {
        int b8 = b.getUnsignedByte(off + 8);
        int b9 = b.getUnsignedByte(off + 9);
        byte[] pd = new byte[PRIVATE_DATA_LENGTH];
        b.getBytes(off + PRIVATE_DATA, pd);
        return new CmMra(b.getInt(off), b.getInt(off + 4), Bits.get(b8, 6, 2), Bits.get(b8, 0, 6),
                Bits.get(b9, 3, 5), Bits.get(b9, 0, 3), pd);
    }

    public void encode(ByteBuf b, int off) {
        b.setInt(off, localCommId);
        b.setInt(off + 4, remoteCommId);
        b.setByte(off + 8, Bits.put(messageMraed, 6, 2, "messageMraed") | Bits.put(reserved0, 0, 6, "reserved0"));
        b.setByte(off + 9, Bits.put(serviceTimeout, 3, 5, "serviceTimeout") | Bits.put(reserved1, 0, 3, "reserved1"));
        b.setBytes(off + PRIVATE_DATA, privateData);
    }
}
