package io.rocelab.perftest.testkit;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * The Ethernet/IP/transport layers of a captured frame, decoded independently of the project's
 * codec: addresses, ports, and where the transport payload starts.
 */
public final class Packet {
    public static final int TCP = 6;
    public static final int UDP = 17;

    public final int frameNumber;
    public final InetAddress source;
    public final InetAddress destination;
    public final int protocol;
    public final int sourcePort;
    public final int destinationPort;
    /** TCP only. */
    public final long sequence;
    /** TCP only: SYN or FIN, which take a sequence number. */
    public final boolean syn;
    public final boolean fin;
    public final byte[] payload;

    private Packet(int frameNumber, InetAddress source, InetAddress destination, int protocol, int sourcePort,
                   int destinationPort, long sequence, boolean syn, boolean fin, byte[] payload) {
        this.frameNumber = frameNumber;
        this.source = source;
        this.destination = destination;
        this.protocol = protocol;
        this.sourcePort = sourcePort;
        this.destinationPort = destinationPort;
        this.sequence = sequence;
        this.syn = syn;
        this.fin = fin;
        this.payload = payload;
    }

    /** Decodes IPv4 or IPv6 TCP/UDP frames; anything else (ARP, ND) gives null. */
    public static Packet decode(Pcap.Frame f) {
        byte[] d = f.data();
        int etherType = u16(d, 12);
        int l3 = 14;
        if (etherType == 0x8100) {
            etherType = u16(d, 16);
            l3 = 18;
        }
        InetAddress src;
        InetAddress dst;
        int proto;
        int l4;
        int l4End;
        if (etherType == 0x0800) {
            int ihl = (d[l3] & 0x0f) * 4;
            proto = d[l3 + 9] & 0xff;
            src = address(Arrays.copyOfRange(d, l3 + 12, l3 + 16));
            dst = address(Arrays.copyOfRange(d, l3 + 16, l3 + 20));
            l4 = l3 + ihl;
            l4End = l3 + u16(d, l3 + 2);
        } else if (etherType == 0x86dd) {
            proto = d[l3 + 6] & 0xff;
            src = address(Arrays.copyOfRange(d, l3 + 8, l3 + 24));
            dst = address(Arrays.copyOfRange(d, l3 + 24, l3 + 40));
            l4 = l3 + 40;
            l4End = l4 + u16(d, l3 + 4);
        } else {
            return null;
        }
        l4End = Math.min(l4End, d.length);
        if (proto == TCP) {
            int dataOffset = ((d[l4 + 12] & 0xf0) >> 4) * 4;
            int flags = d[l4 + 13] & 0xff;
            return new Packet(f.number(), src, dst, proto, u16(d, l4), u16(d, l4 + 2),
                    Integer.toUnsignedLong(u32(d, l4 + 4)), (flags & 0x02) != 0, (flags & 0x01) != 0,
                    Arrays.copyOfRange(d, l4 + dataOffset, l4End));
        }
        if (proto == UDP) {
            return new Packet(f.number(), src, dst, proto, u16(d, l4), u16(d, l4 + 2), 0, false, false,
                    Arrays.copyOfRange(d, l4 + 8, l4End));
        }
        return null;
    }

    static int u16(byte[] d, int off) {
        return ((d[off] & 0xff) << 8) | (d[off + 1] & 0xff);
    }

    static int u32(byte[] d, int off) {
        return (u16(d, off) << 16) | u16(d, off + 2);
    }

    private static InetAddress address(byte[] raw) {
        try {
            return InetAddress.getByAddress(raw);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }
}
