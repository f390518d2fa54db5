package io.rocelab.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.nic.stats.NicCounter;
import io.rocelab.nic.cc.DcqcnParam;
import io.rocelab.nic.cc.DcqcnParams;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.generate.FatTree;
import io.rocelab.topology.generate.LeafSpine;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.qos.QosProfiles;
import io.rocelab.topology.workload.Flow;
import io.rocelab.topology.workload.FlowResult;
import io.rocelab.topology.workload.Workload;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A host's NIC settings (congestion control none or DCQCN with its parameters) reach the soft NIC
 * the fabric builds for it.
 */
class HostNicSettingsTest {
    private static final long US = 1_000;

    /** What a 4:1 incast on one leaf did. */
    private record Incast(long cnpsSent, long cnpsHandled, long pausesReceived, long ecnMarked, long bytes,
                          List<FlowResult> flows) {
    }

    /**
     * Four hosts write to a fifth across one leaf for 2 ms, with {@code dcqcn} on every NIC or none.
     * The leaf is lossless on priority 3 with ECN marking from 20 KB to 200 KB (up to 20 %): below
     * what four ingress ports hold before PFC's XOFF (4 x 36 KiB), so ECN can act before PFC does
     * (the lossless profile's 150 KiB suits a wider incast).
     */
    private static Incast incast(DcqcnParams dcqcn) {
        LeafSpine ls = LeafSpine.builder().leaves(1).spines(1).hostsPerLeaf(5).dcqcn(dcqcn)
            .qos(QosProfiles.LOSSLESS.withEcn(20_000, 200_000, 0.2)).build();
        List<Flow> flows = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            // 8 QPs of 8 x 64 KiB each: 4 MiB in flight a sender, more than its PG's share of the 3.3 MB pool
            flows.add(Flow.builder("f" + i, "h" + i, "h4").durationNanos(2_000 * US).qps(8).build());
        }
        try (Fabric f = Fabric.virtualTime(ls.topology(), 9)) {
            Workload w = Workload.start(f, flows, 9);
            assertTrue(f.runUntil(w::finished, 100_000_000L));
            long handled = 0;
            long pauses = 0;
            long bytes = 0;
            for (int i = 0; i < 4; i++) {
                handled += f.nic("h" + i).counters().get(NicCounter.RP_CNP_HANDLED);
                pauses += f.nic("h" + i).counters().get(NicCounter.RX_PRIO3_PAUSE);
            }
            List<FlowResult> rs = w.results();
            for (FlowResult r : rs) {
                bytes += r.bytes();
            }
            Incast out = new Incast(f.nic("h4").counters().get(NicCounter.NP_CNP_SENT), handled, pauses,
                f.nic("h4").counters().get(NicCounter.NP_ECN_MARKED_ROCE_PACKETS), bytes, rs);
            w.close();
            return out;
        }
    }

    /**
     * Without congestion control the senders' packets are not ECN-capable: no marks, no CNPs, and
     * the leaf holds the 4:1 overload back with PFC alone. With DCQCN the receiver answers the
     * marks with CNPs, the senders cut their rates, and the leaf pauses them far less; the
     * bottleneck stays full either way.
     */
    @Test
    void dcqcnOnTheHostsAnswersAnIncastWithCnpsAndFewerPauses() {
        Incast none = incast(null);
        Incast dcqcn = incast(DcqcnParams.defaults());
        assertEquals(0, none.cnpsSent());
        assertEquals(0, none.cnpsHandled());
        assertEquals(0, none.ecnMarked(), "no ECT, no CE");
        assertTrue(none.pausesReceived() > 0, "PFC holds back the incast: " + none);

        assertTrue(dcqcn.ecnMarked() > 0, dcqcn.toString());
        assertTrue(dcqcn.cnpsSent() > 0, dcqcn.toString());
        assertTrue(dcqcn.cnpsHandled() > 0, "the senders' reaction points handled CNPs: " + dcqcn);
        assertTrue(dcqcn.pausesReceived() * 2 < none.pausesReceived(),
            "pauses with DCQCN " + dcqcn.pausesReceived() + ", without " + none.pausesReceived());
        double line = 100e9 / 8 * 2e-3;
        assertTrue(none.bytes() > 0.9 * line && dcqcn.bytes() > 0.8 * line,
            "the bottleneck stays busy: " + none.bytes() + " / " + dcqcn.bytes() + " of " + (long) line);
        for (FlowResult r : dcqcn.flows()) {
            assertEquals(0, r.errors(), r.toString());
        }
    }

    @Test
    void theCongestionControlIsChosenByName() {
        Host h = Host.builder("h").mac("02:00:00:00:00:01").ipv4("10.0.0.1").congestionControl("dcqcn").build();
        assertEquals("dcqcn", h.congestionControl());
        assertEquals(DcqcnParams.defaults(), h.dcqcn());
        Host n = Host.builder("h").mac("02:00:00:00:00:01").ipv4("10.0.0.1").congestionControl("none").build();
        assertEquals("none", n.congestionControl());
        assertNull(n.dcqcn());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> Host.builder("h7").congestionControl("timely"));
        assertEquals("host h7: congestion control must be none or dcqcn, not 'timely'", e.getMessage());
    }

    @Test
    void generatorsGiveEveryHostTheSameSettings() {
        DcqcnParams p = DcqcnParams.defaults().with(DcqcnParam.RP_AI_RATE, 10);
        FatTree ft = FatTree.builder().k(4).dcqcn(p).build();
        assertTrue(ft.topology().hosts().stream().allMatch(h -> p.equals(h.dcqcn())));
        LeafSpine ls = LeafSpine.builder().build();
        assertTrue(ls.topology().hosts().stream().allMatch(h -> h.dcqcn() == null && "none".equals(h.congestionControl())));
    }
}
