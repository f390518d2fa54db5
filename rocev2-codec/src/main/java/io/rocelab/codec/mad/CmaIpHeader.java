package io.rocelab.codec.mad;

import io.netty.buffer.ByteBuf;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The IP addressing header rdma_cm puts first in a REQ's private data (IBA Annex A11.6, 36 bytes):
 * version, IP version, the active side's port, and its source and destination IP addresses, which
 * is how the passive side learns who connects. IPv4 addresses take the last four of the sixteen
 * address bytes, the rest zero.
 */
public record CmaIpHeader(int majorVersion, int minorVersion, int ipVersion, int reserved, int sourcePort,
                          byte[] source, byte[] destination) {
    public static final int LENGTH = 36;

    public CmaIpHeader {
        source = Bits.copy(source, 16, "source");
        destination = Bits.copy(destination, 16, "destination");
    }

    @Override
    public byte[] source() {
        return source.clone();
    }

    @Override
    public byte[] destination() {
        return destination.clone();
    }

    /** The header for an IPv4 connection from {@code src:port} to {@code dst}, as rdma_cm writes it. */
    public static CmaIpHeader ipv4(InetAddress src, int port, InetAddress dst) {
        return new CmaIpHeader(0, 0, 4, 0, port, field(src), field(dst));
    }

    private static byte[] field(InetAddress a) {
        byte[] out = new byte[16];
        byte[] raw = a.getAddress();
        System.arraycopy(raw, 0, out, 16 - raw.length, raw.length);
        return out;
    }

    public static CmaIpHeader decode(ByteBuf b, int off) {
        int v = b.getUnsignedByte(off);
        int ip = b.getUnsignedByte(off + 1);
        byte[] s = new byte[16];
        byte[] d = new byte[16];
        b.getBytes(off + 4, s);
        b.getBytes(off + 20, d);
        return new CmaIpHeader(Bits.get(v, 4, 4), Bits.get(v, 0, 4), Bits.get(ip, 4, 4), Bits.get(ip, 0, 4),
                b.getUnsignedShort(off + 2), s, d);
    }

    public void encode(ByteBuf b, int off) {
        b.setByte(off, Bits.put(majorVersion, 4, 4, "majorVersion") | Bits.put(minorVersion, 0, 4, "minorVersion"));
        b.setByte(off + 1, Bits.put(ipVersion, 4, 4, "ipVersion") | Bits.put(reserved, 0, 4, "reserved"));
        b.setShort(off + 2, sourcePort);
        b.setBytes(off + 4, source);
        b.setBytes(off + 20, destination);
    }

    /** The source address, IPv4 or IPv6 by {@link #ipVersion()}. */
    public InetAddress sourceAddress() {
        return address(source);
    }

    /** The destination address, IPv4 or IPv6 by {@link #ipVersion()}. */
    public InetAddress destinationAddress() {
        return address(destination);
    }

    private InetAddress address(byte[] field) {
        try {
            if (ipVersion == 4) {
                byte[] v4 = new byte[4];
                System.arraycopy(field, 12, v4, 0, 4);
                return InetAddress.getByAddress(v4);
            }
            return InetAddress.getByAddress(field);
        } catch (UnknownHostException e) {
            throw new AssertionError("4 or 16 bytes are always an address", e);
        }
    }
}
