package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.link.FaultProfile;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Send queue drain (IBA 10.3.1.5): in SQD the requester finishes the message it is in the middle
 * of and waits for the acknowledgement of everything started, starts nothing new, then raises
 * {@code IBV_EVENT_SQ_DRAINED} if asked to; SQD to RTS is refused while draining and resumes the
 * queue after.
 */
class SqdDrainTest {
    private static final long MS = 1_000_000L;

    private static long writesOnWire(NicRig p) {
        return p.wireFrom("a").stream().filter(s -> s.opcode().has(Opcode.WRITE)).count();
    }

    @Test
    void drainFinishesTheMessageInProgressStartsNothingNewAndSaysSo() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 51)) {
            int big = 200 * 1024; // 200 packets: more than the 128-PSN window, so it is mid-message at SQD
            p.a.addNeighbor(NicRig.IP_B, p.b.mac()); // frames leave at once instead of waiting for ARP
            MemoryRegion mrA = p.pdA.registerMr(new byte[big], 0x100000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(new byte[big], 0x900000, AccessFlags.ALL);
            p.qpA.postSend(SendWr.write(1, Sge.of(mrA), 0x900000, mrB.rkey()).signaled(true));
            // the NIC's transmitter sends at the line rate: let part of the message go first
            assertTrue(p.runUntil(() -> writesOnWire(p) >= 64, 100 * MS));
            p.qpA.modify(new QpAttr().state(QpState.SQD).enSqdAsyncNotify(true));
            assertEquals(QpState.SQD, p.qpA.state());
            assertTrue(p.qpA.isSqDraining());
            assertTrue(writesOnWire(p) < 200, "the message was in progress when SQD came: " + writesOnWire(p));
            p.qpA.postSend(SendWr.write(2, Sge.of(mrA, 0, 1000), 0x900000, mrB.rkey()).signaled(true));
            assertThrows(IllegalArgumentException.class, () -> p.qpA.modify(new QpAttr().state(QpState.RTS)),
                    "no SQD to RTS while draining");

            assertTrue(p.runUntil(() -> p.cqA.size() == 1, 100 * MS), p.a.counters() + " " + p.b.counters()
                    + " writes " + writesOnWire(p) + " " + p.wireFrom("b"));
            p.runUntil(() -> false, 10 * MS);
            assertEquals(200, writesOnWire(p), "the message in progress was finished, the next one not started");
            assertFalse(p.qpA.isSqDraining());
            AsyncEvent e = p.a.pollAsyncEvent();
            assertEquals(AsyncEventType.SQ_DRAINED, e.type());
            assertEquals(p.qpA, e.qp());
            assertNull(p.a.pollAsyncEvent(), "one event");
            assertEquals(1, p.cqA.poll().wrId());

            p.qpA.modify(new QpAttr().state(QpState.RTS));
            assertTrue(p.runUntil(() -> p.cqA.size() == 1, 100 * MS));
            WorkCompletion wc = p.cqA.poll();
            assertEquals(2, wc.wrId());
            assertEquals(WcStatus.SUCCESS, wc.status());
            assertEquals(201, writesOnWire(p));
        }
    }

    @Test
    void anIdleQueueDrainsAtOnceAndWithoutNotifyNoEventIsRaised() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 52)) {
            p.qpA.modify(new QpAttr().state(QpState.SQD));
            assertFalse(p.qpA.isSqDraining());
            assertNull(p.a.pollAsyncEvent());
            p.qpA.modify(new QpAttr().state(QpState.RTS));
            p.qpA.modify(new QpAttr().state(QpState.SQD).enSqdAsyncNotify(true));
            assertEquals(List.of(AsyncEventType.SQ_DRAINED), List.of(p.a.pollAsyncEvent().type()));
        }
    }

    @Test
    void theResponderKeepsWorkingInSqd() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 53)) {
            MemoryRegion mrA = p.pdA.registerMr(new byte[100], 0x1000, AccessFlags.ALL);
            MemoryRegion mrB = p.pdB.registerMr(new byte[100], 0x9000, AccessFlags.LOCAL_WRITE);
            p.qpA.modify(new QpAttr().state(QpState.SQD));
            p.qpB.postSend(SendWr.write(1, Sge.of(mrB), 0x1000, mrA.rkey()).signaled(true));
            assertTrue(p.runUntil(() -> p.cqB.size() == 1, 100 * MS));
            assertEquals(WcStatus.SUCCESS, p.cqB.poll().status(), "a QP in SQD still answers requests");
        }
    }

    @Test
    void udQueuesWhatIsPostedInSqdAndSendsItBackInRts() {
        try (NicRig p = NicRig.pair(QpType.UD, 1024, FaultProfile.NONE, 56)) {
            MemoryRegion mrA = p.pdA.registerMr(new byte[100], 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(new byte[140], 0x9000, AccessFlags.LOCAL_WRITE);
            p.qpB.postRecv(new RecvWr(1, Sge.of(mrB)));
            p.qpA.modify(new QpAttr().state(QpState.SQD).enSqdAsyncNotify(true));
            assertEquals(AsyncEventType.SQ_DRAINED, p.a.pollAsyncEvent().type(), "nothing outstanding: drained at once");
            p.qpA.postSend(SendWr.send(1, Sge.of(mrA)).signaled(true)
                    .ud(AddressHandle.ipv4(NicRig.IP_B), p.qpB.qpn(), 0x11111111));
            p.runUntil(() -> false, 10 * MS);
            assertEquals(0, p.wireFrom("a").size(), "posted in SQD: queued, not sent");
            p.qpA.modify(new QpAttr().state(QpState.RTS));
            assertTrue(p.runUntil(() -> p.cqA.size() == 1 && p.cqB.size() == 1, 100 * MS));
            assertEquals(WcStatus.SUCCESS, p.cqB.poll().status());
        }
    }
}
