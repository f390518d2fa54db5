package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.nic.stats.NicCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * An internal error on a NIC's thread (here its port throws, as a port with a bug would) puts the
 * device in the fatal state: {@code IBV_EVENT_DEVICE_FATAL}, every QP in ERR, its work requests
 * flushed; the application's CQ sees errors instead of waiting for good. On the path of a posted
 * work request, on the receive path (the responder sending READ responses) and in a timer's task
 * (a retransmission after the local ACK timeout).
 */
class InternalErrorTest {
    private static final long MS = 1_000_000L;
    private static final long VA = 0x10_0000L;

    @Test
    void aFailureWhilePostingFlushesTheWorkRequestsAndRaisesDeviceFatal() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 61)) {
            MemoryRegion mrA = p.pdA.registerMr(new byte[4096], VA, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(new byte[4096], VA, AccessFlags.LOCAL_WRITE);
            p.qpB.postRecv(new RecvWr(1, Sge.of(mrB)), new RecvWr(2, Sge.of(mrB)));
            p.tapA.fail(s -> true);
            p.qpA.postSend(SendWr.send(7, Sge.of(mrA)).signaled(true), SendWr.send(8, Sge.of(mrA)).signaled(true));
            assertTrue(p.runUntil(() -> p.cqA.size() == 2, 100 * MS), "both WRs complete: " + p.cqA.size());

            List<WorkCompletion> wcs = NicRig.drain(p.cqA);
            assertEquals(List.of(7L, 8L), wcs.stream().map(WorkCompletion::wrId).toList());
            for (WorkCompletion wc : wcs) {
                assertEquals(WcStatus.WR_FLUSH_ERR, wc.status(), wc.toString());
            }
            assertEquals(QpState.ERR, p.qpA.state());
            assertEquals(List.of(AsyncEventType.DEVICE_FATAL), events(p.a));
            assertEquals(1, p.a.counters().get(NicCounter.INTERNAL_ERRORS));
            assertEquals(QpState.RTS, p.qpB.state(), "the peer is another device");
            // the device still takes commands: a later post completes at once, flushed
            p.qpA.postSend(SendWr.send(9, Sge.of(mrA)).signaled(true));
            assertTrue(p.runUntil(() -> p.cqA.size() == 1, 100 * MS));
            assertEquals(WcStatus.WR_FLUSH_ERR, p.cqA.poll().status());
        }
    }

    @Test
    void aFailureOnTheReceivePathRaisesDeviceFatalToo() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 62)) {
            MemoryRegion mrA = p.pdA.registerMr(new byte[4096], VA, AccessFlags.REMOTE_READ);
            MemoryRegion mrB = p.pdB.registerMr(new byte[4096], VA, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrA2 = p.pdA.registerMr(new byte[64], VA + 0x10_0000L, AccessFlags.LOCAL_WRITE);
            p.tapA.fail(s -> s.opcode() == Opcode.RC_RDMA_READ_RESPONSE_FIRST);
            p.qpA.postSend(SendWr.send(3, Sge.of(mrA2)).signaled(true)); // outstanding at A: no receive at B yet
            p.qpB.postSend(SendWr.read(5, Sge.of(mrB), VA, mrA.rkey()).signaled(true));
            assertTrue(p.runUntil(() -> p.a.counters().get(NicCounter.INTERNAL_ERRORS) > 0, 100 * MS),
                    "A fails while answering B's READ");
            assertEquals(List.of(AsyncEventType.DEVICE_FATAL), events(p.a));
            assertTrue(p.runUntil(() -> p.cqA.size() == 1, 100 * MS));
            assertEquals(WcStatus.WR_FLUSH_ERR, p.cqA.poll().status(), "A's own outstanding WR is flushed");
            assertEquals(QpState.ERR, p.qpA.state());
            assertEquals(1, p.a.counters().get(NicCounter.INTERNAL_ERRORS));
        }
    }

    @Test
    void aFailureInATimerRaisesDeviceFatalToo() {
        // local ACK timeout 2^10 x 4.096 us, about 4 ms: the first SEND is lost, its retransmission,
        // sent by the timer's task, fails
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 63, 10, 7, 7, 12)) {
            MemoryRegion mrA = p.pdA.registerMr(new byte[64], VA, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(new byte[64], VA, AccessFlags.LOCAL_WRITE);
            p.qpB.postRecv(new RecvWr(1, Sge.of(mrB)));
            AtomicInteger sends = new AtomicInteger();
            p.tapA.lose(s -> s.opcode() == Opcode.RC_SEND_ONLY && sends.getAndIncrement() == 0);
            p.tapA.fail(s -> s.opcode() == Opcode.RC_SEND_ONLY);
            p.qpA.postSend(SendWr.send(4, Sge.of(mrA)).signaled(true));
            assertTrue(p.runUntil(() -> p.cqA.size() == 1, 1000 * MS));
            assertEquals(WcStatus.WR_FLUSH_ERR, p.cqA.poll().status());
            assertEquals(2, sends.get(), "sent, lost, and resent by the timer");
            assertEquals(List.of(AsyncEventType.DEVICE_FATAL), events(p.a));
            assertEquals(1, p.a.counters().get(NicCounter.INTERNAL_ERRORS));
        }
    }

    private static List<AsyncEventType> events(SoftNic nic) {
        List<AsyncEventType> ev = new ArrayList<>();
        for (AsyncEvent e; (e = nic.pollAsyncEvent()) != null; ) {
            ev.add(e.type());
        }
        return ev;
    }
}
