package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.ib.Opcode;
import io.rocelab.codec.ib.Psn;
import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.nic.stats.NicCounter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * How often an RC requester sets AckReq on a stream of WRITEs: on every message's last packet by
 * default (rxe), once per interval with {@link SoftNic.Builder#ackReqInterval}, and never so rarely
 * that a stream waits for the ACK timeout.
 */
class AckRequestIntervalTest {
    private static final int MTU = 1024;
    private static final int MESSAGE = 4 * MTU; // four packets: FIRST, MIDDLE, MIDDLE, LAST
    /** Far below the ACK timeout of NicRig's QPs (timeout 14: 67 ms). */
    private static final long NO_TIMEOUT_NANOS = 10_000_000L;

    private static final UnaryOperator<SoftNic.Builder> COALESCING = b -> b.maxUnackedPsns(512).ackReqInterval(64);

    @Test
    void byDefaultTheLastPacketOfEveryMessageAsksForAnAck() {
        try (NicRig p = NicRig.pair(QpType.RC, MTU, FaultProfile.NONE, 71)) {
            Stream s = Stream.post(p, 40, 71);
            s.assertDelivered(p);
            List<WireTap.Seen> sent = p.wireFrom("a");
            assertEquals(160, sent.size());
            for (WireTap.Seen x : sent) {
                assertEquals(x.opcode() == Opcode.RC_RDMA_WRITE_LAST, x.ackReq(), x.toString());
            }
            assertEquals(40, acks(p), "one ACK per message");
        }
    }

    @Test
    void withAnIntervalOneAckAnswersSeveralMessagesAndTheLastQueuedMessageAsks() {
        try (NicRig p = NicRig.pair(QpType.RC, MTU, FaultProfile.NONE, 72, COALESCING)) {
            Stream s = Stream.post(p, 40, 72);
            s.assertDelivered(p);
            List<WireTap.Seen> sent = p.wireFrom("a");
            assertEquals(160, sent.size(), "the window of 512 PSNs holds the whole chain");
            // the 16th and 32nd messages end the 64th and 128th packets; the 40th is the last queued
            assertEquals(List.of(63, 127, 159), askingLastPackets(sent));
            assertEquals(3, acks(p), "one ACK per request: 40 messages acknowledged by 3");
        }
    }

    @Test
    void anIntervalAbove64SpacesTheRequestsAsWidelyAndOnlyLastPacketsAsk() {
        // 128 packets between requests: a packet inside a message must not ask after 64 either
        try (NicRig p = NicRig.pair(QpType.RC, MTU, FaultProfile.NONE, 76,
                b -> b.maxUnackedPsns(512).ackReqInterval(128))) {
            Stream s = Stream.post(p, 40, 76);
            s.assertDelivered(p);
            List<WireTap.Seen> sent = p.wireFrom("a");
            assertEquals(160, sent.size());
            assertEquals(List.of(127, 159), askingLastPackets(sent), "the 32nd message's last packet, and the last queued");
            assertEquals(2, acks(p));
        }
    }

    @Test
    void aStreamLongerThanTheWindowNeverWaitsForTheAckTimeout() {
        // the smallest window an interval of 64 allows: a full window always holds an AckReq packet
        try (NicRig p = NicRig.pair(QpType.RC, MTU, FaultProfile.NONE, 73,
                b -> b.maxUnackedPsns(128).ackReqInterval(64))) {
            Stream s = Stream.post(p, 96, 73);
            s.assertDelivered(p);
            List<WireTap.Seen> sent = p.wireFrom("a");
            assertEquals(384, sent.size(), "every packet once: no go-back-N");
            int sinceAsk = 0;
            for (WireTap.Seen x : sent) {
                sinceAsk = x.ackReq() ? 0 : sinceAsk + 1;
                assertTrue(sinceAsk < 64, "at most 63 packets between two ACK requests, at " + x);
            }
            assertTrue(sent.get(sent.size() - 1).ackReq(), "the last packet asks");
            assertTrue(acks(p) < 96 / 2, "far fewer ACKs than messages: " + acks(p));
        }
    }

    @Test
    void afterALossEveryResentMessageAsksAsRxeDoes() {
        try (NicRig p = NicRig.pair(QpType.RC, MTU, FaultProfile.NONE, 74, COALESCING)) {
            int lost = Psn.add(NicRig.PSN_A, 100); // a MIDDLE of the 26th message, once
            boolean[] once = {true};
            p.tapA.lose(x -> {
                if (x.from().equals("a") && x.psn() == lost && once[0]) {
                    once[0] = false;
                    return true;
                }
                return false;
            });
            Stream s = Stream.post(p, 40, 74);
            s.assertDelivered(p, 1); // one go-back-N, on the NAK, well before the ACK timeout
            Set<Integer> seen = new HashSet<>();
            int resentLasts = 0;
            for (WireTap.Seen x : p.wireFrom("a")) {
                boolean resent = !seen.add(x.psn());
                if (resent && x.opcode() == Opcode.RC_RDMA_WRITE_LAST) {
                    resentLasts++;
                    assertTrue(x.ackReq(), "a resent last packet asks for an ACK: " + x);
                }
            }
            assertTrue(resentLasts >= 14, "the go-back-N resent the messages from the 26th on: " + resentLasts);
            assertTrue(p.b.counters().get(NicCounter.OUT_OF_SEQ_REQUEST) > 0, "the loss was seen");
        }
    }

    @Test
    void anIntervalNeedsAWindowOfTwiceItsLength() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NicRig.pair(QpType.RC, MTU, FaultProfile.NONE, 75, b -> b.maxUnackedPsns(100).ackReqInterval(64)));
        assertTrue(e.getMessage().contains("maxUnackedPsns of at least 128"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SoftNic.builder().maxUnackedPsns(0));
        assertThrows(IllegalArgumentException.class, () -> SoftNic.builder().maxUnackedPsns(1 << 23));
        assertThrows(IllegalArgumentException.class, () -> SoftNic.builder().ackReqInterval(-1));
    }

    /** The indexes of the packets with AckReq, each checked to be a message's last packet. */
    private static List<Integer> askingLastPackets(List<WireTap.Seen> sent) {
        List<Integer> asking = new ArrayList<>();
        for (int i = 0; i < sent.size(); i++) {
            if (sent.get(i).ackReq()) {
                asking.add(i);
                assertEquals(Opcode.RC_RDMA_WRITE_LAST, sent.get(i).opcode(), "only a message's last packet asks: " + i);
            }
        }
        return asking;
    }

    /** ACKs NIC b sent (each answers one AckReq packet). */
    private static long acks(NicRig p) {
        return p.wireFrom("b").stream().filter(x -> x.opcode() == Opcode.RC_ACKNOWLEDGE).count();
    }

    /** {@code n} signalled 4 KB WRITEs from a to b, posted as one chain. */
    private record Stream(int n, byte[] src, byte[] dst) {
        static Stream post(NicRig p, int n, long seed) {
            byte[] src = new byte[n * MESSAGE];
            new Random(seed).nextBytes(src);
            byte[] dst = new byte[n * MESSAGE];
            MemoryRegion mrA = p.pdA.registerMr(src, 0x100000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(dst, 0x900000, AccessFlags.ALL);
            SendWr[] chain = new SendWr[n];
            for (int i = 0; i < n; i++) {
                chain[i] = SendWr.write(i, Sge.of(mrA, i * MESSAGE, MESSAGE), 0x900000 + (long) i * MESSAGE, mrB.rkey())
                        .signaled(true);
            }
            p.qpA.postSend(chain);
            return new Stream(n, src, dst);
        }

        void assertDelivered(NicRig p) {
            assertDelivered(p, 0);
        }

        /** All completed, in order, with the data, within a fraction of the ACK timeout, after {@code retries} go-back-Ns. */
        void assertDelivered(NicRig p, long retries) {
            long start = p.sched.nanoTime();
            assertTrue(p.runUntil(() -> p.cqA.size() == n, NO_TIMEOUT_NANOS), "all complete before any ACK timeout");
            assertTrue(p.sched.nanoTime() - start < NO_TIMEOUT_NANOS);
            List<WorkCompletion> wcs = NicRig.drain(p.cqA);
            for (int i = 0; i < n; i++) {
                assertEquals(WcStatus.SUCCESS, wcs.get(i).status(), wcs.get(i).toString());
                assertEquals(i, wcs.get(i).wrId(), "completions in order");
            }
            assertArrayEquals(src, dst);
            assertEquals(retries, p.a.counters().get(NicCounter.COMPLETER_RETRY_ERR), "go-back-N rounds");
            assertFalse(p.cqA.size() > 0);
        }
    }
}
