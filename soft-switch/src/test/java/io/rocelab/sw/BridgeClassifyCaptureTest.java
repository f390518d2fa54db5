package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.capture.PcapngWriter;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.HostStub;
import io.rocelab.sw.testkit.Lab;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** L2 learning, flooding and ageing; re-marking on untrusted ports; the pcapng tap's comments. */
class BridgeClassifyCaptureTest {

    @Test
    void learnsFloodsAndAges() {
        Lab lab = new Lab(new ConfigBuilder(3, 100).switchField("fdb_aging_time", "1").build());
        HostStub a = lab.hosts.get(0).flow(Lab.hostMac(0), Lab.hostMac(1), Lab.hostIp(0), Lab.hostIp(1), 0, 0, 1, 64);
        HostStub b = lab.hosts.get(1).flow(Lab.hostMac(1), Lab.hostMac(0), Lab.hostIp(1), Lab.hostIp(0), 0, 0, 1, 64);
        a.sendOne();
        lab.time.runFor(10_000);
        assertEquals(1, lab.hosts.get(1).rxFrames, "unknown destination: flooded");
        assertEquals(1, lab.hosts.get(2).rxFrames, "unknown destination: flooded");
        b.sendOne();
        lab.time.runFor(10_000);
        assertEquals(1, lab.hosts.get(0).rxFrames, "learned: sent to its port only");
        assertEquals(1, lab.hosts.get(2).rxFrames);
        a.sendOne();
        lab.time.runFor(10_000);
        assertEquals(2, lab.hosts.get(1).rxFrames);
        assertEquals(1, lab.hosts.get(2).rxFrames, "learned: no flood");
        lab.time.runFor(1_100_000_000L);
        a.sendOne();
        lab.time.runFor(10_000);
        assertEquals(2, lab.hosts.get(2).rxFrames, "aged out: flooded again");
        lab.drainAndClose();
    }

    @Test
    void untrustedPortsAreRemarked() {
        ConfigBuilder cb = Lab.routes(new ConfigBuilder(2, 100), 2);
        cb.root().withObject("/PORT_QOS_MAP/Ethernet4").remove("dscp_to_tc_map");
        Lab lab = new Lab(cb.build());
        lab.flow(1, 0, 26, 2, 0xC001, 256).sendOne();
        lab.flow(0, 1, 26, 2, 0xC001, 256).sendOne();
        lab.time.runFor(10_000);
        assertEquals(0, lab.hosts.get(0).lastDscp, "a host on an untrusted port cannot claim DSCP 26");
        assertEquals(26, lab.hosts.get(1).lastDscp, "a trusted port keeps it");
        assertEquals(1, lab.sw.counters(0).queueTxPackets[0]);
        assertEquals(1, lab.sw.counters(1).queueTxPackets[3]);
        lab.drainAndClose();
    }

    @Test
    void pcapngTapCommentsDecisions(@TempDir Path dir) throws Exception {
        ConfigBuilder cb = Lab.routes(new ConfigBuilder(3, 100), 3).wred(3, "ecn_all", false, 5_000, 40_000, 50)
            .queueCap(0, 30_000);
        Lab lab = new Lab(cb.build());
        Path file = dir.resolve("switch.pcapng");
        try (PcapngWriter w = PcapngWriter.create(file)) {
            lab.sw.capture(w, 1_700_000_000_000_000_000L);
            lab.flow(1, 0, 26, 2, 0xC001, 4096).start();
            lab.flow(2, 0, 26, 2, 0xC002, 4096).start();
            lab.time.runFor(300_000);
            lab.hosts.get(1).stop();
            lab.hosts.get(2).stop();
            lab.time.runFor(100_000);
            lab.flow(1, 0, 0, 0, 0xC003, 4096).start();
            lab.flow(2, 0, 0, 0, 0xC004, 4096).start();
            lab.time.runFor(100_000);
            lab.drainAndClose();
        }
        String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        for (String comment : new String[] {"ECN CE marked", "PFC XOFF prio 3 sent", "PFC XON prio 3 sent",
            DropReason.BUFFER_FULL.comment(), "sw:Ethernet0", "sw:Ethernet8"}) {
            assertTrue(text.contains(comment), "capture holds '" + comment + "'");
        }
        assertTrue(lab.sw.counters(1).drops(DropReason.BUFFER_FULL) + lab.sw.counters(2).drops(DropReason.BUFFER_FULL) > 0);
        System.out.println(SonicViews.pfcCounters(lab.sw));
        System.out.println(SonicViews.queueCounters(lab.sw).lines().filter(l -> l.contains("UC3") || l.contains("UC0")
            || l.startsWith(" ") && l.contains("Port")).reduce("", (x, y) -> x + y + "\n"));
        System.out.println(SonicViews.watermarks(lab.sw));
        assertTrue(Files.size(file) > 100_000);
        assertEquals(0, Ipv4.parse("0.0.0.0"));
    }
}
