package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.nic.stats.NicCounter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * CQ overrun (an affiliated asynchronous error, IBA 11.6.3): a completion that finds its CQ full is lost, the CQ goes to the error
 * state ({@code IBV_EVENT_CQ_ERR}) and the QPs completing to it go to ERR ({@code IBV_EVENT_QP_FATAL});
 * the message whose completion was lost is not acknowledged, so its sender does not believe it
 * delivered. QPs on other CQs are not affected.
 */
class CqOverflowTest {
    private static final long MS = 1_000_000L;

    @Test
    void anOverrunCqTakesItsQpsToErrorWithAsyncEvents() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 54, 10, 2, 7, 1)) {
            CompletionQueue small = p.b.createCq(2);
            QueuePair a2 = p.a.createQp(p.pdA, QpType.RC, p.cqA, p.cqA, QpCaps.defaults());
            QueuePair b2 = p.b.createQp(p.pdB, QpType.RC, p.cqB, small, QpCaps.defaults());
            NicRig.connect(a2, b2, NicRig.IP_B, 0x300, 0x400, QpType.RC, 1024, 10, 2, 7, 1);
            NicRig.connect(b2, a2, NicRig.IP_A, 0x400, 0x300, QpType.RC, 1024, 10, 2, 7, 1);
            MemoryRegion mrA = p.pdA.registerMr(new byte[64], 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(new byte[64], 0x9000, AccessFlags.LOCAL_WRITE);
            b2.postRecv(new RecvWr(1, Sge.of(mrB)), new RecvWr(2, Sge.of(mrB)), new RecvWr(3, Sge.of(mrB)),
                    new RecvWr(4, Sge.of(mrB)));
            p.qpB.postRecv(new RecvWr(10, Sge.of(mrB)));
            a2.postSend(SendWr.send(1, Sge.of(mrA)).signaled(true), SendWr.send(2, Sge.of(mrA)).signaled(true),
                    SendWr.send(3, Sge.of(mrA)).signaled(true));
            assertTrue(p.runUntil(() -> p.cqA.size() == 3, 1000 * MS));

            assertTrue(small.overflowed());
            assertEquals(2, small.size(), "the third completion and the flushes were lost");
            assertEquals(QpState.ERR, b2.state());
            List<AsyncEvent> ev = new ArrayList<>();
            for (AsyncEvent e; (e = p.b.pollAsyncEvent()) != null; ) {
                ev.add(e);
            }
            assertEquals(2, ev.size(), ev.toString());
            assertEquals(AsyncEventType.CQ_ERR, ev.get(0).type());
            assertEquals(small, ev.get(0).cq());
            assertEquals(AsyncEventType.QP_FATAL, ev.get(1).type());
            assertEquals(b2, ev.get(1).qp());
            assertEquals(1, p.b.counters().get(NicCounter.CQ_OVERFLOW));

            List<WorkCompletion> sent = NicRig.drain(p.cqA);
            assertEquals(WcStatus.SUCCESS, sent.get(0).status());
            assertEquals(WcStatus.SUCCESS, sent.get(1).status());
            assertEquals(WcStatus.RETRY_EXC_ERR, sent.get(2).status(), "the lost message was never acknowledged");

            assertFalse(p.cqB.overflowed());
            assertEquals(QpState.RTS, p.qpB.state(), "a QP on another CQ is untouched");
            p.qpA.postSend(SendWr.send(5, Sge.of(mrA)).signaled(true));
            assertTrue(p.runUntil(() -> p.cqB.size() == 1, 100 * MS));
            assertEquals(10, p.cqB.poll().wrId());
        }
    }
}
