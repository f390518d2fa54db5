package io.rocelab.codec.mad;

import io.netty.buffer.ByteBuf;

/**
 * A path as the CM REQ carries it twice, primary and alternate (IBA 12.6.5 table 99, 44 bytes):
 * LIDs (0xFFFF on RoCE, which has none), the GIDs that on RoCEv2 are the IP addresses, flow label,
 * rate, traffic class, hop limit, SL and the local ACK timeout. Reserved bits are kept so a real
 * REQ re-encodes byte for byte.
 */
public record CmPath(int localLid, int remoteLid, byte[] localGid, byte[] remoteGid, int flowLabel,
                     int reserved6, int packetRate, int trafficClass, int hopLimit, int sl, int subnetLocal,
                     int reserved3a, int localAckTimeout, int reserved3b) {
    public static final int LENGTH = 44;
    /** An all-zero path: what a REQ without an alternate path carries there. */
    public static final CmPath NONE = new CmPath(0, 0, new byte[16], new byte[16], 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    public CmPath {
        localGid = Bits.copy(localGid, 16, "localGid");
        remoteGid = Bits.copy(remoteGid, 16, "remoteGid");
    }

    @Override
    public byte[] localGid() {
        return localGid.clone();
    }

    @Override
    public byte[] remoteGid() {
        return remoteGid.clone();
    }

    public static CmPath decode(ByteBuf b, int off) {
        byte[] lg = new byte[16];
        byte[] rg = new byte[16];
        b.getBytes(off + 4, lg);
        b.getBytes(off + 20, rg);
        int w = b.getInt(off + 36);
        int slByte = b.getUnsignedByte(off + 42);
        int ackByte = b.getUnsignedByte(off + 43);
        return new CmPath(b.getUnsignedShort(off), b.getUnsignedShort(off + 2), lg, rg,
                Bits.get(w, 12, 20), Bits.get(w, 6, 6), Bits.get(w, 0, 6),
                b.getUnsignedByte(off + 40), b.getUnsignedByte(off + 41),
                Bits.get(slByte, 4, 4), Bits.get(slByte, 3, 1), Bits.get(slByte, 0, 3),
                Bits.get(ackByte, 3, 5), Bits.get(ackByte, 0, 3));
    }

    public void encode(ByteBuf b, int off) {
        b.setShort(off, localLid);
        b.setShort(off + 2, remoteLid);
        b.setBytes(off + 4, localGid);
        b.setBytes(off + 20, remoteGid);
        b.setInt(off + 36, Bits.put(flowLabel, 12, 20, "flowLabel") | Bits.put(reserved6, 6, 6, "reserved6")
                | Bits.put(packetRate, 0, 6, "packetRate"));
        b.setByte(off + 40, trafficClass);
        b.setByte(off + 41, hopLimit);
        b.setByte(off + 42, Bits.put(sl, 4, 4, "sl") | Bits.put(subnetLocal, 3, 1, "subnetLocal")
                | Bits.put(reserved3a, 0, 3, "reserved3a"));
        b.setByte(off + 43, Bits.put(localAckTimeout, 3, 5, "localAckTimeout") | Bits.put(reserved3b, 0, 3, "reserved3b"));
    }
}
