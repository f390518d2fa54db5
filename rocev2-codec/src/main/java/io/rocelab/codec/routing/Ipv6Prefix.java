package io.rocelab.codec.routing;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * An IPv6 prefix as MP-BGP carries it (RFC 4760 section 5: length in bits, then the octets that
 * hold it): the address as two longs, host bits cleared.
 *
 * @param high   the first 64 bits
 * @param low    the last 64 bits
 * @param length 0..128
 */
public record Ipv6Prefix(long high, long low, int length) implements RoutePrefix {
    public Ipv6Prefix {
        if (length < 0 || length > 128) {
            throw new IllegalArgumentException("prefix length " + length);
        }
        high &= highMask(length);
        low &= lowMask(length);
    }

    public static long highMask(int length) {
        return length == 0 ? 0 : length >= 64 ? -1L : -1L << (64 - length);
    }

    public static long lowMask(int length) {
        return length <= 64 ? 0 : length == 128 ? -1L : -1L << (128 - length);
    }

    /** @return the prefix of {@code text}, e.g. {@code fd00:0:1::/64} (an address alone is a /128) */
    public static Ipv6Prefix parse(String text) {
        int slash = text.indexOf('/');
        String address = slash < 0 ? text : text.substring(0, slash);
        int length = slash < 0 ? 128 : Integer.parseInt(text.substring(slash + 1));
        if (!address.contains(":")) {
            throw new IllegalArgumentException("not an IPv6 address: " + address);
        }
        byte[] b;
        try {
            b = InetAddress.getByName(address).getAddress(); // a literal: no lookup
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IPv6 address: " + address, e);
        }
        if (b.length != 16) {
            throw new IllegalArgumentException("not an IPv6 address: " + address);
        }
        return new Ipv6Prefix(bytesToLong(b, 0), bytesToLong(b, 8), length);
    }

    private static long bytesToLong(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = v << 8 | (b[off + i] & 0xFF);
        }
        return v;
    }

    /** @return whether the address {@code high:low} is in this prefix */
    public boolean contains(long addressHigh, long addressLow) {
        return (addressHigh & highMask(length)) == high && (addressLow & lowMask(length)) == low;
    }

    /** RFC 5952's text: lower case, the longest run of zero groups as {@code ::}. */
    @Override
    public String toString() {
        int[] g = new int[8];
        for (int i = 0; i < 4; i++) {
            g[i] = (int) (high >>> (48 - 16 * i)) & 0xFFFF;
            g[4 + i] = (int) (low >>> (48 - 16 * i)) & 0xFFFF;
        }
        int bestStart = -1;
        int bestLen = 1;
        for (int i = 0; i < 8; ) {
            if (g[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                s.append("::");
                i += bestLen - 1;
                continue;
            }
            if (s.length() > 0 && s.charAt(s.length() - 1) != ':') {
                s.append(':');
            }
            s.append(Integer.toHexString(g[i]));
        }
        return s + "/" + length;
    }

    /** @return the address as an {@link Inet6Address}'s 16 bytes */
    byte[] bytes() {
        byte[] b = new byte[16];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (high >>> (56 - 8 * i));
            b[8 + i] = (byte) (low >>> (56 - 8 * i));
        }
        return b;
    }
}
