package io.rocelab.topology.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.generate.LeafSpine;
import io.rocelab.topology.workload.FlowResult.Outcome;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Verified flows ({@code verify}): every byte completed is compared with the other side's memory. */
class VerifiedFlowTest {
    private static final long MS = 1_000_000;

    private static LeafSpine fabric() {
        return LeafSpine.builder().leaves(2).spines(2).hostsPerLeaf(2).build();
    }

    @Test
    void everyRcVerbsBytesAreCheckedAndFoundAsSent() {
        // 300000-byte messages: two work requests each (256 KiB and the rest), so slots are reused
        try (Fabric f = Fabric.virtualTime(fabric().topology(), 1)) {
            List<Flow> flows = List.of(
                Flow.builder("write", "h0", "h2").messageBytes(300_000).messages(30).qps(2).window(3).verify(true).build(),
                Flow.builder("read", "h1", "h3").verb(Verb.READ).messageBytes(300_000).messages(30).qps(2).window(3)
                    .verify(true).build(),
                Flow.builder("send", "h2", "h0").verb(Verb.SEND).messageBytes(300_000).messages(30).qps(2).window(3)
                    .verify(true).build(),
                Flow.builder("plain", "h3", "h1").messageBytes(300_000).messages(30).build());
            Workload w = Workload.start(f, flows, 5);
            assertTrue(f.runUntil(w::finished, 20 * MS));
            for (FlowResult r : w.results()) {
                assertEquals(Outcome.COMPLETED, r.outcome(), r.name());
                assertEquals(30L * 300_000, r.bytes(), r.name());
                assertEquals(0, r.corruptBytes(), r.name());
                assertEquals(r.name().equals("plain") ? 0 : r.bytes(), r.verifiedBytes(), r.name()
                    + ": a verified flow checks every byte it completed; an unverified one none");
            }
            w.close();
        }
    }

    @Test
    void aVerifiedSendWhoseReceiverStopsDrainingKeepsItsSlotsApart() {
        // the receiver holds its receives back for a while, then posts them again in the order they completed
        try (Fabric f = Fabric.virtualTime(fabric().topology(), 1)) {
            Workload w = Workload.start(f, List.of(Flow.builder("send", "h0", "h3").verb(Verb.SEND).messageBytes(8192)
                .messages(2000).qps(2).window(4).verify(true).build()), 3);
            f.runFor(20_000);
            w.setDraining("h3", false);
            f.runFor(200_000);
            long held = w.progress("send").messagesCompleted();
            f.runFor(100_000);
            assertEquals(held, w.progress("send").messagesCompleted(), "nothing completes while h3 does not drain");
            w.setDraining("h3", true);
            assertTrue(f.runUntil(w::finished, 50 * MS));
            FlowResult r = w.result("send");
            assertTrue(held < 2000, "the receiver's pause held the flow up");
            assertEquals(Outcome.COMPLETED, r.outcome());
            assertEquals(2000L * 8192, r.verifiedBytes());
            assertEquals(0, r.corruptBytes());
            w.close();
        }
    }

    @Test
    void verifyIsForRcFlowsThatFitTheirMemory() {
        InvalidFlowException ud = assertThrows(InvalidFlowException.class, () -> Flow.builder("u", "h0", "h1")
            .verb(Verb.UD_SEND).messageBytes(1024).verify(true).build());
        assertEquals(List.of("flow 'u': verify checks RC memory (WRITE, READ, SEND): UD datagrams may be lost, not for"
            + " UD_SEND"), ud.problems());
        InvalidFlowException send = assertThrows(InvalidFlowException.class, () -> Flow.builder("s", "h0", "h1")
            .verb(Verb.SEND).reconnectAfterNanos(MS).verify(true).build());
        assertTrue(send.problems().get(0).contains("not with reconnect"), send.getMessage());
        InvalidFlowException big = assertThrows(InvalidFlowException.class, () -> Flow.builder("b", "h0", "h1")
            .messageBytes(1 << 20).qps(128).window(8).verify(true).build());
        assertTrue(big.problems().get(0).contains("more than 268435456"), big.getMessage());
    }
}
