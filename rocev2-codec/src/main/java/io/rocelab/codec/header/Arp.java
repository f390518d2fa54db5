package io.rocelab.codec.header;

import io.netty.buffer.ByteBuf;

/** ARP for IPv4 over Ethernet (RFC 826): the 28-byte body after the Ethernet header. */
public final class Arp {
    public static final int HTYPE = 0;
    public static final int PTYPE = 2;
    public static final int HLEN = 4;
    public static final int PLEN = 5;
    public static final int OPER = 6;
    public static final int SHA = 8;
    public static final int SPA = 14;
    public static final int THA = 18;
    public static final int TPA = 24;
    public static final int LENGTH = 28;

    public static final int REQUEST = 1;
    public static final int REPLY = 2;

    private Arp() {
    }

    /** Whether this is Ethernet/IPv4 ARP (the only kind rocelab answers). */
    public static boolean isEthernetIpv4(ByteBuf b, int off) {
        return b.getUnsignedShort(off + HTYPE) == 1 && b.getUnsignedShort(off + PTYPE) == EtherType.IPV4
                && b.getUnsignedByte(off + HLEN) == 6 && b.getUnsignedByte(off + PLEN) == 4;
    }

    public static int operation(ByteBuf b, int off) {
        return b.getUnsignedShort(off + OPER);
    }

    public static long senderMac(ByteBuf b, int off) {
        return MacAddress.get(b, off + SHA);
    }

    public static int senderIp(ByteBuf b, int off) {
        return b.getInt(off + SPA);
    }

    public static long targetMac(ByteBuf b, int off) {
        return MacAddress.get(b, off + THA);
    }

    public static int targetIp(ByteBuf b, int off) {
        return b.getInt(off + TPA);
    }

    public static void write(ByteBuf b, int off, int operation, long senderMac, int senderIp, long targetMac,
                             int targetIp) {
        b.setShort(off + HTYPE, 1);
        b.setShort(off + PTYPE, EtherType.IPV4);
        b.setByte(off + HLEN, 6);
        b.setByte(off + PLEN, 4);
        b.setShort(off + OPER, operation);
        MacAddress.set(b, off + SHA, senderMac);
        b.setInt(off + SPA, senderIp);
        MacAddress.set(b, off + THA, targetMac);
        b.setInt(off + TPA, targetIp);
    }
}
