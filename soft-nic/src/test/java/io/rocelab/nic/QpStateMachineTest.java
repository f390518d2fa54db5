package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.nic.stats.NicCounter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The modify-QP table: required and optional attributes per transition, illegal transitions. */
class QpStateMachineTest {
    @Test
    void transitionsNeedTheirRequiredAttributesAndRejectOthers() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 31)) {
            QueuePair qp = p.a.createQp(p.pdA, QpType.RC, p.cqA, p.cqA, QpCaps.defaults());
            assertEquals(QpState.RESET, qp.state());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1)));
            assertTrue(e.getMessage().contains("ACCESS_FLAGS"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> qp.modify(new QpAttr().state(QpState.RTS)),
                    "RESET -> RTS is not a transition");
            assertThrows(IllegalArgumentException.class, () -> qp.modify(new QpAttr().state(QpState.INIT)
                    .pkeyIndex(0).port(1).accessFlags(0).sqPsn(1)), "SQ_PSN is not accepted in RESET -> INIT");
            qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.ALL));
            e = assertThrows(IllegalArgumentException.class, () -> qp.modify(new QpAttr().state(QpState.RTR)
                    .av(AddressHandle.ipv4(NicRig.IP_B)).pathMtu(1024).destQpn(0x11).rqPsn(0)));
            assertTrue(e.getMessage().contains("MAX_DEST_RD_ATOMIC") && e.getMessage().contains("MIN_RNR_TIMER"),
                    e.getMessage());
            assertThrows(IllegalStateException.class, () -> qp.postSend(SendWr.send(1)), "no send before RTS");
            qp.modify(new QpAttr().state(QpState.ERR));
            assertEquals(QpState.ERR, qp.state());
            qp.modify(new QpAttr().state(QpState.RESET));
            assertEquals(QpState.RESET, qp.state());
        }
    }

    @Test
    void movingToErrFlushesPostedReceives() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 32)) {
            MemoryRegion mr = p.pdB.registerMr(new byte[64], 0x1000, AccessFlags.LOCAL_WRITE);
            p.qpB.postRecv(new RecvWr(1, Sge.of(mr)), new RecvWr(2, Sge.of(mr)));
            p.qpB.modify(new QpAttr().state(QpState.ERR));
            p.runUntil(() -> p.cqB.size() == 2, 1_000_000L);
            List<WorkCompletion> wcs = NicRig.drain(p.cqB);
            assertEquals(List.of(1L, 2L), wcs.stream().map(WorkCompletion::wrId).toList());
            wcs.forEach(wc -> assertEquals(WcStatus.WR_FLUSH_ERR, wc.status()));
            wcs.forEach(wc -> assertEquals("IBV_WC_WR_FLUSH_ERR", wc.status().verbsName()));
        }
    }

    @Test
    void udpSourcePortMatchesRxeForQpn0x11Pairs() {
        assertEquals(49441, QueuePair.udpSourcePort(0x11, 0x11));
        for (int q = 1; q < 5000; q++) {
            int port = QueuePair.udpSourcePort(q, q + 7);
            assertTrue(port >= 0xC000 && port <= 0xFFFF);
        }
    }

    @Test
    void arpResolvesThePeerAndAnswersForOurAddress() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 33)) {
            MemoryRegion mrA = p.pdA.registerMr(new byte[8], 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(new byte[8], 0x2000, AccessFlags.ALL);
            p.qpA.postSend(SendWr.write(1, Sge.of(mrA), 0x2000, mrB.rkey()));
            assertTrue(p.runUntil(() -> p.cqA.size() == 1, 1_000_000_000L));
            assertEquals(1, p.a.counters().get(NicCounter.ARP_REQUESTS_SENT));
            assertEquals(1, p.b.counters().get(NicCounter.ARP_REPLIES_SENT));
            assertEquals(0, p.b.counters().get(NicCounter.ARP_REQUESTS_SENT), "B learnt A from the request");
        }
    }
}
