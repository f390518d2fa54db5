package io.rocelab.topology.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.nic.stats.NicCounter;
import io.rocelab.sw.stats.PortCounters;
import io.rocelab.topology.generate.LeafSpine;
import io.rocelab.topology.model.Attachment;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.workload.Flow;
import io.rocelab.topology.workload.Workload;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each PFC frame is counted once where it leaves and once where it arrives, XOFF and XON alike
 * ({@code show pfc counters}' Tx and Rx, mlx5's {@code tx_prio<N>_pause} / {@code rx_prio<N>_pause}),
 * so across every cable one end's "sent" is the other end's "received", switch to switch and switch
 * to NIC. A 3:1 incast into h3 on a 2-leaf, 1-spine fabric (h0, h1 on leaf0; h2, h3 on leaf1) makes
 * leaf1 pause the spine and h2, and the spine pause leaf0, which pauses h0 and h1.
 */
class PfcCountersAcrossLinksTest {
    private static final long MS = 1_000_000;

    @Test
    void everyPfcFrameSentIsCountedOnceAtEachEnd() {
        var topology = LeafSpine.builder().leaves(2).spines(1).hostsPerLeaf(2).build().topology();
        try (Fabric f = Fabric.virtualTime(topology, 1)) {
            // 8 QPs of 8 x 64 KiB a flow: 4 MiB in flight, more than a PG's share of a leaf's 3.3 MB pool
            Workload w = Workload.start(f, List.of(Flow.builder("a", "h0", "h3").messages(300).qps(8).build(),
                Flow.builder("b", "h1", "h3").messages(300).qps(8).build(),
                Flow.builder("c", "h2", "h3").messages(300).qps(8).build()), 1);
            assertTrue(f.runUntil(w::finished, 100 * MS), "the incast completes");
            f.runFor(1 * MS); // the last resumes land: nothing in flight on any cable
            long switchToSwitch = 0;
            long xon = 0;
            List<String> seen = new ArrayList<>();
            for (Link l : topology.links()) {
                for (int p = 0; p < 8; p++) {
                    assertEquals(sent(f, l.a(), p), received(f, l.b(), p), l.a() + " -> " + l.b() + " priority " + p);
                    assertEquals(sent(f, l.b(), p), received(f, l.a(), p), l.b() + " -> " + l.a() + " priority " + p);
                }
                long frames = sent(f, l.a(), 3) + sent(f, l.b(), 3);
                if (frames > 0) {
                    seen.add(l.name() + " " + frames);
                }
                if (!isHost(f, l.a()) && !isHost(f, l.b())) {
                    switchToSwitch += frames;
                }
                xon += xon(f, l.a()) + xon(f, l.b());
            }
            assertTrue(switchToSwitch > 0, "a switch paused a switch: " + seen);
            assertTrue(sent(f, Attachment.parse("leaf0:Ethernet0"), 3) > 0, "leaf0 paused h0: " + seen);
            assertTrue(xon > 0, "resumes were sent and counted too: " + seen);
            w.close();
        }
    }

    private static boolean isHost(Fabric f, Attachment end) {
        return f.topology().node(end.node()) instanceof Host;
    }

    private static long sent(Fabric f, Attachment end, int p) {
        if (isHost(f, end)) {
            return f.nic(end.node()).counters().get(NicCounter.valueOf("TX_PRIO" + p + "_PAUSE"));
        }
        return switchPort(f, end).txPfc[p];
    }

    private static long received(Fabric f, Attachment end, int p) {
        if (isHost(f, end)) {
            return f.nic(end.node()).counters().get(NicCounter.valueOf("RX_PRIO" + p + "_PAUSE"));
        }
        return switchPort(f, end).rxPfc[p];
    }

    private static long xon(Fabric f, Attachment end) {
        return isHost(f, end) ? 0 : switchPort(f, end).txXon[3];
    }

    private static PortCounters switchPort(Fabric f, Attachment end) {
        var snapshot = f.softSwitch(end.node()).countersSnapshot();
        return snapshot.ports().get(snapshot.portNames().indexOf(end.port()));
    }
}
