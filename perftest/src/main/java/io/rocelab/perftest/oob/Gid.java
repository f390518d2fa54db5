package io.rocelab.perftest.oob;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * A 16-byte Global Identifier. On RoCEv2 it is the port's IP address as an IPv6 address — an
 * IPv4 address appears as {@code ::ffff:a.b.c.d} — and it is what both out-of-band exchanges
 * carry so that each side can address the other's packets.
 */
public final class Gid {
    /** A GID is 16 bytes, in network order. */
    public static final int LENGTH = 16;

    private final byte[] raw;

    private Gid(byte[] raw) {
        this.raw = raw;
    }

    /** The GID of 16 bytes in network order. */
    public static Gid of(byte[] raw) {
        if (raw.length != LENGTH) {
            throw new IllegalArgumentException("a GID is 16 bytes, got " + raw.length);
        }
        return new Gid(raw.clone());
    }

    /** The all-zero GID that InfiniBand tools without {@code -g}/{@code -x} send. */
    public static Gid zero() {
        return new Gid(new byte[LENGTH]);
    }

    /** The RoCEv2 GID of an IP address: IPv4 addresses are mapped into {@code ::ffff:0:0/96}. */
    public static Gid of(InetAddress address) {
        byte[] a = address.getAddress();
        if (address instanceof Inet4Address) {
            byte[] raw = new byte[LENGTH];
            raw[10] = (byte) 0xff;
            raw[11] = (byte) 0xff;
            System.arraycopy(a, 0, raw, 12, 4);
            return new Gid(raw);
        }
        return new Gid(a);
    }

    /** The 16 bytes, in network order. */
    public byte[] bytes() {
        return raw.clone();
    }

    /** One byte, 0 to 15, as an unsigned value. */
    public int byteAt(int index) {
        return raw[index] & 0xff;
    }

    /** True for an IPv4-mapped GID ({@code ::ffff:a.b.c.d}), the GID of a RoCEv2 IPv4 port. */
    public boolean isIpv4Mapped() {
        for (int i = 0; i < 10; i++) {
            if (raw[i] != 0) {
                return false;
            }
        }
        return byteAt(10) == 0xff && byteAt(11) == 0xff;
    }

    /** The IP address this GID stands for: IPv4 for a mapped GID, else IPv6. */
    public InetAddress toInetAddress() {
        try {
            if (isIpv4Mapped()) {
                return InetAddress.getByAddress(Arrays.copyOfRange(raw, 12, 16));
            }
            return Inet6Address.getByAddress(null, raw.clone(), null);
        } catch (UnknownHostException e) {
            throw new AssertionError("16 bytes are always an address", e);
        }
    }

    /**
     * The text glibc's {@code inet_ntop(AF_INET6)} gives, which rdma-core's pingpong prints:
     * lowercase, no leading zeros, the longest run of two or more zero groups as {@code ::}, and
     * an embedded IPv4 address for mapped ({@code ::ffff:10.0.0.1}) and compatible
     * ({@code ::10.0.0.1}) forms.
     */
    public String toIpv6Text() {
        int[] words = new int[8];
        for (int i = 0; i < 8; i++) {
            words[i] = (byteAt(2 * i) << 8) | byteAt(2 * i + 1);
        }
        int bestBase = -1;
        int bestLen = 0;
        int curBase = -1;
        int curLen = 0;
        for (int i = 0; i < 8; i++) {
            if (words[i] == 0) {
                if (curBase == -1) {
                    curBase = i;
                    curLen = 1;
                } else {
                    curLen++;
                }
            } else if (curBase != -1) {
                if (bestBase == -1 || curLen > bestLen) {
                    bestBase = curBase;
                    bestLen = curLen;
                }
                curBase = -1;
            }
        }
        if (curBase != -1 && (bestBase == -1 || curLen > bestLen)) {
            bestBase = curBase;
            bestLen = curLen;
        }
        if (bestBase != -1 && bestLen < 2) {
            bestBase = -1;
        }
        StringBuilder sb = new StringBuilder(46);
        for (int i = 0; i < 8; i++) {
            if (bestBase != -1 && i >= bestBase && i < bestBase + bestLen) {
                if (i == bestBase) {
                    sb.append(':');
                }
                continue;
            }
            if (i != 0) {
                sb.append(':');
            }
            if (i == 6 && bestBase == 0 && (bestLen == 6 || (bestLen == 5 && words[5] == 0xffff))) {
                sb.append(byteAt(12)).append('.').append(byteAt(13)).append('.')
                        .append(byteAt(14)).append('.').append(byteAt(15));
                return sb.toString();
            }
            sb.append(Integer.toHexString(words[i]));
        }
        if (bestBase != -1 && bestBase + bestLen == 8) {
            sb.append(':');
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Gid && Arrays.equals(raw, ((Gid) o).raw);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(raw);
    }

    @Override
    public String toString() {
        return toIpv6Text();
    }
}
