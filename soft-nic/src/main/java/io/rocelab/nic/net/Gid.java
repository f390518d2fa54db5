package io.rocelab.nic.net;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A 128-bit GID. RoCEv2 GIDs are IP addresses (IBA Annex A17.8): an IPv4 address appears as the
 * IPv4-mapped IPv6 address {@code ::ffff:a.b.c.d}, an IPv6 address as itself, as in Linux's GID
 * table. Immutable; the two halves and the hash are computed once, so a GID can key the
 * neighbour table and be compared with a received header without allocating.
 */
public final class Gid {
    private final byte[] raw;
    private final long hi;
    private final long lo;
    private final int hash;

    private Gid(byte[] raw) {
        this.raw = raw;
        long h = 0;
        long l = 0;
        for (int i = 0; i < 8; i++) {
            h = (h << 8) | (raw[i] & 0xFF);
            l = (l << 8) | (raw[i + 8] & 0xFF);
        }
        this.hi = h;
        this.lo = l;
        this.hash = Arrays.hashCode(raw);
    }

    /** An IPv6 address as a GID, from its text ({@code fd00:77::10}). */
    public static Gid ipv6(String address) {
        return new Gid(io.rocelab.codec.header.Ipv6.parse(address));
    }

    /** The GID in the 16 bytes at {@code off} of {@code b} (an IPv6 address in a header). */
    public static Gid read(io.netty.buffer.ByteBuf b, int off) {
        byte[] r = new byte[16];
        b.getBytes(off, r);
        return new Gid(r);
    }

    /** Whether the 16 bytes at {@code off} of {@code b} are this GID. */
    public boolean matches(io.netty.buffer.ByteBuf b, int off) {
        return b.getLong(off) == hi && b.getLong(off + 8) == lo;
    }

    /** {@code fe80::/10}: a link-local IPv6 address (RFC 4291 2.5.6). */
    public boolean isLinkLocal() {
        return raw[0] == (byte) 0xFE && (raw[1] & 0xC0) == 0x80;
    }

    /** {@code ff00::/8}. */
    public boolean isMulticast() {
        return raw[0] == (byte) 0xFF;
    }

    /** {@code ::}. */
    public boolean isUnspecified() {
        return hi == 0 && lo == 0;
    }

    /** Its 16 bytes, a copy. */
    public byte[] bytes() {
        return raw.clone();
    }

    /** The bytes without a copy, for writing headers: the caller must never modify them. */
    public byte[] rawBytes() {
        return raw;
    }

    public static Gid of(byte[] bytes) {
        if (bytes.length != 16) {
            throw new IllegalArgumentException("a GID has 16 bytes, not " + bytes.length);
        }
        return new Gid(bytes.clone());
    }

    /** {@code ::ffff:a.b.c.d}. */
    public static Gid ipv4Mapped(int ipv4) {
        byte[] b = new byte[16];
        b[10] = (byte) 0xFF;
        b[11] = (byte) 0xFF;
        b[12] = (byte) (ipv4 >>> 24);
        b[13] = (byte) (ipv4 >>> 16);
        b[14] = (byte) (ipv4 >>> 8);
        b[15] = (byte) ipv4;
        return new Gid(b);
    }

    /** The link-local GID {@code fe80::} + modified EUI-64 of the MAC: GID index 0 of a Linux RoCE port. */
    public static Gid linkLocal(long mac) {
        byte[] b = new byte[16];
        b[0] = (byte) 0xFE;
        b[1] = (byte) 0x80;
        b[8] = (byte) ((mac >>> 40) ^ 0x02);
        b[9] = (byte) (mac >>> 32);
        b[10] = (byte) (mac >>> 24);
        b[11] = (byte) 0xFF;
        b[12] = (byte) 0xFE;
        b[13] = (byte) (mac >>> 16);
        b[14] = (byte) (mac >>> 8);
        b[15] = (byte) mac;
        return new Gid(b);
    }

    /** Parses 32 hex digits, the form rdma-core's pingpong exchanges. */
    public static Gid parseHex(String hex) {
        return of(HexFormat.of().parseHex(hex));
    }

    public boolean isIpv4Mapped() {
        for (int i = 0; i < 10; i++) {
            if (raw[i] != 0) {
                return false;
            }
        }
        return raw[10] == (byte) 0xFF && raw[11] == (byte) 0xFF;
    }

    /** The IPv4 address of an IPv4-mapped GID. */
    public int ipv4() {
        if (!isIpv4Mapped()) {
            throw new IllegalStateException("not an IPv4-mapped GID: " + this);
        }
        return ((raw[12] & 0xFF) << 24) | ((raw[13] & 0xFF) << 16) | ((raw[14] & 0xFF) << 8) | (raw[15] & 0xFF);
    }

    public byte[] toBytes() {
        return raw.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Gid g && g.hi == hi && g.lo == lo;
    }

    @Override
    public int hashCode() {
        return hash;
    }

    /** 32 lowercase hex digits, network order (as {@code ibv_rc_pingpong} prints it). */
    @Override
    public String toString() {
        return HexFormat.of().formatHex(raw);
    }
}
