package io.rocelab.nic.net;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.header.Ipv6;

/**
 * The ICMPv6 checksum (RFC 4443 2.3): the Internet checksum over the IPv6 pseudo-header (source,
 * destination, upper-layer length, next header 58, RFC 8200 8.1) and the ICMPv6 message. The codec
 * has no ICMPv6 header yet, so neighbour discovery keeps this here.
 */
public final class Icmpv6 {
    public static final int NEXT_HEADER = 58;
    /** Type, code and checksum: the shortest ICMPv6 message (RFC 4443 2.1). */
    static final int HEADER_LENGTH = 4;

    private Icmpv6() {
    }

    /**
     * The checksum of the message of {@code len} bytes at {@code icmpOff}, with the IPv6 header at
     * {@code ipOff}. Computed with the checksum field zero, it is the value to write; over a received
     * message it is 0 when the message is intact.
     */
    public static int checksum(ByteBuf b, int ipOff, int icmpOff, int len) {
        long sum = 0;
        for (int i = 0; i < 32; i += 2) {
            sum += b.getUnsignedShort(ipOff + Ipv6.SRC + i);
        }
        sum += len >>> 16;
        sum += len & 0xFFFF;
        sum += NEXT_HEADER;
        int i = 0;
        for (; i + 1 < len; i += 2) {
            sum += b.getUnsignedShort(icmpOff + i);
        }
        if (i < len) {
            sum += b.getUnsignedByte(icmpOff + i) << 8;
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (int) (~sum & 0xFFFF);
    }
}
