package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.link.FaultProfile;
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
        try (NicPair p = new NicPair(QpType.RC, 1024, FaultProfile.NONE, 55)) {
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
            NicPair.drain(p.cqA).forEach(wc -> assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString()));
            assertArrayEquals(src, dst);
            assertEquals(0, p.a.counters().get(NicCounter.COMPLETER_RETRY_ERR), "no timeout, no go-back-N");
            assertEquals(0, p.b.counters().get(NicCounter.DUPLICATE_REQUEST));
        }
    }
}
