package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.rocelab.codec.ib.AethSyndrome;
import io.rocelab.codec.ib.NakCode;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.nic.stats.NicCounter;
import org.junit.jupiter.api.Test;

/**
 * What a received frame meets on the NIC may be wrong locally (a receive WQE naming memory the NIC
 * may not write, a region deregistered while a READ or an ATOMIC waits for its response), and the
 * frame must still never throw out of the receive path into the fatal state (DESIGN §3): the work
 * request completes in error, as rxe's {@code copy_data} failing does. A receive WQE that cannot
 * take its message is rxe's malformed WQE (class A): {@code IBV_WC_LOC_QP_OP_ERR}, a remote
 * operational error NAK to an RC peer, the QP in ERR; a response that cannot be placed completes
 * its work request with {@code IBV_WC_LOC_PROT_ERR}.
 */
class ReceivePathFaultTest {
    private static final int E = ScriptedPeer.RQ_PSN;
    private static final int N = ScriptedPeer.SQ_PSN;
    private static final long VA = 0x10_0000L;

    @Test
    void aSendIntoAReceiveWqeWithAnUnknownLkeyFailsTheWqeNotTheDevice() {
        try (ScriptedPeer p = new ScriptedPeer(QpType.RC)) {
            p.qp.postRecv(new RecvWr(1, new Sge(VA, 64, 0x7777)));
            p.inject(p.frame(Opcode.RC_SEND_ONLY, E).ackReq(true).payload(new byte[32]));
            assertMalformed(p);
        }
    }

    @Test
    void aSendIntoAReceiveWqeLargerThanItsRegionFailsTheWqeNotTheDevice() {
        try (ScriptedPeer p = new ScriptedPeer(QpType.RC)) {
            MemoryRegion mr = p.pd.registerMr(new byte[64], VA, AccessFlags.LOCAL_WRITE);
            p.qp.postRecv(new RecvWr(1, new Sge(VA, 4096, mr.lkey())));
            p.inject(p.frame(Opcode.RC_SEND_ONLY, E).ackReq(true).payload(new byte[1000]));
            assertMalformed(p);
        }
    }

    @Test
    void aUdSendIntoAReceiveWqeWithAnUnknownLkeyFailsTheWqeNotTheDevice() {
        try (ScriptedPeer p = new ScriptedPeer(QpType.RC)) {
            QueuePair ud = p.nic.createQp(p.pd, QpType.UD, p.cq, p.cq, QpCaps.defaults());
            ud.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).qkey(0x1111));
            ud.modify(new QpAttr().state(QpState.RTR));
            ud.modify(new QpAttr().state(QpState.RTS).sqPsn(0));
            ud.postRecv(new RecvWr(1, new Sge(VA, 1024, 0x7777)));
            p.inject(p.frame(Opcode.UD_SEND_ONLY, 0).destQp(ud.qpn()).deth(0x1111, ScriptedPeer.PEER_QPN)
                    .payload(new byte[32]));
            WorkCompletion wc = p.cq.poll();
            assertEquals(WcStatus.LOC_QP_OP_ERR, wc.status());
            assertEquals(QpState.ERR, ud.state());
            assertNotFatal(p);
        }
    }

    @Test
    void aReadResponseForARegionDeregisteredMeanwhileFailsTheReadNotTheDevice() {
        try (ScriptedPeer p = new ScriptedPeer(QpType.RC)) {
            MemoryRegion mr = p.pd.registerMr(new byte[64], VA, AccessFlags.LOCAL_WRITE);
            p.qp.postSend(SendWr.read(1, Sge.of(mr), 0x5000, 0x1234));
            p.run(1_000);
            p.pd.deregisterMr(mr);
            p.inject(p.frame(Opcode.RC_RDMA_READ_RESPONSE_ONLY, N).aeth(AethSyndrome.ACK_NO_CREDIT, 1)
                    .payload(new byte[64]));
            assertEquals(WcStatus.LOC_PROT_ERR, p.cq.poll().status());
            assertEquals(QpState.ERR, p.qp.state());
            assertNotFatal(p);
        }
    }

    @Test
    void anAtomicAckForARegionDeregisteredMeanwhileFailsTheAtomicNotTheDevice() {
        try (ScriptedPeer p = new ScriptedPeer(QpType.RC)) {
            MemoryRegion mr = p.pd.registerMr(new byte[64], VA, AccessFlags.LOCAL_WRITE);
            p.qp.postSend(SendWr.fetchAdd(1, Sge.of(mr, 0, 8), 0x5000, 0x1234, 1));
            p.run(1_000);
            p.pd.deregisterMr(mr);
            p.inject(p.frame(Opcode.RC_ATOMIC_ACKNOWLEDGE, N).aeth(AethSyndrome.ACK_NO_CREDIT, 1).atomicAckEth(7));
            assertEquals(WcStatus.LOC_PROT_ERR, p.cq.poll().status());
            assertNotFatal(p);
        }
    }

    @Test
    void anAckOpeningTheWindowOntoARegionDeregisteredMeanwhileFailsTheWriteNotTheDevice() {
        try (ScriptedPeer p = new ScriptedPeer(QpType.RC)) {
            int mtu = ScriptedPeer.MTU;
            MemoryRegion mr = p.pd.registerMr(new byte[256 * mtu], VA, AccessFlags.LOCAL_WRITE);
            p.qp.postSend(SendWr.write(1, Sge.of(mr), 0x5000, 0x1234));
            p.run(1_000);
            assertEquals(128, p.newlySent().size(), "the window lets half of it go");
            p.pd.deregisterMr(mr);
            p.inject(p.ack(io.rocelab.codec.ib.Psn.add(N, 127), AethSyndrome.ACK_NO_CREDIT, 0));
            assertEquals(WcStatus.LOC_PROT_ERR, p.cq.poll().status());
            assertEquals(java.util.List.of(), p.newlySent(), "nothing more of it leaves");
            assertNotFatal(p);
        }
    }

    private static void assertMalformed(ScriptedPeer p) {
        WorkCompletion wc = p.cq.poll();
        assertEquals(1, wc.wrId());
        assertEquals(WcStatus.LOC_QP_OP_ERR, wc.status());
        WireTap.Seen nak = p.newlySent().get(0);
        assertEquals(AethSyndrome.nak(NakCode.REMOTE_OPERATIONAL_ERROR), nak.syndrome());
        assertEquals(E, nak.psn());
        assertEquals(QpState.ERR, p.qp.state());
        assertNotFatal(p);
    }

    private static void assertNotFatal(ScriptedPeer p) {
        assertEquals(0, p.nic.counters().get(NicCounter.INTERNAL_ERRORS), p.nic.counters().toString());
        for (AsyncEvent e; (e = p.nic.pollAsyncEvent()) != null; ) {
            assertNotEquals(AsyncEventType.DEVICE_FATAL, e.type());
        }
    }
}
