package io.rocelab.topology.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.nic.cc.DcqcnParams;
import io.rocelab.topology.generate.FatTree;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.SwitchNode;
import io.rocelab.topology.model.Topology;
import io.rocelab.topology.workload.Flow;
import io.rocelab.topology.workload.FlowResult;
import io.rocelab.topology.workload.PoissonFlows;
import io.rocelab.topology.workload.SizeDistribution;
import io.rocelab.topology.workload.Verb;
import io.rocelab.topology.workload.Workload;
import io.rocelab.sw.stats.PortCounters;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A fat tree split into logical processes gives the same run on 1, 2 and 4 threads: every link's
 * counters, every switch's counters and every flow's result, with lossy and reordering links
 * between LPs and a cable pulled and replugged mid-run.
 */
class ParallelFabricTest {
    private static final long US = 1_000;

    @Test
    void aFatTreeSplitsIntoOneLpPerSwitchWithItsHosts() {
        FatTree ft = FatTree.builder().k(4).propagationDelayNanos(1_000).build();
        LogicalProcesses lps = LogicalProcesses.of(ft.topology());
        assertEquals(20, lps.count(), "one LP per switch, the hosts with their edge switch");
        assertEquals(1_000, lps.lookaheadNanos());
        assertEquals(lps.lpOf().get(FatTree.edge(0, 0)), lps.lpOf().get(ft.host(0, 0, 0)));
        assertTrue(!lps.lpOf().get(FatTree.edge(0, 0)).equals(lps.lpOf().get(FatTree.agg(0, 0))));
        LogicalProcesses shortCables = LogicalProcesses.of(FatTree.builder().k(4).propagationDelayNanos(50).build()
            .topology());
        assertEquals(1, shortCables.count(), "links under the floor join their ends: one LP");
        assertTrue(!shortCables.parallel());
    }

    @Test
    void oneLpRunsOnOneScheduler() {
        Topology t = FatTree.builder().k(2).propagationDelayNanos(10).build().topology();
        try (Fabric f = Fabric.builder(t).seed(1).threads(2).start()) {
            assertNull(f.partition(), "a topology of one LP runs as before");
        }
    }

    /** eBGP and BFD between LPs: the same convergence, route for route, on one thread and on two. */
    @Test
    void bgpConvergesTheSameWayOnOneAndTwoThreads() {
        List<String> one = bgp(1);
        sameLines(one, bgp(2), "2 threads");
        assertTrue(one.get(0).startsWith("converged in ") && !one.get(0).equals("converged in -1 ns"), one.get(0));
        assertTrue(one.stream().anyMatch(l -> l.contains("RouteChange[")), "routes were learnt: " + one);
    }

    private static List<String> bgp(int threads) {
        Topology t = FatTree.builder().k(4).propagationDelayNanos(1_000)
            .routing(io.rocelab.topology.route.Routing.bgp()).build().topology();
        List<String> out = new ArrayList<>();
        try (Fabric f = Fabric.builder(t).seed(3).threads(threads).start()) {
            assertEquals(20, f.partition().lpCount());
            out.add("converged in " + f.awaitRouting(1_000_000_000L) + " ns");
            for (SwitchNode s : t.switches()) {
                out.add(s.name() + " " + f.softSwitch(s.name()).bgp().changes());
            }
        }
        return out;
    }

    @Test
    void collectivesAreRefusedOnASplitFabric() {
        Topology t = FatTree.builder().k(4).propagationDelayNanos(1_000).build().topology();
        try (Fabric f = Fabric.builder(t).seed(1).threads(2).start()) {
            var c = new io.rocelab.topology.collective.Collective("ar",
                io.rocelab.topology.collective.CollectiveKind.ALL_REDUCE, io.rocelab.topology.collective.Algorithm.RING,
                List.of("h0", "h5"), 1 << 20, 1, 0, 1, 64 * 1024, 8, 0, -1);
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> io.rocelab.topology.collective.Collectives.connect(f, List.of(c), 1));
            assertEquals("collectives run on one scheduler: build the fabric without Fabric.Builder.threads",
                e.getMessage());
        }
    }

    @Test
    void theSameSeedGivesTheSameRunOnOneTwoAndFourThreads() {
        List<String> one = run(1);
        sameLines(one, run(2), "2 threads");
        sameLines(one, run(4), "4 threads");
        assertTrue(one.stream().anyMatch(s -> s.contains("COMPLETED")), "flows completed: " + one);
    }

    /** Everything the run counted, one line per link direction, switch and flow. */
    private static List<String> run(int threads) {
        FatTree ft = FatTree.builder().k(4).linkGbps(100).propagationDelayNanos(1_000)
            .dcqcn(DcqcnParams.defaults()).build();
        Topology t = ft.topology();
        List<String> hosts = t.hosts().stream().map(Host::name).toList();
        List<Flow> flows = new ArrayList<>();
        for (int j = 1; j <= 6; j++) {
            flows.add(Flow.builder("incast" + j, hosts.get(j * 2), hosts.get(0)).durationNanos(250 * US).build());
        }
        flows.addAll(PoissonFlows.generate(t, hosts, 0.3, SizeDistribution.webSearch(), 0, 250 * US, Verb.WRITE,
            7, "bg"));
        List<String> out = new ArrayList<>();
        try (Fabric f = Fabric.builder(t).seed(7).threads(threads).start()) {
            assertNotNull(f.partition());
            assertEquals(Math.min(threads, 20), f.partition().threads());
            // faults on cables between LPs: loss, corruption, duplicates and reordering on the sender's LP
            String upLink = f.topology().links().stream()
                .filter(l -> l.a().node().contains("-agg") || l.b().node().contains("-agg"))
                .findFirst().orElseThrow().name();
            f.setFaults(upLink, FaultProfile.NONE.withLoss(0.01).withCorruption(0.01).withDuplication(0.01)
                .withReordering(0.05, 2_000, 2));
            Workload w = Workload.start(f, flows, 7);
            VirtualTimeScheduler v = f.virtualTime();
            String cut = f.topology().links().stream().filter(l -> l.a().node().startsWith("core")
                || l.b().node().startsWith("core")).findFirst().orElseThrow().name();
            v.schedule(100 * US, () -> f.setLinkUp(cut, false));
            v.schedule(150 * US, () -> f.setLinkUp(cut, true));
            f.runFor(400 * US);
            out.add("events " + v.eventsExecuted());
            for (var l : f.topology().links()) {
                InProcessLink link = f.link(l.name());
                out.add(l.name() + " a->b " + link.aToB().counters() + " b->a " + link.bToA().counters());
            }
            for (SwitchNode s : f.topology().switches()) {
                var c = f.softSwitch(s.name()).countersSnapshot();
                for (int i = 0; i < c.portNames().size(); i++) {
                    out.add(s.name() + ":" + c.portNames().get(i) + " " + port(c.ports().get(i)));
                }
            }
            for (FlowResult r : w.results()) {
                out.add(r.toString());
            }
            w.close();
        }
        return out;
    }

    private static String port(PortCounters p) {
        return "rx " + p.rxFrames + "/" + p.rxBytes + " tx " + p.txFrames + "/" + p.txBytes + " pfc rx "
            + Arrays.toString(p.rxPfc) + " tx " + Arrays.toString(p.txPfc) + " queue tx " + Arrays.toString(p.queueTxPackets)
            + " drops " + Arrays.toString(p.queueDropPackets) + " ecn " + Arrays.toString(p.queueEcnMarked) + " "
            + Arrays.toString(p.drops);
    }

    /** Line by line, so that a difference names its link, switch or flow. */
    static void sameLines(List<String> expected, List<String> actual, String what) {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            assertEquals(expected.get(i), actual.get(i), what + ", line " + i);
        }
        assertEquals(expected.size(), actual.size(), what + ": lines");
    }
}
