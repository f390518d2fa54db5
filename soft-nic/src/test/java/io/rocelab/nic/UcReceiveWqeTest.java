package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.ib.Opcode;
import io.rocelab.codec.ib.Psn;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * UC has no retransmission: a message with a packet missing is dropped, and the receive WQE it had
 * taken is used for the next message (IBA 9.8.3; rxe's class D1 error resets the WQE and keeps it).
 * No receive WQE is ever lost: each completes with a message, or is flushed when the QP goes to ERR.
 */
class UcReceiveWqeTest {
    private static final int MTU = ScriptedPeer.MTU;
    private static final int E = ScriptedPeer.RQ_PSN;

    @Test
    void aMessageCutByAPsnGapLeavesItsReceiveWqeToTheNextMessage() {
        try (ScriptedPeer p = new ScriptedPeer(QpType.UC)) {
            byte[] buf = new byte[4 * MTU];
            MemoryRegion mr = p.pd.registerMr(buf, 0x10_0000L, AccessFlags.LOCAL_WRITE);
            p.qp.postRecv(new RecvWr(1, Sge.of(mr)));
            p.inject(p.frame(Opcode.UC_SEND_FIRST, E).payload(ScriptedPeer.pattern(MTU, 1)));
            p.inject(p.frame(Opcode.UC_SEND_LAST, Psn.add(E, 2)).payload(new byte[100])); // E+1 was lost
            assertEquals(0, p.cq.size(), "the cut message completes nothing");

            byte[] next = ScriptedPeer.pattern(300, 2);
            p.inject(p.frame(Opcode.UC_SEND_ONLY, Psn.add(E, 3)).payload(next));
            WorkCompletion wc = p.cq.poll();
            assertEquals(1, wc.wrId(), "the same WQE takes the next message");
            assertEquals(WcStatus.SUCCESS, wc.status());
            assertEquals(300, wc.byteLen());
            assertArrayEquals(next, java.util.Arrays.copyOf(buf, 300));
        }
    }

    @Test
    void aMessageAbandonedForANewOneLeavesItsReceiveWqeToIt() {
        try (ScriptedPeer p = new ScriptedPeer(QpType.UC)) {
            MemoryRegion mr = p.pd.registerMr(new byte[4 * MTU], 0x10_0000L, AccessFlags.LOCAL_WRITE);
            p.qp.postRecv(new RecvWr(1, Sge.of(mr)), new RecvWr(2, Sge.of(mr)));
            p.inject(p.frame(Opcode.UC_SEND_FIRST, E).payload(new byte[MTU]));
            // in sequence, but a new message: the unfinished one is abandoned (its LAST never came)
            p.inject(p.frame(Opcode.UC_SEND_ONLY, Psn.add(E, 1)).payload(new byte[10]));
            p.inject(p.frame(Opcode.UC_SEND_ONLY, Psn.add(E, 2)).payload(new byte[20]));
            List<WorkCompletion> wcs = NicRig.drain(p.cq);
            assertEquals(List.of(1L, 2L), wcs.stream().map(WorkCompletion::wrId).toList());
            assertEquals(List.of(10, 20), wcs.stream().map(WorkCompletion::byteLen).toList());
        }
    }

    @Test
    void aReceiveWqeHeldByACutMessageIsFlushedWhenTheQpGoesToErr() {
        try (ScriptedPeer p = new ScriptedPeer(QpType.UC)) {
            MemoryRegion mr = p.pd.registerMr(new byte[4 * MTU], 0x10_0000L, AccessFlags.LOCAL_WRITE);
            p.qp.postRecv(new RecvWr(1, Sge.of(mr)), new RecvWr(2, Sge.of(mr)));
            p.inject(p.frame(Opcode.UC_SEND_FIRST, E).payload(new byte[MTU]));
            p.inject(p.frame(Opcode.UC_SEND_MIDDLE, Psn.add(E, 2)).payload(new byte[MTU]));
            p.qp.modify(new QpAttr().state(QpState.ERR));
            p.run(1_000);
            List<WorkCompletion> wcs = NicRig.drain(p.cq);
            assertEquals(List.of(1L, 2L), wcs.stream().map(WorkCompletion::wrId).toList(), "every WQE comes back");
            assertTrue(wcs.stream().allMatch(wc -> wc.status() == WcStatus.WR_FLUSH_ERR), wcs.toString());
        }
    }
}
