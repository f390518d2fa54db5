package io.rocelab.sw.sflow;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.capture.CaptureWriter;
import io.rocelab.sw.config.SflowConfig;
import io.rocelab.sw.config.SflowTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet4Address;
import java.net.InetAddress;

/**
 * The datagrams a switch would send, written to a capture as the UDP frames that would carry them
 * (virtual time: no socket, nothing leaves the process): Ethernet from the switch's router MAC to
 * {@value #COLLECTOR_MAC_TEXT} (the collector's MAC is not known), IPv4 or IPv6 from the agent
 * address to {@code collector_ip}, UDP from port {@value #SOURCE_PORT} to {@code collector_port}, so
 * that {@code tshark -Y sflow} decodes them (tshark knows sFlow on UDP 6343; give it
 * {@code -d udp.port==N,sflow} for another port). Frames are stamped with the scheduler's time plus
 * an epoch offset. Owner thread only, as the writer is.
 */
public final class PcapSflowSink implements SflowSink {
    /** Destination MAC of the frames: locally administered, 0x18c7 = 6343. */
    public static final long COLLECTOR_MAC = 0x02_00_00_00_18_C7L;
    private static final String COLLECTOR_MAC_TEXT = "02:00:00:00:18:c7";
    /** The agent's UDP source port. */
    public static final int SOURCE_PORT = 6343;

    private final CaptureWriter writer;
    private final int interfaceId;
    private final long sourceMac;
    private final InetAddress source;
    private final long epochOffsetNanos;
    private long written;

    /**
     * @param writer           a capture whose interface {@code interfaceId} is Ethernet
     * @param interfaceId      the interface the frames go on
     * @param sourceMac        the switch's router MAC
     * @param agentAddress     the agent address (the frames' IP source)
     * @param epochOffsetNanos added to the scheduler's time for the frames' timestamps
     */
    public PcapSflowSink(CaptureWriter writer, int interfaceId, long sourceMac, String agentAddress,
                         long epochOffsetNanos) {
        this.writer = writer;
        this.interfaceId = interfaceId;
        this.sourceMac = sourceMac;
        InetAddress a = SflowTables.address(agentAddress);
        this.source = a == null ? InetAddress.getLoopbackAddress() : a;
        this.epochOffsetNanos = epochOffsetNanos;
    }

    @Override
    public void send(SflowConfig.Collector collector, byte[] datagram, long nowNanos) {
        InetAddress dst = SflowTables.address(collector.ip());
        ByteBuf frame = frame(sourceMac, source, dst, collector.port(), datagram);
        try {
            writer.write(interfaceId, nowNanos + epochOffsetNanos, frame, "sFlow to " + collector.name());
            written++;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the sFlow capture", e);
        } finally {
            frame.release();
        }
    }

    /** @return frames written */
    public long written() {
        return written;
    }

    /**
     * The Ethernet/IP/UDP frame that carries {@code payload} from {@code src} to {@code dst}:{@code port}
     * (IPv4 when both addresses are, else IPv6 with IPv4 addresses mapped), checksums filled in.
     */
    public static ByteBuf frame(long srcMac, InetAddress src, InetAddress dst, int port, byte[] payload) {
        boolean v4 = src instanceof Inet4Address && dst instanceof Inet4Address;
        byte[] s = v4 ? src.getAddress() : sixteen(src);
        byte[] d = v4 ? dst.getAddress() : sixteen(dst);
        int udpLength = 8 + payload.length;
        ByteBuf b = Unpooled.buffer(14 + (v4 ? 20 : 40) + udpLength);
        b.writeMedium((int) (COLLECTOR_MAC >>> 24)).writeMedium((int) COLLECTOR_MAC);
        b.writeMedium((int) (srcMac >>> 24)).writeMedium((int) srcMac);
        b.writeShort(v4 ? 0x0800 : 0x86DD);
        int ip = b.writerIndex();
        if (v4) {
            b.writeByte(0x45).writeByte(0).writeShort(20 + udpLength).writeShort(0).writeShort(0x4000)
                .writeByte(64).writeByte(17).writeShort(0).writeBytes(s).writeBytes(d);
            b.setShort(ip + 10, ~sum(b, ip, 20, 0) & 0xFFFF);
        } else {
            b.writeInt(0x6000_0000).writeShort(udpLength).writeByte(17).writeByte(64).writeBytes(s).writeBytes(d);
        }
        int udp = b.writerIndex();
        b.writeShort(SOURCE_PORT).writeShort(port).writeShort(udpLength).writeShort(0).writeBytes(payload);
        long pseudo = sum(b, ip + (v4 ? 12 : 8), v4 ? 8 : 32, 17 + udpLength);
        int checksum = ~sum(b, udp, udpLength, pseudo) & 0xFFFF;
        b.setShort(udp + 6, checksum == 0 ? 0xFFFF : checksum);
        return b;
    }

    private static byte[] sixteen(InetAddress a) {
        byte[] raw = a.getAddress();
        if (raw.length == 16) {
            return raw;
        }
        byte[] m = new byte[16];
        m[10] = (byte) 0xFF;
        m[11] = (byte) 0xFF;
        System.arraycopy(raw, 0, m, 12, 4);
        return m;
    }

    /** The ones' complement sum (RFC 1071) of {@code length} bytes at {@code at}, plus {@code initial}, folded. */
    private static int sum(ByteBuf b, int at, int length, long initial) {
        long sum = initial;
        for (int i = 0; i + 1 < length; i += 2) {
            sum += b.getUnsignedShort(at + i);
        }
        if (length % 2 == 1) {
            sum += (b.getUnsignedByte(at + length - 1) << 8);
        }
        while (sum >> 16 != 0) {
            sum = (sum & 0xFFFF) + (sum >> 16);
        }
        return (int) sum;
    }
}
