package io.rocelab.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.link.LinkCounter;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.nic.stats.NicCounter;
import io.rocelab.nic.WorkCompletion;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.fabric.FabricMode;
import io.rocelab.topology.generate.LeafSpine;
import io.rocelab.topology.qos.QosProfiles;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** A fabric built from a topology: its parts by name, links changed while it runs, and real time. */
class FabricTest {
    private static final int TC = QosProfiles.LOSSLESS.roceTrafficClass();

    private static LeafSpine twoByTwo() {
        return LeafSpine.builder().leaves(2).spines(2).hostsPerLeaf(1).build();
    }

    private static List<Verbs.Write> post(Verbs v, int qps, int bytes) {
        List<Verbs.Write> writes = new ArrayList<>();
        for (int q = 0; q < qps; q++) {
            writes.add(v.new Write("h0", "h1", bytes, q));
        }
        for (int q = 0; q < qps; q++) {
            writes.get(q).post(q);
        }
        return writes;
    }

    private static long sent(InProcessLink l) {
        return l.aToB().counters().get(LinkCounter.FRAMES_SENT);
    }

    @Test
    void partsAreFoundByName() {
        LeafSpine ls = twoByTwo();
        try (Fabric f = Fabric.virtualTime(ls.topology(), 1)) {
            assertEquals("h1", f.nic("h1").name());
            assertEquals(ls.topology().host("h1").ipv4(), f.nic("h1").ipv4());
            assertEquals(4096, f.nic("h1").activeMtu());
            assertEquals(100_000_000_000L, f.link("h0:eth0--leaf0:Ethernet0").rateBitsPerSecond());
            assertEquals(25, f.link("h0:eth0--leaf0:Ethernet0").propagationDelayNanos(), "5 m of cable");
            assertEquals(f.link("leaf0:Ethernet8--spine1:Ethernet0"), f.linkAt("spine1:Ethernet0"));
            assertEquals(f.virtualTime(), f.scheduler("spine1"), "one scheduler for everything");
            assertEquals(FabricMode.VIRTUAL, f.mode());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> f.softSwitch("spine9"));
            assertEquals("no switch 'spine9' in the fabric", e.getMessage());
        }
    }

    /**
     * A spine fails mid-transfer (both its cables pulled): every switch next to it has another ECMP
     * member, so the leaves re-hash at once, and the RC QPs retransmit what was lost over spine1.
     */
    @Test
    void aSpineLostMidTransferIsRoutedAround() {
        LeafSpine ls = twoByTwo();
        try (Fabric f = Fabric.virtualTime(ls.topology(), 2)) {
            Verbs v = new Verbs(f, TC);
            List<Verbs.Write> writes = post(v, 16, 65_536);
            InProcessLink up0 = f.linkAt("leaf0:" + ls.uplink(0));
            InProcessLink up1 = f.linkAt("leaf0:" + ls.uplink(1));
            InProcessLink down0 = f.linkAt("leaf1:" + ls.uplink(0));
            assertTrue(f.runUntil(() -> sent(up0) > 0 && sent(up1) > 0, 1_000_000L),
                "both spines in use before: " + sent(up0) + " / " + sent(up1));
            f.setLinkUp(up0.name(), false);
            f.setLinkUp(down0.name(), false);
            long before = sent(up0);
            assertTrue(f.runUntil(() -> {
                v.pollAll();
                return v.completions().size() == writes.size();
            }, 2_000_000_000L), () -> v.completions().size() + " of 16 WRITEs");
            assertTrue(v.completions().stream().allMatch(WorkCompletion::isSuccess), v.completions()::toString);
            assertTrue(writes.stream().allMatch(Verbs.Write::arrived), "every byte, over spine1");
            assertEquals(before, sent(up0), "nothing more went towards spine0 once it was cut off");
            assertTrue(f.nic("h0").counters().get(NicCounter.COMPLETER_RETRY_ERR) > 0,
                "the QPs on spine0 retransmitted what was lost");

            f.setLinkUp(up0.name(), true);
            f.setLinkUp(down0.name(), true);
            long again = sent(up0);
            List<Verbs.Write> more = post(v, 16, 65_536);
            assertTrue(f.runUntil(() -> {
                v.pollAll();
                return v.completions().size() == 32;
            }, 1_000_000_000L));
            assertTrue(more.stream().allMatch(Verbs.Write::arrived));
            assertTrue(sent(up0) > again, "spine0 is back in the ECMP group");
        }
    }

    @Test
    void lossSetWhileRunningIsAppliedAndRecoveredFrom() {
        LeafSpine ls = twoByTwo();
        try (Fabric f = Fabric.virtualTime(ls.topology(), 3)) {
            Verbs v = new Verbs(f, TC);
            String cable = "h0:eth0--leaf0:Ethernet0";
            f.setFaults(cable, FaultProfile.NONE.withLoss(0.2));
            List<Verbs.Write> writes = post(v, 1, 131_072);
            assertTrue(f.runUntil(() -> {
                v.pollAll();
                return v.completions().size() == 1;
            }, 10_000_000_000L));
            assertTrue(v.completions().get(0).isSuccess(), v.completions()::toString);
            assertTrue(writes.get(0).arrived());
            long lost = f.link(cable).aToB().counters().get(LinkCounter.DROPPED_LOSS);
            assertTrue(lost > 0, "frames were lost");
            assertTrue(f.nic("h0").counters().get(NicCounter.RETRY_EXCEEDED_ERR) == 0);
            f.setFaults(cable, FaultProfile.NONE);
            post(v, 1, 131_072);
            assertTrue(f.runUntil(() -> {
                v.pollAll();
                return v.completions().size() == 2;
            }, 1_000_000_000L));
            assertEquals(lost, f.link(cable).aToB().counters().get(LinkCounter.DROPPED_LOSS), "no more loss");
        }
    }

    /** Frames lost on a 5 % lossy cable, and when the WRITEs were done, for a run of {@code seed}. */
    private static String lossyRun(long seed) {
        LeafSpine ls = twoByTwo();
        try (Fabric f = Fabric.virtualTime(ls.topology(), seed)) {
            String cable = "h0:eth0--leaf0:Ethernet0";
            f.setFaults(cable, FaultProfile.NONE.withLoss(0.05));
            Verbs v = new Verbs(f, TC);
            List<Verbs.Write> writes = post(v, 4, 65_536);
            assertTrue(f.runUntil(() -> {
                v.pollAll();
                return v.completions().size() == 4;
            }, 10_000_000_000L));
            assertTrue(writes.stream().allMatch(Verbs.Write::arrived));
            return f.link(cable).aToB().counters().get(LinkCounter.DROPPED_LOSS) + " lost, done at "
                + f.virtualTime().nanoTime() + " ns";
        }
    }

    @Test
    void theSeedDecidesWhichFramesAreLost() {
        String a = lossyRun(21);
        assertEquals(a, lossyRun(21), "the same seed, the same losses and the same end");
        assertTrue(!a.equals(lossyRun(22)) || !a.equals(lossyRun(23)), "another seed, other losses: " + a);
    }

    @Test
    void theSameTopologyRunsInRealTime() {
        LeafSpine ls = LeafSpine.builder().leaves(2).spines(1).hostsPerLeaf(1).hostLinkGbps(10).build();
        try (Fabric f = Fabric.realTime(ls.topology(), 4)) {
            assertInstanceOf(RealTimeScheduler.class, f.scheduler("h0"));
            assertNotSame(f.scheduler("h0"), f.scheduler("leaf0"), "an event loop per NIC and per switch");
            assertThrows(IllegalStateException.class, f::virtualTime);
            Verbs v = new Verbs(f, TC);
            List<Verbs.Write> writes = post(v, 2, 65_536);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (v.completions().size() < 2 && System.nanoTime() < deadline) {
                v.pollAll();
                LockSupport.parkNanos(1_000_000);
            }
            assertEquals(2, v.completions().size(), "both WRITEs completed within 20 s");
            assertTrue(v.completions().stream().allMatch(WorkCompletion::isSuccess), v.completions()::toString);
            assertTrue(writes.stream().allMatch(Verbs.Write::arrived));
            long rx = f.onOwner("leaf1", () -> f.linkAt("spine0:Ethernet4").bToA().counters()
                .get(LinkCounter.FRAMES_DELIVERED));
            assertTrue(rx >= 32, "the WRITEs came down from the spine: " + rx);
        }
    }

    @Test
    void realTimeNodesCanShareEventLoopsRoundRobin() {
        LeafSpine ls = twoByTwo(); // h0 h1 leaf0 leaf1 spine0 spine1: six nodes on two loops
        try (Fabric f = Fabric.builder(ls.topology()).mode(FabricMode.REAL_TIME).seed(4).eventLoops(2).start()) {
            List<String> threads = new ArrayList<>();
            for (String node : List.of("h0", "h1", "leaf0", "leaf1", "spine0", "spine1")) {
                threads.add(f.onOwner(node, () -> Thread.currentThread().getName()));
            }
            assertEquals(2, threads.stream().distinct().count(), threads::toString);
            assertEquals(threads.get(0), threads.get(2), "the third node is back on the first loop");
            Verbs v = new Verbs(f, TC);
            post(v, 2, 65_536);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (v.completions().size() < 2 && System.nanoTime() < deadline) {
                v.pollAll();
                LockSupport.parkNanos(1_000_000);
            }
            assertEquals(2, v.completions().size(), "both WRITEs completed within 20 s");
            assertTrue(v.completions().stream().allMatch(WorkCompletion::isSuccess), v.completions()::toString);
        }
    }

    @Test
    void aBareHostHasACabledPortAndNoNic() {
        try (Fabric f = Fabric.builder(twoByTwo().topology()).bareHosts().start()) {
            assertThrows(IllegalArgumentException.class, () -> f.nic("h0"));
            assertTrue(f.hostPort("h0").isWritable(), "h0's end of its link is there for an application's NIC");
            assertNotSame(f.hostPort("h0"), f.hostPort("h1"));
            assertThrows(IllegalArgumentException.class, () -> f.hostPort("leaf0"));
        }
    }
}
