package io.rocelab.codec.capture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Truncated and corrupt files: each must give a {@link CaptureFormatException} that names the
 * offset and the problem, never another exception or a leaked buffer ({@link ReadOutcome} checks
 * both), and never a hang (the time limit on every test).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CorruptCaptureTest {

    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final byte[] FRAME = {1, 2, 3, 4, 5};

    @TempDir
    Path dir;

    @Test
    void pcapngTruncatedAtEveryLength() throws IOException {
        Path file = dir.resolve("lab.pcapng");
        PcapngWriterTest.writeLab(file, 12);
        byte[] bytes = Files.readAllBytes(file);
        // block boundaries, and how many packets lie wholly before each
        Map<Integer, Integer> packetsBefore = new HashMap<>();
        ByteBuffer b = ByteBuffer.wrap(bytes).order(LE);
        int packets = 0;
        for (int pos = 0; pos < bytes.length; ) {
            packets += b.getInt(pos) == Pcapng.ENHANCED_PACKET_BLOCK ? 1 : 0;
            pos += b.getInt(pos + 4);
            packetsBefore.put(pos, packets);
        }
        assertEquals(12, packets);
        for (int length = 0; length < bytes.length; length++) {
            ReadOutcome outcome = ReadOutcome.of(Arrays.copyOf(bytes, length));
            Integer whole = packetsBefore.get(length);
            if (whole != null) {
                assertNull(outcome.error(), "cut at block boundary " + length);
                assertEquals(whole, outcome.packets(), "cut at block boundary " + length);
            } else {
                String message = outcome.expectError().getMessage();
                assertTrue(length < 4 ? message.contains("not a pcap or pcapng file") : message.contains("truncated"),
                        "cut at " + length + ": " + message);
            }
        }
    }

    @Test
    void pcapTruncatedAtEveryLength() throws IOException {
        Path file = dir.resolve("port.pcap");
        int[] lengths = {1, 2, 3, 60, 61, 62, 63, 1514};
        Map<Integer, Integer> packetsBefore = new HashMap<>();
        int end = 24;
        packetsBefore.put(end, 0);
        try (PcapWriter writer = PcapWriter.create(file)) {
            writer.addInterface("p", LinkType.ETHERNET, 0, 0, null);
            for (int i = 0; i < lengths.length; i++) {
                writer.write(0, 1_000L * i, io.netty.buffer.Unpooled.wrappedBuffer(new byte[lengths[i]]), null);
                end += 16 + lengths[i];
                packetsBefore.put(end, i + 1);
            }
        }
        byte[] bytes = Files.readAllBytes(file);
        assertEquals(end, bytes.length);
        for (int length = 0; length < bytes.length; length++) {
            ReadOutcome outcome = ReadOutcome.of(Arrays.copyOf(bytes, length));
            Integer whole = packetsBefore.get(length);
            if (whole != null) {
                assertNull(outcome.error(), "cut at record boundary " + length);
                assertEquals(whole, outcome.packets());
            } else {
                String message = outcome.expectError().getMessage();
                assertTrue(length < 4 ? message.contains("not a pcap or pcapng file") : message.contains("truncated"),
                        "cut at " + length + ": " + message);
            }
        }
    }

    @Test
    void neitherFormatIsNamedByItsMagic() throws IOException {
        assertMessage(ReadOutcome.of("hello, world\n".getBytes(StandardCharsets.US_ASCII)),
                0, "not a pcap or pcapng file (magic 0x68656c6c)");
        assertMessage(ReadOutcome.of(new byte[0]), 0, "not a pcap or pcapng file");
        // a pcapng file mangled by an ASCII-mode transfer (\r\n -> \n) is not recognised either
        assertMessage(ReadOutcome.of(new byte[] {0x0a, 0x0d, 0x0a, 0, 0, 0, 0, 0}), 0, "magic 0x0a0d0a00");
    }

    @Test
    void theFormatSpecificOpenersRefuseTheOtherFormat() throws IOException {
        Path pcap = Files.write(dir.resolve("a.pcap"), CaptureBytes.pcap(LE, false, 65535, 1).toByteArray());
        Path pcapng = Files.write(dir.resolve("a.pcapng"), CaptureBytes.pcapng().shb(LE).toByteArray());
        CaptureFormatException e1 = assertThrows(CaptureFormatException.class, () -> PcapngReader.open(pcap));
        assertTrue(e1.getMessage().contains("not a pcapng file (magic 0xd4c3b2a1"), e1.getMessage());
        CaptureFormatException e2 = assertThrows(CaptureFormatException.class, () -> PcapReader.open(pcapng));
        assertTrue(e2.getMessage().contains("not a pcap file (magic 0x0a0d0d0a)"), e2.getMessage());
    }

    @Test
    void blockLengthTooSmall() throws IOException {
        byte[] bytes = labWithOnePacket();
        int idb = shbLength(bytes);
        putInt(bytes, idb + 4, 8);
        assertMessage(ReadOutcome.of(bytes), idb + 4, "Interface Description Block has block total length 8, less than the 20");
        // a generic (skipped) block shorter than a bodiless block
        bytes = labWithOnePacket();
        putInt(bytes, idb, 0x0BAD);
        putInt(bytes, idb + 4, 4);
        assertMessage(ReadOutcome.of(bytes), idb + 4, "block of type 0x00000bad has block total length 4, less than the 12");
        // and a Section Header Block too short for its fixed fields
        bytes = labWithOnePacket();
        putInt(bytes, 4, 24);
        assertMessage(ReadOutcome.of(bytes), 4, "Section Header Block has block total length 24, less than the 28");
    }

    @Test
    void blockLengthNotAMultipleOfFour() throws IOException {
        byte[] bytes = labWithOnePacket();
        int epb = shbLength(bytes) + blockLength(bytes, shbLength(bytes));
        putInt(bytes, epb + 4, blockLength(bytes, epb) + 2);
        assertMessage(ReadOutcome.of(bytes), epb + 4, "not a multiple of 4");
    }

    @Test
    void blockLengthLargerThanTheFile() throws IOException {
        byte[] bytes = labWithOnePacket();
        int epb = shbLength(bytes) + blockLength(bytes, shbLength(bytes));
        putInt(bytes, epb + 4, bytes.length - epb + 4);
        assertMessage(ReadOutcome.of(bytes), epb + 4, "truncated Enhanced Packet Block");
        putInt(bytes, epb + 4, 0xFFFF_FFF0);
        assertMessage(ReadOutcome.of(bytes), epb + 4, "more than the 67108864 bytes this reader accepts");
    }

    @Test
    void trailingBlockLengthDiffers() throws IOException {
        byte[] bytes = labWithOnePacket();
        putInt(bytes, bytes.length - 4, 1234);
        assertMessage(ReadOutcome.of(bytes), bytes.length - 4, "ends with block total length 1234 but starts with");
        // the same check on a block that is skipped
        bytes = CaptureBytes.pcapng().shb(LE).block(0x0000_0004, new byte[8]).toByteArray();
        putInt(bytes, bytes.length - 4, 16);
        assertMessage(ReadOutcome.of(bytes), bytes.length - 4, "ends with block total length 16 but starts with 20");
    }

    @Test
    void badByteOrderMagic() throws IOException {
        byte[] bytes = labWithOnePacket();
        putInt(bytes, 8, 0x12345678);
        assertMessage(ReadOutcome.of(bytes), 8, "byte-order magic 0x78563412");
    }

    @Test
    void packetOfAnInterfaceThatWasNeverDescribed() throws IOException {
        CaptureBytes b = CaptureBytes.pcapng().shb(LE).idb(LinkType.ETHERNET, 0);
        int epb = b.size();
        b.epb(5, 1, FRAME, 5);
        assertMessage(ReadOutcome.of(b.toByteArray()), epb + 8, "refers to interface 5 but its section describes only 1");
        b = CaptureBytes.pcapng().shb(LE);
        epb = b.size();
        b.epb(0, 1, FRAME, 5);
        assertMessage(ReadOutcome.of(b.toByteArray()), epb + 8, "no Interface Description Block precedes it");
        b = CaptureBytes.pcapng().shb(LE);
        b.spb(5, FRAME);
        assertMessage(ReadOutcome.of(b.toByteArray()), 36, "Simple Packet Block refers to interface 0");
    }

    @Test
    void capturedLengthRunsPastItsBlock() throws IOException {
        CaptureBytes b = CaptureBytes.pcapng().shb(LE).idb(LinkType.ETHERNET, 0);
        int epb = b.size();
        b.epb(0, 1, FRAME, 5);
        byte[] bytes = b.toByteArray();
        putInt(bytes, epb + 20, 9);
        assertMessage(ReadOutcome.of(bytes), epb + 20, "captured length 9 runs past the end of the block, which has room for 8");
        putInt(bytes, epb + 20, -1);
        assertMessage(ReadOutcome.of(bytes), epb + 20, "captured length 4294967295 runs past");
    }

    @Test
    void optionLongerThanWhatIsLeftOfTheBlock() throws IOException {
        CaptureBytes b = CaptureBytes.pcapng().shb(LE).idb(LinkType.ETHERNET, 0);
        int epb = b.size();
        b.epb(0, 1, FRAME, 5, b.option(1, "hi"), b.endOfOptions());
        byte[] bytes = b.toByteArray();
        int option = epb + 28 + 8;
        bytes[option + 2] = 100; // opt_comment length 2 -> 100
        assertMessage(ReadOutcome.of(bytes), option, "Enhanced Packet Block option 1 claims 100 bytes but only 8 are left");
    }

    @Test
    void fixedLengthOptionOfTheWrongLength() throws IOException {
        CaptureBytes b = CaptureBytes.pcapng().shb(LE);
        int idb = b.size();
        b.idb(LinkType.ETHERNET, 0, b.option(9, new byte[] {9, 0}), b.endOfOptions());
        b.epb(0, 1, FRAME, 5);
        assertMessage(ReadOutcome.of(b.toByteArray()), idb + 16, "if_tsresol (9) has length 2 instead of 1");
    }

    @Test
    void timestampBeyondWhatNanosecondsCanHold() throws IOException {
        CaptureBytes b = CaptureBytes.pcapng().shb(LE).idb(LinkType.ETHERNET, 0, CaptureBytes.pcapng().option(9, new byte[] {9}));
        int epb = b.size();
        b.epb(0, -1L, FRAME, 5);
        assertMessage(ReadOutcome.of(b.toByteArray()), epb + 12, "timestamp 18446744073709551615 at 10^-9 s is out of range");
    }

    @Test
    void pcapHeaderAndRecordProblems() throws IOException {
        byte[] bytes = CaptureBytes.pcap(LE, true, 65535, 1).pcapRecord(1, 2, FRAME, 5).toByteArray();
        bytes[4] = 3; // version 3.4
        assertMessage(ReadOutcome.of(bytes), 4, "unsupported pcap version 3.4");

        bytes = CaptureBytes.pcap(LE, true, 65535, 1).pcapRecord(1, 2, FRAME, 5).toByteArray();
        putInt(bytes, 24 + 8, 0xFFFF_FFF0);
        assertMessage(ReadOutcome.of(bytes), 32, "captured length 4294967280 is larger than any packet");

        // a snap length of 2^32-1 in the header does not make a 2.5 GB record acceptable
        bytes = CaptureBytes.pcap(LE, true, -1, 1).pcapRecord(1, 2, FRAME, 5).toByteArray();
        putInt(bytes, 24 + 8, 0x9900_0005);
        assertMessage(ReadOutcome.of(bytes), 32, "captured length 2566914053 is larger than any packet a capture holds (262144)");
        putInt(bytes, 24 + 8, 200_000);
        assertMessage(ReadOutcome.of(bytes), 40, "truncated packet data of the record at offset 24: it needs 200000 bytes");

        bytes = CaptureBytes.pcap(LE, true, 65535, 1).pcapRecord(1, 2, FRAME, 5).toByteArray();
        putInt(bytes, 24 + 8, 6);
        assertMessage(ReadOutcome.of(bytes), 40, "truncated packet data of the record at offset 24: it needs 6 bytes but the file ends after 5");
    }

    @Test
    void afterAFormatErrorTheReaderKeepsReportingIt() throws IOException {
        byte[] bytes = labWithOnePacket();
        putInt(bytes, bytes.length - 4, 1234);
        Path file = Files.write(dir.resolve("bad.pcapng"), bytes);
        try (CaptureReader reader = CaptureReader.open(file)) {
            CaptureFormatException first = assertThrows(CaptureFormatException.class, reader::next);
            CaptureFormatException second = assertThrows(CaptureFormatException.class, reader::next);
            assertSame(first, second);
            assertEquals(bytes.length - 4, first.offset());
            assertEquals(file.toString(), first.source());
        }
    }

    // ---- helpers ------------------------------------------------------------------------------

    private static byte[] labWithOnePacket() {
        CaptureBytes b = CaptureBytes.pcapng().shb(LE);
        b.idb(LinkType.ETHERNET, 0, b.option(2, "eth0"), b.endOfOptions());
        b.epb(0, 1, FRAME, 5, b.option(1, "hello"), b.endOfOptions());
        return b.toByteArray();
    }

    private static int blockLength(byte[] bytes, int offset) {
        return ByteBuffer.wrap(bytes).order(LE).getInt(offset + 4);
    }

    private static int shbLength(byte[] bytes) {
        return blockLength(bytes, 0);
    }

    private static void putInt(byte[] bytes, int offset, int value) {
        ByteBuffer.wrap(bytes).order(LE).putInt(offset, value);
    }

    private static void assertMessage(ReadOutcome outcome, long offset, String expected) {
        CaptureFormatException e = outcome.expectError();
        if (!e.getMessage().contains(expected)) {
            fail("message should contain \"" + expected + "\" but is: " + e.getMessage());
        }
        assertEquals(offset, e.offset(), e.getMessage());
        assertTrue(e.getMessage().contains("at offset " + offset + " "), e.getMessage());
    }
}
