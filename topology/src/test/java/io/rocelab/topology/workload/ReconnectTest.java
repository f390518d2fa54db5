package io.rocelab.topology.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.generate.LeafSpine;
import io.rocelab.topology.timeline.Event;
import io.rocelab.topology.timeline.LinkState;
import io.rocelab.topology.timeline.Timeline;
import io.rocelab.topology.workload.FlowResult.Outcome;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A client that reconnects through rdma_cm after its QP fails, as storage clients do: h1 is cut off
 * from 500 us to 30 ms, longer than the writer's retry budget (ACK timeout 8 = 1 ms, 3 retries: 4
 * ms), in virtual time on a 2 x 2 leaf-spine.
 */
class ReconnectTest {
    private static final long US = 1_000;
    private static final long MS = 1_000_000;
    private static final String H1_CABLE = "h1:eth0--leaf0:Ethernet4";

    private static FlowResult run(long reconnectNanos, long maxNanos) {
        try (Fabric f = Fabric.virtualTime(LeafSpine.builder().leaves(2).spines(2).hostsPerLeaf(2).build().topology(),
                1)) {
            Workload w = Workload.start(f, List.of(Flow.builder("w", "h0", "h1").messages(200).ackTimeout(8)
                .retryCount(3).reconnectAfterNanos(reconnectNanos).build()), 1);
            Timeline.schedule(List.of(new Event(500 * US, new LinkState(H1_CABLE, false)),
                new Event(30 * MS, new LinkState(H1_CABLE, true))), f, w);
            assertTrue(f.runUntil(w::finished, maxNanos), "the transfer completes");
            FlowResult r = w.result("w");
            w.close();
            return r;
        }
    }

    /**
     * Reconnecting 50 ms after the error: the REQ goes out with the cable back, the new QPs connect at
     * once and the transfer completes; the gap is the retry budget plus the wait.
     */
    @Test
    void aPatientClientReconnectsWhenThePathIsBackAndCompletes() {
        FlowResult r = run(50 * MS, 1_000 * MS);
        assertEquals(Outcome.COMPLETED, r.outcome());
        assertEquals(200, r.messages(), "every message, the ones lost with the QP posted again");
        assertTrue(r.errorCompletions().getOrDefault("IBV_WC_RETRY_EXC_ERR", 0L) >= 1, r.errorCompletions().toString());
        assertEquals(1, r.reconnects());
        assertTrue(r.maxGapNanos() > 50 * MS && r.maxGapNanos() < 60 * MS, "gap " + r.maxGapNanos());
    }

    /**
     * Reconnecting 1 ms after the error: the REQ is lost on the cut cable, and rdma_cm resends it only
     * after its response timeout (4.096 us x 2^20 plus twice the packet lifetime: 6.4 s), so the
     * transfer stands still for seconds though the cable is back after 30 ms.
     */
    @Test
    void anEagerClientWaitsForTheCmTimeout() {
        FlowResult r = run(1 * MS, 10_000 * MS);
        assertEquals(Outcome.COMPLETED, r.outcome());
        assertEquals(200, r.messages());
        assertEquals(1, r.reconnects(), "one reconnection; its REQ was resent by rdma_cm");
        assertTrue(r.maxGapNanos() > 6_000 * MS && r.maxGapNanos() < 7_000 * MS, "gap " + r.maxGapNanos());
    }

    /** Verified WRITE and READ flows that reconnect: the new QPs reuse the flows' slots, and every byte checks. */
    @Test
    void reconnectedQpsPlaceEveryByteAsSent() {
        try (Fabric f = Fabric.virtualTime(LeafSpine.builder().leaves(2).spines(2).hostsPerLeaf(2).build().topology(),
                1)) {
            Workload w = Workload.start(f, List.of(
                Flow.builder("w", "h0", "h1").messages(200).qps(2).ackTimeout(8).retryCount(3)
                    .reconnectAfterNanos(50 * MS).verify(true).build(),
                Flow.builder("r", "h0", "h1").verb(Verb.READ).messages(200).qps(2).ackTimeout(8).retryCount(3)
                    .reconnectAfterNanos(50 * MS).verify(true).build()), 1);
            Timeline.schedule(List.of(new Event(500 * US, new LinkState(H1_CABLE, false)),
                new Event(30 * MS, new LinkState(H1_CABLE, true))), f, w);
            assertTrue(f.runUntil(w::finished, 1_000 * MS), "the transfers complete");
            for (FlowResult r : w.results()) {
                assertEquals(Outcome.COMPLETED, r.outcome(), r.name());
                assertEquals(1, r.reconnects(), r.name());
                assertEquals(200L * 65_536, r.bytes(), r.name());
                assertEquals(r.bytes(), r.verifiedBytes(), r.name());
                assertEquals(0, r.corruptBytes(), r.name());
            }
            w.close();
        }
    }

    @Test
    void reconnectIsForRcFlowsWithAnAckTimeout() {
        assertEquals(List.of("flow 'u': reconnect is for RC flows (connected through rdma_cm): not for UD_SEND"),
            assertThrows(InvalidFlowException.class, () -> Flow.builder("u", "h0", "h1").verb(Verb.UD_SEND)
                .reconnectAfterNanos(MS).build()).problems());
        assertEquals(List.of("flow 'n': reconnect delay must be >= 0 ns (0: no reconnection), not -1"),
            assertThrows(InvalidFlowException.class, () -> Flow.builder("n", "h0", "h1").reconnectAfterNanos(-1)
                .build()).problems());
    }
}
