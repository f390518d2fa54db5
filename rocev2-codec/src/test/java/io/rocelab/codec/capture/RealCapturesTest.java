package io.rocelab.codec.capture;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.ByteBufUtil;
import io.rocelab.codec.capture.TestCaptures.Packet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;

import static io.rocelab.codec.capture.TestCaptures.readAll;
import static io.rocelab.codec.capture.TestCaptures.resource;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reads the real captures shipped as test resources: the golden vectors and the Linux Soft-RoCE
 * (rdma_rxe) captures. Expected counts, lengths and timestamps were taken from the files with an
 * independent parser.
 */
class RealCapturesTest {

    private static final int ROCEV2_PORT = 4791;

    @Test
    void vectorsPcapHas41EthernetFramesWithKnownHeaderAndTimes() throws IOException {
        Path file = resource("/vectors/vectors.pcap");
        try (CaptureReader reader = CaptureReader.open(file)) {
            PcapReader pcap = assertInstanceOf(PcapReader.class, reader);
            assertFalse(pcap.nanosecondTimestamps());
            assertEquals(ByteOrder.LITTLE_ENDIAN, pcap.byteOrder());
            assertEquals(List.of(new CaptureInterface(0, null, null, LinkType.ETHERNET, 65535, 0)), reader.interfaces());
        }
        List<Packet> packets = readAll(file);
        assertEquals(41, packets.size());
        assertEquals("0c42a1000002", ByteBufUtil.hexDump(packets.get(0).data(), 0, 6));
        assertEquals(90, packets.get(0).data().length);
        // frame i is stamped 1700000000 s + i ms
        for (int i = 0; i < packets.size(); i++) {
            Packet p = packets.get(i);
            assertEquals(1_700_000_000_000_000_000L + (i + 1) * 1_000_000L, p.timestampNanos(), "frame " + (i + 1));
            assertEquals(p.data().length, p.originalLength(), "frame " + (i + 1));
            assertEquals(LinkType.ETHERNET, p.linkType());
            assertEquals(0, p.interfaceId());
            assertNull(p.comment());
            assertEquals(PacketDirection.UNKNOWN, p.direction());
        }
    }

    @Test
    void vectorsPcapFramesAreTheBytesOfVectorsJson() throws IOException {
        JsonNode json = new ObjectMapper().readTree(resource("/vectors/vectors.json").toFile());
        JsonNode expected = json.get("packets");
        List<Packet> packets = readAll(resource("/vectors/vectors.pcap"));
        assertEquals(expected.size(), packets.size());
        for (JsonNode vector : expected) {
            int index = vector.get("index").asInt();
            assertArrayEquals(ByteBufUtil.decodeHexDump(vector.get("hex").asText()), packets.get(index - 1).data(),
                    "frame " + index + " (" + vector.get("name").asText() + ")");
        }
    }

    @ParameterizedTest(name = "{0}: {1} frames")
    @CsvSource({
        // file,                  frames, RoCEv2 frames, snaplen, first frame 6 bytes, last timestamp (s.us)
        "atomic_bw.pcap,          100,  40,  2048,   333300000016, 1796205227.301995",
        "rc_pingpong.pcap,        1098, 1070, 262144, 333300000016, 1796204990.683032",
        "rc_pingpong_ipv6.pcap,   76,   40,  2048,   333300000016, 1796205387.014659",
        "rc_pingpong_small.pcap,  68,   42,  262144, 333300000016, 1796205016.675772",
        "read_bw.pcap,            558,  500, 2048,   333300000016, 1796205356.487693",
        "relay_rc_pingpong.pcap,  68,   42,  65535,  333300000016, 1796205667.421777",
        "rping.pcap,              84,   65,  2048,   333300000016, 1796205289.787779",
        "send_bw.pcap,            551,  500, 2048,   333300000016, 1796205196.065364",
        "uc_pingpong.pcap,        64,   40,  262144, 333300000016, 1796205038.761154",
        "ud_pingpong.pcap,        46,   20,  262144, 333300000016, 1796205063.781178",
        "write_bw.pcap,           565,  500, 2048,   333300000016, 1796205330.530867",
        "write_bw_rdmacm.pcap,    195,  174, 2048,   333300000016, 1796205261.213965",
        "write_bw_small.pcap,     99,   40,  262144, 333300000016, 1796205110.142485",
        "write_lat.pcap,          124,  80,  262144, 333300000016, 1796205133.026165",
    })
    void rxeCaptureReadsCompletely(String name, int frames, int rocev2Frames, int snapLen, String firstBytes,
                                   String lastTimestamp) throws IOException {
        Path file = resource("/vectors/rxe/" + name);
        try (CaptureReader reader = CaptureReader.open(file)) {
            assertEquals(snapLen, reader.interfaces().get(0).snapLen());
            assertEquals(LinkType.ETHERNET, reader.interfaces().get(0).linkType());
        }
        List<Packet> packets = readAll(file);
        assertEquals(frames, packets.size());
        assertEquals(firstBytes, ByteBufUtil.hexDump(packets.get(0).data(), 0, 6));
        long previous = Long.MIN_VALUE;
        int roce = 0;
        for (int i = 0; i < packets.size(); i++) {
            Packet p = packets.get(i);
            assertTrue(p.timestampNanos() >= previous, name + " frame " + (i + 1) + " goes back in time");
            previous = p.timestampNanos();
            assertEquals(0, p.timestampNanos() % 1000, "microsecond file, nanoseconds must be 000");
            assertEquals(p.data().length, p.originalLength(), name + " frame " + (i + 1) + " was truncated");
            assertTrue(p.data().length <= snapLen);
            if (isRoceV2(p.data())) {
                roce++;
            }
        }
        String[] lastParts = lastTimestamp.split("\\.");
        long lastNanos = Long.parseLong(lastParts[0]) * 1_000_000_000L + Long.parseLong(lastParts[1]) * 1000;
        assertEquals(lastNanos, packets.get(packets.size() - 1).timestampNanos());
        assertEquals(rocev2Frames, roce, "frames to UDP port 4791");
    }

    @Test
    void everyRxeCaptureSurvivesConversionToPcapng(@TempDir Path dir) throws IOException {
        String[] names = {"rc_pingpong.pcap", "rping.pcap", "write_bw.pcap", "rc_pingpong_ipv6.pcap"};
        for (String name : names) {
            List<Packet> original = readAll(resource("/vectors/rxe/" + name));
            Path converted = dir.resolve(name + "ng");
            try (CaptureReader reader = CaptureReader.open(resource("/vectors/rxe/" + name));
                 PcapngWriter writer = PcapngWriter.create(converted)) {
                CaptureInterface in = reader.interfaces().get(0);
                writer.addInterface("rxe0", in.linkType(), in.snapLen(), 0, name);
                for (CaptureRecord r; (r = reader.next()) != null; ) {
                    try {
                        writer.write(0, r.timestampNanos(), r.content(), null);
                    } finally {
                        r.release();
                    }
                }
            }
            assertEquals(original, readAll(converted), name);
        }
    }

    /** Ethernet + IPv4 or IPv6 + UDP to port 4791 (no VLAN tags in these captures). */
    private static boolean isRoceV2(byte[] f) {
        int etherType = (f[12] & 0xFF) << 8 | (f[13] & 0xFF);
        if (etherType == 0x0800 && f.length >= 38 && f[23] == 17) {
            int ihl = (f[14] & 0x0F) * 4;
            int dport = 14 + ihl + 2;
            return ((f[dport] & 0xFF) << 8 | (f[dport + 1] & 0xFF)) == ROCEV2_PORT;
        }
        if (etherType == 0x86DD && f.length >= 58 && f[20] == 17) {
            return ((f[56] & 0xFF) << 8 | (f[57] & 0xFF)) == ROCEV2_PORT;
        }
        return false;
    }
}
