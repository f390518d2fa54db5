package io.rocelab.codec.sflow;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads sFlow version 5 datagrams ({@link SflowCodec} writes them). A datagram that is not one
 * (another version, an address type other than IPv4 or IPv6, a length that runs past its
 * container, a record shorter than its format) is dropped and counted, with the reason kept for
 * the last one: never an exception. Samples and records of formats it does not read are kept as
 * {@link OpaqueSample} and {@link OpaqueRecord}, as the specification asks a collector to skip them.
 * Counters may be read from any thread.
 */
public final class SflowDecoder {
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private volatile String lastError;

    /** Thrown inside the decoder only: the datagram is malformed. */
    private static final class Malformed extends Exception {
        Malformed(String why) {
            super(why, null, false, false);
        }
    }

    /** @return the datagram, or null if it is malformed (counted in {@link #dropped()}) */
    public SflowDatagram decode(byte[] bytes) {
        return decode(Unpooled.wrappedBuffer(bytes));
    }

    /**
     * Reads the datagram between the buffer's reader and writer index, without moving them.
     *
     * @return the datagram, or null if it is malformed (counted in {@link #dropped()})
     */
    public SflowDatagram decode(ByteBuf buf) {
        ByteBuf b = buf.duplicate();
        try {
            SflowDatagram d = datagram(b);
            accepted.incrementAndGet();
            return d;
        } catch (Malformed e) {
            dropped.incrementAndGet();
            lastError = e.getMessage();
            return null;
        }
    }

    /** @return datagrams read */
    public long accepted() {
        return accepted.get();
    }

    /** @return malformed datagrams dropped */
    public long dropped() {
        return dropped.get();
    }

    /** @return why the last malformed datagram was dropped, or null */
    public String lastError() {
        return lastError;
    }

    private static SflowDatagram datagram(ByteBuf b) throws Malformed {
        int version = u32(b, "version") == SflowCodec.VERSION ? SflowCodec.VERSION : -1;
        if (version < 0) {
            throw new Malformed("not an sFlow version 5 datagram");
        }
        long type = u32(b, "agent address type");
        byte[] address;
        if (type == SflowCodec.ADDRESS_IPV4) {
            address = bytes(b, 4, "agent address");
        } else if (type == SflowCodec.ADDRESS_IPV6) {
            address = bytes(b, 16, "agent address");
        } else {
            throw new Malformed("agent address type " + type + " is neither IPv4 (1) nor IPv6 (2)");
        }
        InetAddress agent;
        try {
            agent = InetAddress.getByAddress(address);
        } catch (UnknownHostException e) {
            throw new Malformed("agent address of " + address.length + " bytes");
        }
        long subAgent = u32(b, "sub_agent_id");
        long sequence = u32(b, "sequence_number");
        long uptime = u32(b, "uptime");
        long count = u32(b, "number of samples");
        if (count > b.readableBytes() / 8) {
            throw new Malformed(count + " samples do not fit in " + b.readableBytes() + " bytes");
        }
        List<SflowSample> samples = new ArrayList<>();
        for (long i = 0; i < count; i++) {
            int format = (int) u32(b, "sample data_format");
            ByteBuf body = opaque(b, "sample");
            samples.add(switch (format) {
                case SflowCodec.FLOW_SAMPLE -> flowSample(body);
                case SflowCodec.COUNTER_SAMPLE -> counterSample(body);
                default -> new OpaqueSample(format, bytes(body, body.readableBytes(), "sample"));
            });
        }
        if (b.isReadable()) {
            throw new Malformed(b.readableBytes() + " bytes after the last sample");
        }
        return new SflowDatagram(agent, subAgent, sequence, uptime, samples);
    }

    private static FlowSample flowSample(ByteBuf b) throws Malformed {
        long sequence = u32(b, "flow sample sequence_number");
        long source = u32(b, "source_id");
        long rate = u32(b, "sampling_rate");
        long pool = u32(b, "sample_pool");
        long drops = u32(b, "drops");
        long input = u32(b, "input");
        long output = u32(b, "output");
        long count = u32(b, "number of flow records");
        if (count > b.readableBytes() / 8) {
            throw new Malformed(count + " flow records do not fit in " + b.readableBytes() + " bytes");
        }
        List<FlowRecord> records = new ArrayList<>();
        for (long i = 0; i < count; i++) {
            int format = (int) u32(b, "flow record data_format");
            ByteBuf body = opaque(b, "flow record");
            if (format == SflowCodec.RAW_PACKET_HEADER) {
                int protocol = (int) u32(body, "header_protocol");
                long frameLength = u32(body, "frame_length");
                long stripped = u32(body, "stripped");
                ByteBuf header = opaque(body, "header");
                records.add(new RawPacketHeader(protocol, frameLength, stripped,
                    bytes(header, header.readableBytes(), "header")));
                end(body, "raw packet header record");
            } else {
                records.add(new OpaqueRecord(format, bytes(body, body.readableBytes(), "flow record")));
            }
        }
        end(b, "flow sample");
        return new FlowSample(sequence, source, rate, pool, drops, input, output, records);
    }

    private static CounterSample counterSample(ByteBuf b) throws Malformed {
        long sequence = u32(b, "counter sample sequence_number");
        long source = u32(b, "source_id");
        long count = u32(b, "number of counter records");
        if (count > b.readableBytes() / 8) {
            throw new Malformed(count + " counter records do not fit in " + b.readableBytes() + " bytes");
        }
        List<CounterRecord> records = new ArrayList<>();
        for (long i = 0; i < count; i++) {
            int format = (int) u32(b, "counter record data_format");
            ByteBuf body = opaque(b, "counter record");
            if (format == SflowCodec.GENERIC_INTERFACE_COUNTERS) {
                need(body, GenericInterfaceCounters.LENGTH, "generic interface counters");
                records.add(new GenericInterfaceCounters(u32(body, ""), u32(body, ""), body.readLong(),
                    u32(body, ""), u32(body, ""), body.readLong(), u32(body, ""), u32(body, ""), u32(body, ""),
                    u32(body, ""), u32(body, ""), u32(body, ""), body.readLong(), u32(body, ""), u32(body, ""),
                    u32(body, ""), u32(body, ""), u32(body, ""), u32(body, "")));
                end(body, "generic interface counters");
            } else if (format == SflowCodec.ETHERNET_INTERFACE_COUNTERS) {
                need(body, EthernetCounters.LENGTH, "Ethernet interface counters");
                records.add(new EthernetCounters(u32(body, ""), u32(body, ""), u32(body, ""), u32(body, ""),
                    u32(body, ""), u32(body, ""), u32(body, ""), u32(body, ""), u32(body, ""), u32(body, ""),
                    u32(body, ""), u32(body, ""), u32(body, "")));
                end(body, "Ethernet interface counters");
            } else {
                records.add(new OpaqueRecord(format, bytes(body, body.readableBytes(), "counter record")));
            }
        }
        end(b, "counter sample");
        return new CounterSample(sequence, source, records);
    }

    private static void need(ByteBuf b, int length, String what) throws Malformed {
        if (b.readableBytes() != length) {
            throw new Malformed(what + " record of " + b.readableBytes() + " bytes, not " + length);
        }
    }

    private static void end(ByteBuf b, String what) throws Malformed {
        if (b.isReadable()) {
            throw new Malformed(b.readableBytes() + " bytes left over in a " + what);
        }
    }

    private static long u32(ByteBuf b, String what) throws Malformed {
        if (b.readableBytes() < 4) {
            throw new Malformed("the datagram ends in " + (what.isEmpty() ? "a record" : what));
        }
        return b.readUnsignedInt();
    }

    private static byte[] bytes(ByteBuf b, int n, String what) throws Malformed {
        if (b.readableBytes() < n) {
            throw new Malformed("the datagram ends in " + what);
        }
        byte[] out = new byte[n];
        b.readBytes(out);
        return out;
    }

    /** XDR variable-length opaque: its bytes as a slice (padding skipped), checked to fit. */
    private static ByteBuf opaque(ByteBuf b, String what) throws Malformed {
        long length = u32(b, what + " length");
        long padded = (length + 3) & ~3L;
        if (padded > b.readableBytes()) {
            throw new Malformed(what + " of " + length + " bytes runs past the " + b.readableBytes() + " left");
        }
        ByteBuf slice = b.readSlice((int) length);
        b.skipBytes((int) (padded - length));
        return slice;
    }
}
