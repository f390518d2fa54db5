package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBufUtil;
import io.rocelab.codec.capture.CaptureReader;
import io.rocelab.codec.capture.CaptureRecord;
import io.rocelab.codec.capture.LinkType;
import io.rocelab.codec.capture.PcapWriter;
import io.rocelab.codec.capture.PcapngWriter;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.sw.stats.PortCounters;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.Lab;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A classic pcap per port, next to the whole-switch pcapng: each holds exactly what crossed that
 * port's wire (received and sent, PFC frames included), byte for byte and at the same instants as
 * the pcapng records of that interface, and leaves out the frames the switch dropped (which the
 * pcapng shows with their reason).
 */
class PortPcapTest {
    private static final long EPOCH = 1_700_000_000_000_000_000L;

    @Test
    void onePcapPerPortMatchesTheWireAndThePcapng(@TempDir Path dir) throws Exception {
        ConfigBuilder cb = Lab.routes(new ConfigBuilder(3, 100), 3).queueCap(0, 30_000);
        Lab lab = new Lab(cb.build());
        Path whole = dir.resolve("switch.pcapng");
        Path p0 = dir.resolve("Ethernet0.pcap");
        Path p4 = dir.resolve("Ethernet4.pcap");
        try (PcapngWriter all = PcapngWriter.create(whole); PcapWriter w0 = PcapWriter.create(p0);
             PcapWriter w4 = PcapWriter.create(p4)) {
            lab.sw.capture(all, EPOCH);
            lab.sw.capturePort("Ethernet0", w0, EPOCH);
            lab.sw.capturePort("Ethernet4", w4, EPOCH);
            // lossless 2:1 into Ethernet0 (PFC XOFF/XON on Ethernet4 and Ethernet8), then lossy 2:1 (tail drops)
            lab.flow(1, 0, 26, 2, 0xC001, 4096).start();
            lab.flow(2, 0, 26, 2, 0xC002, 4096).start();
            lab.time.runFor(200_000);
            lab.hosts.get(1).stop();
            lab.hosts.get(2).stop();
            lab.time.runFor(100_000);
            lab.flow(1, 0, 0, 0, 0xC003, 4096).start();
            lab.flow(2, 0, 0, 0, 0xC004, 4096).start();
            lab.time.runFor(100_000);
            lab.drainAndClose();
        }
        PortCounters c0 = lab.sw.counters(0);
        PortCounters c4 = lab.sw.counters(1);
        long drops = lab.sw.counters(1).drops(DropReason.BUFFER_FULL) + lab.sw.counters(2).drops(DropReason.BUFFER_FULL);
        assertTrue(drops > 0, "the scenario must drop frames");
        assertTrue(c4.txPfc[3] > 0, "the scenario must send PFC on Ethernet4");

        List<CaptureRecord> pcap0 = read(p0);
        List<CaptureRecord> pcap4 = read(p4);
        List<CaptureRecord> ng = read(whole);
        try {
            assertEquals(c0.rxFrames + c0.txFrames, pcap0.size(), "Ethernet0.pcap: every frame on its wire, no drops");
            assertEquals(c4.rxFrames + c4.txFrames, pcap4.size(), "Ethernet4.pcap: every frame on its wire, no drops");
            for (CaptureRecord r : pcap0) {
                assertEquals(0, r.interfaceId());
                assertEquals(LinkType.ETHERNET, r.linkType());
                assertNull(r.comment(), "classic pcap has no comments");
            }
            assertSameFrames(onWire(ng, 0), pcap0);
            assertSameFrames(onWire(ng, 1), pcap4);
            long droppedInNg = ng.stream().filter(r -> r.comment() != null && r.comment().startsWith("dropped:")).count();
            assertEquals(drops, droppedInNg, "the pcapng shows the drops the per-port pcaps leave out");
            System.out.printf("Ethernet0.pcap %d frames, Ethernet4.pcap %d frames (%d PFC sent), pcapng %d records "
                + "(%d drops)%n", pcap0.size(), pcap4.size(), c4.txPfc[3], ng.size(), droppedInNg);
        } finally {
            pcap0.forEach(CaptureRecord::release);
            pcap4.forEach(CaptureRecord::release);
            ng.forEach(CaptureRecord::release);
        }
    }

    private static List<CaptureRecord> onWire(List<CaptureRecord> ng, int iface) {
        List<CaptureRecord> out = new ArrayList<>();
        for (CaptureRecord r : ng) {
            if (r.interfaceId() == iface && (r.comment() == null || !r.comment().startsWith("dropped:"))) {
                out.add(r);
            }
        }
        return out;
    }

    private static void assertSameFrames(List<CaptureRecord> expected, List<CaptureRecord> actual) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            CaptureRecord e = expected.get(i);
            CaptureRecord a = actual.get(i);
            assertEquals(e.timestampNanos(), a.timestampNanos(), "record " + i + " time");
            assertTrue(ByteBufUtil.equals(e.content(), a.content()), "record " + i + " bytes");
        }
    }

    private static List<CaptureRecord> read(Path file) throws IOException {
        List<CaptureRecord> out = new ArrayList<>();
        try (CaptureReader r = CaptureReader.open(file)) {
            for (CaptureRecord rec; (rec = r.next()) != null; ) {
                out.add(rec);
            }
        }
        return out;
    }
}
