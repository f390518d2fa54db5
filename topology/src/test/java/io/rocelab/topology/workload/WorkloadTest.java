package io.rocelab.topology.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.nic.stats.NicCounter;
import io.rocelab.nic.cc.DcqcnParams;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.generate.FatTree;
import io.rocelab.topology.generate.LeafSpine;
import io.rocelab.topology.qos.QosProfiles;
import io.rocelab.topology.workload.FlowResult.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Flows on a generated leaf-spine fabric (2 leaves, 2 spines, 2 hosts a leaf, 100 Gb/s, lossless)
 * in virtual time: what they complete, how long it takes, and that a seed decides everything.
 */
class WorkloadTest {
    private static final long US = 1_000;
    private static final long MS = 1_000_000;
    private static final double LINE = 100e9;

    private static LeafSpine fabric() {
        return LeafSpine.builder().leaves(2).spines(2).hostsPerLeaf(2).build();
    }

    /** Runs {@code flows} on a fresh fabric until they are done (at most {@code maxNanos}). */
    private static List<FlowResult> run(List<Flow> flows, long seed, long maxNanos) {
        try (Fabric f = Fabric.virtualTime(fabric().topology(), seed)) {
            Workload w = Workload.start(f, flows, seed);
            assertTrue(f.runUntil(w::finished, maxNanos), "the flows finished within " + maxNanos + " ns");
            List<FlowResult> r = w.results();
            w.close();
            return r;
        }
    }

    /**
     * Short flows for tests of a few hundred microseconds (web-search flows last milliseconds): 30 %
     * up to 4 KB, half up to 64 KB, the rest up to 256 KB; mean about 50 KB.
     */
    private static final SizeDistribution SHORT = SizeDistribution.cdf("short",
        new java.io.StringReader("0 0\n4096 30\n65536 80\n262144 100\n"));

    /** The wire time of {@code payload} bytes at 100 Gb/s, without headers: no flow can beat it. */
    private static long wireNanos(long payload) {
        return (long) (payload * 8 / LINE * 1e9);
    }

    /**
     * One flow of each verb, each between hosts on different leaves (through a spine): each
     * completes its messages with exactly their bytes, SEND and UD SEND deliver them into the
     * receiver's posted buffers, and the receivers count what they took.
     */
    @Test
    void everyVerbCompletesItsMessagesWithTheirBytes() {
        try (Fabric f = Fabric.virtualTime(fabric().topology(), 1)) {
            List<Flow> flows = List.of(
                Flow.builder("write", "h0", "h2").messageBytes(65_536).messages(20).build(),
                Flow.builder("read", "h1", "h3").verb(Verb.READ).messageBytes(65_536).messages(20).build(),
                Flow.builder("send", "h2", "h0").verb(Verb.SEND).messageBytes(65_536).messages(20).build(),
                Flow.builder("ud", "h3", "h1").verb(Verb.UD_SEND).messageBytes(4096).messages(40).build());
            Workload w = Workload.start(f, flows, 7);
            assertTrue(f.runUntil(w::finished, 10 * MS));
            for (FlowResult r : w.results()) {
                long n = r.name().equals("ud") ? 40 : 20;
                long size = r.name().equals("ud") ? 4096 : 65_536;
                assertEquals(Outcome.COMPLETED, r.outcome(), r.name());
                assertEquals(n, r.messages(), r.name());
                assertEquals(n * size, r.bytes(), r.name());
                assertEquals(n * size, r.bytesDelivered(), r.name() + ": the destination received every byte");
                assertEquals(0, r.errors(), r.name());
                assertEquals(0, r.startNanos(), r.name());
                assertEquals(r.endNanos() - r.startNanos(), r.fctNanos(), r.name());
                assertTrue(r.fctNanos() > wireNanos(n * size), r.name() + ": " + r.fctNanos() + " ns");
                assertTrue(r.latencyP50Nanos() > 0 && r.latencyP50Nanos() <= r.latencyP99Nanos()
                    && r.latencyP99Nanos() <= r.latencyMaxNanos(), r.name() + ": " + r);
                assertTrue(r.maxGapNanos() > 0 && r.maxGapNanos() <= r.latencyMaxNanos(),
                    "no failure: the longest gap is at most a message's time: " + r);
            }
            assertEquals(20, f.nic("h0").counters().get(NicCounter.RDMA_RECVS), "one receive per SEND");
            assertEquals(40, f.nic("h1").counters().get(NicCounter.RDMA_RECVS), "one receive per datagram");
            // READ: h3 answers with the data, h1 sends only the requests
            assertTrue(f.nic("h3").counters().get(NicCounter.SENT_PKTS) >= 20 * 16);
            assertTrue(f.nic("h1").counters().get(NicCounter.SENT_PKTS) < f.nic("h3").counters().get(NicCounter.SENT_PKTS));
            w.close();
        }
    }

    /**
     * 400 x 64 KB WRITEs alone on the fabric: the FCT is the wire time of the payload plus the
     * headers (RoCEv2 over Ethernet adds 78 bytes to each 4096-byte packet, Ethernet's preamble and
     * gap 20 more: 2.4 %) and a round trip, and not much more.
     */
    @Test
    void aLoneFlowsFctIsItsWireTime() {
        long bytes = 400L * 65_536;
        FlowResult r = run(List.of(Flow.builder("f", "h0", "h3").messageBytes(65_536).messages(400).build()), 1, 10 * MS)
            .get(0);
        long ideal = wireNanos(bytes);
        assertTrue(r.fctNanos() >= ideal * 1.02, "FCT " + r.fctNanos() + " ns, payload alone " + ideal + " ns");
        assertTrue(r.fctNanos() <= ideal * 1.06 + 20 * US, "FCT " + r.fctNanos() + " ns, payload alone " + ideal + " ns");
        assertEquals(bytes * 8e9 / r.fctNanos(), r.goodputBitsPerSecond(), 1);
    }

    /** A flow with a duration stops posting at its end; what it had outstanding still completes. */
    @Test
    void aDurationFlowStopsAtItsEnd() {
        FlowResult r = run(List.of(Flow.builder("d", "h0", "h2").startNanos(50 * US).durationNanos(300 * US).build()),
            1, 10 * MS).get(0);
        assertEquals(Outcome.STOPPED, r.outcome());
        assertEquals(50 * US, r.startNanos());
        assertEquals(-1, r.fctNanos(), "no message count, no FCT");
        // it ends after its last post (350 us) by at most its window: 8 x 64 KB, 42 us at line rate, and a round trip
        assertTrue(r.endNanos() >= 350 * US && r.endNanos() < 350 * US + 60 * US, "ended at " + r.endNanos());
        double rate = r.bytes() * 8e9 / (r.endNanos() - r.startNanos());
        assertTrue(rate > 0.9 * LINE && rate < LINE, "alone, it runs near line rate: " + rate);
        assertEquals(r.bytes(), r.messages() * 65_536);
    }

    /** Capped flows run at their cap, whatever else shares their path. */
    @Test
    void aRateCappedFlowRunsAtItsCap() {
        List<FlowResult> rs = run(List.of(
            Flow.builder("capped", "h0", "h2").rateGbps(25).durationNanos(1 * MS).build(),
            Flow.builder("capped-4qps", "h1", "h3").rateGbps(40).qps(4).durationNanos(1 * MS).build()), 1, 10 * MS);
        assertEquals(25e9, rs.get(0).goodputBitsPerSecond(), 25e9 * 0.05, rs.get(0).toString());
        assertEquals(40e9, rs.get(1).goodputBitsPerSecond(), 40e9 * 0.05, "split over 4 QPs: " + rs.get(1));
    }

    /**
     * A window of one small message on one QP waits a round trip per message; several QPs with a
     * window each fill the link. Messages longer than a work request go in pieces and count once.
     */
    @Test
    void windowsAndQpsKeepTheLinkBusy() {
        List<FlowResult> rs = run(List.of(
            Flow.builder("one", "h0", "h2").messageBytes(4096).window(1).messages(200).build(),
            Flow.builder("many", "h1", "h3").messageBytes(4096).qps(4).window(16).messages(2000).build(),
            Flow.builder("big", "h2", "h0").messageBytes(1_000_000).qps(2).window(3).messages(12).build()), 1, 10 * MS);
        FlowResult one = rs.get(0);
        FlowResult many = rs.get(1);
        FlowResult big = rs.get(2);
        // one 4 KB message per round trip (two leaves and a spine, ~1.7 us): far below line rate
        assertTrue(one.goodputBitsPerSecond() < 0.3 * LINE, one.toString());
        assertTrue(many.goodputBitsPerSecond() > 0.85 * LINE, many.toString());
        assertTrue(one.latencyP50Nanos() < many.latencyP50Nanos(), "the windows queue behind each other");
        assertEquals(Outcome.COMPLETED, big.outcome());
        assertEquals(12, big.messages());
        assertEquals(12_000_000, big.bytes(), "4 work requests a message, the last 213,568 bytes");
    }

    /** A flow started and stopped from outside while the fabric runs. */
    @Test
    void aFlowStartsAndStopsOnDemand() {
        try (Fabric f = Fabric.virtualTime(fabric().topology(), 1)) {
            Workload w = Workload.start(f, List.of(Flow.builder("late", "h0", "h3").startOnDemand().build(),
                Flow.builder("never", "h1", "h2").startOnDemand().messages(5).build()), 1);
            f.runFor(100 * US);
            FlowProgress p = w.progress("late");
            assertFalse(p.started());
            assertEquals(0, p.bytesCompleted());
            w.startFlow("late");
            f.runFor(200 * US);
            assertTrue(p.started());
            long midway = p.bytesCompleted();
            assertTrue(midway > 0.8 * LINE / 8 * 200e-6, "it ran 200 us at near line rate: " + midway + " B");
            w.stopFlow("late");
            f.runFor(100 * US);
            assertTrue(p.finished());
            long after = p.bytesCompleted();
            f.runFor(100 * US);
            assertEquals(after, p.bytesCompleted(), "nothing more after the stop");
            FlowResult r = w.result("late");
            assertEquals(Outcome.STOPPED, r.outcome());
            assertEquals(100 * US, r.startNanos());
            assertTrue(r.endNanos() > 300 * US && r.endNanos() < 350 * US, "its window drained: " + r.endNanos());
            assertFalse(w.finished(), "'never' waits for its start");
            w.stopFlow("never");
            f.runFor(1 * US);
            assertEquals(Outcome.NOT_STARTED, w.result("never").outcome());
            assertTrue(w.finished());
            assertThrows(IllegalArgumentException.class, () -> w.startFlow("nope"));
            w.close();
        }
    }

    /**
     * A flow stopped after its start time came but before its QPs were ready (a timeline's stop that
     * overtakes a slow setup) never starts: its QPs becoming ready later do not start it.
     */
    @Test
    void aFlowStoppedBeforeItsQpsAreReadyNeverStarts() {
        try (Fabric f = Fabric.virtualTime(fabric().topology(), 1)) {
            // through rdma_cm: its QPs are ready only once the CM's REQ, REP and RTU have crossed
            Workload w = Workload.start(f, List.of(Flow.builder("early", "h0", "h3").reconnectAfterNanos(10 * US).build()), 1);
            f.runFor(1);
            assertFalse(w.progress("early").started(), "its start came, its QPs are not ready yet");
            w.stopFlow("early");
            f.runFor(200 * US);
            FlowProgress p = w.progress("early");
            assertEquals(Outcome.NOT_STARTED, w.result("early").outcome());
            assertFalse(p.started());
            assertEquals(0, p.bytesCompleted(), "nothing sent after the stop");
            assertTrue(w.finished());
            w.close();
        }
    }

    /**
     * Poisson background flows with sizes from a CDF among four hosts, 40 % load for 200 us (about
     * 80 flows): every one completes with its own bytes, no faster than its wire time.
     */
    @Test
    void poissonFlowsAllComplete() {
        LeafSpine ls = fabric();
        List<String> hosts = List.of("h0", "h1", "h2", "h3");
        List<Flow> flows = PoissonFlows.generate(ls.topology(), hosts, 0.4, SHORT, 0, 200 * US, Verb.WRITE, 3, "bg");
        assertTrue(flows.size() >= 50, flows.size() + " flows");
        List<FlowResult> rs = run(flows, 3, 50 * MS);
        long total = 0;
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            FlowResult r = rs.get(i);
            long size = f.size().maxBytes();
            assertEquals(Outcome.COMPLETED, r.outcome(), r.toString());
            assertEquals(size, r.bytes(), r.name());
            assertEquals(f.startNanos(), r.startNanos(), r.name() + " started on time");
            assertTrue(r.fctNanos() >= wireNanos(size), r.name() + ": " + r.fctNanos());
            total += r.bytes();
        }
        assertEquals(PoissonFlows.offeredBytes(flows), total);
    }

    /**
     * On a k=4 fat tree with DCQCN (ECN from 20 KB, below what four ingress ports hold before
     * PFC's XOFF, as in the host settings' incast test): four hosts of the other pods write 50 x 64 KB each to h0 while
     * Poisson flows run between all hosts. Everything completes without error, and the incast
     * shares h0's link: its last message lands no earlier than the four flows' bytes take on one
     * 100 Gb/s link.
     */
    @Test
    void anIncastAndBackgroundFlowsOnAFatTree() {
        FatTree ft = FatTree.builder().k(4).dcqcn(DcqcnParams.defaults())
            .qos(QosProfiles.LOSSLESS.withEcn(20_000, 200_000, 0.2)).build();
        String sink = ft.host(0, 0, 0);
        List<Flow> flows = new ArrayList<>();
        for (int pod = 1; pod < 4; pod++) {
            flows.add(Flow.builder("incast" + pod, ft.host(pod, pod % 2, 1), sink).messages(50).build());
        }
        flows.add(Flow.builder("incast0", ft.host(0, 1, 0), sink).messages(50).build());
        List<String> hosts = ft.topology().hosts().stream().map(io.rocelab.topology.model.Host::name).toList();
        flows.addAll(PoissonFlows.generate(ft.topology(), hosts, 0.3, SHORT, 0, 200 * US, Verb.WRITE, 4, "bg"));
        try (Fabric f = Fabric.virtualTime(ft.topology(), 4)) {
            Workload w = Workload.start(f, flows, 4);
            assertTrue(f.runUntil(w::finished, 100 * MS));
            long lastIncast = 0;
            for (FlowResult r : w.results()) {
                assertEquals(Outcome.COMPLETED, r.outcome(), r.toString());
                assertEquals(0, r.errors(), r.toString());
                if (r.name().startsWith("incast")) {
                    assertEquals(50 * 65_536L, r.bytes());
                    lastIncast = Math.max(lastIncast, r.endNanos());
                }
            }
            assertTrue(lastIncast >= wireNanos(4 * 50 * 65_536L), "the incast ended at " + lastIncast + " ns");
            assertTrue(f.nic(sink).counters().get(NicCounter.NP_CNP_SENT) > 0, "h0 saw the congestion marked");
            w.close();
        }
    }

    /** Everything a run gives: results, the NICs' and the switches' counters. */
    private static String everything(long seed) {
        LeafSpine ls = fabric();
        List<Flow> flows = new ArrayList<>(PoissonFlows.generate(ls.topology(), List.of("h0", "h1", "h2", "h3"), 0.5,
            SHORT, 0, 100 * US, Verb.WRITE, seed, "bg"));
        flows.add(Flow.builder("incast0", "h0", "h3").verb(Verb.SEND).durationNanos(200 * US).qps(2).build());
        flows.add(Flow.builder("incast1", "h1", "h3").durationNanos(200 * US).build());
        flows.add(Flow.builder("incast2", "h2", "h3").verb(Verb.READ).durationNanos(200 * US).build());
        StringBuilder out = new StringBuilder();
        try (Fabric f = Fabric.virtualTime(ls.topology(), seed)) {
            Workload w = Workload.start(f, flows, seed);
            assertTrue(f.runUntil(w::finished, 50 * MS));
            w.results().forEach(r -> out.append(r).append('\n'));
            for (String h : List.of("h0", "h1", "h2", "h3")) {
                out.append(h).append(' ').append(nonZero(f.nic(h).counters().snapshot())).append('\n');
            }
            for (String s : List.of("leaf0", "leaf1", "spine0", "spine1")) {
                var c = f.softSwitch(s).countersSnapshot();
                for (int i = 0; i < c.ports().size(); i++) {
                    out.append(s).append(':').append(c.portNames().get(i)).append(' ').append(port(c.ports().get(i)))
                        .append('\n');
                }
            }
            out.append("t=").append(f.virtualTime().nanoTime()).append(" events=")
                .append(f.virtualTime().eventsExecuted());
            w.close();
        }
        return out.toString();
    }

    private static String port(io.rocelab.sw.stats.PortCounters p) {
        return "rx " + p.rxFrames + "/" + p.rxBytes + " tx " + p.txFrames + "/" + p.txBytes + " pfc rx "
            + java.util.Arrays.toString(p.rxPfc) + " tx " + java.util.Arrays.toString(p.txPfc) + " ecn "
            + java.util.Arrays.toString(p.queueEcnMarked) + " drops " + java.util.Arrays.toString(p.drops);
    }

    private static <K> Map<K, Long> nonZero(Map<K, Long> m) {
        Map<K, Long> out = new java.util.LinkedHashMap<>();
        m.forEach((k, v) -> {
            if (v != 0) {
                out.put(k, v);
            }
        });
        return out;
    }

    @Test
    void theSameSeedGivesTheSameRunBitForBit() {
        String a = everything(5);
        assertEquals(a, everything(5));
        assertNotEquals(a, everything(6), "another seed, other flows");
    }

    @Test
    void flowsNamingWhatTheFabricLacksAreRefused() {
        try (Fabric f = Fabric.virtualTime(fabric().topology(), 1)) {
            InvalidFlowException e = assertThrows(InvalidFlowException.class, () -> Workload.start(f, List.of(
                Flow.builder("a", "h0", "h9").build(), Flow.builder("a", "leaf0", "h1").build()), 1));
            assertEquals(List.of("flow 'a': no host 'h9' in the fabric", "flow 'a': the name is used twice",
                "flow 'a': no host 'leaf0' in the fabric"), e.problems());
        }
        try (Fabric bare = Fabric.builder(fabric().topology()).bareHosts().start()) {
            InvalidFlowException e = assertThrows(InvalidFlowException.class,
                () -> Workload.start(bare, List.of(Flow.builder("b", "h0", "h1").build()), 1));
            assertEquals(List.of("flow 'b': host 'h0' is bare: the fabric opened no NIC on it",
                "flow 'b': host 'h1' is bare: the fabric opened no NIC on it"), e.problems());
        }
    }
}
