package io.rocelab.codec.capture;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.capture.TestCaptures.Packet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.rocelab.codec.capture.TestCaptures.readAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Classic pcap written by {@link PcapWriter} and read back by {@link CaptureReader}. */
class PcapWriterTest {

    @TempDir
    Path dir;

    @Test
    void roundTripKeepsBytesLengthsAndNanosecondTimestamps() throws IOException {
        Path file = dir.resolve("port.pcap");
        Random random = new Random(4791);
        List<Packet> expected = new ArrayList<>();
        try (PcapWriter writer = PcapWriter.create(file)) {
            assertEquals(0, writer.addInterface("h1:eth0", LinkType.ETHERNET, 0, 100_000_000_000L, "host 1"));
            long t = 1_796_205_202_370_521_123L;
            for (int length = 1; length <= 70; length++) {
                byte[] data = new byte[length];
                random.nextBytes(data);
                ByteBuf frame = Unpooled.wrappedBuffer(data);
                t += 1 + random.nextInt(2_000_000_000);
                writer.write(0, t, frame, "dropped by classic pcap");
                assertEquals(0, frame.readerIndex(), "write must not move the reader index");
                assertEquals(1, frame.refCnt(), "write must not release the frame");
                frame.release();
                expected.add(new Packet(0, t, data, length, LinkType.ETHERNET, null, PacketDirection.UNKNOWN));
            }
            writer.write(0, 0, Unpooled.wrappedBuffer(new byte[] {7}), null);
            expected.add(new Packet(0, 0, new byte[] {7}, 1, LinkType.ETHERNET, null, PacketDirection.UNKNOWN));
        }
        assertEquals(expected, readAll(file));

        byte[] bytes = Files.readAllBytes(file);
        assertEquals("4d3cb2a1" + "0200" + "0400" + "00000000" + "00000000" + "00000400" + "01000000",
                ByteBufUtil.hexDump(bytes, 0, 24), "little-endian nanosecond header, snaplen 262144, Ethernet");
        try (CaptureReader reader = CaptureReader.open(file)) {
            assertTrue(assertInstanceOf(PcapReader.class, reader).nanosecondTimestamps());
        }
    }

    @Test
    void writesOnlyTheReadableBytesOfAFrame() throws IOException {
        Path file = dir.resolve("slice.pcap");
        ByteBuf frame = Unpooled.wrappedBuffer(new byte[] {1, 2, 3, 4, 5, 6});
        frame.readerIndex(2).writerIndex(5);
        try (PcapWriter writer = PcapWriter.create(file)) {
            writer.addInterface(null, LinkType.RAW, 0, 0, null);
            writer.write(0, 5, frame, null);
        }
        assertEquals(2, frame.readerIndex());
        frame.release();
        List<Packet> packets = readAll(file);
        assertEquals(new Packet(0, 5, new byte[] {3, 4, 5}, 3, LinkType.RAW, null, PacketDirection.UNKNOWN),
                packets.get(0));
    }

    @Test
    void snapLengthCutsFramesButKeepsTheirOriginalLength() throws IOException {
        Path file = dir.resolve("snap.pcap");
        byte[] data = new byte[100];
        new Random(1).nextBytes(data);
        try (PcapWriter writer = PcapWriter.create(file)) {
            writer.addInterface("sw1:p1", LinkType.ETHERNET, 64, 0, null);
            writer.write(0, 1_000, Unpooled.wrappedBuffer(data), null);
        }
        try (CaptureReader reader = CaptureReader.open(file)) {
            assertEquals(64, reader.interfaces().get(0).snapLen());
            CaptureRecord r = reader.next();
            try {
                assertEquals(64, r.capturedLength());
                assertEquals(100, r.originalLength());
                assertEquals(ByteBufUtil.hexDump(data, 0, 64), ByteBufUtil.hexDump(r.content()));
            } finally {
                r.release();
            }
            assertNull(reader.next());
        }
    }

    @Test
    void secondInterfaceIsRefusedWithAClearMessage() throws IOException {
        try (PcapWriter writer = PcapWriter.create(dir.resolve("one.pcap"))) {
            writer.addInterface("eth0", LinkType.ETHERNET, 0, 0, null);
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> writer.addInterface("eth1", LinkType.ETHERNET, 0, 0, null));
            assertTrue(e.getMessage().contains("exactly one interface"), e.getMessage());
            assertTrue(e.getMessage().contains("'eth1'") && e.getMessage().contains("'eth0'"), e.getMessage());
        }
    }

    @Test
    void misuseIsReportedNamingTheBadArgument() throws IOException {
        ByteBuf frame = Unpooled.wrappedBuffer(new byte[10]);
        try {
            PcapWriter writer = PcapWriter.create(dir.resolve("misuse.pcap"));
            IllegalArgumentException noInterface = assertThrows(IllegalArgumentException.class,
                    () -> writer.write(0, 1, frame, null));
            assertTrue(noInterface.getMessage().contains("addInterface"), noInterface.getMessage());
            assertThrows(IllegalArgumentException.class, () -> writer.addInterface("x", 70_000, 0, 0, null));
            assertThrows(IllegalArgumentException.class, () -> writer.addInterface("x", 1, -1, 0, null));
            writer.addInterface("x", LinkType.ETHERNET, 0, 0, null);
            assertThrows(IllegalArgumentException.class, () -> writer.write(1, 1, frame, null));
            IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                    () -> writer.write(0, -1, frame, null));
            assertTrue(negative.getMessage().contains("timestampNanos"), negative.getMessage());
            IllegalArgumentException tooLate = assertThrows(IllegalArgumentException.class,
                    () -> writer.write(0, 0x1_0000_0000L * 1_000_000_000L, frame, null));
            assertTrue(tooLate.getMessage().contains("2106"), tooLate.getMessage());
            assertThrows(NullPointerException.class, () -> writer.write(0, 1, null, null));
            writer.close();
            writer.close();
            assertThrows(IllegalStateException.class, () -> writer.write(0, 1, frame, null));
            assertThrows(IllegalStateException.class, writer::flush);
        } finally {
            frame.release();
        }
    }

    @Test
    void aWriterClosedWithoutInterfacesStillLeavesAValidEmptyPcap() throws IOException {
        Path file = dir.resolve("empty.pcap");
        PcapWriter.create(file).close();
        assertEquals(24, Files.size(file));
        try (CaptureReader reader = CaptureReader.open(file)) {
            assertNull(reader.next());
            assertEquals(LinkType.ETHERNET, reader.interfaces().get(0).linkType());
        }
    }

    @Test
    void flushMakesFramesVisibleBeforeClose() throws IOException {
        Path file = dir.resolve("live.pcap");
        try (PcapWriter writer = PcapWriter.create(file)) {
            writer.addInterface("eth0", LinkType.ETHERNET, 0, 0, null);
            ByteBuf frame = Unpooled.wrappedBuffer(new byte[42]);
            writer.write(0, 1, frame, null);
            frame.release();
            writer.flush();
            assertEquals(24 + 16 + 42, Files.size(file));
            assertEquals(1, readAll(file).size());
        }
    }
}
