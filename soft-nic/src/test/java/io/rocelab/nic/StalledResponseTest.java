package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.nic.stats.NicCounter;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Frames held back longer than the local ACK timeout (a stalled switch queue, a host that does not
 * run for a while) make the requester go back while the responses to the first transmission are
 * still on their way. When they arrive they acknowledge what they acknowledge: the requester goes
 * on from there, uses no PSN twice, and every WR completes once, in order, with SUCCESS; the memory
 * ends exact. With 3 % of the frames held back 150 ms (the timeout is 67 ms) and 0.2 % lost.
 */
class StalledResponseTest {
    private static final FaultProfile STALLS = FaultProfile.NONE.withReordering(0.03, 150_000_000L, 0)
            .withLoss(0.002);
    private static final int SLOT = 16 * 1024;
    private static final int SLOTS = 16;
    private static final long VA_A = 0x10_0000L;
    private static final long VA_B = 0x90_0000L;

    @ParameterizedTest
    @ValueSource(longs = {11, 12, 13, 14})
    void writesAndReadsCompleteInOrderAndExactly(long seed) {
        try (NicRig p = NicRig.pair(QpType.RC, 4096, STALLS, seed)) {
            byte[] out = new byte[SLOT * SLOTS];
            byte[] back = new byte[SLOT * SLOTS];
            byte[] remote = new byte[SLOT * SLOTS];
            for (int i = 0; i < out.length; i++) {
                out[i] = (byte) (i * 13 + seed);
            }
            MemoryRegion mrOut = p.pdA.registerMr(out, VA_A, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrBack = p.pdA.registerMr(back, VA_A + out.length, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(remote, VA_B, AccessFlags.ALL);
            for (int round = 0; round < 8; round++) {
                for (int s = 0; s < SLOTS; s++) {
                    long id = round * 100L + s;
                    Sge slot = Sge.of(mrOut, s * SLOT, SLOT);
                    p.qpA.postSend(SendWr.write(id, slot, VA_B + (long) s * SLOT, mrB.rkey()));
                }
                p.qpA.postSend(SendWr.read(round * 100L + 99, Sge.of(mrBack), VA_B, mrB.rkey()));
            }
            int n = 8 * (SLOTS + 1);
            assertTrue(p.runUntil(() -> p.cqA.size() >= n, 600_000_000_000L), "all complete: " + p.cqA.size());
            List<WorkCompletion> wcs = NicRig.drain(p.cqA);
            assertEquals(n, wcs.size());
            for (int i = 0; i < n; i++) {
                WorkCompletion wc = wcs.get(i);
                assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
                assertEquals((i / (SLOTS + 1)) * 100L + (i % (SLOTS + 1) == SLOTS ? 99 : i % (SLOTS + 1)), wc.wrId());
            }
            assertArrayEquals(out, remote);
            assertArrayEquals(out, back);
            assertTrue(p.a.counters().get(NicCounter.COMPLETER_RETRY_ERR) > 0, "the stalls did make it go back");
            assertEquals(0, p.a.counters().get(NicCounter.DROP_UNSENT_PSN));
        }
    }
}
