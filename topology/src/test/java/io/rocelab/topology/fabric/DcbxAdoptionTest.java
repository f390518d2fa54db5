package io.rocelab.topology.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.lldp.Dcbx;
import io.rocelab.nic.SoftNic;
import io.rocelab.nic.dcb.DcbSettings;
import io.rocelab.nic.stats.NicCounter;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.dcbx.SwitchDcbx;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.topology.generate.LeafSpine;
import io.rocelab.topology.model.Attachment;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Topology;
import io.rocelab.topology.qos.QosProfiles;
import io.rocelab.topology.workload.Flow;
import io.rocelab.topology.workload.Workload;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * DCBX between a switch port and a willing NIC, the advertisement handed to the NIC as its LLDP
 * agent would: the NIC takes the switch's PFC vector and DSCP application priorities (IEEE
 * 802.1Qaz), and a mismatch that drops in the lossless class goes away by itself.
 */
class DcbxAdoptionTest {
    private static final long MS = 1_000_000;
    /** The NICs set wrong twice over: PFC on 4 (the leaf's is on 3) and trusting PCP on untagged ports. */
    private static final DcbSettings WRONG = DcbSettings.DEFAULTS.withPfc(DcbSettings.parsePfc("0,0,0,0,1,0,0,0"))
        .withTrust(DcbSettings.Trust.PCP);

    @Test
    void aWillingNicTakesARealT1PortsSettings() throws IOException {
        Path file = Path.of(System.getProperty("rocelab.root", "..")).resolve("labs/sonic/mellanox-sn2700-t1.json");
        PortConfig port = ConfigLoader.read(file).config().ports().get(0);
        io.rocelab.nic.dcb.NicDcb nic = new io.rocelab.nic.dcb.NicDcb(WRONG, 1, (p, s, a) -> { });
        nic.onPeer(1, SwitchDcbx.advertised(port));
        DcbSettings op = nic.operational(1).settings();
        assertEquals(0x18, op.pfcEnable(), "pfc_enable 3,4");
        assertEquals(DcbSettings.Trust.DSCP, op.trust(), "the AZURE map's DSCP entries");
        assertEquals(3, nic.priorityOfUntagged(1, 3), "DSCP 3 at 3");
        assertEquals(4, nic.priorityOfUntagged(1, 4), "DSCP 4 at 4");
        assertEquals(3, nic.operational(1).rocePriority(), "RoCEv2 at the lowest lossless priority");
        assertEquals(SwitchDcbx.advertised(port).etsRecommendation().priorityToTc()[3],
            op.ets().priorityToTc()[3], "the switch's ETS recommendation");
    }

    /** The leaf's lossless drops in a 4:1 incast of NICs set {@link #WRONG}, told the leaf's DCBX or not. */
    private static long drops(boolean dcbx) {
        Topology t = LeafSpine.builder().leaves(1).spines(1).hostsPerLeaf(5)
            .qos(QosProfiles.LOSSLESS.withWatchdog(null)).build().topology();
        Topology.Builder b = Topology.builder();
        t.hosts().forEach(h -> b.host(h.withDcb(WRONG)));
        t.switches().forEach(s -> b.switchNode(s.name(), s.config()));
        t.links().forEach(b::link);
        b.qos(t.qos());
        Topology wrong = b.build();
        try (Fabric f = Fabric.virtualTime(wrong, 1)) {
            for (Host h : wrong.hosts()) {
                SoftNic nic = f.nic(h.name());
                if (dcbx) {
                    Attachment at = wrong.peerOf(h);
                    PortConfig port = f.softSwitch(at.node()).config().ports().stream()
                        .filter(p -> p.name().equals(at.port())).findFirst().orElseThrow();
                    Dcbx advertised = SwitchDcbx.advertised(port);
                    nic.call(() -> {
                        nic.dcb().onPeer(1, advertised);
                        return null;
                    });
                    assertEquals(1, nic.counters().get(NicCounter.DCBX_ADOPTIONS), h.name());
                    assertEquals(0x08, nic.call(() -> nic.dcb().pfcEnable(1)), "the lossless profile's PFC on 3");
                }
            }
            List<Flow> flows = List.of("h1", "h2", "h3", "h4").stream()
                .map(h -> Flow.builder(h, h, "h0").durationNanos(MS).qps(8).ackTimeout(8).build()).toList();
            Workload w = Workload.start(f, flows, 1);
            assertTrue(f.runUntil(w::finished, 100 * MS));
            var ports = f.softSwitch("leaf0").countersSnapshot().ports();
            long pfc = ports.stream().mapToLong(c -> c.txPfc[3]).sum();
            assertTrue(pfc > 0, "the leaf paused the senders");
            w.close();
            return ports.stream().mapToLong(c -> c.drops(DropReason.HEADROOM_EXHAUSTED)).sum();
        }
    }

    @Test
    void theLeafsDcbxTakenTheMismatchDropsNothing() {
        assertTrue(drops(false) > 0, "set wrong, the NICs ignore the leaf's pauses and it drops");
        assertEquals(0, drops(true), "having taken the leaf's settings, nothing drops");
    }
}
