package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.ib.AethSyndrome;
import io.rocelab.codec.ib.NakCode;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.codec.ib.Psn;
import io.rocelab.fabric.link.FaultProfile;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The responder executes the memory placement extensions of IBA 1.5 Annex A19 as rxe does:
 * ATOMIC WRITE places its 8 bytes at once at an aligned address of a region with remote write,
 * FLUSH is granted for the placement types the QP and the region allow, and both are answered with
 * a zero-length RDMA READ RESPONSE ONLY; a duplicate is answered again and not executed again
 * (oA19-14, oA19-15). A malformed request is an invalid request, one the region does not allow a
 * remote access error, and neither touches memory.
 */
class MemoryPlacementTest {
    private static final int E = ScriptedPeer.RQ_PSN;
    private static final long VA = 0x20_0000L;
    private static final int QP_ACCESS = AccessFlags.ALL | AccessFlags.FLUSH_GLOBAL | AccessFlags.FLUSH_PERSISTENT;
    private static final int NAK_INVALID = AethSyndrome.nak(NakCode.INVALID_REQUEST);
    private static final int NAK_ACCESS = AethSyndrome.nak(NakCode.REMOTE_ACCESS_ERROR);
    /** FETH values: the selectivity level in bits 5..4, the placement type in bits 3..0 (A19.4.1). */
    private static final int GLOBAL_RANGE = SendWr.FLUSH_RANGE << 4 | SendWr.FLUSH_GLOBAL;
    private static final int GLOBAL_REGION = SendWr.FLUSH_MR << 4 | SendWr.FLUSH_GLOBAL;
    private static final int PERSISTENT_RANGE = SendWr.FLUSH_RANGE << 4 | SendWr.FLUSH_PERSISTENT;
    private static final byte[] EIGHT = {1, 2, 3, 4, 5, 6, 7, 8};

    @Test
    void anAtomicWritePlacesItsEightBytesAndIsAnsweredWithAnEmptyReadResponse() {
        try (ScriptedPeer p = new ScriptedPeer(QpType.RC, QP_ACCESS)) {
            byte[] mem = new byte[64];
            MemoryRegion mr = p.pd.registerMr(mem, VA, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
            p.inject(atomicWrite(p, E, VA + 16, mr.rkey(), EIGHT));
            byte[] expected = new byte[64];
            System.arraycopy(EIGHT, 0, expected, 16, 8);
            assertArrayEquals(expected, mem);
            WireTap.Seen r = single(p);
            assertEquals(Opcode.RC_RDMA_READ_RESPONSE_ONLY, r.opcode());
            assertEquals(E, r.psn());
            assertEquals(0, r.payloadLength());
            assertEquals(AethSyndrome.ACK_NO_CREDIT, r.syndrome());
            assertEquals(1, r.msn());

            mem[16] = 99; // the application writes there; a duplicate must not undo it
            p.inject(atomicWrite(p, E, VA + 16, mr.rkey(), EIGHT));
            WireTap.Seen again = single(p);
            assertEquals(Opcode.RC_RDMA_READ_RESPONSE_ONLY, again.opcode());
            assertEquals(E, again.psn());
            assertEquals(99, mem[16], "a duplicate ATOMIC WRITE is not executed again");
            p.inject(atomicWrite(p, Psn.add(E, 1), VA + 24, mr.rkey(), EIGHT));
            assertEquals(2, single(p).msn(), "the next request is the second message");
        }
    }

    @Test
    void anAtomicWriteToARegionWithoutRemoteWriteIsARemoteAccessError() {
        assertRejected(NAK_ACCESS, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_ATOMIC,
                (p, mr) -> atomicWrite(p, E, VA, mr.rkey(), EIGHT));
    }

    @Test
    void anAtomicWriteOutsideTheRegionIsARemoteAccessError() {
        assertRejected(NAK_ACCESS, AccessFlags.ALL, (p, mr) -> atomicWrite(p, E, VA + 64, mr.rkey(), EIGHT));
    }

    @Test
    void aMisalignedAtomicWriteIsAnInvalidRequest() {
        assertRejected(NAK_INVALID, AccessFlags.ALL, (p, mr) -> atomicWrite(p, E, VA + 4, mr.rkey(), EIGHT));
    }

    @Test
    void anAtomicWriteOfOtherThanEightBytesIsAnInvalidRequest() {
        assertRejected(NAK_INVALID, AccessFlags.ALL, (p, mr) -> atomicWrite(p, E, VA, mr.rkey(), new byte[16]));
        assertRejected(NAK_INVALID, AccessFlags.ALL,
                (p, mr) -> p.frame(Opcode.RC_ATOMIC_WRITE, E).ackReq(true).reth(VA, mr.rkey(), 16).payload(EIGHT));
    }

    @Test
    void anAtomicWriteOnAQpWithoutRemoteWriteIsAnInvalidRequest() {
        try (ScriptedPeer p = new ScriptedPeer(QpType.RC, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ)) {
            byte[] mem = new byte[64];
            MemoryRegion mr = p.pd.registerMr(mem, VA, AccessFlags.ALL);
            p.inject(atomicWrite(p, E, VA, mr.rkey(), EIGHT));
            assertEquals(NAK_INVALID, single(p).syndrome());
            assertArrayEquals(new byte[64], mem);
        }
    }

    @Test
    void aFlushToGlobalVisibilityOfARangeIsAnsweredWithAnEmptyReadResponse() {
        try (ScriptedPeer p = new ScriptedPeer(QpType.RC, QP_ACCESS)) {
            MemoryRegion mr = p.pd.registerMr(new byte[64], VA, AccessFlags.LOCAL_WRITE | AccessFlags.FLUSH_GLOBAL);
            p.inject(flush(p, E, GLOBAL_RANGE, VA, mr.rkey(), 64));
            WireTap.Seen r = single(p);
            assertEquals(Opcode.RC_RDMA_READ_RESPONSE_ONLY, r.opcode());
            assertEquals(0, r.payloadLength());
            assertEquals(1, r.msn());
            p.inject(flush(p, E, GLOBAL_RANGE, VA, mr.rkey(), 64));
            assertEquals(Opcode.RC_RDMA_READ_RESPONSE_ONLY, single(p).opcode(), "a duplicate is answered again");
            // the whole region: the range does not matter
            p.inject(flush(p, Psn.add(E, 1), GLOBAL_REGION, 0, mr.rkey(), 1 << 20));
            assertEquals(2, single(p).msn());
        }
    }

    @Test
    void aFlushTheRegionDoesNotAllowIsARemoteAccessError() {
        assertRejected(NAK_ACCESS, AccessFlags.ALL, (p, mr) -> flush(p, E, GLOBAL_RANGE, VA, mr.rkey(), 64));
    }

    @Test
    void aFlushOfARangeBeyondTheRegionIsARemoteAccessError() {
        assertRejected(NAK_ACCESS, AccessFlags.LOCAL_WRITE | AccessFlags.FLUSH_GLOBAL,
                (p, mr) -> flush(p, E, GLOBAL_RANGE, VA, mr.rkey(), 65));
    }

    @Test
    void aFlushToPersistenceIsARemoteAccessErrorForNoRegionIsPersistent() {
        assertRejected(NAK_ACCESS, AccessFlags.LOCAL_WRITE | AccessFlags.FLUSH_GLOBAL,
                (p, mr) -> flush(p, E, PERSISTENT_RANGE, VA, mr.rkey(), 64));
        try (ScriptedPeer p = new ScriptedPeer(QpType.RC, QP_ACCESS)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> p.pd.registerMr(new byte[64], VA, AccessFlags.FLUSH_PERSISTENT));
            assertEquals("access: FLUSH_PERSISTENT needs persistent memory, "
                    + "and a soft NIC's regions are ordinary memory", e.getMessage());
        }
    }

    @Test
    void aFlushWithAnUnknownPlacementTypeOrLevelIsAnInvalidRequest() {
        int flushable = AccessFlags.LOCAL_WRITE | AccessFlags.FLUSH_GLOBAL;
        assertRejected(NAK_INVALID, flushable, (p, mr) -> flush(p, E, 0, VA, mr.rkey(), 64));
        assertRejected(NAK_INVALID, flushable, (p, mr) -> flush(p, E, 4 | GLOBAL_RANGE, VA, mr.rkey(), 64));
        assertRejected(NAK_INVALID, flushable, (p, mr) -> flush(p, E, 2 << 4 | GLOBAL_RANGE, VA, mr.rkey(), 64));
    }

    @Test
    void aFlushOnAQpWithoutTheFlushRightIsAnInvalidRequest() {
        try (ScriptedPeer p = new ScriptedPeer(QpType.RC, AccessFlags.ALL)) {
            MemoryRegion mr = p.pd.registerMr(new byte[64], VA, AccessFlags.LOCAL_WRITE | AccessFlags.FLUSH_GLOBAL);
            p.inject(flush(p, E, GLOBAL_RANGE, VA, mr.rkey(), 64));
            assertEquals(NAK_INVALID, single(p).syndrome());
        }
    }

    @Test
    void twoSoftNicsCarryAnAtomicWriteAndAFlushAsTheVerbsPostThem() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 91)) {
            p.qpB.modify(new QpAttr().accessFlags(AccessFlags.ALL | AccessFlags.FLUSH_GLOBAL)); // RTS to RTS
            byte[] local = {9, 8, 7, 6, 5, 4, 3, 2};
            byte[] remote = new byte[64];
            MemoryRegion mrA = p.pdA.registerMr(local, VA, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(remote, VA,
                    AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.FLUSH_GLOBAL);
            p.qpA.postSend(SendWr.atomicWrite(1, Sge.of(mrA), VA + 8, mrB.rkey()),
                    SendWr.flush(2, VA, mrB.rkey(), 64, SendWr.FLUSH_GLOBAL, SendWr.FLUSH_RANGE));
            assertTrue(p.runUntil(() -> p.cqA.size() == 2, 100_000_000L));
            List<WorkCompletion> wcs = NicRig.drain(p.cqA);
            assertEquals(List.of(WcOpcode.ATOMIC_WRITE, WcOpcode.FLUSH),
                    wcs.stream().map(WorkCompletion::opcode).toList());
            assertEquals(List.of(WcStatus.SUCCESS, WcStatus.SUCCESS),
                    wcs.stream().map(WorkCompletion::status).toList());
            assertEquals(List.of(8, 0), wcs.stream().map(WorkCompletion::byteLen).toList());
            assertArrayEquals(local, java.util.Arrays.copyOfRange(remote, 8, 16));
            assertEquals(List.of(Opcode.RC_ATOMIC_WRITE, Opcode.RC_FLUSH),
                    p.wireFrom("a").stream().map(WireTap.Seen::opcode).toList());
            assertEquals(List.of(Opcode.RC_RDMA_READ_RESPONSE_ONLY, Opcode.RC_RDMA_READ_RESPONSE_ONLY),
                    p.wireFrom("b").stream().map(WireTap.Seen::opcode).toList());
        }
    }

    @Test
    void theVerbsRefuseAnAtomicWriteOfOtherThanEightBytesAndAFlushOfNoKnownType() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 92)) {
            MemoryRegion mrA = p.pdA.registerMr(new byte[16], VA, AccessFlags.LOCAL_WRITE);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> p.qpA.postSend(SendWr.atomicWrite(1, Sge.of(mrA), VA, 1)));
            assertEquals("atomic write needs 8 bytes, got 16", e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> SendWr.flush(2, VA, 1, 8, 4, SendWr.FLUSH_RANGE));
            assertEquals("flush type must be FLUSH_GLOBAL and/or FLUSH_PERSISTENT: 4", e.getMessage());
        }
    }

    /** A request for a fresh QP and region: NAKed with {@code syndrome}, the QP in ERR, memory untouched. */
    private static void assertRejected(int syndrome, int regionAccess,
                                       java.util.function.BiFunction<ScriptedPeer, MemoryRegion, RoceFrame> request) {
        try (ScriptedPeer p = new ScriptedPeer(QpType.RC, QP_ACCESS)) {
            byte[] mem = new byte[64];
            MemoryRegion mr = p.pd.registerMr(mem, VA, regionAccess);
            p.inject(request.apply(p, mr));
            WireTap.Seen r = single(p);
            assertEquals(Opcode.RC_ACKNOWLEDGE, r.opcode());
            assertEquals(AethSyndrome.describe(syndrome), AethSyndrome.describe(r.syndrome()));
            assertEquals(QpState.ERR, p.qp.state());
            assertArrayEquals(new byte[64], mem);
        }
    }

    private static RoceFrame atomicWrite(ScriptedPeer p, int psn, long va, int rkey, byte[] data) {
        return p.frame(Opcode.RC_ATOMIC_WRITE, psn).ackReq(true).reth(va, rkey, data.length).payload(data);
    }

    private static RoceFrame flush(ScriptedPeer p, int psn, int feth, long va, int rkey, long len) {
        return p.frame(Opcode.RC_FLUSH, psn).ackReq(true).feth(feth).reth(va, rkey, len);
    }

    private static WireTap.Seen single(ScriptedPeer p) {
        List<WireTap.Seen> sent = p.newlySent();
        assertEquals(1, sent.size(), "one response: " + sent);
        return sent.get(0);
    }
}
