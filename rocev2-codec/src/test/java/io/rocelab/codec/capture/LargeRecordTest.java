package io.rocelab.codec.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records as large as a capture can hold are read with one copy of the packet in memory, and a
 * length field larger than that (262144 bytes, libpcap's largest snapshot length, whatever the
 * file's own snap length says) is a format error before any memory is taken for it, so a hostile
 * file cannot make a reader need more heap than a packet: a 64 MiB record used to need twice that.
 */
class LargeRecordTest {
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    /** libpcap's MAXIMUM_SNAPLEN. */
    private static final int LARGEST = 262_144;

    @TempDir
    Path dir;

    private static byte[] data(int n) {
        byte[] d = new byte[n];
        for (int i = 0; i < n; i++) {
            d[i] = (byte) (i * 31);
        }
        return d;
    }

    private static void assertError(byte[] file, long offset, String expected) throws IOException {
        CaptureFormatException e = ReadOutcome.of(file).expectError();
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertEquals(offset, e.offset(), e.getMessage());
    }

    @Test
    void theLargestPacketIsReadAndOneByteMoreIsRefusedWhateverTheSnapLength() throws IOException {
        byte[] pcap = CaptureBytes.pcap(LE, true, -1, 1).pcapRecord(1, 2, data(LARGEST), LARGEST).toByteArray();
        assertEquals(1, ReadOutcome.of(pcap).packets());
        pcap = CaptureBytes.pcap(LE, true, -1, 1).pcapRecord(1, 2, data(LARGEST + 1), LARGEST + 1).toByteArray();
        assertError(pcap, 32, "record captured length 262145 is larger than any packet a capture holds (262144)");

        CaptureBytes b = CaptureBytes.pcapng().shb(LE).idb(LinkType.ETHERNET, 0);
        b.epb(0, 1, data(LARGEST), LARGEST);
        assertEquals(1, ReadOutcome.of(b.toByteArray()).packets());
        b = CaptureBytes.pcapng().shb(LE).idb(LinkType.ETHERNET, 0);
        int epb = b.size();
        b.epb(0, 1, data(LARGEST + 1), LARGEST + 1);
        assertError(b.toByteArray(), epb + 20,
                "Enhanced Packet Block captured length 262145 is larger than any packet a capture holds (262144)");
        b = CaptureBytes.pcapng().shb(LE).idb(LinkType.ETHERNET, 0);
        int spb = b.size();
        b.spb(LARGEST + 1, data(LARGEST + 1));
        assertError(b.toByteArray(), spb + 8, "more than any packet a capture holds (262144)");
    }

    @Test
    void aBlockWhoseOptionsWouldFillTheHeapIsRefused() throws IOException {
        CaptureBytes b = CaptureBytes.pcapng().shb(LE);
        List<byte[]> options = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            options.add(b.option(1, new byte[60_000])); // 1.2 MB of comments
        }
        options.add(b.endOfOptions());
        int epb = b.idb(LinkType.ETHERNET, 0).size();
        b.epb(0, 1, data(60), 60, options.toArray(new byte[0][]));
        assertError(b.toByteArray(), epb + 8 + 20 + 60,
                "Enhanced Packet Block options of 1200088 bytes is more than the 1048576 bytes this reader holds");
        CaptureBytes c = CaptureBytes.pcapng().shb(LE);
        int idb = c.size();
        c.idb(LinkType.ETHERNET, 0, options.toArray(new byte[0][]));
        assertError(c.toByteArray(), idb + 4, "Interface Description Block body of 1200096 bytes is more than");
    }

    @Test
    void aRecordIsReadWithOneCopyOfItsPacketOnTheHeap() throws IOException {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        byte[] packet = data(LARGEST);
        Path pcap = Files.write(dir.resolve("big.pcap"), CaptureBytes.pcap(LE, true, -1, 1)
                .pcapRecord(1, 2, packet, LARGEST).pcapRecord(1, 3, packet, LARGEST).toByteArray());
        CaptureBytes b = CaptureBytes.pcapng().shb(LE).idb(LinkType.ETHERNET, 0);
        b.epb(0, 1, packet, LARGEST, b.option(1, "a comment"), b.endOfOptions());
        b.epb(0, 2, packet, LARGEST, b.option(1, "a comment"), b.endOfOptions());
        Path pcapng = Files.write(dir.resolve("big.pcapng"), b.toByteArray());
        for (Path file : List.of(pcap, pcapng)) {
            try (CaptureReader reader = CaptureReader.open(file, new UnpooledByteBufAllocator(false))) {
                reader.next().release(); // the first record: classes loaded, allocator set up
                long before = threads.getCurrentThreadAllocatedBytes();
                CaptureRecord r = reader.next();
                long allocated = threads.getCurrentThreadAllocatedBytes() - before;
                try {
                    assertEquals(LARGEST, r.content().readableBytes());
                    assertEquals(packet[LARGEST - 1], r.content().getByte(LARGEST - 1));
                } finally {
                    r.release();
                }
                // the record's own heap buffer, and not a second array of the packet on the way
                assertTrue(allocated >= LARGEST, file + ": " + allocated);
                assertTrue(allocated < LARGEST + LARGEST / 4, file + ": " + allocated + " bytes allocated for a "
                        + LARGEST + "-byte packet");
            }
        }
    }
}
