package io.rocelab.codec.sflow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.net.InetAddress;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The sFlow v5 codec against bytes laid out by hand from sflow_version_5.txt, round trips, and malformed input. */
class SflowCodecTest {

    private static SflowDatagram small() throws Exception {
        FlowSample flow = new FlowSample(1, 5, 256, 512, 0, 5, 0,
            List.of(new RawPacketHeader(SflowCodec.HEADER_ETHERNET, 64, 4, new byte[] {1, 2, 3, 4, 5, 6})));
        CounterSample counters = new CounterSample(3, 5,
            List.of(new EthernetCounters(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)));
        return new SflowDatagram(InetAddress.getByName("10.0.0.1"), 0, 7, 1000, List.of(flow, counters));
    }

    /** Every word written out from the specification's XDR, by hand. */
    private static final String GOLDEN = String.join("",
        "00000005", "00000001", "0a000001", "00000000", "00000007", "000003e8", "00000002",
        // flow_sample: data_format 1, 64 bytes: seq, source_id, rate, pool, drops, input, output, 1 record
        "00000001", "00000040", "00000001", "00000005", "00000100", "00000200", "00000000", "00000005",
        "00000000", "00000001",
        // sampled_header: format 1, 24 bytes: Ethernet, frame_length 64, stripped 4, 6 bytes padded to 8
        "00000001", "00000018", "00000001", "00000040", "00000004", "00000006", "0102030405060000",
        // counters_sample: data_format 2, 72 bytes: seq, source_id, 1 record
        "00000002", "00000048", "00000003", "00000005", "00000001",
        // ethernet_counters: format 2, 52 bytes, 13 counters
        "00000002", "00000034", "00000001", "00000002", "00000003", "00000004", "00000005", "00000006",
        "00000007", "00000008", "00000009", "0000000a", "0000000b", "0000000c", "0000000d");

    @Test
    void encodesTheSpecificationsLayout() throws Exception {
        assertEquals(GOLDEN, HexFormat.of().formatHex(SflowCodec.encode(small())));
    }

    @Test
    void decodesTheSpecificationsLayout() throws Exception {
        SflowDecoder d = new SflowDecoder();
        assertEquals(small(), d.decode(HexFormat.of().parseHex(GOLDEN)));
        assertEquals(1, d.accepted());
        assertEquals(0, d.dropped());
    }

    @Test
    void genericInterfaceCountersAndIpv6RoundTrip() throws Exception {
        GenericInterfaceCounters g = new GenericInterfaceCounters(1, 6, 100_000_000_000L, 1, 3, 1L << 40, 0xFFFF_FFFEL,
            SflowCodec.UNKNOWN, SflowCodec.UNKNOWN, 4, 5, SflowCodec.UNKNOWN, 123_456_789_012L, 7, 8, 9, 10, 0, 1);
        SflowDatagram d = new SflowDatagram(InetAddress.getByName("fc00::1"), 3, 0xFFFF_FFFFL, 0x8000_0000L,
            List.of(new CounterSample(9, 17, List.of(g)),
                new OpaqueSample(SflowCodec.FLOW_SAMPLE + 2, new byte[] {0, 0, 0, 1}),
                new FlowSample(2, 1, 1000, 2000, 0, 1, SflowCodec.OUTPUT_MULTIPLE | 3,
                    List.of(new OpaqueRecord(1001, new byte[8])))));
        byte[] bytes = SflowCodec.encode(d);
        assertEquals(4 + 4 + 16 + 12 + 4 + (8 + 12 + 8 + GenericInterfaceCounters.LENGTH) + 12 + (8 + 32 + 16),
            bytes.length);
        assertEquals(d, new SflowDecoder().decode(bytes));
        byte[] again = SflowCodec.encode(new SflowDecoder().decode(bytes));
        assertArrayEquals(bytes, again);
    }

    @Test
    void encodedLengthIsWhatTheSampleTakes() throws Exception {
        for (SflowSample s : small().samples()) {
            SflowDatagram one = new SflowDatagram(InetAddress.getByName("10.0.0.1"), 0, 0, 0, List.of(s));
            assertEquals(SflowCodec.encode(one).length - 28, SflowCodec.encodedLength(s));
        }
    }

    @Test
    void malformedInputIsACountedDropNeverAThrow() throws Exception {
        SflowDecoder d = new SflowDecoder();
        byte[] good = HexFormat.of().parseHex(GOLDEN);
        // every truncation
        for (int n = 0; n < good.length; n++) {
            assertNull(d.decode(java.util.Arrays.copyOf(good, n)), "truncated to " + n);
        }
        // a wrong version, an unknown address type, a sample length past the end
        byte[] v4 = good.clone();
        v4[3] = 4;
        assertNull(d.decode(v4));
        byte[] type = good.clone();
        type[7] = 3;
        assertNull(d.decode(type));
        byte[] longSample = good.clone();
        longSample[32 + 2] = 0x10;
        assertNull(d.decode(longSample));
        assertNotNull(d.lastError());
        long drops = d.dropped();
        assertEquals(good.length + 3, drops);
        // random bytes and random flips: no exception escapes
        Random r = new Random(31);
        for (int i = 0; i < 20_000; i++) {
            byte[] b = good.clone();
            b[r.nextInt(b.length)] = (byte) r.nextInt(256);
            d.decode(b);
            byte[] junk = new byte[r.nextInt(200)];
            r.nextBytes(junk);
            d.decode(junk);
        }
        assertEquals(good.length + 3 + 40_000, d.accepted() + d.dropped());
    }
}
