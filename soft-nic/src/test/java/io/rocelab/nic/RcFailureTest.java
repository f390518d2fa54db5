package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.ib.AethSyndrome;
import io.rocelab.codec.ib.NakCode;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.nic.stats.NicCounter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Failure semantics: retry and RNR exhaustion, access violations, flushes, P_Key/Q_Key drops. */
class RcFailureTest {
    private static final long VA_B = 0x20_0000L;

    @Test
    void retryExhaustionGivesRetryExcErrThenFlushesTheRest() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 11, 10, 3, 7, 12)) {
            MemoryRegion mrA = p.pdA.registerMr(new byte[100], 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(new byte[100], VA_B, AccessFlags.ALL);
            p.link1.setUp(false);
            p.qpA.postSend(SendWr.write(1, Sge.of(mrA), VA_B, mrB.rkey()),
                    SendWr.write(2, Sge.of(mrA), VA_B, mrB.rkey()).signaled(false),
                    SendWr.write(3, Sge.of(mrA), VA_B, mrB.rkey()));
            long start = p.sched.nanoTime();
            assertTrue(p.runUntil(() -> p.cqA.size() == 3, 10_000_000_000L));
            List<WorkCompletion> wcs = NicRig.drain(p.cqA);
            assertEquals(WcStatus.RETRY_EXC_ERR, wcs.get(0).status());
            assertEquals(1, wcs.get(0).wrId());
            assertEquals(WcStatus.WR_FLUSH_ERR, wcs.get(1).status(), "flushed even though unsignaled");
            assertEquals(2, wcs.get(1).wrId());
            assertEquals(WcStatus.WR_FLUSH_ERR, wcs.get(2).status());
            assertEquals(QpState.ERR, p.qpA.state());
            // 1 + 3 retries, each after 4.096 us * 2^10
            long elapsed = p.sched.nanoTime() - start;
            assertTrue(elapsed >= 4 * 4_194_304L, "took " + elapsed);
            assertEquals(3, p.a.counters().get(NicCounter.COMPLETER_RETRY_ERR));
            assertEquals(1, p.a.counters().get(NicCounter.RETRY_EXCEEDED_ERR));
            assertEquals(1, p.a.counters().get(NicCounter.LINK_DOWNED));
            // posting on an errored QP completes at once with a flush
            p.qpA.postSend(SendWr.write(4, Sge.of(mrA), VA_B, mrB.rkey()));
            assertTrue(p.runUntil(() -> p.cqA.size() == 1, 1_000_000L));
            assertEquals(WcStatus.WR_FLUSH_ERR, p.cqA.poll().status());
        }
    }

    @Test
    void noReceiveGivesRnrNaksThenRnrRetryExcErr() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 12, 14, 7, 2, 1)) {
            MemoryRegion mrA = p.pdA.registerMr(new byte[100], 0x1000, AccessFlags.LOCAL_WRITE);
            p.qpA.postSend(SendWr.send(1, Sge.of(mrA)), SendWr.send(2, Sge.of(mrA)));
            assertTrue(p.runUntil(() -> p.cqA.size() == 2, 10_000_000_000L), () -> p.wire1 + " " + p.cqA.size());
            List<WorkCompletion> wcs = NicRig.drain(p.cqA);
            assertEquals(WcStatus.RNR_RETRY_EXC_ERR, wcs.get(0).status());
            assertEquals(WcStatus.WR_FLUSH_ERR, wcs.get(1).status());
            List<WireTap.Seen> naks = p.wireFrom("b").stream()
                    .filter(s -> AethSyndrome.kind(s.syndrome()) == AethSyndrome.Kind.RNR_NAK).toList();
            assertEquals(3, naks.size(), "first try + 2 RNR retries");
            // the second SEND arrives while the first waits: a sequence-error NAK for the expected PSN
            p.wireFrom("b").stream().filter(s -> s.syndrome() == AethSyndrome.nak(NakCode.PSN_SEQUENCE_ERROR))
                    .forEach(s -> assertEquals(NicRig.PSN_A, s.psn()));
            naks.forEach(n -> assertEquals(AethSyndrome.rnrNak(1), n.syndrome()));
            naks.forEach(n -> assertEquals(NicRig.PSN_A, n.psn()));
            assertEquals(3, p.b.counters().get(NicCounter.SEND_RNR_ERR));
            assertEquals(3, p.a.counters().get(NicCounter.RCVD_RNR_ERR));
            assertEquals(1, p.a.counters().get(NicCounter.RETRY_RNR_EXCEEDED_ERR));
        }
    }

    @Test
    void rnrRecoversWhenAReceiveIsPostedInTime() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 13, 14, 7, 7, 14)) {
            byte[] dst = new byte[100];
            MemoryRegion mrA = p.pdA.registerMr(new byte[100], 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(dst, VA_B, AccessFlags.LOCAL_WRITE);
            p.qpA.postSend(SendWr.send(1, Sge.of(mrA)));
            p.runUntil(() -> false, 2_000_000L);
            p.qpB.postRecv(new RecvWr(5, Sge.of(mrB)));
            assertTrue(p.runUntil(() -> p.cqA.size() == 1 && p.cqB.size() == 1, 1_000_000_000L));
            assertEquals(WcStatus.SUCCESS, p.cqA.poll().status());
            assertEquals(WcStatus.SUCCESS, p.cqB.poll().status());
            assertTrue(p.b.counters().get(NicCounter.SEND_RNR_ERR) >= 1);
        }
    }

    /** A write through a bad key, past the end, or without permission: NAK, REM_ACCESS_ERR, memory intact. */
    private void accessViolation(int mrAccess, long va, int len, boolean badKey, boolean read) {
        try (NicRig p = NicRig.pair(QpType.RC, 256, FaultProfile.NONE, 14)) {
            byte[] local = new byte[1000];
            java.util.Arrays.fill(local, (byte) 0x5A);
            byte[] backing = new byte[3000];
            MemoryRegion mrA = p.pdA.registerMr(local, 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(backing, 1000, 1000, VA_B, mrAccess);
            int rkey = badKey ? mrB.rkey() ^ 0x100 : mrB.rkey();
            SendWr first = read ? SendWr.read(1, Sge.of(mrA, 0, len), va, rkey)
                    : SendWr.write(1, Sge.of(mrA, 0, len), va, rkey);
            p.qpA.postSend(first, SendWr.write(2, Sge.of(mrA, 0, 8), VA_B, mrB.rkey()));
            assertTrue(p.runUntil(() -> p.cqA.size() == 2, 1_000_000_000L));
            List<WorkCompletion> wcs = NicRig.drain(p.cqA);
            assertEquals(WcStatus.REM_ACCESS_ERR, wcs.get(0).status());
            assertEquals(WcStatus.WR_FLUSH_ERR, wcs.get(1).status());
            assertArrayEquals(new byte[3000], backing, "no byte written anywhere");
            List<WireTap.Seen> fromB = p.wireFrom("b");
            assertEquals(1, fromB.size());
            assertEquals(Opcode.RC_ACKNOWLEDGE, fromB.get(0).opcode());
            assertEquals(AethSyndrome.nak(NakCode.REMOTE_ACCESS_ERROR), fromB.get(0).syndrome());
            assertEquals(QpState.ERR, p.qpB.state(), "responder QP goes to ERR (IBA 9.9.3.1)");
            if (read) {
                byte[] expect = new byte[1000];
                java.util.Arrays.fill(expect, (byte) 0x5A);
                assertArrayEquals(expect, local, "nothing read back");
            }
        }
    }

    @Test
    void badRkeyIsARemoteAccessError() {
        accessViolation(AccessFlags.ALL, VA_B, 500, true, false);
    }

    @Test
    void writePastTheEndOfTheRegionIsARemoteAccessError() {
        accessViolation(AccessFlags.ALL, VA_B + 600, 500, false, false);
    }

    @Test
    void writeBeforeTheRegionIsARemoteAccessError() {
        accessViolation(AccessFlags.ALL, VA_B - 8, 16, false, false);
    }

    @Test
    void writeWithoutRemoteWriteIsARemoteAccessError() {
        accessViolation(AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ, VA_B, 500, false, false);
    }

    @Test
    void readWithoutRemoteReadIsARemoteAccessError() {
        accessViolation(AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE, VA_B, 500, false, true);
    }

    @Test
    void wrongPkeyIsDroppedAndCounted() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 15, 8, 1, 7, 12)) {
            byte[] dst = new byte[100];
            MemoryRegion mrA = p.pdA.registerMr(new byte[100], 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(dst, VA_B, AccessFlags.ALL);
            p.a.call(() -> {
                p.qpA.setPkey(0x8001);
                return null;
            });
            p.qpA.postSend(SendWr.write(1, Sge.of(mrA), VA_B, mrB.rkey()));
            assertTrue(p.runUntil(() -> p.cqA.size() == 1, 1_000_000_000L));
            assertEquals(WcStatus.RETRY_EXC_ERR, p.cqA.poll().status());
            assertEquals(2, p.b.counters().get(NicCounter.DROP_BAD_PKEY));
            assertEquals(0, p.wireFrom("b").size());
        }
    }

    @Test
    void wrongQkeyIsDroppedAndCounted() {
        try (NicRig p = NicRig.pair(QpType.UD, 1024, FaultProfile.NONE, 16)) {
            MemoryRegion mrA = p.pdA.registerMr(new byte[100], 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(new byte[200], VA_B, AccessFlags.LOCAL_WRITE);
            p.qpB.postRecv(new RecvWr(1, Sge.of(mrB)));
            p.qpA.postSend(SendWr.send(1, Sge.of(mrA)).ud(AddressHandle.ipv4(NicRig.IP_B), p.qpB.qpn(), 0x2222));
            p.qpA.postSend(SendWr.send(2, Sge.of(mrA, 0, 10)).ud(AddressHandle.ipv4(NicRig.IP_B), p.qpB.qpn(),
                    0x11111111));
            assertTrue(p.runUntil(() -> p.cqB.size() == 1, 1_000_000_000L));
            assertEquals(1, p.b.counters().get(NicCounter.DROP_BAD_QKEY));
            WorkCompletion wc = p.cqB.poll();
            assertEquals(10 + 40, wc.byteLen(), "UD byte_len includes the 40-byte GRH");
        }
    }
}
