package io.rocelab.codec.capture;

import io.rocelab.codec.capture.TestCaptures.Packet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.rocelab.codec.capture.TestCaptures.readAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reader against files built byte by byte ({@link CaptureBytes}): every pcap magic and byte
 * order, and the pcapng features the writer never produces.
 */
class CaptureReaderFormatsTest {

    private static final ByteOrder BE = ByteOrder.BIG_ENDIAN;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final byte[] FRAME = {0x0c, 0x42, (byte) 0xa1, 0, 0, 2, 9};

    @TempDir
    Path dir;

    private Path file(CaptureBytes bytes) throws IOException {
        return Files.write(Files.createTempFile(dir, "capture", ".bin"), bytes.toByteArray());
    }

    private static Packet packet(int interfaceId, long nanos, byte[] data, long originalLength, int linkType,
                                 String comment, PacketDirection direction) {
        return new Packet(interfaceId, nanos, data, originalLength, linkType, comment, direction);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"BIG_ENDIAN, false", "LITTLE_ENDIAN, false", "BIG_ENDIAN, true", "LITTLE_ENDIAN, true"})
    void pcapInEveryByteOrderAndResolution(String orderName, boolean nanoseconds) throws IOException {
        ByteOrder order = orderName.equals("BIG_ENDIAN") ? BE : LE;
        Path path = file(CaptureBytes.pcap(order, nanoseconds, 65535, LinkType.RAW)
                .pcapRecord(1_700_000_000L, 999_999, FRAME, 7)
                .pcapRecord(0xFFFF_FFFFL, 1, new byte[] {1}, 60));
        long unit = nanoseconds ? 1 : 1000;
        assertEquals(List.of(
                packet(0, 1_700_000_000_000_000_000L + 999_999 * unit, FRAME, 7, LinkType.RAW, null,
                        PacketDirection.UNKNOWN),
                packet(0, 0xFFFF_FFFFL * 1_000_000_000L + unit, new byte[] {1}, 60, LinkType.RAW, null,
                        PacketDirection.UNKNOWN)),
                readAll(path));
        try (CaptureReader reader = CaptureReader.open(path)) {
            PcapReader pcap = assertInstanceOf(PcapReader.class, reader);
            assertEquals(order, pcap.byteOrder());
            assertEquals(nanoseconds, pcap.nanosecondTimestamps());
        }
        try (PcapReader direct = PcapReader.open(path)) {
            assertEquals(2, TestCaptures.drain(direct).size());
        }
    }

    @Test
    void pcapFcsBitsAboveTheLinkTypeAreIgnored() throws IOException {
        Path path = file(CaptureBytes.pcap(LE, false, 65535, 0x1000_0000 | 0x0400_0000 | LinkType.ETHERNET));
        try (CaptureReader reader = CaptureReader.open(path)) {
            assertEquals(LinkType.ETHERNET, reader.interfaces().get(0).linkType());
        }
    }

    @Test
    void bigEndianPcapngWithOptionsUnknownBlocksAndNoEndOfOptions() throws IOException {
        CaptureBytes b = CaptureBytes.pcapng().shb(BE);
        b.block(0x0000_0004, new byte[] {0, 1, 0, 0}); // Name Resolution Block, skipped
        b.idb(LinkType.ETHERNET, 128, b.option(2, "eth0"), b.option(3, "uplink"), b.option(8, b.u64(10_000_000_000L)),
                b.option(9, b.u8(6)), b.endOfOptions());
        b.block(0x4000_0BAD, new byte[] {0, 0, 0x7e, 0x57, 1, 2, 3}); // Custom Block, skipped
        // no opt_endofopt at the end of this option list (§3.5 says readers must cope)
        b.epb(0, 1_700_000_000_000_001L, FRAME, 1514, b.option(1, "first"), b.option(2, b.u32(1)));
        b.block(0x0000_0005, new byte[20]); // Interface Statistics Block, skipped
        b.epb(0, 1_700_000_000_000_002L, new byte[] {5, 6}, 2, b.option(1, "one"), b.option(1, "two"),
                b.option(2, b.u32(2 | 0x00F0_0000)), b.endOfOptions());
        b.epb(0, 1_700_000_000_000_003L, new byte[] {7}, 1, b.option(2, b.u32(3)), b.endOfOptions());
        Path path = file(b);
        assertEquals(List.of(
                packet(0, 1_700_000_000_000_001_000L, FRAME, 1514, LinkType.ETHERNET, "first", PacketDirection.INBOUND),
                packet(0, 1_700_000_000_000_002_000L, new byte[] {5, 6}, 2, LinkType.ETHERNET, "one\ntwo",
                        PacketDirection.OUTBOUND),
                packet(0, 1_700_000_000_000_003_000L, new byte[] {7}, 1, LinkType.ETHERNET, null,
                        PacketDirection.UNKNOWN)),
                readAll(path));
        try (PcapngReader reader = PcapngReader.open(path)) {
            assertEquals(BE, reader.byteOrder());
            TestCaptures.drain(reader);
            assertEquals(List.of(new CaptureInterface(0, "eth0", "uplink", LinkType.ETHERNET, 128, 10_000_000_000L)),
                    reader.interfaces());
        }
    }

    @ParameterizedTest(name = "if_tsresol {0}")
    @CsvSource({
        // tsresol (unsigned byte), ticks, expected nanoseconds
        "-1,   1700000000123456,        1700000000123456000", // option absent: microseconds
        "0,    1700000000,              1700000000000000000",
        "3,    1700000000123,           1700000000123000000",
        "6,    1700000000123456,        1700000000123456000",
        "9,    1700000000123456789,     1700000000123456789",
        "12,   1700000000123456789,     1700000000123456",    // 10^-12: finer than a nanosecond, truncated
        "19,   18446744073709551615,    1844674407",          // 10^-19, largest unsigned 64-bit count
        "128,  1700000000,              1700000000000000000", // 2^-0
        "138,  1741,                    1700195312",          // 2^-10 = 1/1024 s: 1741/1024 s
        "158,  1073741824,              1000000000",          // 2^-30: 2^30 ticks = 1 s
        "148,  1782579200000000,        1700000000000000000", // 2^-20: 1.7e9 s * 2^20
    })
    void timestampResolutionBothPowerOfTenAndPowerOfTwo(int tsresol, String ticks, long expectedNanos)
            throws IOException {
        CaptureBytes b = CaptureBytes.pcapng().shb(LE);
        if (tsresol < 0) {
            b.idb(LinkType.ETHERNET, 0);
        } else {
            b.idb(LinkType.ETHERNET, 0, b.option(9, b.u8(tsresol)), b.endOfOptions());
        }
        b.epb(0, Long.parseUnsignedLong(ticks), FRAME, 7);
        assertEquals(expectedNanos, readAll(file(b)).get(0).timestampNanos());
    }

    @Test
    void tsoffsetAddsSeconds() throws IOException {
        CaptureBytes b = CaptureBytes.pcapng().shb(BE);
        b.idb(LinkType.ETHERNET, 0, b.option(9, b.u8(9)), b.option(14, b.u64(1_000_000_000L)), b.endOfOptions());
        b.epb(0, 5, FRAME, 7);
        assertEquals(1_000_000_000_000_000_005L, readAll(file(b)).get(0).timestampNanos());
    }

    @Test
    void eachSectionHasItsOwnByteOrderAndInterfaces() throws IOException {
        CaptureBytes b = CaptureBytes.pcapng().shb(LE);
        b.idb(LinkType.ETHERNET, 0, b.option(2, "a0"), b.endOfOptions());
        b.idb(LinkType.RAW, 0, b.option(2, "a1"), b.endOfOptions());
        b.epb(1, 10, new byte[] {1}, 1);
        b.shb(BE);
        b.idb(LinkType.IPV6, 0, b.option(2, "b0"), b.endOfOptions());
        b.epb(0, 20, new byte[] {2}, 1);
        Path path = file(b);
        assertEquals(List.of(
                packet(1, 10_000, new byte[] {1}, 1, LinkType.RAW, null, PacketDirection.UNKNOWN),
                packet(0, 20_000, new byte[] {2}, 1, LinkType.IPV6, null, PacketDirection.UNKNOWN)),
                readAll(path));
        try (PcapngReader reader = PcapngReader.open(path)) {
            reader.next().release();
            assertEquals(LE, reader.byteOrder());
            assertEquals(2, reader.interfaces().size());
            reader.next().release();
            assertEquals(BE, reader.byteOrder());
            assertEquals(List.of(new CaptureInterface(0, "b0", null, LinkType.IPV6, 0, 0)), reader.interfaces());
            assertNull(reader.next());
        }
    }

    @Test
    void aSectionOfAnotherMajorVersionIsSkipped() throws IOException {
        CaptureBytes b = CaptureBytes.pcapng().shb(LE, 2);
        b.block(0x77, new byte[] {1, 2, 3, 4}); // meaningless to a version-1 reader
        b.epb(9, 1, new byte[] {9}, 1); // would be an error in a version-1 section
        b.shb(LE);
        b.idb(LinkType.ETHERNET, 0);
        b.epb(0, 2, new byte[] {2}, 1);
        assertEquals(List.of(packet(0, 2_000, new byte[] {2}, 1, LinkType.ETHERNET, null, PacketDirection.UNKNOWN)),
                readAll(file(b)));
    }

    @Test
    void simplePacketBlocksAndObsoletePacketBlocks() throws IOException {
        CaptureBytes b = CaptureBytes.pcapng().shb(BE);
        b.idb(LinkType.ETHERNET, 4);
        b.idb(LinkType.RAW, 0);
        b.spb(6, new byte[] {1, 2, 3, 4}); // cut to the first interface's snap length of 4
        b.spb(3, new byte[] {5, 6, 7});
        b.packetBlock(1, 42, new byte[] {8, 9}, 2, b.option(1, "old"), b.option(2, b.u32(1)), b.endOfOptions());
        assertEquals(List.of(
                packet(0, 0, new byte[] {1, 2, 3, 4}, 6, LinkType.ETHERNET, null, PacketDirection.UNKNOWN),
                packet(0, 0, new byte[] {5, 6, 7}, 3, LinkType.ETHERNET, null, PacketDirection.UNKNOWN),
                packet(1, 42_000, new byte[] {8, 9}, 2, LinkType.RAW, "old", PacketDirection.INBOUND)),
                readAll(file(b)));
    }

    @Test
    void stringOptionsEndAtAZeroByteAndInvalidUtf8IsRepaired() throws IOException {
        CaptureBytes b = CaptureBytes.pcapng().shb(LE);
        b.idb(LinkType.ETHERNET, 0, b.option(2, new byte[] {'p', '0', 0, 'x'}), b.endOfOptions());
        b.epb(0, 1, FRAME, 7, b.option(1, new byte[] {'o', 'k', (byte) 0xC3}), b.endOfOptions());
        Path path = file(b);
        assertEquals("ok\uFFFD", readAll(path).get(0).comment());
        try (CaptureReader reader = CaptureReader.open(path)) {
            assertEquals("p0", reader.interfaces().get(0).name());
        }
    }

    @Test
    void anEmptyPcapngSectionHasNoPackets() throws IOException {
        try (CaptureReader reader = CaptureReader.open(file(CaptureBytes.pcapng().shb(LE)))) {
            assertNull(reader.next());
            assertNull(reader.next(), "end of file stays the end");
            assertTrue(reader.interfaces().isEmpty());
        }
    }

    @Test
    void recordsAreNettyMessagesWithValueEquality() throws IOException {
        Path path = file(CaptureBytes.pcapng().shb(LE).idb(LinkType.ETHERNET, 0).epb(0, 1, FRAME, 7));
        try (CaptureReader a = CaptureReader.open(path); CaptureReader b = CaptureReader.open(path)) {
            CaptureRecord first = a.next();
            CaptureRecord second = b.next();
            try {
                assertEquals(first, second);
                assertEquals(first.hashCode(), second.hashCode());
                CaptureRecord copy = first.copy();
                assertEquals(first, copy);
                copy.release();
                assertTrue(first.toString().contains("0c42a1000002"), first.toString());
                assertEquals(0, first.content().readerIndex());
                assertEquals(7, first.capturedLength());
            } finally {
                first.release();
                second.release();
            }
            assertTrue(first.toString().contains("released"), first.toString());
        }
    }

    @Test
    void aClosedReaderSaysSo() throws IOException {
        Path path = file(CaptureBytes.pcap(LE, false, 65535, 1));
        CaptureReader reader = CaptureReader.open(path);
        reader.close();
        reader.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, reader::next);
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }
}
