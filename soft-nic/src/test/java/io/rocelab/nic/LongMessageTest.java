package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.ib.Opcode;
import io.rocelab.codec.ib.Psn;
import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.nic.stats.NicCounter;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Messages with more packets than the requester's window of unacknowledged PSNs: the ACKs that
 * arrive while such a message is still being sent must open the window (they used to be ignored
 * because the message had not finished sending, so it stalled until the retry count ran out).
 */
class LongMessageTest {
    @Test
    void aWriteLongerThanThePsnWindowCompletesWithoutRetries() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 55)) {
            int size = 3 * Requester.MAX_UNACKED_PSNS * 1024 + 100;
            byte[] src = new byte[size];
            new Random(55).nextBytes(src);
            byte[] dst = new byte[size];
            MemoryRegion mrA = p.pdA.registerMr(src, 0x100000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(dst, 0x900000, AccessFlags.ALL);
            p.qpB.postRecv(new RecvWr(1, Sge.of(mrB)));
            p.qpA.postSend(SendWr.write(1, Sge.of(mrA), 0x900000, mrB.rkey()).signaled(true),
                    SendWr.send(2, Sge.of(mrA)).signaled(true));
            assertTrue(p.runUntil(() -> p.cqA.size() == 2 && p.cqB.size() == 1, 1_000_000_000L));
            NicRig.drain(p.cqA).forEach(wc -> assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString()));
            assertArrayEquals(src, dst);
            assertEquals(0, p.a.counters().get(NicCounter.COMPLETER_RETRY_ERR), "no timeout, no go-back-N");
            assertEquals(0, p.b.counters().get(NicCounter.DUPLICATE_REQUEST));
        }
    }

    /**
     * A go-back-N rewind into an earlier message while a later one is half sent: the later one
     * must start again from its first byte (WRITE FIRST at its first PSN). It used to keep its
     * send offset, so its packets went out shifted: rxe answered the misplaced MIDDLE/LAST with a
     * NAK "invalid request" and ib_write_bw against a real rxe failed with IBV_WC_REM_INV_REQ_ERR.
     */
    @Test
    void aRewindIntoAnEarlierMessageResendsTheHalfSentLaterMessageFromItsStart() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 56)) {
            int small = 8 * 1024;
            int large = 2 * Requester.MAX_UNACKED_PSNS * 1024;
            byte[] src = new byte[small + large];
            new Random(56).nextBytes(src);
            byte[] dst = new byte[small + large];
            MemoryRegion mrA = p.pdA.registerMr(src, 0x100000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(dst, 0x900000, AccessFlags.ALL);
            // the third packet of the first message is lost once: the NAK comes back while the
            // second, longer than the PSN window, is still being sent
            int lost = Psn.add(NicRig.PSN_A, 2);
            boolean[] once = {true};
            p.tapA.lose(s -> {
                if (s.psn() == lost && once[0]) {
                    once[0] = false;
                    return true;
                }
                return false;
            });
            p.qpA.postSend(SendWr.write(1, Sge.of(mrA, 0, small), 0x900000, mrB.rkey()).signaled(true),
                    SendWr.write(2, Sge.of(mrA, small, large), 0x900000 + small, mrB.rkey()).signaled(true));
            assertTrue(p.runUntil(() -> p.cqA.size() == 2, 1_000_000_000L));
            NicRig.drain(p.cqA).forEach(wc -> assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString()));
            assertArrayEquals(src, dst);
            int secondFirst = Psn.add(NicRig.PSN_A, 8);
            int secondLast = Psn.add(secondFirst, 2 * Requester.MAX_UNACKED_PSNS - 1);
            for (WireTap.Seen s : p.wireFrom("a")) {
                if (s.psn() == secondFirst) {
                    assertEquals(Opcode.RC_RDMA_WRITE_FIRST, s.opcode(), "every send of the second message's first PSN");
                } else if (s.psn() == secondLast) {
                    assertEquals(Opcode.RC_RDMA_WRITE_LAST, s.opcode(), "every send of its last PSN");
                }
            }
            assertTrue(p.b.counters().get(NicCounter.OUT_OF_SEQ_REQUEST) > 0, "the loss was seen: a go-back-N ran");
        }
    }
}
