package io.rocelab.topology.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.fabric.link.LinkCounter;
import io.rocelab.nic.stats.NicCounter;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.generate.LeafSpine;
import io.rocelab.topology.qos.QosProfile;
import io.rocelab.topology.qos.QosProfiles;
import io.rocelab.topology.workload.Flow;
import io.rocelab.topology.workload.FlowProgress;
import io.rocelab.topology.workload.FlowResult;
import io.rocelab.topology.workload.FlowResult.Outcome;
import io.rocelab.topology.workload.Verb;
import io.rocelab.topology.workload.Workload;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Each action of a timeline applied at its time in virtual time, on a 2 x 2 leaf-spine with two
 * hosts a leaf (h0, h1 on leaf0; h2, h3 on leaf1), 100 Gb/s, lossless on priority 3; and
 * {@link Timeline#applied()} saying what happened when.
 */
class TimelineTest {
    private static final long US = 1_000;
    private static final long MS = 1_000_000;
    private static final String H0_CABLE = "h0:eth0--leaf0:Ethernet0";
    private static final String H3_CABLE = "h3:eth0--leaf1:Ethernet4";

    private static Fabric fabric(long seed) {
        return Fabric.virtualTime(LeafSpine.builder().leaves(2).spines(2).hostsPerLeaf(2).build().topology(), seed);
    }

    /** Runs until {@code nanos} from the workload's start. */
    private static void runTo(Fabric f, Workload w, long nanos) {
        f.virtualTime().runUntil(w.epochNanos() + nanos);
    }

    /**
     * h0's cable is pulled at 100 us and plugged back at 400 us: nothing crosses it meanwhile, the
     * RC flow retransmits what was lost and completes with no error completion.
     */
    @Test
    void aLinkGoesDownAndComesBack() {
        try (Fabric f = fabric(1)) {
            Workload w = Workload.start(f, List.of(Flow.builder("f", "h0", "h2").messages(200).build()), 1);
            Timeline t = Timeline.schedule(List.of(new Event(100 * US, new LinkState(H0_CABLE, false)),
                new Event(400 * US, new LinkState(H0_CABLE, true))), f, w);
            FlowProgress p = w.progress("f");
            runTo(f, w, 100 * US - 1);
            assertEquals(List.of(), t.applied());
            runTo(f, w, 100 * US);
            assertEquals(List.of("t=100.000 us: link " + H0_CABLE + " down"), t.applied());
            runTo(f, w, 150 * US);
            long stalled = p.bytesCompleted();
            runTo(f, w, 399 * US);
            assertEquals(stalled, p.bytesCompleted(), "nothing completes while the cable is out");
            assertFalse(f.link(H0_CABLE).isUp());
            assertTrue(f.link(H0_CABLE).aToB().counters().get(LinkCounter.DROPPED_LINK_DOWN) > 0);
            runTo(f, w, 400 * US);
            assertEquals(List.of("t=100.000 us: link " + H0_CABLE + " down", "t=400.000 us: link " + H0_CABLE + " up"),
                t.applied());
            assertTrue(f.runUntil(w::finished, 1_000 * MS), "done after the cable is back");
            FlowResult r = w.result("f");
            assertEquals(Outcome.COMPLETED, r.outcome());
            assertEquals(200 * 65_536L, r.bytes());
            assertEquals(0, r.errors());
            assertTrue(r.endNanos() > 400 * US);
            assertTrue(f.nic("h0").counters().get(NicCounter.COMPLETER_RETRY_ERR) > 0, "it retransmitted");
            // the gap: from the last completion before the cut to the first after the retransmission
            // timer (ACK timeout 14: 4.096 us x 2^14 = 67 ms) fired with the cable back
            assertTrue(r.maxGapNanos() >= 300 * US && r.maxGapNanos() <= 2 * 67 * MS, "gap " + r.maxGapNanos());
            w.close();
        }
    }

    /** 2 % loss on h0's cable from 50 us to 300 us: frames are lost then, not after; RC repairs them. */
    @Test
    void faultsComeAndGoOnALink() {
        try (Fabric f = fabric(2)) {
            Workload w = Workload.start(f, List.of(Flow.builder("f", "h0", "h3").messages(400).build()), 2);
            Timeline t = Timeline.schedule(List.of(
                new Event(50 * US, new LinkFaults(H0_CABLE, FaultProfile.NONE.withLoss(0.02))),
                new Event(300 * US, new LinkFaults(H0_CABLE, FaultProfile.NONE))), f, w);
            runTo(f, w, 50 * US - 1);
            assertEquals(0, f.link(H0_CABLE).aToB().counters().get(LinkCounter.DROPPED_LOSS));
            runTo(f, w, 300 * US);
            long lost = f.link(H0_CABLE).aToB().counters().get(LinkCounter.DROPPED_LOSS);
            assertTrue(lost > 0, "frames lost while the fault was on");
            assertTrue(f.runUntil(w::finished, 1_000 * MS));
            assertEquals(lost, f.link(H0_CABLE).aToB().counters().get(LinkCounter.DROPPED_LOSS), "none after");
            assertEquals(Outcome.COMPLETED, w.result("f").outcome());
            assertEquals(0, w.result("f").errors());
            assertEquals(List.of("t=50.000 us: link " + H0_CABLE + " faults " + FaultProfile.NONE.withLoss(0.02),
                "t=300.000 us: link " + H0_CABLE + " faults cleared"), t.applied());
            w.close();
        }
    }

    /**
     * h3 storms PFC on priority 3 from 100 us to 300 us: leaf1 stops sending it RoCE traffic, the
     * flow into h3 stalls and, as leaf1's buffer for it fills, the pause spreads back across the
     * fabric to its sender h0. A flow on priority 0 (DSCP 0) through the same switches keeps going:
     * PFC pauses one priority. After the storm the stalled flow resumes.
     */
    @Test
    void aPfcStormStallsThePausedPriority() {
        // each lossless PG pauses at 1/128 of the free pool (some 45 KB), not the SN2700's half: the
        // pause reaches h0 within microseconds of the storm, before the victim's 512 KiB have crossed
        QosProfile shallow = QosProfiles.LOSSLESS.withLosslessPg(QosProfiles.LOSSLESS.xon(), -1, -7, false);
        try (Fabric f = Fabric.virtualTime(LeafSpine.builder().leaves(2).spines(2).hostsPerLeaf(2).qos(shallow).build()
            .topology(), 3)) {
            Workload w = Workload.start(f, List.of(Flow.builder("victim", "h0", "h3").build(),
                Flow.builder("other-priority", "h1", "h2").dscp(0).build()), 3);
            Timeline t = Timeline.schedule(List.of(new Event(100 * US, new PfcStorm("h3", 3, true)),
                new Event(300 * US, new PfcStorm("h3", 3, false))), f, w);
            FlowProgress victim = w.progress("victim");
            FlowProgress other = w.progress("other-priority");
            runTo(f, w, 150 * US);
            long v0 = victim.bytesCompleted();
            long o0 = other.bytesCompleted();
            runTo(f, w, 300 * US);
            assertEquals(v0, victim.bytesCompleted(), "paused: nothing reaches h3 (its window drained by 150 us)");
            assertTrue(other.bytesCompleted() - o0 > 0.8 * 100e9 / 8 * 150e-6,
                "priority 0 runs on: " + (other.bytesCompleted() - o0) + " B in 150 us");
            assertTrue(f.nic("h3").counters().get(NicCounter.TX_PRIO3_PAUSE) > 0);
            int port = f.softSwitch("leaf1").countersSnapshot().portNames().indexOf("Ethernet4");
            assertTrue(f.softSwitch("leaf1").countersSnapshot().ports().get(port).rxPfc[3] > 0,
                "leaf1 counted the pauses from h3");
            assertTrue(f.nic("h0").counters().get(NicCounter.RX_PRIO3_PAUSE) > 0, "the pause spread back to h0");
            assertEquals(0, f.nic("h1").counters().get(NicCounter.RX_PRIO0_PAUSE), "priority 0 is never paused");
            // the storm's last pause (65535 quanta of 512 bit times: 336 us at 100 Gb/s) runs out by 640 us
            runTo(f, w, 640 * US);
            long v1 = victim.bytesCompleted();
            runTo(f, w, 940 * US);
            assertTrue(victim.bytesCompleted() - v1 > 0.5 * 100e9 / 8 * 300e-6,
                "it runs again after the storm: " + (victim.bytesCompleted() - v1) + " B in 300 us");
            assertEquals(List.of("t=100.000 us: host h3 starts a PFC storm on priority 3",
                "t=300.000 us: host h3 stops its PFC storm"), t.applied());
            w.close();
        }
    }

    /**
     * h2 stops draining its receive queue at 100 us and resumes at 300 us: the SEND flow into it
     * meets RNR NAKs and waits (rnr retry 7: forever), then completes every message with no error.
     */
    @Test
    void aReceiverThatStopsDrainingStallsSendsIntoIt() {
        try (Fabric f = fabric(4)) {
            Workload w = Workload.start(f, List.of(Flow.builder("s", "h0", "h2").verb(Verb.SEND).messages(300).build()),
                4);
            Timeline t = Timeline.schedule(List.of(new Event(100 * US, new Draining("h2", false)),
                new Event(300 * US, new Draining("h2", true))), f, w);
            FlowProgress p = w.progress("s");
            // the 16 receives posted before 100 us are still used (1 MB, about 90 us at line rate)
            runTo(f, w, 220 * US);
            long stalled = p.bytesCompleted();
            runTo(f, w, 300 * US);
            assertEquals(stalled, p.bytesCompleted(), "no receive posted, no SEND completes");
            assertTrue(f.nic("h2").counters().get(NicCounter.SEND_RNR_ERR) > 0, "h2 answered RNR");
            assertTrue(f.nic("h0").counters().get(NicCounter.RCVD_RNR_ERR) > 0, "h0 heard it");
            assertTrue(f.runUntil(w::finished, 100 * MS));
            FlowResult r = w.result("s");
            assertEquals(Outcome.COMPLETED, r.outcome());
            assertEquals(300 * 65_536L, r.bytesDelivered());
            assertEquals(0, r.errors());
            assertEquals(List.of("t=100.000 us: host h2 stops draining its receive queues",
                "t=300.000 us: host h2 drains its receive queues again"), t.applied());
            w.close();
        }
    }

    /**
     * The same for UD: while h2 does not drain (100 us to 200 us), datagrams that find no receive
     * posted are dropped once the 16 posted before are used; the sender does not notice (its sends
     * complete), the receiver gets less. After that, every datagram lands again.
     */
    @Test
    void aReceiverThatStopsDrainingDropsDatagrams() {
        try (Fabric f = fabric(4)) {
            Workload w = Workload.start(f, List.of(Flow.builder("ud", "h0", "h2").verb(Verb.UD_SEND).messageBytes(4096)
                .durationNanos(300 * US).build()), 4);
            Timeline.schedule(List.of(new Event(100 * US, new Draining("h2", false)),
                new Event(200 * US, new Draining("h2", true))), f, w);
            runTo(f, w, 100 * US);
            long sentBefore = w.progress("ud").bytesCompleted();
            assertEquals(sentBefore, w.result("ud").bytesDelivered(), 8 * 4096, "all but what is in flight lands");
            assertTrue(f.runUntil(w::finished, 10 * MS));
            FlowResult r = w.result("ud");
            assertEquals(Outcome.STOPPED, r.outcome());
            assertEquals(0, r.errors());
            long lost = r.bytes() - r.bytesDelivered();
            // 100 us at the rate it ran, less the 16 receives posted before: it lost most of that
            double stalledBytes = r.goodputBitsPerSecond() / 8 * 100e-6;
            assertTrue(lost > 0.7 * stalledBytes && lost < stalledBytes, "lost " + lost + " of " + r.bytes()
                + " B, 100 us is " + (long) stalledBytes + " B");
            w.close();
        }
    }

    /** A flow waiting for its start is started at 100 us and stopped at 250 us by the timeline. */
    @Test
    void aFlowIsStartedAndStoppedByTheTimeline() {
        try (Fabric f = fabric(5)) {
            Workload w = Workload.start(f, List.of(Flow.builder("later", "h1", "h3").startOnDemand().build()), 5);
            Timeline t = Timeline.schedule(List.of(new Event(250 * US, new FlowControl("later", false)),
                new Event(100 * US, new FlowControl("later", true))), f, w);
            runTo(f, w, 99 * US);
            assertFalse(w.progress("later").started());
            runTo(f, w, 1 * MS);
            FlowResult r = w.result("later");
            assertEquals(Outcome.STOPPED, r.outcome());
            assertEquals(100 * US, r.startNanos());
            assertTrue(r.endNanos() >= 250 * US && r.endNanos() < 300 * US, "stopped at 250 us: " + r.endNanos());
            assertEquals(r.bytes() * 8e9 / (r.endNanos() - r.startNanos()), r.goodputBitsPerSecond(), 1);
            assertTrue(r.goodputBitsPerSecond() > 80e9, r.toString());
            assertEquals(List.of("t=100.000 us: flow later starts", "t=250.000 us: flow later stops"), t.applied(),
                "in time order, whatever the list's order");
            w.close();
        }
    }

    /** Events at one time apply in the order given; a closed timeline applies nothing more. */
    /**
     * leaf1 (h2's and h3's leaf) fails at 100 us and comes back at 400 us: every cable of it goes down
     * (host and spine sides), nothing reaches h2 meanwhile, and the RC flow into it resumes after and
     * completes with no error completion; a spine failing instead is routed around at once.
     */
    @Test
    void aWholeSwitchFailsAndComesBack() {
        try (Fabric f = fabric(8)) {
            Workload w = Workload.start(f, List.of(Flow.builder("f", "h0", "h2").messages(200).build()), 8);
            Timeline t = Timeline.schedule(List.of(new Event(100 * US, new SwitchPower("leaf1", false)),
                new Event(400 * US, new SwitchPower("leaf1", true))), f, w);
            List<String> leaf1Cables = f.topology().links().stream()
                .filter(l -> l.a().node().equals("leaf1") || l.b().node().equals("leaf1")).map(l -> l.name()).toList();
            assertEquals(4, leaf1Cables.size(), "two hosts and two spines");
            FlowProgress p = w.progress("f");
            runTo(f, w, 150 * US);
            long stalled = p.bytesCompleted();
            for (String c : leaf1Cables) {
                assertFalse(f.link(c).isUp(), c + " is down with its switch");
            }
            runTo(f, w, 399 * US);
            assertEquals(stalled, p.bytesCompleted(), "nothing completes while the leaf is down");
            runTo(f, w, 400 * US);
            for (String c : leaf1Cables) {
                assertTrue(f.link(c).isUp(), c + " is back");
            }
            assertTrue(f.runUntil(w::finished, 1_000 * MS), "done after the leaf is back");
            assertEquals(Outcome.COMPLETED, w.result("f").outcome());
            assertEquals(0, w.result("f").errors());
            assertEquals(List.of("t=100.000 us: switch leaf1 fails (every cable of it down)",
                "t=400.000 us: switch leaf1 comes back"), t.applied());
            w.close();
        }
        try (Fabric f = fabric(9)) {
            Workload w = Workload.start(f, List.of(Flow.builder("f", "h0", "h2").messages(400).qps(4).build()), 9);
            Timeline.schedule(List.of(new Event(50 * US, new SwitchPower("spine0", false))), f, w);
            assertTrue(f.runUntil(w::finished, 1_000 * MS), "ECMP routes around the spine for good");
            assertEquals(0, w.result("f").errors());
            w.close();
        }
    }

    /**
     * h0's transmitter dies silently at 100 us and is repaired at 400 us: its cable stays up on both
     * sides, every frame it sends meanwhile is lost while frames to it still arrive (h2's writes into
     * h0 land; their ACKs do not), and both RC flows retransmit and complete after the repair.
     */
    @Test
    void aSilentTransmitterLosesFramesWithTheLinkUp() {
        try (Fabric f = fabric(10)) {
            Workload w = Workload.start(f, List.of(Flow.builder("out", "h0", "h2").messages(200).build(),
                Flow.builder("in", "h2", "h0").messages(200).build()), 10);
            Timeline t = Timeline.schedule(List.of(new Event(100 * US, new SilentPort("h0", true)),
                new Event(400 * US, new SilentPort("h0", false))), f, w);
            runTo(f, w, 110 * US);
            long lost = f.link(H0_CABLE).aToB().counters().get(LinkCounter.DROPPED_LOSS);
            long delivered = f.link(H0_CABLE).bToA().counters().get(LinkCounter.FRAMES_DELIVERED);
            runTo(f, w, 390 * US);
            assertTrue(f.link(H0_CABLE).isUp(), "the link stays up");
            assertTrue(f.link(H0_CABLE).aToB().counters().get(LinkCounter.DROPPED_LOSS) > lost, "h0's frames are lost");
            assertTrue(f.link(H0_CABLE).bToA().counters().get(LinkCounter.FRAMES_DELIVERED) > delivered,
                "frames to h0 still arrive");
            assertEquals(0, f.link(H0_CABLE).aToB().counters().get(LinkCounter.DROPPED_LINK_DOWN));
            assertTrue(f.runUntil(w::finished, 1_000 * MS), "both finish after the repair");
            for (String flow : List.of("out", "in")) {
                assertEquals(Outcome.COMPLETED, w.result(flow).outcome(), flow);
                assertEquals(0, w.result(flow).errors(), flow);
            }
            assertEquals(List.of("t=100.000 us: port h0's transmitter dies silently (link stays up)",
                "t=400.000 us: port h0's transmitter works again"), t.applied());
            w.close();
        }
    }

    @Test
    void eventsAtOneTimeKeepTheirOrderAndCloseCancelsTheRest() {
        try (Fabric f = fabric(6)) {
            Timeline t = Timeline.schedule(List.of(new Event(10 * US, new LinkState(H3_CABLE, false)),
                new Event(10 * US, new LinkState(H3_CABLE, true)), new Event(20 * US, new LinkState(H3_CABLE, false))),
                f, null);
            f.runFor(15 * US);
            assertTrue(f.link(H3_CABLE).isUp(), "down, then up, at 10 us");
            assertEquals(2, t.applied().size());
            t.close();
            f.runFor(100 * US);
            assertTrue(f.link(H3_CABLE).isUp(), "the 20 us event was cancelled");
            assertEquals(2, t.applied().size());
        }
    }

    @Test
    void eventsNamingWhatTheFabricLacksAreRefusedOneLineEach() {
        try (Fabric f = fabric(7)) {
            Workload w = Workload.start(f, List.of(Flow.builder("f", "h0", "h1").build()), 7);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Timeline.schedule(List.of(
                new Event(5, new LinkState("nowhere", false)), new Event(6, new PfcStorm("h9", 3, true)),
                new Event(7, new FlowControl("g", true)), new Event(8, new FlowControl("f", true)),
                new Event(9, new SwitchPower("spine7", false)), new Event(10, new SilentPort("leaf0:Ethernet99", true))),
                f, w));
            assertEquals("""
                5 bad events:
                  t=0.005 us: link nowhere down: no link 'nowhere' in the fabric
                  t=0.006 us: host h9 starts a PFC storm on priority 3: no host 'h9' in the fabric
                  t=0.007 us: flow g starts: no flow 'g' in the workload
                  t=0.009 us: switch spine7 fails (every cable of it down): no switch 'spine7' in the fabric
                  t=0.010 us: port leaf0:Ethernet99's transmitter dies silently (link stays up): nothing is cabled to leaf0:Ethernet99""", e.getMessage());
            assertEquals("t=0.001 us: host h1 stops draining its receive queues: no workload to tell",
                assertThrows(IllegalArgumentException.class,
                    () -> Timeline.schedule(List.of(new Event(1, new Draining("h1", false))), f, null)).getMessage());
            assertThrows(IllegalArgumentException.class, () -> new Event(-1, new LinkState("x", true)));
            assertThrows(IllegalArgumentException.class, () -> new PfcStorm("h1", 8, true));
            w.close();
        }
    }

    /**
     * In real time a timer applies the events: a flow started and stopped 40 ms later. The flow's QPs
     * are set up when its workload starts, over the fabric, which takes what the machine gives (on a
     * loaded machine, tens of milliseconds for code running the first time); a stop that comes before
     * they are ready means the flow never starts, by design. So the events come after twice the time
     * a flow started at once on the same fabric took to get going (its setup, the first use of the
     * code included), at least 20 ms after the start: a timer that applies them early, late by more
     * than the test waits, out of order, or not at all still fails it.
     */
    @Test
    @Tag("realtime")
    void inRealTimeATimerAppliesTheEvents() {
        LeafSpine ls = LeafSpine.builder().leaves(1).spines(1).hostsPerLeaf(2).hostLinkGbps(10).build();
        try (Fabric f = Fabric.realTime(ls.topology(), 8)) {
            Workload first = Workload.start(f, List.of(Flow.builder("first", "h0", "h1").messages(8).build()), 8);
            awaitFinished(first.progress("first"));
            long setup = first.result("first").startNanos();
            assertTrue(setup >= 0, first.result("first").toString());
            first.close();
            long start = (20 + 2 * setup / MS) * MS;
            long stop = start + 40 * MS;

            Workload w = Workload.start(f, List.of(Flow.builder("rt", "h0", "h1").startOnDemand().build()), 8);
            try (Timeline t = Timeline.schedule(List.of(new Event(start, new FlowControl("rt", true)),
                new Event(stop, new FlowControl("rt", false))), f, w)) {
                FlowProgress p = w.progress("rt");
                awaitFinished(p);
                FlowResult r = w.result("rt");
                String what = r + ", " + t.applied() + ", a flow's setup " + setup / 1000 + " us";
                assertEquals(Outcome.STOPPED, r.outcome(), what);
                assertTrue(r.startNanos() >= start, "not before its event: " + what);
                assertTrue(r.bytes() > 0, what);
                assertEquals(List.of("t=" + start / 1000 + ".000 us: flow rt starts",
                    "t=" + stop / 1000 + ".000 us: flow rt stops"), t.applied());
            }
            w.close();
        }
    }

    private static void awaitFinished(FlowProgress p) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!p.finished() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(1_000_000);
        }
        assertTrue(p.finished(), "finished within 20 s");
    }
}
