package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.ib.AethSyndrome;
import io.rocelab.codec.ib.NakCode;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.codec.ib.Psn;
import io.rocelab.nic.stats.NicCounter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A QP taken to RESET and connected again starts from nothing (IBA 10.3.1.1): its responder counts
 * messages from MSN 0, answers the first out-of-sequence request with a PSN-sequence NAK however
 * the last connection ended, and holds no responder resources of the last connection, as rxe's
 * {@code rxe_qp_reset} clears them all.
 */
class QpResetTest {
    private static final int ACK = AethSyndrome.ACK_NO_CREDIT;
    private static final int NAK_SEQ = AethSyndrome.nak(NakCode.PSN_SEQUENCE_ERROR);
    private static final int E = ScriptedPeer.RQ_PSN;
    private static final long VA = 0x20_0000L;

    @Test
    void aNewConnectionOnTheSameQpStartsWithMsnZeroAndNoNakSent() {
        try (ScriptedPeer p = new ScriptedPeer(QpType.RC)) {
            MemoryRegion mr = p.pd.registerMr(new byte[4096], VA, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
            for (int i = 0; i < 3; i++) {
                p.inject(write(p, Psn.add(E, i), mr));
            }
            p.inject(write(p, Psn.add(E, 5), mr)); // out of sequence: NAK, and the flag says it was sent
            List<WireTap.Seen> first = p.newlySent();
            assertEquals(List.of(ACK, ACK, ACK, NAK_SEQ), first.stream().map(WireTap.Seen::syndrome).toList());
            assertEquals(3, first.get(2).msn());

            reconnect(p, E);
            p.inject(write(p, Psn.add(E, 5), mr)); // the new connection's first request is out of sequence
            p.inject(write(p, E, mr));
            List<WireTap.Seen> second = p.newlySent();
            assertEquals(List.of(NAK_SEQ, ACK), second.stream().map(WireTap.Seen::syndrome).toList(),
                    "the new connection's first gap is NAKed");
            assertEquals(List.of(0, 1), second.stream().map(WireTap.Seen::msn).toList(), "MSN counts from 0 again");
        }
    }

    @Test
    void aReadOfTheLastConnectionIsNotAnsweredAsADuplicateInTheNextOne() {
        try (ScriptedPeer p = new ScriptedPeer(QpType.RC)) {
            MemoryRegion mr = p.pd.registerMr(new byte[4096], VA, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ);
            p.inject(read(p, E, mr));
            assertEquals(List.of(Opcode.RC_RDMA_READ_RESPONSE_ONLY),
                    p.newlySent().stream().map(WireTap.Seen::opcode).toList());

            reconnect(p, Psn.add(E, 10));
            p.inject(read(p, E, mr)); // behind the new expected PSN: a duplicate only of the old connection
            assertEquals(List.of(), p.newlySent(), "the old connection's READ resource is gone");
            assertEquals(1, p.nic.counters().get(NicCounter.DUPLICATE_REQUEST));
        }
    }

    private static void reconnect(ScriptedPeer p, int rqPsn) {
        p.qp.modify(new QpAttr().state(QpState.RESET));
        p.connect(rqPsn);
    }

    private static RoceFrame write(ScriptedPeer p, int psn, MemoryRegion mr) {
        return p.frame(Opcode.RC_RDMA_WRITE_ONLY, psn).ackReq(true).reth(VA, mr.rkey(), 16).payload(new byte[16]);
    }

    private static RoceFrame read(ScriptedPeer p, int psn, MemoryRegion mr) {
        return p.frame(Opcode.RC_RDMA_READ_REQUEST, psn).ackReq(true).reth(VA, mr.rkey(), 64);
    }
}
