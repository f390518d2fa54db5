package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.ib.AethSyndrome;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.nic.net.Gid;
import io.rocelab.nic.stats.NicCounter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A connected QP (RC, UC) takes packets from its peer only: from the address its path goes to,
 * addressed to the address its path comes from, as rxe's {@code check_addr} requires. Another host
 * on the Ethernet that has learnt the QPN, the PSN and an R_Key gets nothing executed and nothing
 * acknowledged; its packets are dropped and counted ({@code drop_not_from_peer}).
 */
class PeerAddressTest {
    private static final int INTRUDER_IP = Ipv4.parse("10.77.0.66");
    private static final long VA = 0x20_0000L;
    private static final int E = ScriptedPeer.RQ_PSN;

    @Test
    void aWriteFromAnotherAddressIsNotExecuted() {
        try (ScriptedPeer p = new ScriptedPeer(QpType.RC)) {
            byte[] target = new byte[64];
            MemoryRegion mr = p.pd.registerMr(target, VA, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
            byte[] data = ScriptedPeer.pattern(64, 3);
            p.inject(write(p, mr, data).ipv4(INTRUDER_IP, ScriptedPeer.NIC_IP));
            assertArrayEquals(new byte[64], target, "nothing written");
            assertEquals(List.of(), p.newlySent(), "nothing acknowledged");
            assertEquals(1, p.nic.counters().get(NicCounter.DROP_NOT_FROM_PEER));

            p.inject(write(p, mr, data)); // the peer's own, at the same PSN
            assertArrayEquals(data, target);
            assertEquals(AethSyndrome.ACK_NO_CREDIT, p.newlySent().get(0).syndrome());
        }
    }

    @Test
    void aUcWriteFromAnotherAddressIsNotExecuted() {
        try (ScriptedPeer p = new ScriptedPeer(QpType.UC)) {
            byte[] target = new byte[64];
            MemoryRegion mr = p.pd.registerMr(target, VA, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
            p.inject(p.frame(Opcode.UC_RDMA_WRITE_ONLY, E).reth(VA, mr.rkey(), 64)
                    .payload(ScriptedPeer.pattern(64, 4)).ipv4(INTRUDER_IP, ScriptedPeer.NIC_IP));
            assertArrayEquals(new byte[64], target);
            assertEquals(1, p.nic.counters().get(NicCounter.DROP_NOT_FROM_PEER));
        }
    }

    @Test
    void anAckFromAnotherAddressCompletesNothing() {
        try (ScriptedPeer p = new ScriptedPeer(QpType.RC)) {
            MemoryRegion mr = p.pd.registerMr(new byte[64], VA, AccessFlags.LOCAL_WRITE);
            p.qp.postSend(SendWr.send(1, Sge.of(mr)));
            p.run(1_000);
            int psn = p.newlySent().get(0).psn();
            p.inject(p.ack(psn, AethSyndrome.ACK_NO_CREDIT, 1).ipv4(INTRUDER_IP, ScriptedPeer.NIC_IP));
            assertEquals(0, p.cq.size());
            assertEquals(1, p.nic.counters().get(NicCounter.DROP_NOT_FROM_PEER));
            p.inject(p.ack(psn, AethSyndrome.ACK_NO_CREDIT, 1));
            assertEquals(WcStatus.SUCCESS, p.cq.poll().status());
        }
    }

    @Test
    void overIpv6BothAddressesOfThePathAreChecked() {
        try (ScriptedPeer p = new ScriptedPeer(QpType.RC, true)) {
            byte[] target = new byte[64];
            MemoryRegion mr = p.pd.registerMr(target, VA, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
            byte[] data = ScriptedPeer.pattern(64, 5);
            byte[] intruder = Gid.ipv6("2001:db8::66").toBytes();
            p.inject(write(p, mr, data).ipv6(intruder, ScriptedPeer.NIC_GID.toBytes()));
            // from the peer, but to the NIC's other address: not the QP's path either
            p.inject(write(p, mr, data).ipv6(ScriptedPeer.PEER_GID.toBytes(), ScriptedPeer.NIC_OTHER_GID.toBytes()));
            assertArrayEquals(new byte[64], target);
            assertEquals(List.of(), p.newlySent());
            assertEquals(2, p.nic.counters().get(NicCounter.DROP_NOT_FROM_PEER));

            p.inject(write(p, mr, data));
            assertArrayEquals(data, target);
        }
    }

    private static RoceFrame write(ScriptedPeer p, MemoryRegion mr, byte[] data) {
        return p.frame(Opcode.RC_RDMA_WRITE_ONLY, E).ackReq(true).reth(VA, mr.rkey(), data.length).payload(data);
    }
}
