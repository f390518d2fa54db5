package io.rocelab.topology.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.pfc.PauseResponse;
import io.rocelab.sw.config.HeadroomModel;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.topology.generate.LeafSpine;
import io.rocelab.topology.model.Topology;
import io.rocelab.topology.qos.QosProfile;
import io.rocelab.topology.qos.QosProfiles;
import io.rocelab.topology.workload.Flow;
import io.rocelab.topology.workload.Workload;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a lossless PG's headroom must hold: the bytes on the cable and those the paused NIC sends
 * before it acts on the pause (IEEE 802.3 31B.3.7's response, SONiC's peer response). An 8:1 incast
 * at 100 Gb/s over 5 m, 8 QPs a sender as in pfc-basics, on the SN2700's PG share: the SN2700's static
 * {@code pg_lossless_100000_5m_profile} (xoff 30720, sized for a peer that answers within 3.8 KiB)
 * loses frames once the NICs take the standard's 2 us to stop, holds with NICs that stop at once,
 * and the headroom SONiC's dynamic model works out with the IEEE quanta (the {@code lossless}
 * profile's default) holds with the 2 us.
 */
class HeadroomAndPauseResponseTest {
    private static final long MS = 1_000_000;
    private static final long SPEED = 100_000_000_000L;
    private static final int CABLE_METRES = 5;
    /** The leaf-spine generator's switch port MTU. */
    private static final int SWITCH_MTU = 9100;
    /** The SN2700's PG share ({@code dynamic_th} 0): eight senders' windows make the leaf pause them. */
    private static final int DYNAMIC_TH = 0;

    /** @return the leaf's lossless drops for lack of headroom in an 8:1 incast */
    private static long headroomDrops(QosProfile qos, PauseResponse nics) {
        Topology t = LeafSpine.builder().leaves(1).spines(1).hostsPerLeaf(9).cableMeters(CABLE_METRES)
            .qos(qos.withWatchdog(null)).pauseResponse(nics).build().topology();
        try (Fabric f = Fabric.virtualTime(t, 1)) {
            List<Flow> flows = List.of("h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8").stream()
                .map(h -> Flow.builder(h, h, "h0").messages(64).qps(8).window(8).ackTimeout(8).build()).toList();
            Workload w = Workload.start(f, flows, 1);
            assertTrue(f.runUntil(w::finished, 200 * MS), "the incast completes");
            var ports = f.softSwitch("leaf0").countersSnapshot().ports();
            long drops = ports.stream().mapToLong(c -> c.drops(DropReason.HEADROOM_EXHAUSTED)).sum();
            long pfc = ports.stream().mapToLong(c -> c.txPfc[3]).sum();
            assertTrue(pfc > 0, "the leaf paused the senders");
            w.close();
            return drops;
        }
    }

    @Test
    void theStaticProfileLosesFramesToTheNicsResponseAndTheWorkedOutOneDoesNot() {
        HeadroomModel.Headroom lookup = HeadroomModel.SN2700_LOOKUP.compute(SPEED, CABLE_METRES, SWITCH_MTU);
        assertEquals(new HeadroomModel.Headroom(50_176, 19_456, 30_720), lookup, "pg_profile_lookup.ini's 100G 5m");
        assertEquals(25_216, PauseResponse.IEEE.bytesAt(SPEED));
        QosProfile staticProfile = QosProfiles.LOSSLESS.withLosslessPg(lookup.xon(), lookup.xoff(), DYNAMIC_TH, false);
        QosProfile workedOut = QosProfiles.LOSSLESS.withLosslessPg(QosProfiles.LOSSLESS.xon(), -1, DYNAMIC_TH, false);
        long lost = headroomDrops(staticProfile, PauseResponse.IEEE);
        System.out.printf("8:1 incast, static headroom %d B: %d frames lost with the NICs' 2 us response%n",
            lookup.xoff(), lost);
        assertTrue(lost > 0, "the 2 us the NICs go on overflow the static headroom");
        assertEquals(0, headroomDrops(staticProfile, PauseResponse.INSTANT), "NICs that stop at once fit it");
        assertEquals(0, headroomDrops(workedOut, PauseResponse.IEEE), "the worked-out headroom holds the response");
    }
}
