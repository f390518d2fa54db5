package io.rocelab.topology.route;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.sw.config.Prefix6;

/**
 * An IPv4 or IPv6 prefix as two 64-bit halves (IPv4 in the low half), the bits beyond the length
 * cleared, so that containment is two masked compares.
 *
 * @param v6     IPv6
 * @param high   first 64 bits of an IPv6 network (0 for IPv4)
 * @param low    last 64 bits of an IPv6 network, or the IPv4 network as an unsigned int
 * @param length prefix length
 */
record Prefix(boolean v6, long high, long low, int length) {

    static Prefix ipv4(int address, int length) {
        long mask = length == 0 ? 0 : (0xFFFF_FFFFL << (32 - length)) & 0xFFFF_FFFFL;
        return new Prefix(false, 0, (address & 0xFFFF_FFFFL) & mask, length);
    }

    static Prefix ipv6(String address, int length) {
        byte[] a = Ipv6.parse(address);
        long[] m = Prefix6.mask(Prefix6.high(a), Prefix6.low(a), length);
        return new Prefix(true, m[0], m[1], length);
    }

    /** @return this prefix shortened to {@code len} bits */
    Prefix widen(int len) {
        if (!v6) {
            return ipv4((int) low, len);
        }
        long[] m = Prefix6.mask(high, low, len);
        return new Prefix(true, m[0], m[1], len);
    }

    boolean contains(Prefix p) {
        return p.v6 == v6 && p.length >= length && p.widen(length).equals(this);
    }

    /** @return the text of a {@code STATIC_ROUTE} key, {@code 10.0.1.0/24} or {@code fd00:1::/64} */
    String text() {
        if (!v6) {
            return Ipv4.toString((int) low) + "/" + length;
        }
        byte[] a = new byte[16];
        for (int i = 0; i < 8; i++) {
            a[i] = (byte) (high >>> (56 - 8 * i));
            a[8 + i] = (byte) (low >>> (56 - 8 * i));
        }
        return Ipv6.toString(a) + "/" + length;
    }
}
