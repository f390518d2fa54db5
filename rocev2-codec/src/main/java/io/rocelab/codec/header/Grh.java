package io.rocelab.codec.header;

import io.netty.buffer.ByteBuf;

/**
 * The InfiniBand Global Route Header (IBA 8.3.1), which a RoCEv1 frame carries right after the
 * EtherType 0x8915 (IBA Annex A16). Its 40 bytes have the IPv6 header's layout: IPVer (6), TClass,
 * FlowLabel, PayLen (the bytes after the GRH up to and including the ICRC), NxtHdr (0x1B: an IBA
 * transport header follows), HopLmt, SGID and DGID; so the offsets are {@link Ipv6}'s and the
 * field readers too ({@code Ipv6.trafficClass}, {@code Ipv6.src}...).
 */
public final class Grh {
    public static final int LENGTH = Ipv6.LENGTH;
    /** IPVer of a GRH (IBA 8.3.1). */
    public static final int IP_VERSION = 6;
    /** NxtHdr 0x1B: the next header is an IBA transport header, the BTH (IBA 8.3.1, Table 24). */
    public static final int NEXT_HEADER_IBA = 0x1B;
    public static final int PAYLOAD_LENGTH = Ipv6.PAYLOAD_LENGTH;
    public static final int NEXT_HEADER = Ipv6.NEXT_HEADER;
    public static final int HOP_LIMIT = Ipv6.HOP_LIMIT;
    public static final int SGID = Ipv6.SRC;
    public static final int DGID = Ipv6.DST;

    private Grh() {
    }

    /**
     * Writes a GRH for a BTH-led packet of {@code payloadLength} bytes after it (ICRC included).
     */
    public static void write(ByteBuf b, int off, int trafficClass, int flowLabel, int payloadLength, int hopLimit,
                             byte[] sgid16, byte[] dgid16) {
        Ipv6.write(b, off, trafficClass, flowLabel, payloadLength, NEXT_HEADER_IBA, hopLimit, sgid16, dgid16);
    }
}
