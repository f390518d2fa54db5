package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.ib.AethSyndrome;
import io.rocelab.codec.ib.NakCode;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.codec.ib.Psn;
import io.rocelab.nic.stats.NicCounter;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A requester takes from responses only what they can mean (IBA 9.7.5.1, 9.7.5.2): an
 * acknowledgement acknowledges requests that were sent, never one still to be sent, so a response
 * for a PSN never sent completes and skips nothing; a READ's responses come in their opcode
 * sequence; an RNR NAK's wait is neither cut short nor left behind by the responses that arrive
 * during it. Every work request completes or stays outstanding with its timer running; none is
 * stranded. The peer here is scripted: its frames are well-formed with valid ICRCs, as an attacker
 * on the same Ethernet can write them.
 */
class HostileResponseTest {
    private static final long US = 1_000L;
    private static final long MS = 1_000_000L;
    private static final int MTU = ScriptedPeer.MTU;
    private static final long REMOTE_VA = 0x7000_0000L;
    private static final int RKEY = 0x1234;
    private static final int ACK = AethSyndrome.ACK_NO_CREDIT;
    private static final int N = ScriptedPeer.SQ_PSN;

    /** A response a peer could send for a PSN, whatever that PSN was used for. */
    enum Response {
        ACK((p, psn) -> p.ack(psn, AethSyndrome.ACK_NO_CREDIT, 1)),
        PSN_SEQUENCE_NAK((p, psn) -> p.ack(psn, AethSyndrome.nak(NakCode.PSN_SEQUENCE_ERROR), 0)),
        RNR_NAK((p, psn) -> p.ack(psn, AethSyndrome.rnrNak(1), 0)),
        ATOMIC_ACK((p, psn) -> p.frame(Opcode.RC_ATOMIC_ACKNOWLEDGE, psn).aeth(AethSyndrome.ACK_NO_CREDIT, 1)
                .atomicAckEth(5)),
        READ_RESPONSE((p, psn) -> p.frame(Opcode.RC_RDMA_READ_RESPONSE_ONLY, psn).aeth(AethSyndrome.ACK_NO_CREDIT, 1)
                .payload(new byte[8]));

        final BiFunction<ScriptedPeer, Integer, RoceFrame> frame;

        Response(BiFunction<ScriptedPeer, Integer, RoceFrame> frame) {
            this.frame = frame;
        }
    }

    @Test
    void anAckForThePsnsOfAMessageNotYetSentDoesNotCompleteIt() {
        try (ScriptedPeer p = new ScriptedPeer(QpType.RC)) {
            MemoryRegion mr = p.pd.registerMr(new byte[256 * MTU + 64], 0x10_0000L, AccessFlags.LOCAL_WRITE);
            p.qp.postSend(SendWr.write(1, Sge.of(mr, 0, 256 * MTU), REMOTE_VA, RKEY));
            p.run(US);
            assertEquals(128, p.newlySent().size(), "the window lets 128 of the WRITE's 256 packets go");

            p.inject(p.ack(Psn.add(N, 255), ACK, 1)); // the WRITE's last PSN: never sent
            assertEquals(0, p.cq.size(), "half the data never left: the WRITE is not complete");
            assertEquals(1, p.nic.counters().get(NicCounter.DROP_UNSENT_PSN));

            // the peer acknowledges what it got: the rest leaves, and the WRITE completes once acknowledged
            p.inject(p.ack(Psn.add(N, 127), ACK, 0));
            List<WireTap.Seen> rest = p.newlySent();
            assertEquals(128, rest.size());
            assertEquals(Psn.add(N, 128), rest.get(0).psn());
            p.inject(p.ack(Psn.add(N, 255), ACK, 1));
            assertEquals(WcStatus.SUCCESS, p.cq.poll().status());

            // and the next SEND takes the next PSN and completes on its ACK
            assertSendCompletes(p, mr, 2, Psn.add(N, 256));
        }
    }

    @ParameterizedTest
    @EnumSource(Response.class)
    void noResponseForAPsnNeverSentCompletesSkipsOrResendsAnything(Response kind) {
        try (ScriptedPeer p = new ScriptedPeer(QpType.RC)) {
            MemoryRegion mr = p.pd.registerMr(new byte[256 * MTU + 64], 0x10_0000L, AccessFlags.LOCAL_WRITE);
            p.qp.postSend(SendWr.write(1, Sge.of(mr, 0, 256 * MTU), REMOTE_VA, RKEY));
            p.run(US);
            assertEquals(128, p.newlySent().size());
            int psn = p.sendPsn();

            for (int unsent : new int[] {Psn.add(N, 128), Psn.add(N, 200), Psn.add(N, 255), Psn.add(N, 4000)}) {
                p.inject(kind.frame.apply(p, unsent));
            }
            p.run(US);
            assertEquals(0, p.cq.size(), kind + " completes nothing");
            assertEquals(List.of(), p.newlySent(), kind + " makes the requester send nothing");
            assertEquals(psn, p.sendPsn(), kind + " moves the requester neither back nor on");
            assertEquals(4, p.nic.counters().get(NicCounter.DROP_UNSENT_PSN));

            p.inject(p.ack(Psn.add(N, 127), ACK, 0));
            assertEquals(128, p.newlySent().size());
            p.inject(p.ack(Psn.add(N, 255), ACK, 1));
            assertEquals(WcStatus.SUCCESS, p.cq.poll().status());
            assertSendCompletes(p, mr, 2, Psn.add(N, 256));
        }
    }

    @Test
    void responsesDuringAnRnrWaitNeitherSendAnythingNorLeaveTheRequesterBehind() {
        try (ScriptedPeer p = new ScriptedPeer(QpType.RC)) {
            MemoryRegion mr = p.pd.registerMr(new byte[4096], 0x10_0000L, AccessFlags.LOCAL_WRITE);
            p.qp.postSend(SendWr.fetchAdd(1, Sge.of(mr, 0, 8), REMOTE_VA, RKEY, 1),
                    SendWr.fetchAdd(2, Sge.of(mr, 8, 8), REMOTE_VA, RKEY, 1));
            p.run(US);
            assertEquals(List.of(N, Psn.add(N, 1)), psns(p.newlySent()));

            p.inject(p.ack(N, AethSyndrome.rnrNak(1), 0)); // wait 10 us, then go back
            // the second ATOMIC's response first: the first one's looks lost, but the RNR wait holds
            p.inject(atomicAck(p, Psn.add(N, 1), 2));
            assertEquals(List.of(), p.newlySent(), "nothing is sent while the RNR timer runs (IBA 9.7.5.2.8)");
            p.inject(atomicAck(p, N, 1));
            p.inject(atomicAck(p, Psn.add(N, 1), 2));
            assertEquals(List.of(1L, 2L), NicRig.drain(p.cq).stream().map(WorkCompletion::wrId).toList());

            p.run(MS); // the RNR timer expires: everything is acknowledged, nothing goes again
            assertEquals(List.of(), p.newlySent());
            assertSendCompletes(p, mr, 3, Psn.add(N, 2));
        }
    }

    @Test
    void aRequestSentBeforeAnRnrNakGoesAgainAfterItsWaitEvenWhenLaterResponsesAcknowledgeTheOthers() {
        try (ScriptedPeer p = new ScriptedPeer(QpType.RC)) {
            MemoryRegion mr = p.pd.registerMr(new byte[4096], 0x10_0000L, AccessFlags.LOCAL_WRITE);
            p.qp.postSend(SendWr.send(1, Sge.of(mr, 0, 64)), SendWr.fetchAdd(2, Sge.of(mr, 64, 8), REMOTE_VA, RKEY, 1),
                    SendWr.send(3, Sge.of(mr, 0, 64)));
            p.run(US);
            assertEquals(List.of(N, Psn.add(N, 1), Psn.add(N, 2)), psns(p.newlySent()));

            p.inject(p.ack(N, AethSyndrome.rnrNak(1), 0));
            p.inject(atomicAck(p, Psn.add(N, 1), 2)); // acknowledges the SEND before it, implicitly
            assertEquals(List.of(1L, 2L), NicRig.drain(p.cq).stream().map(WorkCompletion::wrId).toList());

            p.run(MS); // the third WR was never acknowledged: it goes again when the wait ends
            List<WireTap.Seen> again = p.newlySent();
            assertEquals(List.of(Psn.add(N, 2)), psns(again), "sent again after the RNR wait");
            assertEquals(Opcode.RC_SEND_ONLY, again.get(0).opcode());
            p.inject(p.ack(Psn.add(N, 2), ACK, 3));
            assertEquals(3, p.cq.poll().wrId());
        }
    }

    @Test
    void readResponseMiddleAndLastWithoutAFirstAreABadResponse() {
        try (ScriptedPeer p = new ScriptedPeer(QpType.RC)) {
            byte[] local = new byte[2 * MTU];
            MemoryRegion mr = p.pd.registerMr(local, 0x10_0000L, AccessFlags.LOCAL_WRITE);
            p.qp.postSend(SendWr.read(1, Sge.of(mr), REMOTE_VA, RKEY));
            p.run(US);
            assertEquals(List.of(N), psns(p.newlySent()));

            p.inject(p.frame(Opcode.RC_RDMA_READ_RESPONSE_MIDDLE, N).payload(data(1)));
            p.inject(p.frame(Opcode.RC_RDMA_READ_RESPONSE_LAST, Psn.add(N, 1)).aeth(ACK, 1).payload(data(2)));
            WorkCompletion wc = p.cq.poll();
            assertEquals(WcStatus.BAD_RESP_ERR, wc.status(), "IBV_WC_BAD_RESP_ERR: an unexpected opcode: " + wc);
            assertEquals(QpState.ERR, p.qp.state());
            assertArrayEquals(new byte[2 * MTU], local, "no byte of the bad response was placed");
        }
    }

    @Test
    void readResponsesInTheirSequenceCompleteTheRead() {
        try (ScriptedPeer p = new ScriptedPeer(QpType.RC)) {
            byte[] local = new byte[3 * MTU];
            MemoryRegion mr = p.pd.registerMr(local, 0x10_0000L, AccessFlags.LOCAL_WRITE);
            p.qp.postSend(SendWr.read(1, Sge.of(mr), REMOTE_VA, RKEY));
            p.run(US);
            p.inject(p.frame(Opcode.RC_RDMA_READ_RESPONSE_FIRST, N).aeth(ACK, 1).payload(data(1)));
            p.inject(p.frame(Opcode.RC_RDMA_READ_RESPONSE_MIDDLE, Psn.add(N, 1)).payload(data(2)));
            p.inject(p.frame(Opcode.RC_RDMA_READ_RESPONSE_LAST, Psn.add(N, 2)).aeth(ACK, 1).payload(data(3)));
            assertEquals(WcStatus.SUCCESS, p.cq.poll().status());
            assertArrayEquals(concat(data(1), data(2), data(3)), local);
        }
    }

    @Test
    void aReadThatWentBackTakesTheNewFirstAndALateMiddleOfTheOldResponsesAlike() {
        try (ScriptedPeer p = new ScriptedPeer(QpType.RC)) {
            byte[] local = new byte[4 * MTU];
            MemoryRegion mr = p.pd.registerMr(local, 0x10_0000L, AccessFlags.LOCAL_WRITE);
            p.qp.postSend(SendWr.read(1, Sge.of(mr), REMOTE_VA, RKEY));
            p.run(US);
            assertEquals(List.of(N), psns(p.newlySent()));
            p.inject(p.frame(Opcode.RC_RDMA_READ_RESPONSE_FIRST, N).aeth(ACK, 1).payload(data(1)));
            // the MIDDLE at N+1 is late: the one at N+2 makes the requester ask again for the tail
            p.inject(p.frame(Opcode.RC_RDMA_READ_RESPONSE_MIDDLE, Psn.add(N, 2)).payload(data(3)));
            List<WireTap.Seen> again = p.newlySent();
            assertEquals(1, again.size());
            assertEquals(Opcode.RC_RDMA_READ_REQUEST, again.get(0).opcode());
            assertEquals(Psn.add(N, 1), again.get(0).psn());
            // the late MIDDLE arrives after all, then the new answer goes on from N+2 as FIRST
            p.inject(p.frame(Opcode.RC_RDMA_READ_RESPONSE_MIDDLE, Psn.add(N, 1)).payload(data(2)));
            p.inject(p.frame(Opcode.RC_RDMA_READ_RESPONSE_FIRST, Psn.add(N, 2)).aeth(ACK, 1).payload(data(3)));
            p.inject(p.frame(Opcode.RC_RDMA_READ_RESPONSE_LAST, Psn.add(N, 3)).aeth(ACK, 1).payload(data(4)));
            assertEquals(WcStatus.SUCCESS, p.cq.poll().status());
            assertArrayEquals(concat(data(1), data(2), data(3), data(4)), local);
        }
    }

    /** Posts a SEND, checks it leaves at {@code psn}, acknowledges it, checks it completes. */
    private static void assertSendCompletes(ScriptedPeer p, MemoryRegion mr, long wrId, int psn) {
        p.qp.postSend(SendWr.send(wrId, Sge.of(mr, 0, 64)));
        p.run(US);
        List<WireTap.Seen> sent = p.newlySent();
        assertEquals(List.of(psn), psns(sent), "the SEND takes the next PSN, never one used before");
        p.inject(p.ack(psn, ACK, 9));
        WorkCompletion wc = p.cq.poll();
        assertTrue(wc != null && wc.wrId() == wrId && wc.isSuccess(), "the SEND completes on its ACK: " + wc);
    }

    /** One MTU of bytes that differ from one {@code seed} to another. */
    private static byte[] data(int seed) {
        return ScriptedPeer.pattern(MTU, seed);
    }

    private static RoceFrame atomicAck(ScriptedPeer p, int psn, int msn) {
        return p.frame(Opcode.RC_ATOMIC_ACKNOWLEDGE, psn).aeth(ACK, msn).atomicAckEth(100);
    }

    private static List<Integer> psns(List<WireTap.Seen> frames) {
        return frames.stream().map(WireTap.Seen::psn).toList();
    }

    private static byte[] concat(byte[]... parts) {
        byte[] out = new byte[Arrays.stream(parts).mapToInt(b -> b.length).sum()];
        int at = 0;
        for (byte[] b : parts) {
            System.arraycopy(b, 0, out, at, b.length);
            at += b.length;
        }
        return out;
    }
}
