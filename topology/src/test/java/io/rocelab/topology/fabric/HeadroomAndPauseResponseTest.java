package io.rocelab.topology.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.pfc.PauseResponse;
import io.rocelab.sw.config.ConfigLoader;
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
 * before it acts on the pause (IEEE 802.3 31B.3.7's response, SONiC's peer response). A 4:1 incast
 * at 100 Gb/s over 5 m: a headroom sized for the cable alone loses frames once the NICs take the
 * standard's 2 us to stop, holds with NICs that stop at once, and holds with the response's
 * 25,216 bytes added.
 */
class HeadroomAndPauseResponseTest {
    private static final long MS = 1_000_000;
    private static final long SPEED = 100_000_000_000L;
    private static final int CABLE_METRES = 5;
    /** The leaf-spine generator's switch port MTU. */
    private static final int SWITCH_MTU = 9100;

    private static QosProfile headroom(long bytes) {
        QosProfile p = QosProfiles.LOSSLESS;
        return new QosProfile(p.name(), p.pfcPriority(), p.roceDscp(), p.roceTc(), p.cnpDscp(), p.cnpTc(), p.xon(),
            p.xoff(), bytes, p.lossyDynamicTh(), p.sharedPoolBytes(), p.minPoolBytes(), p.ecnMinThreshold(),
            p.ecnMaxThreshold(), p.ecnMaxProbability(), p.lossyWeight(), p.roceWeight(), null,
            p.watchdogPollMillis());
    }

    /** @return the leaf's lossless drops for lack of headroom in a 4:1 incast */
    private static long headroomDrops(long headroomBytes, PauseResponse nics) {
        Topology t = LeafSpine.builder().leaves(1).spines(1).hostsPerLeaf(5).cableMeters(CABLE_METRES)
            .qos(headroom(headroomBytes)).pauseResponse(nics).build().topology();
        try (Fabric f = Fabric.virtualTime(t, 1)) {
            List<Flow> flows = List.of("h1", "h2", "h3", "h4").stream()
                .map(h -> Flow.builder(h, h, "h0").messages(40).window(8).ackTimeout(8).build()).toList();
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
    void aHeadroomForTheCableAloneLosesFramesToTheNicsResponse() {
        long cable = ConfigLoader.requiredHeadroom(SPEED, CABLE_METRES, SWITCH_MTU);
        long response = PauseResponse.IEEE.bytesAt(SPEED);
        assertEquals(25_216, response);
        long lost = headroomDrops(cable, PauseResponse.IEEE);
        System.out.printf("4:1 incast, headroom %d B (cable only): %d frames lost with the NICs' 2 us response%n",
            cable, lost);
        assertTrue(lost > 0, "the 2 us the NICs go on overflow the headroom");
        assertEquals(0, headroomDrops(cable, PauseResponse.INSTANT), "NICs that stop at once fit the cable's headroom");
        assertEquals(0, headroomDrops(cable + response, PauseResponse.IEEE), "cable and response together hold");
    }
}
