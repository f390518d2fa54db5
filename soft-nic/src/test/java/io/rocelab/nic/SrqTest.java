package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.nic.stats.NicCounter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Shared receive queues (IBA 10.2.9) as verbs: several RC QPs and a UD QP take receive WQEs from
 * one SRQ in posting order; the limit event fires once when the count drops below the armed
 * limit and disarms; an empty SRQ makes RC senders meet RNR NAKs until it is refilled; a QP going
 * to error does not flush the SRQ and reports its last WQE.
 */
class SrqTest {
    private static final long MS = 1_000_000L;

    /** A NicRig plus a second RC QP pair; both of B's RC QPs use one SRQ. */
    private static final class Fixture implements AutoCloseable {
        final NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 41);
        final SharedReceiveQueue srq = p.b.createSrq(p.pdB, 16, 2);
        final QueuePair a1;
        final QueuePair a2;
        final QueuePair b1;
        final QueuePair b2;

        Fixture() {
            a1 = p.a.createQp(p.pdA, QpType.RC, p.cqA, p.cqA, QpCaps.defaults());
            a2 = p.a.createQp(p.pdA, QpType.RC, p.cqA, p.cqA, QpCaps.defaults());
            b1 = p.b.createQp(p.pdB, QpType.RC, p.cqB, p.cqB, QpCaps.defaults(), srq);
            b2 = p.b.createQp(p.pdB, QpType.RC, p.cqB, p.cqB, QpCaps.defaults(), srq);
            connect(a1, b1);
            connect(a2, b2);
        }

        private void connect(QueuePair a, QueuePair b) {
            NicRig.connect(a, b, NicRig.IP_B, 0x100, 0x200, QpType.RC, 1024, 14, 7, 7, 1);
            NicRig.connect(b, a, NicRig.IP_A, 0x200, 0x100, QpType.RC, 1024, 14, 7, 7, 1);
        }

        List<AsyncEvent> events(SoftNic nic) {
            List<AsyncEvent> out = new ArrayList<>();
            for (AsyncEvent e; (e = nic.pollAsyncEvent()) != null; ) {
                out.add(e);
            }
            return out;
        }

        @Override
        public void close() {
            p.close();
        }
    }

    @Test
    void twoRcQpsTakeReceivesFromOneSrqInPostingOrder() {
        try (Fixture f = new Fixture()) {
            byte[] src = new byte[1500];
            new Random(41).nextBytes(src);
            byte[] dst = new byte[4 * 2048];
            MemoryRegion mrA = f.p.pdA.registerMr(src, 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = f.p.pdB.registerMr(dst, 0x9000, AccessFlags.LOCAL_WRITE);
            for (int i = 0; i < 4; i++) {
                // two SGEs per WQE: the SRQ's max_sge
                f.srq.postRecv(new RecvWr(100 + i, Sge.of(mrB, i * 2048, 1000), Sge.of(mrB, i * 2048 + 1000, 1048)));
            }
            assertThrows(IllegalStateException.class, () -> f.b1.postRecv(new RecvWr(1, Sge.of(mrB))),
                    "a QP with an SRQ has no receive queue of its own");
            f.a1.postSend(SendWr.send(1, Sge.of(mrA)));
            assertTrue(f.p.runUntil(() -> f.p.cqB.size() == 1, 100 * MS));
            f.a2.postSend(SendWr.send(2, Sge.of(mrA)));
            assertTrue(f.p.runUntil(() -> f.p.cqB.size() == 2, 100 * MS));
            f.a1.postSend(SendWr.send(3, Sge.of(mrA)));
            assertTrue(f.p.runUntil(() -> f.p.cqB.size() == 3, 100 * MS));
            List<WorkCompletion> wcs = NicRig.drain(f.p.cqB);
            assertEquals(List.of(100L, 101L, 102L), wcs.stream().map(WorkCompletion::wrId).toList(),
                    "WQEs are taken in posting order, whichever QP the message came on");
            assertEquals(List.of(f.b1.qpn(), f.b2.qpn(), f.b1.qpn()), wcs.stream().map(WorkCompletion::qpNum).toList());
            wcs.forEach(wc -> assertEquals(1500, wc.byteLen()));
            for (int i = 0; i < 3; i++) {
                assertArrayEquals(src, Arrays.copyOfRange(dst, i * 2048, i * 2048 + 1500), "message " + i);
            }
            assertEquals(1, f.srq.size());
        }
    }

    @Test
    void limitEventFiresOnceBelowTheLimitAndDisarms() {
        try (Fixture f = new Fixture()) {
            MemoryRegion mrA = f.p.pdA.registerMr(new byte[64], 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = f.p.pdB.registerMr(new byte[64], 0x9000, AccessFlags.LOCAL_WRITE);
            for (int i = 0; i < 6; i++) {
                f.srq.postRecv(new RecvWr(i, Sge.of(mrB)));
            }
            assertThrows(IllegalArgumentException.class, () -> f.srq.modifyLimit(17));
            f.srq.modifyLimit(3);
            assertEquals(3, f.srq.limit());
            f.a1.postSend(SendWr.send(1, Sge.of(mrA)), SendWr.send(2, Sge.of(mrA)));
            f.a2.postSend(SendWr.send(3, Sge.of(mrA)));
            assertTrue(f.p.runUntil(() -> f.p.cqB.size() == 3, 100 * MS));
            assertEquals(List.of(), f.events(f.p.b), "3 WQEs left: not below the limit yet");
            f.a2.postSend(SendWr.send(4, Sge.of(mrA)));
            assertTrue(f.p.runUntil(() -> f.p.cqB.size() == 4, 100 * MS));
            List<AsyncEvent> ev = f.events(f.p.b);
            assertEquals(1, ev.size(), ev.toString());
            assertEquals(AsyncEventType.SRQ_LIMIT_REACHED, ev.get(0).type());
            assertEquals(f.srq, ev.get(0).srq());
            assertEquals("IBV_EVENT_SRQ_LIMIT_REACHED", ev.get(0).type().verbsName());
            assertEquals(0, f.srq.limit(), "the event disarms the SRQ");
            f.a1.postSend(SendWr.send(5, Sge.of(mrA)));
            assertTrue(f.p.runUntil(() -> f.p.cqB.size() == 5, 100 * MS));
            assertEquals(List.of(), f.events(f.p.b), "disarmed: no second event");
            f.srq.modifyLimit(2);
            f.a1.postSend(SendWr.send(6, Sge.of(mrA)));
            assertTrue(f.p.runUntil(() -> f.p.cqB.size() == 6, 100 * MS));
            assertEquals(AsyncEventType.SRQ_LIMIT_REACHED, f.events(f.p.b).get(0).type(), "re-armed, fires again");
        }
    }

    @Test
    void anEmptySrqMakesRcSendersWaitOnRnrUntilRefilled() {
        try (Fixture f = new Fixture()) {
            MemoryRegion mrA = f.p.pdA.registerMr(new byte[64], 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = f.p.pdB.registerMr(new byte[64], 0x9000, AccessFlags.LOCAL_WRITE);
            f.a1.postSend(SendWr.send(1, Sge.of(mrA)).signaled(true));
            f.p.runUntil(() -> false, 2 * MS);
            assertTrue(f.p.b.counters().get(NicCounter.SEND_RNR_ERR) >= 1, "RNR NAK from the empty SRQ");
            assertEquals(0, f.p.cqA.size());
            f.srq.postRecv(new RecvWr(7, Sge.of(mrB)));
            assertTrue(f.p.runUntil(() -> f.p.cqA.size() == 1 && f.p.cqB.size() == 1, 100 * MS));
            assertEquals(WcStatus.SUCCESS, f.p.cqA.poll().status());
            assertEquals(7, f.p.cqB.poll().wrId());
        }
    }

    @Test
    void aQpGoingToErrorLeavesTheSrqAloneAndReportsItsLastWqe() {
        try (Fixture f = new Fixture()) {
            MemoryRegion mrA = f.p.pdA.registerMr(new byte[64], 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = f.p.pdB.registerMr(new byte[64], 0x9000, AccessFlags.LOCAL_WRITE);
            f.srq.postRecv(new RecvWr(1, Sge.of(mrB)), new RecvWr(2, Sge.of(mrB)));
            f.p.runUntil(() -> false, MS);
            f.b1.modify(new QpAttr().state(QpState.ERR));
            f.p.runUntil(() -> false, MS);
            assertNull(f.p.cqB.poll(), "no WQE of the SRQ is flushed");
            List<AsyncEvent> ev = f.events(f.p.b);
            assertEquals(1, ev.size());
            assertEquals(AsyncEventType.QP_LAST_WQE_REACHED, ev.get(0).type());
            assertEquals(f.b1, ev.get(0).qp());
            f.a2.postSend(SendWr.send(1, Sge.of(mrA)));
            assertTrue(f.p.runUntil(() -> f.p.cqB.size() == 1, 100 * MS));
            WorkCompletion wc = f.p.cqB.poll();
            assertEquals(1, wc.wrId(), "the other QP still uses the SRQ's WQEs");
            assertEquals(WcStatus.SUCCESS, wc.status());
        }
    }

    @Test
    void udQpReceivesThroughAnSrqWithTheGrhArea() {
        try (NicRig p = NicRig.pair(QpType.UD, 1024, FaultProfile.NONE, 42)) {
            SharedReceiveQueue srq = p.b.createSrq(p.pdB, 4, 1);
            CompletionQueue cq = p.b.createCq(16);
            QueuePair ud = p.b.createQp(p.pdB, QpType.UD, cq, cq, QpCaps.defaults(), srq);
            ud.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).qkey(0x11111111));
            ud.modify(new QpAttr().state(QpState.RTR));
            ud.modify(new QpAttr().state(QpState.RTS).sqPsn(0));
            byte[] src = new byte[200];
            new Random(42).nextBytes(src);
            byte[] dst = new byte[40 + 200];
            MemoryRegion mrA = p.pdA.registerMr(src, 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(dst, 0x9000, AccessFlags.LOCAL_WRITE);
            srq.postRecv(new RecvWr(5, Sge.of(mrB)));
            p.qpA.postSend(SendWr.send(1, Sge.of(mrA)).ud(AddressHandle.ipv4(NicRig.IP_B), ud.qpn(), 0x11111111));
            assertTrue(p.runUntil(() -> cq.size() == 1, 100 * MS));
            WorkCompletion wc = cq.poll();
            assertEquals(5, wc.wrId());
            assertEquals(240, wc.byteLen());
            assertEquals(p.qpA.qpn(), wc.srcQp());
            assertArrayEquals(src, Arrays.copyOfRange(dst, 40, 240));
            assertEquals(0x45, dst[20] & 0xFF, "IPv4 header in the last 20 bytes of the GRH area");
            assertThrows(IllegalArgumentException.class,
                    () -> p.b.createQp(p.pdB, QpType.UC, cq, cq, QpCaps.defaults(), srq));
        }
    }
}
