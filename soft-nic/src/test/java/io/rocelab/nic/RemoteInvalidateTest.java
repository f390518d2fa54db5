package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.ib.AethSyndrome;
import io.rocelab.codec.ib.NakCode;
import io.rocelab.fabric.link.FaultProfile;
import org.junit.jupiter.api.Test;

/**
 * SEND_WITH_INVALIDATE lets a peer invalidate memory that was registered to be invalidated that
 * way, a fast-registered region (IBA 10.6.5; rxe's {@code rxe_invalidate_mr} takes only
 * {@code IB_MR_TYPE_MEM_REG}): never an ordinary region of {@code ibv_reg_mr}, even in the QP's
 * PD. An IETH naming one is an invalid request: the receive completes with
 * {@code IBV_WC_REM_INV_REQ_ERR}, the sender's with the NAK's, and the region stays valid.
 */
class RemoteInvalidateTest {
    private static final long VA = 0x10_0000L;
    private static final long MS = 1_000_000L;

    @Test
    void aPeerCannotInvalidateAnOrdinaryRegion() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 81)) {
            MemoryRegion mrA = p.pdA.registerMr(new byte[64], VA, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(new byte[64], VA, AccessFlags.LOCAL_WRITE);
            MemoryRegion ordinary = p.pdB.registerMr(new byte[64], VA + 0x1000, AccessFlags.ALL);
            p.qpB.postRecv(new RecvWr(1, Sge.of(mrB)));
            p.qpA.postSend(new SendWr(2, WrOpcode.SEND_WITH_INV).sgl(Sge.of(mrA)).invalidate(ordinary.rkey()));
            assertTrue(p.runUntil(() -> p.cqA.size() == 1 && p.cqB.size() == 1, 100 * MS));

            assertTrue(ordinary.isValid(), "the ordinary region is still valid");
            assertEquals(WcStatus.REM_INV_REQ_ERR, p.cqB.poll().status());
            assertEquals(WcStatus.REM_INV_REQ_ERR, p.cqA.poll().status());
            assertEquals(AethSyndrome.nak(NakCode.INVALID_REQUEST), p.wireFrom("b").get(0).syndrome());
            assertEquals(QpState.ERR, p.qpB.state());
        }
    }

    @Test
    void aPeerInvalidatesAFastRegisteredRegionAndItsKeyStopsWorking() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 82)) {
            MemoryRegion mrA = p.pdA.registerMr(new byte[64], VA, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(new byte[64], VA, AccessFlags.LOCAL_WRITE);
            MemoryRegion fast = p.pdB.registerFastMr(new byte[64], VA + 0x1000, AccessFlags.ALL);
            assertEquals(MemoryRegion.Type.MEM_REG, fast.type());
            p.qpB.postRecv(new RecvWr(1, Sge.of(mrB)));
            p.qpA.postSend(new SendWr(2, WrOpcode.SEND_WITH_INV).sgl(Sge.of(mrA)).invalidate(fast.rkey()));
            assertTrue(p.runUntil(() -> p.cqA.size() == 1 && p.cqB.size() == 1, 100 * MS));
            WorkCompletion recv = p.cqB.poll();
            assertEquals(WcStatus.SUCCESS, recv.status());
            assertEquals(fast.rkey(), recv.invalidatedRkey());
            assertFalse(fast.isValid());

            p.qpA.postSend(SendWr.write(3, Sge.of(mrA), fast.addr(), fast.rkey()));
            assertTrue(p.runUntil(() -> p.cqA.size() == 2, 100 * MS));
            p.cqA.poll();
            assertEquals(WcStatus.REM_ACCESS_ERR, p.cqA.poll().status(), "the invalidated key no longer works");
        }
    }
}
