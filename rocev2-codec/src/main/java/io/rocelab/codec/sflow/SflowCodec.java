package io.rocelab.codec.sflow;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.Inet4Address;
import java.net.Inet6Address;

/**
 * Writes sFlow version 5 datagrams (sflow.org {@code sflow_version_5.txt}) in XDR (RFC 4506:
 * big-endian 32-bit words, 64-bit hypers, variable-length opaque data as a length and the bytes
 * padded to a multiple of 4). Reading is {@link SflowDecoder}'s.
 *
 * <p>Layout: {@code version (5), agent_address (type 1 + 4 bytes IPv4, or type 2 + 16 bytes IPv6),
 * sub_agent_id, sequence_number, uptime (ms), samples<>}; each sample and each record is its
 * {@code data_format} ({@code enterprise << 12 | format}) and its length-prefixed bytes.
 */
public final class SflowCodec {
    /** The datagram version this codec reads and writes. */
    public static final int VERSION = 5;
    /** The collector's UDP port by default (sFlow v5; SONiC's {@code SFLOW_COLLECTOR collector_port} default). */
    public static final int DEFAULT_PORT = 6343;
    /** {@code address_type} IPv4. */
    public static final int ADDRESS_IPV4 = 1;
    /** {@code address_type} IPv6. */
    public static final int ADDRESS_IPV6 = 2;
    /** {@code flow_sample}: enterprise 0, format 1. */
    public static final int FLOW_SAMPLE = 1;
    /** {@code counters_sample}: enterprise 0, format 2. */
    public static final int COUNTER_SAMPLE = 2;
    /** {@code sampled_header}: flow record enterprise 0, format 1. */
    public static final int RAW_PACKET_HEADER = 1;
    /** {@code if_counters}: counter record enterprise 0, format 1. */
    public static final int GENERIC_INTERFACE_COUNTERS = 1;
    /** {@code ethernet_counters}: counter record enterprise 0, format 2. */
    public static final int ETHERNET_INTERFACE_COUNTERS = 2;
    /** {@code header_protocol} ETHERNET-ISO88023. */
    public static final int HEADER_ETHERNET = 1;
    /** A 32-bit counter the agent does not have (sFlow v5: "set to the maximum value"). */
    public static final long UNKNOWN = 0xFFFF_FFFFL;
    /** A 64-bit counter the agent does not have. */
    public static final long UNKNOWN64 = -1L;
    /** {@code source_id} type of an interface: ifIndex (0) in the top byte. */
    public static final int SOURCE_IFINDEX = 0;
    /** {@code output} of a dropped packet: format 1 in the top two bits, the reason in the rest. */
    public static final long OUTPUT_DISCARDED = 0x4000_0000L;
    /** {@code output} of a packet sent to several interfaces: format 2, their number in the rest. */
    public static final long OUTPUT_MULTIPLE = 0x8000_0000L;

    private SflowCodec() {
    }

    /** @return the datagram's bytes, as sent in one UDP payload */
    public static byte[] encode(SflowDatagram d) {
        ByteBuf b = Unpooled.buffer(256);
        try {
            encode(d, b);
            byte[] out = new byte[b.readableBytes()];
            b.readBytes(out);
            return out;
        } finally {
            b.release();
        }
    }

    /** Writes the datagram at the buffer's writer index. */
    public static void encode(SflowDatagram d, ByteBuf b) {
        b.writeInt(VERSION);
        if (d.agent() instanceof Inet4Address) {
            b.writeInt(ADDRESS_IPV4);
        } else if (d.agent() instanceof Inet6Address) {
            b.writeInt(ADDRESS_IPV6);
        } else {
            throw new IllegalArgumentException("agent address " + d.agent() + " is neither IPv4 nor IPv6");
        }
        b.writeBytes(d.agent().getAddress());
        b.writeInt((int) d.subAgentId());
        b.writeInt((int) d.sequence());
        b.writeInt((int) d.uptimeMillis());
        b.writeInt(d.samples().size());
        for (SflowSample s : d.samples()) {
            b.writeInt(s.dataFormat());
            int lengthAt = b.writerIndex();
            b.writeInt(0);
            sampleBody(s, b);
            b.setInt(lengthAt, b.writerIndex() - lengthAt - 4);
        }
    }

    /** @return the bytes {@code s} takes in a datagram, its format and length words included */
    public static int encodedLength(SflowSample s) {
        ByteBuf b = Unpooled.buffer(256);
        try {
            b.writeLong(0);
            sampleBody(s, b);
            return b.readableBytes();
        } finally {
            b.release();
        }
    }

    private static void sampleBody(SflowSample s, ByteBuf b) {
        if (s instanceof FlowSample f) {
            flowSample(f, b);
        } else if (s instanceof CounterSample c) {
            counterSample(c, b);
        } else {
            b.writeBytes(((OpaqueSample) s).data());
        }
    }

    private static void flowSample(FlowSample f, ByteBuf b) {
        b.writeInt((int) f.sequence());
        b.writeInt((int) f.sourceId());
        b.writeInt((int) f.samplingRate());
        b.writeInt((int) f.samplePool());
        b.writeInt((int) f.drops());
        b.writeInt((int) f.input());
        b.writeInt((int) f.output());
        b.writeInt(f.records().size());
        for (FlowRecord r : f.records()) {
            b.writeInt(r.dataFormat());
            int lengthAt = b.writerIndex();
            b.writeInt(0);
            if (r instanceof RawPacketHeader h) {
                b.writeInt(h.protocol());
                b.writeInt((int) h.frameLength());
                b.writeInt((int) h.stripped());
                opaque(b, h.header());
            } else {
                b.writeBytes(((OpaqueRecord) r).data());
            }
            b.setInt(lengthAt, b.writerIndex() - lengthAt - 4);
        }
    }

    private static void counterSample(CounterSample c, ByteBuf b) {
        b.writeInt((int) c.sequence());
        b.writeInt((int) c.sourceId());
        b.writeInt(c.records().size());
        for (CounterRecord r : c.records()) {
            b.writeInt(r.dataFormat());
            int lengthAt = b.writerIndex();
            b.writeInt(0);
            if (r instanceof GenericInterfaceCounters g) {
                b.writeInt((int) g.ifIndex());
                b.writeInt((int) g.ifType());
                b.writeLong(g.ifSpeed());
                b.writeInt((int) g.ifDirection());
                b.writeInt((int) g.ifStatus());
                b.writeLong(g.ifInOctets());
                b.writeInt((int) g.ifInUcastPkts());
                b.writeInt((int) g.ifInMulticastPkts());
                b.writeInt((int) g.ifInBroadcastPkts());
                b.writeInt((int) g.ifInDiscards());
                b.writeInt((int) g.ifInErrors());
                b.writeInt((int) g.ifInUnknownProtos());
                b.writeLong(g.ifOutOctets());
                b.writeInt((int) g.ifOutUcastPkts());
                b.writeInt((int) g.ifOutMulticastPkts());
                b.writeInt((int) g.ifOutBroadcastPkts());
                b.writeInt((int) g.ifOutDiscards());
                b.writeInt((int) g.ifOutErrors());
                b.writeInt((int) g.ifPromiscuousMode());
            } else if (r instanceof EthernetCounters e) {
                for (long v : new long[] {e.alignmentErrors(), e.fcsErrors(), e.singleCollisionFrames(),
                    e.multipleCollisionFrames(), e.sqeTestErrors(), e.deferredTransmissions(),
                    e.lateCollisions(), e.excessiveCollisions(), e.internalMacTransmitErrors(),
                    e.carrierSenseErrors(), e.frameTooLongs(), e.internalMacReceiveErrors(),
                    e.symbolErrors()}) {
                    b.writeInt((int) v);
                }
            } else {
                b.writeBytes(((OpaqueRecord) r).data());
            }
            b.setInt(lengthAt, b.writerIndex() - lengthAt - 4);
        }
    }

    /** XDR variable-length opaque: the length, the bytes, zeros to a multiple of 4. */
    private static void opaque(ByteBuf b, byte[] data) {
        b.writeInt(data.length);
        b.writeBytes(data);
        b.writeZero((4 - data.length % 4) % 4);
    }
}
