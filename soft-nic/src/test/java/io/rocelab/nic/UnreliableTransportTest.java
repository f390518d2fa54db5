package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.nic.stats.NicCounter;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** UC and UD end to end: no ACKs, UC WRITE/SEND segmentation, UD DETH/Q_Key/GRH. */
class UnreliableTransportTest {
    @Test
    void ucSendAndWriteWithoutAcks() {
        try (NicRig p = NicRig.pair(QpType.UC, 1024, FaultProfile.NONE, 21)) {
            byte[] src = new byte[2500];
            new Random(21).nextBytes(src);
            byte[] dst = new byte[5000];
            MemoryRegion mrA = p.pdA.registerMr(src, 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(dst, 0x9000, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
            p.qpB.postRecv(new RecvWr(1, Sge.of(mrB, 0, 2500)));
            p.qpA.postSend(SendWr.send(1, Sge.of(mrA)), SendWr.write(2, Sge.of(mrA), 0x9000 + 2500, mrB.rkey()));
            // UC completes at the sender once sent; wait for the write's last packet to land too
            assertTrue(p.runUntil(() -> p.cqA.size() == 2 && p.cqB.size() == 1
                    && p.b.counters().get(NicCounter.RCVD_PKTS) == 6, 1_000_000_000L));
            NicRig.drain(p.cqA).forEach(wc -> assertEquals(WcStatus.SUCCESS, wc.status()));
            assertEquals(2500, p.cqB.poll().byteLen());
            assertArrayEquals(src, Arrays.copyOf(dst, 2500));
            assertArrayEquals(src, Arrays.copyOfRange(dst, 2500, 5000));
            assertEquals(List.of(Opcode.UC_SEND_FIRST, Opcode.UC_SEND_MIDDLE, Opcode.UC_SEND_LAST,
                    Opcode.UC_RDMA_WRITE_FIRST, Opcode.UC_RDMA_WRITE_MIDDLE, Opcode.UC_RDMA_WRITE_LAST),
                    p.wireFrom("a").stream().map(WireTap.Seen::opcode).toList());
            p.wireFrom("a").forEach(s -> assertFalse(s.ackReq(), "UC never asks for ACKs"));
            assertEquals(0, p.wireFrom("b").size());
        }
    }

    @Test
    void ucDropsAMessageWithAGapAndAcceptsTheNext() {
        try (NicRig p = NicRig.pair(QpType.UC, 256, FaultProfile.NONE, 22)) {
            byte[] dst = new byte[4000];
            MemoryRegion mrA = p.pdA.registerMr(new byte[1000], 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(dst, 0x9000, AccessFlags.LOCAL_WRITE);
            p.qpB.postRecv(new RecvWr(1, Sge.of(mrB)), new RecvWr(2, Sge.of(mrB)));
            p.qpA.postSend(SendWr.send(1, Sge.of(mrA)));
            // deliver FIRST, lose the rest of message 1 by toggling the link, then send message 2
            p.runUntil(() -> p.wireFrom("a").size() >= 1, 1_000_000L);
            p.link1.setUp(false);
            p.runUntil(() -> false, 1_000_000L);
            p.link1.setUp(true);
            p.qpA.postSend(SendWr.send(2, Sge.of(mrA, 0, 100)));
            assertTrue(p.runUntil(() -> p.cqB.size() == 1, 1_000_000_000L));
            WorkCompletion wc = p.cqB.poll();
            assertEquals(1, wc.wrId(), "the first receive WQE is reused for the next whole message");
            assertEquals(100, wc.byteLen());
        }
    }

    @Test
    void udSendCarriesDethAndFillsTheGrhArea() {
        try (NicRig p = NicRig.pair(QpType.UD, 1024, FaultProfile.NONE, 23)) {
            byte[] src = new byte[300];
            new Random(23).nextBytes(src);
            byte[] dst = new byte[40 + 300];
            MemoryRegion mrA = p.pdA.registerMr(src, 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(dst, 0x9000, AccessFlags.LOCAL_WRITE);
            p.qpB.postRecv(new RecvWr(8, Sge.of(mrB)));
            p.qpA.postSend(new SendWr(4, WrOpcode.SEND_WITH_IMM).sgl(Sge.of(mrA)).imm(0x1234)
                    .ud(AddressHandle.ipv4(NicRig.IP_B), p.qpB.qpn(), 0x80000000)); // "use the QP's Q_Key"
            assertTrue(p.runUntil(() -> p.cqA.size() == 1 && p.cqB.size() == 1, 1_000_000_000L));
            assertEquals(WcStatus.SUCCESS, p.cqA.poll().status());
            WorkCompletion r = p.cqB.poll();
            assertEquals(340, r.byteLen());
            assertEquals(p.qpA.qpn(), r.srcQp());
            assertEquals(0x1234, r.immData());
            assertTrue((r.flags() & WorkCompletion.WC_GRH) != 0);
            assertArrayEquals(src, Arrays.copyOfRange(dst, 40, 340));
            assertEquals(0x45, dst[20], "IPv4 header in the last 20 bytes of the GRH area");
            WireTap.Seen s = p.wireFrom("a").get(0);
            assertEquals(Opcode.UD_SEND_ONLY_WITH_IMMEDIATE, s.opcode());
            assertEquals(NicRig.PSN_A, s.psn());
            // a UD QP sends from its own port, whoever the destination: rxe's src_port of QPN 0x11
            assertEquals(0x11, p.qpA.qpn());
            assertEquals(57236, s.udpSrcPort(), "as in vectors/rxe/ud_pingpong.pcap");
        }
    }

    @Test
    void udSourcePortIsRxesPerQpHashForEveryQpn() {
        assertEquals(0xDF94, QueuePair.udSourcePort(0x11)); // ibv_ud_pingpong, vectors/rxe/ud_pingpong.pcap
        assertEquals(0xD872, QueuePair.udSourcePort(1)); // QP1, rdma_cm's MADs in vectors/rxe/rping.pcap
        for (int q = 1; q < 1 << 24; q += 4099) {
            int port = QueuePair.udSourcePort(q);
            assertTrue(port >= 0xC000 && port <= 0xFFFF, "QPN " + q);
        }
    }
}
