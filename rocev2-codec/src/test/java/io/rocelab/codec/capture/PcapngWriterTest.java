package io.rocelab.codec.capture;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.capture.TestCaptures.Packet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.rocelab.codec.capture.TestCaptures.readAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** pcapng written by {@link PcapngWriter} and read back by {@link CaptureReader}. */
class PcapngWriterTest {

    static final String[] COMMENTS = {
        null,
        "ECN CE marked",
        "dropped: buffer full",
        "PFC pause prio 3 — file d'attente pleine ✓",
        "拥塞通知 (CNP) 🚦",
        "",
        "x",
        "ab",
        "abc",
    };

    @TempDir
    Path dir;

    /** A lab-like file: three ports, odd frame lengths, comments, directions, nanosecond times. */
    static List<Packet> writeLab(Path file, int frames) throws IOException {
        Random random = new Random(2024);
        List<Packet> expected = new ArrayList<>();
        try (PcapngWriter writer = PcapngWriter.create(file)) {
            assertEquals(0, writer.addInterface("leaf1:eth1", LinkType.ETHERNET, 0, 100_000_000_000L, "to host h1"));
            assertEquals(1, writer.addInterface("leaf1:eth2", LinkType.ETHERNET, 0, 25_000_000_000L,
                    "vers l'hôte h2 — ü"));
            assertEquals(2, writer.addInterface("spine1:ip0", LinkType.RAW, 0, 0, null));
            long t = 1_700_000_000_123_456_789L;
            for (int i = 0; i < frames; i++) {
                int length = 1 + i;
                byte[] data = new byte[length];
                random.nextBytes(data);
                int port = i % 3;
                String comment = COMMENTS[i % COMMENTS.length];
                PacketDirection direction = PacketDirection.values()[i % 3];
                t += random.nextInt(1_000_000) + 1;
                ByteBuf frame = Unpooled.wrappedBuffer(data);
                writer.write(port, t, frame, comment, direction);
                assertEquals(0, frame.readerIndex());
                assertEquals(1, frame.refCnt());
                frame.release();
                int linkType = port == 2 ? LinkType.RAW : LinkType.ETHERNET;
                expected.add(new Packet(port, t, data, length, linkType, comment, direction));
            }
        }
        return expected;
    }

    @Test
    void roundTripKeepsEveryField() throws IOException {
        Path file = dir.resolve("lab.pcapng");
        List<Packet> expected = writeLab(file, 67);
        assertEquals(expected, readAll(file));
        try (CaptureReader reader = CaptureReader.open(file)) {
            assertInstanceOf(PcapngReader.class, reader);
            assertEquals(3, reader.interfaces().size(), "open reads the interfaces ahead of the first packet");
            TestCaptures.drain(reader);
            assertEquals(List.of(
                    new CaptureInterface(0, "leaf1:eth1", "to host h1", LinkType.ETHERNET, 0, 100_000_000_000L),
                    new CaptureInterface(1, "leaf1:eth2", "vers l'hôte h2 — ü", LinkType.ETHERNET, 0, 25_000_000_000L),
                    new CaptureInterface(2, "spine1:ip0", null, LinkType.RAW, 0, 0)),
                    reader.interfaces());
        }
    }

    /** Walks the file independently of the reader: every block's lengths and padding (§3.1, §3.6.2). */
    @Test
    void blocksAreLittleEndianAlignedAndCarryTheirLengthTwice() throws IOException {
        Path file = dir.resolve("layout.pcapng");
        writeLab(file, 20);
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0, bytes.limit() % 4);
        assertEquals(0x1A2B3C4D, bytes.getInt(8), "byte-order magic, little-endian");
        int pos = 0;
        int[] counts = new int[8];
        while (pos < bytes.limit()) {
            int type = bytes.getInt(pos);
            int total = bytes.getInt(pos + 4);
            assertEquals(0, total % 4, "block at " + pos);
            assertEquals(total, bytes.getInt(pos + total - 4), "trailing length of block at " + pos);
            if (type == 6) {
                int captured = bytes.getInt(pos + 20);
                for (int p = pos + 28 + captured; p < pos + 28 + Pcapng.pad4(captured); p++) {
                    assertEquals(0, bytes.get(p), "padding byte at " + p);
                }
            }
            counts[type == 0x0A0D0D0A ? 0 : type]++;
            pos += total;
        }
        assertEquals(pos, bytes.limit());
        assertEquals(1, counts[0], "one Section Header Block");
        assertEquals(3, counts[1], "three Interface Description Blocks");
        assertEquals(20, counts[6], "twenty Enhanced Packet Blocks");
    }

    @Test
    void interfaceOptionsAreEncodedAsTheDraftSays() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PcapngWriter writer = new PcapngWriter(out)) {
            writer.addInterface("p0", LinkType.ETHERNET, 9216, 400_000_000_000L, null);
        }
        ByteBuffer b = ByteBuffer.wrap(out.toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
        int idb = b.getInt(4); // first block is the SHB; the IDB follows it
        assertEquals(1, b.getInt(idb));
        assertEquals(LinkType.ETHERNET, b.getShort(idb + 8));
        assertEquals(9216, b.getInt(idb + 12));
        int opt = idb + 16;
        assertEquals(2, b.getShort(opt), "if_name");
        assertEquals(2, b.getShort(opt + 2));
        assertArrayEquals("p0".getBytes(StandardCharsets.UTF_8), new byte[] {b.get(opt + 4), b.get(opt + 5)});
        opt += 8;
        assertEquals(8, b.getShort(opt), "if_speed");
        assertEquals(8, b.getShort(opt + 2));
        assertEquals(400_000_000_000L, b.getLong(opt + 4));
        opt += 12;
        assertEquals(9, b.getShort(opt), "if_tsresol");
        assertEquals(1, b.getShort(opt + 2));
        assertEquals(9, b.get(opt + 4), "10^-9: nanoseconds");
        opt += 8;
        assertEquals(0, b.getInt(opt), "opt_endofopt");
        assertEquals(b.getInt(idb + 4), b.getInt(opt + 4), "trailing block length");
    }

    @Test
    void interfacesCanBeAddedAfterPackets() throws IOException {
        Path file = dir.resolve("late.pcapng");
        try (PcapngWriter writer = PcapngWriter.create(file)) {
            writer.addInterface("a", LinkType.ETHERNET, 0, 0, null);
            writer.write(0, 10, Unpooled.wrappedBuffer(new byte[] {1}), null);
            writer.addInterface("b", LinkType.ETHERNET, 0, 0, null);
            writer.write(1, 20, Unpooled.wrappedBuffer(new byte[] {2}), "late port");
        }
        assertEquals(List.of(
                new Packet(0, 10, new byte[] {1}, 1, LinkType.ETHERNET, null, PacketDirection.UNKNOWN),
                new Packet(1, 20, new byte[] {2}, 1, LinkType.ETHERNET, "late port", PacketDirection.UNKNOWN)),
                readAll(file));
    }

    @Test
    void snapLengthCutsFramesButKeepsTheirOriginalLength() throws IOException {
        Path file = dir.resolve("snap.pcapng");
        byte[] data = new byte[99];
        new Random(3).nextBytes(data);
        try (PcapngWriter writer = PcapngWriter.create(file)) {
            writer.addInterface("p", LinkType.ETHERNET, 33, 0, null);
            writer.write(0, 1, Unpooled.wrappedBuffer(data), "cut");
        }
        byte[] cut = new byte[33];
        System.arraycopy(data, 0, cut, 0, 33);
        assertEquals(List.of(new Packet(0, 1, cut, 99, LinkType.ETHERNET, "cut", PacketDirection.UNKNOWN)),
                readAll(file));
    }

    @Test
    void timestampsUseAllSixtyFourBits() throws IOException {
        Path file = dir.resolve("far.pcapng");
        long far = Long.MAX_VALUE - 5; // April 2262
        try (PcapngWriter writer = PcapngWriter.create(file)) {
            writer.addInterface("p", LinkType.ETHERNET, 0, 0, null);
            writer.write(0, far, Unpooled.wrappedBuffer(new byte[] {1}), null);
            writer.write(0, 0, Unpooled.wrappedBuffer(new byte[] {2}), null);
        }
        List<Packet> packets = readAll(file);
        assertEquals(far, packets.get(0).timestampNanos());
        assertEquals(0, packets.get(1).timestampNanos());
    }

    @Test
    void misuseIsReportedNamingTheBadArgument() throws IOException {
        ByteBuf frame = Unpooled.wrappedBuffer(new byte[4]);
        try (PcapngWriter writer = new PcapngWriter(new ByteArrayOutputStream())) {
            writer.addInterface("p", LinkType.ETHERNET, 0, 0, null);
            String huge = "é".repeat(40_000); // 80,000 bytes of UTF-8
            IllegalArgumentException longComment = assertThrows(IllegalArgumentException.class,
                    () -> writer.write(0, 1, frame, huge));
            assertTrue(longComment.getMessage().contains("80000"), longComment.getMessage());
            assertThrows(IllegalArgumentException.class, () -> writer.addInterface(huge, 1, 0, 0, null));
            IllegalArgumentException badId = assertThrows(IllegalArgumentException.class,
                    () -> writer.write(3, 1, frame, null));
            assertTrue(badId.getMessage().contains("interfaceId 3"), badId.getMessage());
            assertThrows(IllegalArgumentException.class, () -> writer.addInterface("p", 1, 0, -5, null));
            assertEquals(1, frame.refCnt());
            ByteBuf released = Unpooled.buffer(4).writeInt(1);
            released.release();
            IllegalArgumentException gone = assertThrows(IllegalArgumentException.class,
                    () -> writer.write(0, 1, released, null));
            assertTrue(gone.getMessage().contains("released"), gone.getMessage());
        } finally {
            frame.release();
        }
    }
}
