package io.rocelab.codec;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.header.Bth;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.Udp;
import io.netty.util.internal.PlatformDependent;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/**
 * The RoCEv2 invariant CRC (IBA Annex A17.4.1, after IBA 7.8.1): CRC-32 over 8 bytes of 0xFF
 * standing in for the LRH, then the IP header with the fields routers may change masked to ones
 * (IPv4 TOS, TTL, header checksum; IPv6 traffic class, flow label, hop limit), the UDP header with
 * its checksum masked, the BTH with its FECN/BECN/resv6 byte masked, and everything after it up to
 * the ICRC. The CRC goes on the wire least-significant byte first.
 *
 * <p>RoCEv1's (IBA Annex A16, after IBA 7.8.1) is the same computation with the GRH in the IP
 * header's place and no UDP header: the LRH the frame does not carry as 8 bytes of ones, the GRH
 * with its variant fields TClass, FlowLabel and HopLmt masked to ones (the bits an IPv6 header's
 * mask covers, since the GRH has its layout), the BTH with resv8a (the byte RoCEv2 calls
 * FECN/BECN/resv6) masked, and the rest to the ICRC. One code path serves both: a UDP offset of
 * -1 means "no UDP header".
 *
 * <p>One instance per owning thread: it keeps its CRC engine and a scratch array for the masked
 * headers, so computing allocates nothing.
 */
public final class Icrc {
    public static final int LENGTH = 4;

    private static final int LRH_STANDIN = 8;
    private static final int MAX_IP_HEADER = 60;
    /** Whether Netty reads and writes memory by address here ({@code sun.misc.Unsafe}); not on Java 25+
     *  by default, where direct buffers still have addresses but {@link PlatformDependent#getLong(long)}
     *  and the like do not work. */
    private static final boolean RAW_MEMORY = PlatformDependent.hasUnsafe();

    private final CRC32 crc = new CRC32();
    private final byte[] scratch = new byte[LRH_STANDIN + MAX_IP_HEADER + Udp.LENGTH + Bth.LENGTH];

    /**
     * The ICRC the frame should carry; the frame must be a parsed RoCEv2 frame.
     *
     * <p>When nobody else holds the buffer (reference count 1, writable) the masked fields and the
     * LRH stand-in are written into the frame itself for one CRC pass over the whole covered
     * region, and put back before this returns: that saves the copy of the headers and a second
     * CRC call per frame. Otherwise the headers are masked in a copy.
     */
    public int compute(ParsedFrame f) {
        boolean v1 = f.isRoceV1();
        if (f.udpOffset() < 0 && !v1) {
            throw new IllegalArgumentException("ICRC needs the IP and UDP headers (or a RoCEv1 GRH): parse a whole frame");
        }
        ByteBuf b = f.buffer();
        // a GRH masks as an IPv6 header does
        int ipVersion = v1 ? 6 : f.ipVersion();
        int headerLength = v1 ? Ipv6.LENGTH : f.ipHeaderLength();
        if (f.l3Offset() - f.start() >= LRH_STANDIN && b.refCnt() == 1 && !b.isReadOnly()) {
            return maskedCompute(b, f.l3Offset(), ipVersion, f.udpOffset(), f.bthOffset(), f.icrcOffset());
        }
        return compute(b, f.l3Offset(), ipVersion, headerLength, b, f.udpOffset(), b, f.bthOffset(),
                f.icrcOffset());
    }

    /**
     * The ICRC of a RoCEv1 frame this thread is building and nobody else holds (IBA Annex A16): the
     * GRH at {@code grhOffset}, the BTH at {@code bthOffset}, at least 8 bytes (the Ethernet header)
     * before the GRH; masked, computed and restored in place as {@link #computeInPlace} does.
     */
    public int computeRoceV1InPlace(ByteBuf b, int grhOffset, int bthOffset, int icrcOffset) {
        if (grhOffset < LRH_STANDIN) {
            throw new IllegalArgumentException("no room for the LRH stand-in before the GRH: " + grhOffset);
        }
        return maskedCompute(b, grhOffset, 6, -1, bthOffset, icrcOffset);
    }

    /** Masks in place, runs one CRC over [l3 - 8, icrc), restores every byte it touched. */
    private int maskedCompute(ByteBuf b, int l3, int ipVersion, int udp, int bth, int icrcOffset) {
        int from = l3 - LRH_STANDIN;
        if (RAW_MEMORY && b.hasMemoryAddress() && from >= 0 && icrcOffset <= b.capacity()) {
            return maskedCompute(b, b.memoryAddress(), from, l3, ipVersion, udp, bth, icrcOffset);
        }
        long lrh = b.getLong(from);
        int word0 = b.getInt(l3);
        int word1 = b.getInt(l3 + 4);
        int word2 = b.getInt(l3 + 8);
        short udpChecksum = udp >= 0 ? b.getShort(udp + Udp.CHECKSUM) : 0;
        byte fecnBecn = b.getByte(bth + Bth.FECN_BECN);
        try {
            b.setLong(from, -1L);
            if (ipVersion == 4) {
                b.setInt(l3, word0 | 0x00FF0000); // TOS
                b.setInt(l3 + 8, word2 | 0xFF00FFFF); // TTL and header checksum
            } else {
                b.setInt(l3, word0 | 0x0FFFFFFF); // traffic class and flow label
                b.setInt(l3 + 4, word1 | 0xFF); // hop limit
            }
            if (udp >= 0) {
                b.setShort(udp + Udp.CHECKSUM, 0xFFFF);
            }
            b.setByte(bth + Bth.FECN_BECN, 0xFF);
            crc.reset();
            update(b, from, icrcOffset - from);
            return (int) crc.getValue();
        } finally {
            b.setLong(from, lrh);
            b.setInt(l3, word0);
            b.setInt(l3 + 4, word1);
            b.setInt(l3 + 8, word2);
            if (udp >= 0) {
                b.setShort(udp + Udp.CHECKSUM, udpChecksum);
            }
            b.setByte(bth + Bth.FECN_BECN, fecnBecn);
        }
    }

    /**
     * {@link #maskedCompute(ByteBuf, int, int, int, int, int)} on a direct buffer's memory: the same
     * bytes masked and restored, without a bounds and reference check per field (the caller checked
     * the range once; the masks are whole bytes, so the machine's byte order does not matter).
     */
    private int maskedCompute(ByteBuf b, long address, int from, int l3, int ipVersion, int udp, int bth,
                               int icrcOffset) {
        final long lrhAt = address + from;
        final long ipAt = address + l3;
        final boolean hasUdp = udp >= 0;
        final long udpCheckAt = hasUdp ? address + udp + Udp.CHECKSUM : 0;
        final long fecnAt = address + bth + Bth.FECN_BECN;
        final long lrh = PlatformDependent.getLong(lrhAt);
        final long ip0 = PlatformDependent.getLong(ipAt);
        final int ip8 = PlatformDependent.getInt(ipAt + 8);
        final short udpChecksum = hasUdp ? PlatformDependent.getShort(udpCheckAt) : 0;
        final byte fecnBecn = PlatformDependent.getByte(fecnAt);
        try {
            PlatformDependent.putLong(lrhAt, -1L);
            if (ipVersion == 4) {
                PlatformDependent.putByte(ipAt + Ipv4.TOS, (byte) -1);
                PlatformDependent.putByte(ipAt + Ipv4.TTL, (byte) -1);
                PlatformDependent.putShort(ipAt + Ipv4.CHECKSUM, (short) -1);
            } else {
                // version stays; traffic class and flow label become ones
                PlatformDependent.putByte(ipAt, (byte) (PlatformDependent.getByte(ipAt) | 0x0F));
                PlatformDependent.putByte(ipAt + 1, (byte) -1);
                PlatformDependent.putShort(ipAt + 2, (short) -1);
                PlatformDependent.putByte(ipAt + Ipv6.HOP_LIMIT, (byte) -1);
            }
            if (hasUdp) {
                PlatformDependent.putShort(udpCheckAt, (short) -1);
            }
            PlatformDependent.putByte(fecnAt, (byte) -1);
            crc.reset();
            update(b, from, icrcOffset - from);
            return (int) crc.getValue();
        } finally {
            PlatformDependent.putLong(lrhAt, lrh);
            PlatformDependent.putLong(ipAt, ip0);
            PlatformDependent.putInt(ipAt + 8, ip8);
            if (hasUdp) {
                PlatformDependent.putShort(udpCheckAt, udpChecksum);
            }
            PlatformDependent.putByte(fecnAt, fecnBecn);
        }
    }

    /**
     * The ICRC of a frame this thread is building and nobody else holds: masks the covered header
     * fields in the frame itself, runs one CRC over [l3 - 8, icrc) and restores them, as
     * {@link #compute(ParsedFrame)} does for a received frame. The IP header, UDP header and BTH are
     * at the given offsets of {@code b}, and at least 8 bytes (the Ethernet header) precede the IP
     * header.
     */
    public int computeInPlace(ByteBuf b, int l3Offset, int ipVersion, int udpOffset, int bthOffset,
                              int icrcOffset) {
        if (l3Offset < LRH_STANDIN) {
            throw new IllegalArgumentException("no room for the LRH stand-in before the IP header: " + l3Offset);
        }
        return maskedCompute(b, l3Offset, ipVersion, udpOffset, bthOffset, icrcOffset);
    }

    /** Whether the ICRC carried by the frame is right. */
    public boolean verify(ParsedFrame f) {
        return compute(f) == f.icrc();
    }

    /** Computes and writes the ICRC into a parsed frame (after its headers and payload are final). */
    public void fill(ParsedFrame f) {
        f.buffer().setIntLE(f.icrcOffset(), compute(f));
    }

    /**
     * The general form: IP header at {@code ipOffset} of {@code ipBuf}, UDP header at
     * {@code udpOffset} of {@code buf}, BTH at {@code bthOffset} of {@code buf}, ICRC at
     * {@code icrcOffset}. The headers may live in another buffer than the transport (a UDP-socket
     * endpoint builds them aside).
     */
    public int compute(ByteBuf ipBuf, int ipOffset, int ipVersion, int ipHeaderLength, ByteBuf buf, int udpOffset,
                       int bthOffset, int icrcOffset) {
        return compute(ipBuf, ipOffset, ipVersion, ipHeaderLength, buf, udpOffset, buf, bthOffset, icrcOffset);
    }

    /**
     * The same with the UDP header in a buffer of its own too: a packet written where it leaves, as
     * the UDP payload alone, gets its ICRC over the IP and UDP headers its receiver will rebuild.
     * A {@code udpOffset} of -1 means there is no UDP header: a RoCEv1 GRH (ipVersion 6, 40 bytes)
     * is followed by the BTH.
     */
    public int compute(ByteBuf ipBuf, int ipOffset, int ipVersion, int ipHeaderLength, ByteBuf udpBuf, int udpOffset,
                       ByteBuf buf, int bthOffset, int icrcOffset) {
        if (ipHeaderLength > MAX_IP_HEADER) {
            throw new IllegalArgumentException("IP header longer than 60 bytes: " + ipHeaderLength);
        }
        byte[] s = scratch;
        for (int i = 0; i < LRH_STANDIN; i++) {
            s[i] = (byte) 0xFF;
        }
        int p = LRH_STANDIN;
        ipBuf.getBytes(ipOffset, s, p, ipHeaderLength);
        if (ipVersion == 4) {
            s[p + Ipv4.TOS] = (byte) 0xFF;
            s[p + Ipv4.TTL] = (byte) 0xFF;
            s[p + Ipv4.CHECKSUM] = (byte) 0xFF;
            s[p + Ipv4.CHECKSUM + 1] = (byte) 0xFF;
        } else {
            // version stays; traffic class and flow label become ones
            s[p] = (byte) (s[p] | 0x0F);
            s[p + 1] = (byte) 0xFF;
            s[p + 2] = (byte) 0xFF;
            s[p + 3] = (byte) 0xFF;
            s[p + Ipv6.HOP_LIMIT] = (byte) 0xFF;
        }
        p += ipHeaderLength;
        if (udpOffset >= 0) {
            udpBuf.getBytes(udpOffset, s, p, Udp.LENGTH);
            s[p + Udp.CHECKSUM] = (byte) 0xFF;
            s[p + Udp.CHECKSUM + 1] = (byte) 0xFF;
            p += Udp.LENGTH;
        }
        buf.getBytes(bthOffset, s, p, Bth.LENGTH);
        s[p + Bth.FECN_BECN] = (byte) 0xFF;
        p += Bth.LENGTH;
        crc.reset();
        crc.update(s, 0, p);
        update(buf, bthOffset + Bth.LENGTH, icrcOffset - bthOffset - Bth.LENGTH);
        return (int) crc.getValue();
    }

    /**
     * The bytes of a slice as a view of the buffer it was cut from, or null if it is not a slice of
     * a direct buffer: a slice (a received datagram's frame inside its read buffer) makes a new
     * ByteBuffer on every {@code internalNioBuffer} call, while the buffer under it reuses one.
     */
    private static ByteBuffer rootNioBuffer(ByteBuf buf, int index, int length) {
        ByteBuf root = buf.unwrap();
        if (root == null || !buf.hasMemoryAddress()) {
            return null;
        }
        while (root.unwrap() != null) {
            root = root.unwrap();
        }
        if (!root.hasMemoryAddress() || root.nioBufferCount() != 1) {
            return null;
        }
        final long at = buf.memoryAddress() + index - root.memoryAddress();
        return at >= 0 && at + length <= root.capacity() ? root.internalNioBuffer((int) at, length) : null;
    }

    private void update(ByteBuf buf, int index, int length) {
        if (length <= 0) {
            return;
        }
        if (buf.hasArray()) {
            crc.update(buf.array(), buf.arrayOffset() + index, length);
            return;
        }
        final ByteBuffer whole = rootNioBuffer(buf, index, length);
        if (whole != null) {
            crc.update(whole);
        } else if (buf.nioBufferCount() == 1) {
            crc.update(buf.internalNioBuffer(index, length));
        } else {
            for (ByteBuffer part : buf.nioBuffers(index, length)) {
                crc.update(part);
            }
        }
    }
}
