package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.ib.AethSyndrome;
import io.rocelab.codec.ib.NakCode;
import io.rocelab.codec.ib.Psn;
import io.rocelab.nic.stats.NicCounter;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The responder's receive side with and without out-of-order data placement
 * ({@link QpCreateFlag#OOO_DP}), fed by a deterministic reorderer ({@link ReorderingPort}) that
 * delivers a message's packets permuted, as an adaptive-routing fabric that sprays them does.
 */
class OutOfOrderReceiveTest {
    private static final long SECOND = 1_000_000_000L;
    /** An 8-packet WRITE's packets: the last first, then the rest shuffled. */
    private static final int[] PERMUTED = {7, 2, 0, 5, 1, 6, 3, 4};

    @Test
    void inOrderQpNaksAPacketAheadAndGoesBackNByteExact() {
        try (ReorderRig r = new ReorderRig(false)) {
            byte[] src = random(8 * ReorderRig.MTU, 1);
            byte[] dst = new byte[src.length];
            MemoryRegion mrA = r.pdA.registerMr(src, 0x100000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = r.pdB.registerMr(dst, 0x900000, AccessFlags.ALL);
            r.reorder.hold(8);
            r.qpA.postSend(SendWr.write(1, Sge.of(mrA), 0x900000, mrB.rkey()).signaled(true));
            assertTrue(r.runUntil(() -> r.reorder.held() == 8, SECOND));
            r.reorder.release(PERMUTED);
            assertTrue(r.runUntil(() -> r.cqA.size() == 1, 5 * SECOND));
            assertEquals(WcStatus.SUCCESS, r.cqA.poll().status());
            assertArrayEquals(src, dst, "go-back-N delivered the WRITE byte for byte");
            assertFalse(r.naks().isEmpty(), "the packet ahead was NAKed");
            assertEquals(AethSyndrome.nak(NakCode.PSN_SEQUENCE_ERROR), r.naks().get(0).syndrome());
            assertTrue(r.b.counters().get(NicCounter.OUT_OF_SEQ_REQUEST) > 0);
            assertEquals(r.b.counters().get(NicCounter.OUT_OF_SEQ_REQUEST), r.b.counters().get(NicCounter.OUT_OF_SEQUENCE),
                    "rxe's and mlx5's names count the same packets");
            assertEquals(0, r.b.counters().get(NicCounter.OOO_PLACED_PACKETS));
            assertTrue(r.a.counters().get(NicCounter.PACKET_SEQ_ERR) > 0, "the requester saw the NAK");
            assertEquals(r.a.counters().get(NicCounter.RCVD_SEQ_ERR), r.a.counters().get(NicCounter.PACKET_SEQ_ERR));
            assertTrue(r.from("a").stream().filter(s -> s.opcode().has(io.rocelab.codec.ib.Opcode.REQUEST)).count() > 8,
                    "a went back and sent again");
            assertFalse(r.qpB.oooDataPlacement());
        }
    }

    @Test
    void outOfOrderQpPlacesAPermutedWriteWithoutNakAndOneCumulativeAck() {
        try (ReorderRig r = new ReorderRig(true)) {
            byte[] src = random(8 * ReorderRig.MTU, 2);
            byte[] dst = new byte[src.length];
            MemoryRegion mrA = r.pdA.registerMr(src, 0x100000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = r.pdB.registerMr(dst, 0x900000, AccessFlags.ALL);
            r.reorder.hold(8);
            r.qpA.postSend(SendWr.write(1, Sge.of(mrA), 0x900000, mrB.rkey()).signaled(true));
            assertTrue(r.runUntil(() -> r.reorder.held() == 8, SECOND));
            r.reorder.release(PERMUTED);
            assertTrue(r.runUntil(() -> r.cqA.size() == 1, SECOND), "completes before any timeout");
            assertEquals(WcStatus.SUCCESS, r.cqA.poll().status());
            assertArrayEquals(src, dst);
            assertTrue(r.naks().isEmpty(), "no NAK: " + r.naks());
            List<WireTap.Seen> acks = r.acks();
            assertEquals(1, acks.size(), "one cumulative ACK: " + acks);
            assertEquals(Psn.add(NicRig.PSN_A, 7), acks.get(0).psn(), "for the last PSN in order");
            assertEquals(8, r.from("a").size(), "nothing resent");
            // 7 and 2 came ahead of the expected 0; then 5 ahead of 1 (1 took 2 with it), 6 ahead of 3;
            // 0, 1, 3 and 4 were the expected PSN when they came (4 took 5, 6 and 7 with it)
            assertEquals(4, r.b.counters().get(NicCounter.OOO_PLACED_PACKETS));
            assertEquals(r.b.counters().get(NicCounter.OUT_OF_SEQ_REQUEST), r.b.counters().get(NicCounter.OUT_OF_SEQUENCE));
            assertEquals(4, r.b.counters().get(NicCounter.OUT_OF_SEQUENCE));
            assertEquals(0, r.b.counters().get(NicCounter.DUPLICATE_REQUEST));
            assertTrue(r.qpB.oooDataPlacement());
        }
    }

    @Test
    void aWriteWithImmediateCompletesOnlyAfterItsLastMissingPacket() {
        try (ReorderRig r = new ReorderRig(true)) {
            byte[] src = random(4 * ReorderRig.MTU - 100, 3);
            byte[] dst = new byte[src.length];
            MemoryRegion mrA = r.pdA.registerMr(src, 0x100000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = r.pdB.registerMr(dst, 0x900000, AccessFlags.ALL);
            r.qpB.postRecv(new RecvWr(9));
            r.reorder.hold(4);
            r.qpA.postSend(new SendWr(1, WrOpcode.RDMA_WRITE_WITH_IMM).sgl(Sge.of(mrA)).remote(0x900000, mrB.rkey())
                    .imm(0x1234).signaled(true));
            assertTrue(r.runUntil(() -> r.reorder.held() == 4, SECOND));
            // LAST (with the immediate), MIDDLE, FIRST: all placed, none completes: packet 1 is missing
            for (int i : new int[] {3, 2, 0}) {
                r.reorder.release(i);
                r.runFor(100_000);
                assertEquals(0, r.cqB.size(), "no completion before every packet is in");
                assertEquals(0, r.acks().size(), "no ACK either");
            }
            // the FIRST came in order; the LAST and the MIDDLE held before it were then placed by their
            // offsets (a WRITE's data goes as soon as its place is known), the missing packet's bytes not
            assertEquals(0, dst[ReorderRig.MTU + 5]);
            assertArrayEquals(java.util.Arrays.copyOfRange(src, 0, ReorderRig.MTU),
                    java.util.Arrays.copyOfRange(dst, 0, ReorderRig.MTU));
            assertArrayEquals(java.util.Arrays.copyOfRange(src, 3 * ReorderRig.MTU, src.length),
                    java.util.Arrays.copyOfRange(dst, 3 * ReorderRig.MTU, src.length));
            r.reorder.release(1);
            assertTrue(r.runUntil(() -> r.cqB.size() == 1 && r.cqA.size() == 1, SECOND));
            WorkCompletion wc = r.cqB.poll();
            assertEquals(WcStatus.SUCCESS, wc.status());
            assertEquals(WcOpcode.RECV_RDMA_WITH_IMM, wc.opcode());
            assertEquals(0x1234, wc.immData());
            assertEquals(src.length, wc.byteLen());
            assertArrayEquals(src, dst);
            assertEquals(1, r.acks().size());
            assertTrue(r.naks().isEmpty());
        }
    }

    @Test
    void permutedSendsFillTheirReceiveWqesInOrder() {
        try (ReorderRig r = new ReorderRig(true)) {
            byte[] src = random(3 * ReorderRig.MTU + 3 * ReorderRig.MTU / 2, 4);
            MemoryRegion mrA = r.pdA.registerMr(src, 0x100000, AccessFlags.LOCAL_WRITE);
            byte[] dst1 = new byte[3 * ReorderRig.MTU];
            byte[] dst2 = new byte[2 * ReorderRig.MTU];
            MemoryRegion mr1 = r.pdB.registerMr(dst1, 0x900000, AccessFlags.ALL);
            MemoryRegion mr2 = r.pdB.registerMr(dst2, 0xA00000, AccessFlags.ALL);
            r.qpB.postRecv(new RecvWr(11, Sge.of(mr1)), new RecvWr(12, Sge.of(mr2)));
            int first = 3 * ReorderRig.MTU;
            r.reorder.hold(5);
            r.qpA.postSend(SendWr.send(1, Sge.of(mrA, 0, first)).signaled(true),
                    SendWr.send(2, Sge.of(mrA, first, src.length - first)).signaled(true));
            assertTrue(r.runUntil(() -> r.reorder.held() == 5, SECOND));
            r.reorder.release(4, 3, 1, 2, 0);
            assertTrue(r.runUntil(() -> r.cqB.size() == 2 && r.cqA.size() == 2, SECOND));
            WorkCompletion w1 = r.cqB.poll();
            WorkCompletion w2 = r.cqB.poll();
            assertEquals(11, w1.wrId());
            assertEquals(first, w1.byteLen());
            assertEquals(12, w2.wrId());
            assertEquals(src.length - first, w2.byteLen());
            assertArrayEquals(java.util.Arrays.copyOfRange(src, 0, first), dst1);
            assertArrayEquals(java.util.Arrays.copyOfRange(src, first, src.length),
                    java.util.Arrays.copyOfRange(dst2, 0, src.length - first));
            assertTrue(r.naks().isEmpty());
            assertEquals(1, r.acks().size(), "one ACK for both messages: " + r.acks());
            assertEquals(2, r.b.counters().get(NicCounter.RDMA_RECVS));
        }
    }

    @Test
    void aDuplicateOfAHeldPacketIsCountedAndNotPlacedTwice() {
        try (ReorderRig r = new ReorderRig(true)) {
            byte[] src = random(4 * ReorderRig.MTU, 5);
            byte[] dst = new byte[src.length];
            MemoryRegion mrA = r.pdA.registerMr(src, 0x100000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = r.pdB.registerMr(dst, 0x900000, AccessFlags.ALL);
            r.reorder.hold(4);
            r.qpA.postSend(SendWr.write(1, Sge.of(mrA), 0x900000, mrB.rkey()).signaled(true));
            assertTrue(r.runUntil(() -> r.reorder.held() == 4, SECOND));
            r.reorder.release(2, 2, 3, 1, 3, 0);
            assertTrue(r.runUntil(() -> r.cqA.size() == 1, SECOND));
            assertEquals(WcStatus.SUCCESS, r.cqA.poll().status());
            assertArrayEquals(src, dst);
            assertEquals(2, r.b.counters().get(NicCounter.DUPLICATE_REQUEST), "the second 2 and the second 3");
            assertEquals(3, r.b.counters().get(NicCounter.OOO_PLACED_PACKETS), "2, 3, 1 each once");
            assertTrue(r.naks().isEmpty());
            assertEquals(1, r.acks().size());
            // an old packet once more, after the message completed: a duplicate behind ePSN, acknowledged again
            r.reorder.release(1);
            r.runFor(1_000_000);
            assertEquals(3, r.b.counters().get(NicCounter.DUPLICATE_REQUEST));
            assertEquals(2, r.acks().size(), "C9-104: a duplicate WRITE is acknowledged again");
        }
    }

    @Test
    void aLostPacketIsResentAfterTheRequestersTimeoutWithoutANak() {
        try (ReorderRig r = new ReorderRig(true)) {
            byte[] src = random(6 * ReorderRig.MTU, 6);
            byte[] dst = new byte[src.length];
            MemoryRegion mrA = r.pdA.registerMr(src, 0x100000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = r.pdB.registerMr(dst, 0x900000, AccessFlags.ALL);
            r.reorder.hold(6);
            r.qpA.postSend(SendWr.write(1, Sge.of(mrA), 0x900000, mrB.rkey()).signaled(true));
            assertTrue(r.runUntil(() -> r.reorder.held() == 6, SECOND));
            long start = r.sched.nanoTime();
            r.reorder.release(5, 0, 4, 1, 3); // packet 2 is lost
            r.runFor(10_000_000);
            assertEquals(0, r.cqA.size());
            assertTrue(r.naks().isEmpty(), "a gap within the window is no sequence error");
            assertEquals(0, r.acks().size(), "nothing acknowledged beyond the gap");
            assertTrue(r.runUntil(() -> r.cqA.size() == 1, 5 * SECOND));
            assertTrue(r.sched.nanoTime() - start >= 60_000_000L, "resent by the ACK timeout (14: 67 ms)");
            assertEquals(WcStatus.SUCCESS, r.cqA.poll().status());
            assertArrayEquals(src, dst);
            assertTrue(r.naks().isEmpty());
            assertTrue(r.b.counters().get(NicCounter.DUPLICATE_REQUEST) > 0, "the go-back-N resend brought held packets again");
        }
    }

    @Test
    void aGapLongerThanTheWindowIsNakedAndStillByteExact() {
        try (ReorderRig r = new ReorderRig(true, 4)) {
            byte[] src = random(8 * ReorderRig.MTU, 7);
            byte[] dst = new byte[src.length];
            MemoryRegion mrA = r.pdA.registerMr(src, 0x100000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = r.pdB.registerMr(dst, 0x900000, AccessFlags.ALL);
            r.reorder.hold(8);
            r.qpA.postSend(SendWr.write(1, Sge.of(mrA), 0x900000, mrB.rkey()).signaled(true));
            assertTrue(r.runUntil(() -> r.reorder.held() == 8, SECOND));
            r.reorder.release(PERMUTED); // 7 is 7 PSNs ahead: beyond b's window of 4
            assertTrue(r.runUntil(() -> r.cqA.size() == 1, 5 * SECOND));
            assertEquals(WcStatus.SUCCESS, r.cqA.poll().status());
            assertArrayEquals(src, dst);
            assertFalse(r.naks().isEmpty(), "beyond the window: a sequence error NAK");
            assertEquals(AethSyndrome.nak(NakCode.PSN_SEQUENCE_ERROR), r.naks().get(0).syndrome());
            assertTrue(r.b.counters().get(NicCounter.OOO_PLACED_PACKETS) > 0, "the packets within it were taken");
        }
    }

    @Test
    void permutedReadRequestsAreAnsweredInOrder() {
        try (ReorderRig r = new ReorderRig(true)) {
            byte[] remote = random(4 * 2 * ReorderRig.MTU, 8);
            byte[] local = new byte[remote.length];
            MemoryRegion mrA = r.pdA.registerMr(local, 0x100000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = r.pdB.registerMr(remote, 0x900000, AccessFlags.ALL);
            r.reorder.hold(4);
            int part = 2 * ReorderRig.MTU;
            for (int i = 0; i < 4; i++) {
                r.qpA.postSend(SendWr.read(i, Sge.of(mrA, i * part, part), 0x900000 + (long) i * part, mrB.rkey())
                        .signaled(true));
            }
            assertTrue(r.runUntil(() -> r.reorder.held() == 4, SECOND));
            r.reorder.release(3, 1, 2, 0);
            assertTrue(r.runUntil(() -> r.cqA.size() == 4, SECOND));
            NicRig.drain(r.cqA).forEach(wc -> assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString()));
            assertArrayEquals(remote, local);
            assertTrue(r.naks().isEmpty());
            assertEquals(3, r.b.counters().get(NicCounter.OOO_PLACED_PACKETS));
        }
    }

    @Test
    void anOutOfOrderRequesterTakesPermutedReadResponsesWithoutGoingBack() {
        for (boolean ooo : new boolean[] {false, true}) {
            try (ReorderRig r = new ReorderRig(ooo, false, Requester.MAX_UNACKED_PSNS)) {
                byte[] remote = random(6 * ReorderRig.MTU - 10, 9);
                byte[] local = new byte[remote.length];
                MemoryRegion mrA = r.pdA.registerMr(local, 0x100000, AccessFlags.LOCAL_WRITE);
                MemoryRegion mrB = r.pdB.registerMr(remote, 0x900000, AccessFlags.ALL);
                r.reorderB.holdResponses(6);
                r.qpA.postSend(SendWr.read(1, Sge.of(mrA), 0x900000, mrB.rkey()).signaled(true));
                assertTrue(r.runUntil(() -> r.reorderB.held() == 6, SECOND));
                r.reorderB.release(5, 2, 1, 4, 0, 3);
                assertTrue(r.runUntil(() -> r.cqA.size() == 1, 5 * SECOND));
                assertEquals(WcStatus.SUCCESS, r.cqA.poll().status());
                assertArrayEquals(remote, local, "byte-exact, ooo " + ooo);
                long requests = r.from("a").stream().filter(s -> s.opcode().has(io.rocelab.codec.ib.Opcode.REQUEST))
                        .count();
                if (ooo) {
                    assertEquals(1, requests, "the READ was asked once");
                    // 5, 2, 1 and 4 came ahead of 0 and were held; 0 took 1 and 2 with it, 3 took 4 and 5
                    assertEquals(4, r.a.counters().get(NicCounter.OOO_PLACED_PACKETS));
                    assertEquals(0, r.a.counters().get(NicCounter.COMPLETER_RETRY_ERR));
                } else {
                    assertTrue(requests > 1, "in order a response ahead makes the requester ask again");
                }
            }
        }
    }

    @Test
    void theCreationFlagsChooseOverTheNicsDefault() {
        try (ReorderRig r = new ReorderRig(true)) {
            QueuePair inOrder = r.b.createQp(r.pdB, QpType.RC, r.cqB, r.cqB, QpCaps.defaults(), null,
                    EnumSet.noneOf(QpCreateFlag.class));
            assertFalse(inOrder.oooDataPlacement());
            QueuePair ud = r.b.createQp(r.pdB, QpType.UD, r.cqB, r.cqB, QpCaps.defaults());
            assertFalse(ud.oooDataPlacement(), "the NIC's default is for RC QPs");
            assertThrows(IllegalArgumentException.class, () -> r.a.createQp(r.pdA, QpType.UC, r.cqA, r.cqA,
                    QpCaps.defaults(), null, EnumSet.of(QpCreateFlag.OOO_DP)));
            assertTrue(r.a.createQp(r.pdA, QpType.RC, r.cqA, r.cqA, QpCaps.defaults(), null,
                    EnumSet.of(QpCreateFlag.OOO_DP)).oooDataPlacement());
            assertTrue(r.b.oooDataPlacement());
            assertFalse(r.a.oooDataPlacement());
        }
    }

    static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }
}
