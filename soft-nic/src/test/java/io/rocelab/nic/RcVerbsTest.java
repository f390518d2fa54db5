package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.ib.Opcode;
import io.rocelab.codec.ib.Psn;
import io.rocelab.fabric.link.FaultProfile;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Every RC verb end to end over a lossless link: memory, completions and the frames on the wire. */
class RcVerbsTest {
    private static final long VA_A = 0x1000_0000L;
    private static final long VA_B = 0x7f00_0000_0000L;

    private static byte[] pattern(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static List<WireTap.Seen> roce(NicRig p, String from) {
        return p.wireFrom(from);
    }

    @Test
    void sendSegmentsByMtuAcksOnceWithMsnAndCompletesBothSides() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 1)) {
            byte[] src = pattern(4096 + 100, 1);
            byte[] dst = new byte[8192];
            MemoryRegion mrA = p.pdA.registerMr(src, VA_A, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(dst, VA_B, AccessFlags.LOCAL_WRITE);
            p.qpB.postRecv(new RecvWr(77, Sge.of(mrB)));
            p.qpA.postSend(SendWr.send(5, Sge.of(mrA)).signaled(true));
            assertTrue(p.runUntil(() -> p.cqA.size() == 1 && p.cqB.size() == 1, 1_000_000_000L));

            WorkCompletion sent = p.cqA.poll();
            assertEquals(5, sent.wrId());
            assertEquals(WcStatus.SUCCESS, sent.status());
            assertEquals(WcOpcode.SEND, sent.opcode());
            WorkCompletion recv = p.cqB.poll();
            assertEquals(77, recv.wrId());
            assertEquals(WcStatus.SUCCESS, recv.status());
            assertEquals(WcOpcode.RECV, recv.opcode());
            assertEquals(src.length, recv.byteLen());
            assertFalse(recv.hasImm());
            assertArrayEquals(src, Arrays.copyOf(dst, src.length));
            assertEquals(0, dst[src.length]);

            List<WireTap.Seen> req = roce(p, "a");
            assertEquals(List.of(Opcode.RC_SEND_FIRST, Opcode.RC_SEND_MIDDLE, Opcode.RC_SEND_MIDDLE,
                    Opcode.RC_SEND_MIDDLE, Opcode.RC_SEND_LAST), req.stream().map(WireTap.Seen::opcode).toList());
            for (int i = 0; i < req.size(); i++) {
                assertEquals(Psn.add(NicRig.PSN_A, i), req.get(i).psn(), "PSNs wrap at 2^24");
                assertEquals(i == req.size() - 1, req.get(i).ackReq(), "AckReq only on the last packet, as rxe");
                assertEquals(i < 4 ? 1024 : 100, req.get(i).payloadLength());
                assertEquals(64, req.get(i).ttl());
                assertTrue(req.get(i).df());
                assertEquals(0, req.get(i).udpChecksum());
                assertEquals(p.qpA.udpSourcePort(), req.get(i).udpSrcPort());
                if (i > 0) {
                    assertEquals((req.get(i - 1).ipId() + 1) & 0xFFFF, req.get(i).ipId(), "IP ID per packet");
                }
            }
            List<WireTap.Seen> acks = roce(p, "b");
            assertEquals(1, acks.size(), "one coalesced ACK for the message");
            assertEquals(Opcode.RC_ACKNOWLEDGE, acks.get(0).opcode());
            assertEquals(Psn.add(NicRig.PSN_A, 4), acks.get(0).psn());
            assertEquals(0x1F, acks.get(0).syndrome());
            assertEquals(1, acks.get(0).msn());
            assertTrue(p.qpA.udpSourcePort() >= 0xC000);
        }
    }

    @Test
    void writeWithImmediateLandsInTheMrAndConsumesOneReceive() {
        try (NicRig p = NicRig.pair(QpType.RC, 256, FaultProfile.NONE, 2)) {
            byte[] src = pattern(1000, 2);
            byte[] dst = new byte[2000];
            MemoryRegion mrA = p.pdA.registerMr(src, VA_A, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(dst, VA_B, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
            p.qpB.postRecv(new RecvWr(9));
            p.qpA.postSend(SendWr.write(1, Sge.of(mrA), VA_B + 500, mrB.rkey()),
                    new SendWr(2, WrOpcode.RDMA_WRITE_WITH_IMM).sgl(Sge.of(mrA, 0, 10))
                            .remote(VA_B, mrB.rkey()).imm(0xCAFEBABE));
            assertTrue(p.runUntil(() -> p.cqA.size() == 2 && p.cqB.size() == 1, 1_000_000_000L));
            List<WorkCompletion> wcs = NicRig.drain(p.cqA);
            assertEquals(List.of(1L, 2L), wcs.stream().map(WorkCompletion::wrId).toList());
            wcs.forEach(wc -> assertEquals(WcOpcode.RDMA_WRITE, wc.opcode()));
            assertEquals(1000, wcs.get(0).byteLen());
            WorkCompletion r = p.cqB.poll();
            assertEquals(WcOpcode.RECV_RDMA_WITH_IMM, r.opcode());
            assertTrue(r.hasImm());
            assertEquals(0xCAFEBABE, r.immData());
            assertEquals(10, r.byteLen());
            assertEquals(9, r.wrId());
            assertArrayEquals(src, Arrays.copyOfRange(dst, 500, 1500));
            assertArrayEquals(Arrays.copyOf(src, 10), Arrays.copyOf(dst, 10));
            assertEquals(0, dst[1500]);
            List<Opcode> ops = roce(p, "a").stream().map(WireTap.Seen::opcode).toList();
            assertEquals(Opcode.RC_RDMA_WRITE_FIRST, ops.get(0));
            assertEquals(Opcode.RC_RDMA_WRITE_LAST, ops.get(3));
            assertEquals(Opcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, ops.get(4));
            assertEquals(5, ops.size());
            List<WireTap.Seen> acks = roce(p, "b");
            assertEquals(List.of(1, 2), acks.stream().map(WireTap.Seen::msn).toList());
        }
    }

    @Test
    void readReturnsRemoteBytesInResponsesWithAethOnFirstAndLast() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 3)) {
            byte[] remote = pattern(3000, 3);
            byte[] local = new byte[3000];
            MemoryRegion mrA = p.pdA.registerMr(local, VA_A, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(remote, VA_B, AccessFlags.REMOTE_READ);
            p.qpA.postSend(SendWr.read(11, Sge.of(mrA), VA_B, mrB.rkey()));
            assertTrue(p.runUntil(() -> p.cqA.size() == 1, 1_000_000_000L));
            WorkCompletion wc = p.cqA.poll();
            assertEquals(WcStatus.SUCCESS, wc.status());
            assertEquals(WcOpcode.RDMA_READ, wc.opcode());
            assertEquals(3000, wc.byteLen());
            assertArrayEquals(remote, local);
            List<WireTap.Seen> req = roce(p, "a");
            assertEquals(1, req.size());
            assertEquals(Opcode.RC_RDMA_READ_REQUEST, req.get(0).opcode());
            assertTrue(req.get(0).ackReq());
            List<WireTap.Seen> resp = roce(p, "b");
            assertEquals(List.of(Opcode.RC_RDMA_READ_RESPONSE_FIRST, Opcode.RC_RDMA_READ_RESPONSE_MIDDLE,
                    Opcode.RC_RDMA_READ_RESPONSE_LAST), resp.stream().map(WireTap.Seen::opcode).toList());
            assertEquals(List.of(1, -1, 1), resp.stream().map(WireTap.Seen::msn).toList());
            for (int i = 0; i < 3; i++) {
                assertEquals(Psn.add(NicRig.PSN_A, i), resp.get(i).psn());
            }
            assertEquals(Psn.add(NicRig.PSN_A, 3), p.qpA.sendPsn(), "a READ takes one PSN per response packet");
        }
    }

    @Test
    void atomicsReturnTheOriginalValueAndUpdateRemoteMemory() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 4)) {
            byte[] remote = new byte[16];
            Memory.putLongLE(remote, 8, 40);
            byte[] local = new byte[16];
            MemoryRegion mrA = p.pdA.registerMr(local, VA_A, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(remote, VA_B,
                    AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_ATOMIC);
            p.qpA.postSend(SendWr.fetchAdd(1, Sge.of(mrA, 0, 8), VA_B + 8, mrB.rkey(), 2),
                    SendWr.compareSwap(2, Sge.of(mrA, 8, 8), VA_B + 8, mrB.rkey(), 42, 1000),
                    SendWr.compareSwap(3, Sge.of(mrA, 8, 8), VA_B + 8, mrB.rkey(), 42, 7));
            assertTrue(p.runUntil(() -> p.cqA.size() == 3, 1_000_000_000L));
            List<WorkCompletion> wcs = NicRig.drain(p.cqA);
            assertEquals(List.of(WcOpcode.FETCH_ADD, WcOpcode.COMP_SWAP, WcOpcode.COMP_SWAP),
                    wcs.stream().map(WorkCompletion::opcode).toList());
            wcs.forEach(wc -> assertEquals(WcStatus.SUCCESS, wc.status()));
            assertEquals(40, Memory.getLongLE(local, 0));
            assertEquals(1000, Memory.getLongLE(local, 8), "the failed compare returns the current value");
            assertEquals(1000, Memory.getLongLE(remote, 8));
            List<WireTap.Seen> resp = roce(p, "b");
            assertEquals(3, resp.size());
            resp.forEach(s -> assertEquals(Opcode.RC_ATOMIC_ACKNOWLEDGE, s.opcode()));
            assertEquals(List.of(1, 2, 3), resp.stream().map(WireTap.Seen::msn).toList());
        }
    }

    @Test
    void sendWithInvalidateInvalidatesTheRemoteFastRegisteredKeyAndLocalInvalidateTheLocalOne() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 5)) {
            byte[] src = pattern(64, 5);
            byte[] dst = new byte[64];
            byte[] target = new byte[64];
            MemoryRegion mrA = p.pdA.registerMr(src, VA_A, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(dst, VA_B, AccessFlags.LOCAL_WRITE);
            MemoryRegion victim = p.pdB.registerFastMr(target, VA_B + 0x10000, AccessFlags.ALL);
            MemoryRegion spare = p.pdA.registerMr(new byte[8], 0x5000, AccessFlags.LOCAL_WRITE);
            p.qpB.postRecv(new RecvWr(1, Sge.of(mrB)));
            p.qpA.postSend(new SendWr(3, WrOpcode.SEND_WITH_INV).sgl(Sge.of(mrA)).invalidate(victim.rkey()),
                    SendWr.localInvalidate(4, spare.lkey()));
            assertTrue(p.runUntil(() -> p.cqA.size() == 2 && p.cqB.size() == 1, 1_000_000_000L));
            WorkCompletion r = p.cqB.poll();
            assertTrue(r.hasInv());
            assertEquals(victim.rkey(), r.invalidatedRkey());
            assertFalse(victim.isValid());
            List<WorkCompletion> wcs = NicRig.drain(p.cqA);
            assertEquals(WcOpcode.SEND, wcs.get(0).opcode());
            assertEquals(WcOpcode.LOCAL_INV, wcs.get(1).opcode());
            assertEquals(WcStatus.SUCCESS, wcs.get(1).status());
            assertFalse(spare.isValid());
            assertEquals(Opcode.RC_SEND_ONLY_WITH_INVALIDATE, roce(p, "a").get(0).opcode());
        }
    }

    @Test
    void unsignaledWrsDoNotCompleteButSignaledOnesAfterThemDo() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 6)) {
            byte[] src = pattern(100, 6);
            byte[] dst = new byte[100];
            MemoryRegion mrA = p.pdA.registerMr(src, VA_A, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(dst, VA_B, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
            p.qpA.postSend(SendWr.write(1, Sge.of(mrA, 0, 50), VA_B, mrB.rkey()).signaled(false),
                    SendWr.write(2, Sge.of(mrA, 50, 50), VA_B + 50, mrB.rkey()).inline(true));
            assertTrue(p.runUntil(() -> p.cqA.size() == 1, 1_000_000_000L));
            p.runUntil(() -> false, 10_000_000L);
            assertEquals(1, p.cqA.size());
            assertEquals(2, p.cqA.poll().wrId());
            assertArrayEquals(src, dst);
        }
    }
}
