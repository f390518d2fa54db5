package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.nic.stats.NicCounter;
import org.junit.jupiter.api.Test;

/**
 * ACKs and READ responses that reach a QP after it left the states that wait for them are dropped
 * as IBA 10.3.1.7 says, and counted as what they are: well-formed RC responses for a QP in the
 * wrong state ({@code drop_qp_state}), not opcode errors. A requester that gives up (retry
 * exhaustion, a CQ overrun, the user's modify to ERR) while its window is in flight meets every one
 * of the responses still on the wire; counting them under {@code drop_bad_opcode} pointed at a
 * protocol bug that is not there.
 */
class LateResponseTest {
    private static final long MS = 1_000_000L;

    @Test
    void acksInFlightWhenTheRequesterGoesToErrAreNotOpcodeErrors() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 41)) {
            p.a.addNeighbor(NicRig.IP_B, p.b.mac());
            p.b.addNeighbor(NicRig.IP_A, p.a.mac());
            MemoryRegion mrA = p.pdA.registerMr(new byte[4096], 0x1000, AccessFlags.ALL);
            MemoryRegion mrB = p.pdB.registerMr(new byte[4096], 0x20_0000L, AccessFlags.ALL);
            for (int i = 0; i < 16; i++) {
                p.qpA.postSend(SendWr.write(i, Sge.of(mrA), mrB.addr(), mrB.rkey()).signaled(true),
                        SendWr.read(100 + i, Sge.of(mrA, 0, 2048), mrB.addr(), mrB.rkey()).signaled(true));
            }
            // let the requests leave, then take A to ERR while B's responses are on the wire
            assertTrue(p.runUntil(() -> p.b.counters().get(NicCounter.SENT_PKTS) > 0, 10 * MS));
            p.qpA.modify(new QpAttr().state(QpState.ERR));
            p.runUntil(() -> false, 100 * MS);
            long late = p.a.counters().get(NicCounter.DROP_QP_STATE);
            assertTrue(late > 0, "responses reached A in ERR: " + p.a.counters());
            assertEquals(0, p.a.counters().get(NicCounter.DROP_BAD_OPCODE), p.a.counters().toString());
            assertEquals(p.b.counters().get(NicCounter.SENT_PKTS), p.a.counters().get(NicCounter.RCVD_PKTS));
        }
    }

    @Test
    void aResponseOfTheWrongServiceIsStillAnOpcodeError() {
        try (NicRig p = NicRig.pair(QpType.UC, 1024, FaultProfile.NONE, 42)) {
            p.a.addNeighbor(NicRig.IP_B, p.b.mac());
            p.b.addNeighbor(NicRig.IP_A, p.a.mac());
            // an RC ACK aimed at B's UC QP, as a confused peer would send it
            QueuePair stray = p.a.createQp(p.pdA, QpType.RC, p.cqA, p.cqA, QpCaps.defaults());
            NicRig.connect(stray, p.qpB, NicRig.IP_B, 1, 1, QpType.RC, 1024, 14, 7, 7, 12);
            MemoryRegion mrA = p.pdA.registerMr(new byte[64], 0x1000, AccessFlags.ALL);
            stray.postSend(SendWr.send(1, Sge.of(mrA)));
            p.runUntil(() -> p.b.counters().get(NicCounter.DROP_BAD_OPCODE) > 0, 10 * MS);
            assertEquals(1, p.b.counters().get(NicCounter.DROP_BAD_OPCODE));
            assertEquals(0, p.b.counters().get(NicCounter.DROP_QP_STATE));
        }
    }
}
