package io.rocelab.nic;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.header.AtomicEth;
import io.rocelab.codec.header.Deth;
import io.rocelab.codec.header.Feth;
import io.rocelab.codec.header.ImmDt;
import io.rocelab.codec.header.Ieth;
import io.rocelab.codec.header.Reth;
import io.rocelab.codec.ib.ExtHeader;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.codec.ib.Psn;
import io.rocelab.nic.egress.SendStep;
import io.rocelab.nic.stats.NicCounter;

/**
 * The requester (rxe_req.c): turns send WQEs into request packets, in order.
 *
 * <ul>
 * <li>Segmentation by the path MTU; FIRST/MIDDLE carry exactly PMTU bytes (IBA 9.7.2, C9-20).</li>
 * <li>PSNs: one per packet, 24-bit with wrap; a READ takes as many PSNs as its response has packets
 *     (IBA 9.7.1, C9-57).</li>
 * <li>AckReq on the last packet of every message and on READ/ATOMIC requests, as rxe sets it
 *     (visible in every reference capture), and at least every {@value #MAX_PKT_PER_ACK} packets.
 *     A NIC built with an {@linkplain SoftNic.Builder#ackReqInterval ACK request interval} asks
 *     less often: see {@link #ackReqOnLast()}; within long messages, then, at least every
 *     max({@value #MAX_PKT_PER_ACK}, interval) packets.</li>
 * <li>At most {@link SoftNic.Builder#maxUnackedPsns max_unacked_psns} unacknowledged PSNs
 *     ({@value #MAX_UNACKED_PSNS} by default, as rxe) and max_rd_atomic outstanding READ/ATOMIC
 *     requests (IBA 9.5, o9-17); fenced WQEs wait for earlier READ/ATOMICs.</li>
 * <li>Go-back-N: {@link #retry(int)} rewinds to a PSN and sends again from there (IBA 9.7.5.2.x).</li>
 * </ul>
 */
final class Requester {
    /** rxe's RXE_MAX_UNACKED_PSNS: the default window. */
    static final int MAX_UNACKED_PSNS = 128;
    static final int MAX_PKT_PER_ACK = 64;

    private final QueuePair qp;
    /** Unacknowledged PSNs allowed in flight. */
    private final int window;
    /** 0: AckReq on every message's last packet; else at most this many packets without one. */
    private final int ackReqInterval;
    /** A packet inside a message asks when this many have gone without a request (rxe: 64). */
    private final int maxPktPerAck;
    /** The requester's transport state (rxe's {@code qp->req}): PSNs, AckReq spacing, the RNR wait. */
    private final RequesterInfo req = new RequesterInfo();

    Requester(QueuePair qp, int window, int ackReqInterval) {
        this.qp = qp;
        this.window = window;
        this.ackReqInterval = ackReqInterval;
        // with a longer interval, 64 would make the packets inside 64 KB messages ask every 64 PSNs
        // whatever the interval says
        this.maxPktPerAck = Math.max(MAX_PKT_PER_ACK, ackReqInterval);
    }

    /** The PSN after the highest one ever sent: responses for it or beyond acknowledge nothing. */
    int nextNewPsn() {
        return req.nextNewPsn;
    }

    /** The next PSN to send. */
    int nextPsn() {
        return req.psn;
    }

    /** Whether an RNR NAK's timer holds the send queue. */
    boolean inRnrWait() {
        return req.rnrWait;
    }

    void setInitialPsn(int p) {
        req.psn = p;
        req.nextNewPsn = p;
        qp.completer().startAt(p);
    }

    void post(SendWqe w) {
        if (queue(w)) {
            kick();
        }
    }

    /**
     * A chain of WRs from one {@code ibv_post_send}: all are queued before the first is sent, as a
     * NIC sees a whole chain at its doorbell (and the requester then knows more follows a message).
     */
    void postAll(SendWqe[] chain) {
        boolean queued = false;
        for (SendWqe w : chain) {
            queued |= queue(w);
        }
        if (queued) {
            kick();
        }
    }

    /** Puts {@code w} on the send queue; false if it completed at once (QP in error, queue full). */
    private boolean queue(SendWqe w) {
        if (qp.state() == QpState.ERR) {
            w.done = true;
            w.status = WcStatus.WR_FLUSH_ERR; // IBA 10.8.3.1: WRs posted in Error complete flushed
            qp.sq().add(w);
            qp.completer().completeReady();
            return false;
        }
        if (qp.sq().size() >= qp.caps().maxSendWr()) {
            w.done = true;
            w.status = WcStatus.LOC_QP_OP_ERR;
            qp.sq().add(w);
            qp.completer().completeReady();
            return false;
        }
        qp.sq().add(w);
        return true;
    }

    /**
     * The QP may have something to send (work posted, the window opened, a wait ended): the NIC's
     * egress pulls its packets as the wire allows ({@link #sendOne()} each).
     */
    void kick() {
        qp.port().egress.wake(qp.egressFlow());
    }

    /**
     * Builds the next packet, if the window, the rd/atomic limit and the QP state allow one, and
     * returns what it made ({@link NicPort#emit}): the frame for the transmitter, the packet parked
     * for ARP or written in place, {@link SendStep#NO_PACKET} for a local operation done, or
     * {@link SendStep#NOTHING} when nothing may go now.
     */
    SendStep sendOne() {
        if (!qp.state().canSend() || req.rnrWait || qp.sq().allSent()) {
            return SendStep.NOTHING;
        }
        SendWqe w = qp.sq().get(qp.sq().next());
        if (w.done) {
            qp.sq().advance(); // a LOCAL_INV already executed, met again after a rewind
            return SendStep.NO_PACKET;
        }
        if (qp.state() == QpState.SQD && !w.started) {
            return SendStep.NOTHING; // IBA 10.3.1.5: draining finishes what was started, starts nothing new
        }
        if (w.opcode == WrOpcode.LOCAL_INV) {
            return localInvalidate(w) ? SendStep.NO_PACKET : SendStep.NOTHING;
        }
        if (qp.type() == QpType.RC) {
            if (Psn.diff(req.psn, qp.completer().compPsn()) >= window) {
                return SendStep.NOTHING;
            }
            if (!w.started || w.offset == 0) {
                int outstanding = outstandingReadAtomic();
                if (w.fence && outstanding > 0) {
                    return SendStep.NOTHING;
                }
                if (w.opcode.isReadOrAtomic() && outstanding >= Math.max(1, qp.maxRdAtomic())) {
                    return SendStep.NOTHING;
                }
            }
        }
        if (!checkLocal(w)) {
            return SendStep.NOTHING;
        }
        if (!w.started) {
            w.started = true;
            w.firstPsn = req.psn;
            w.npkts = packets(w);
            w.lastPsn = Psn.add(req.psn, w.npkts - 1);
            w.offset = 0;
        }
        return switch (qp.type()) {
            case RC -> sendRc(w);
            case UC -> sendUc(w);
            case UD -> sendUd(w);
            default -> throw new IllegalStateException();
        };
    }

    private int packets(SendWqe w) {
        if (w.opcode.isAtomic()) {
            return 1;
        }
        return Math.max(1, (w.length + qp.pathMtu() - 1) / qp.pathMtu());
    }

    /**
     * Local SGE check before each packet leaves (IBA 10.7.2.1): a bad lkey is a local protection
     * error, and so is a region deregistered while its message is still being sent (rxe's
     * {@code copy_data} failing mid-message), which an ACK opening the window may find.
     */
    private boolean checkLocal(SendWqe w) {
        if (w.inlineData != null || w.checkedRegion != null && w.checkedRegion.isValid()) {
            return true;
        }
        boolean needWrite = w.opcode == WrOpcode.RDMA_READ || w.opcode.isAtomic();
        if (qp.nic().memory.checkSgl(qp.pd(), w.sgl, needWrite)) {
            if (w.sgl.length == 1) {
                w.checkedRegion = qp.nic().mrByKey(w.sgl[0].lkey());
            }
            return true;
        }
        w.done = true;
        w.status = WcStatus.LOC_PROT_ERR;
        qp.sq().advance();
        qp.completer().completeReady();
        qp.enterError();
        return false;
    }

    private boolean localInvalidate(SendWqe w) {
        MemoryRegion mr = qp.nic().mrByKey(w.invRkey);
        w.done = true;
        if (mr == null || mr.pd() != qp.pd()) {
            w.status = WcStatus.LOC_PROT_ERR;
        } else {
            mr.invalidate();
        }
        w.started = true;
        w.firstPsn = req.psn;
        w.lastPsn = Psn.add(req.psn, -1);
        qp.sq().advance();
        qp.completer().completeReady();
        if (w.status != WcStatus.SUCCESS) {
            qp.enterError();
        }
        return qp.state().canSend();
    }

    int outstandingReadAtomic() {
        if (qp.sq().readOrAtomicCount() == 0) {
            return 0; // the common case of a WRITE/SEND stream: no scan per message
        }
        int n = 0;
        for (int i = 0; i < qp.sq().next(); i++) {
            SendWqe w = qp.sq().get(i);
            if (!w.done && w.opcode.isReadOrAtomic()) {
                n++;
            }
        }
        return n;
    }

    private SendStep sendRc(SendWqe w) {
        SendStep step;
        if (w.opcode == WrOpcode.RDMA_READ) {
            step = sendReadRequest(w);
        } else if (w.opcode.isAtomic()) {
            step = sendAtomic(w);
        } else if (w.opcode.isPlacement()) {
            step = sendPlacement(w);
        } else {
            step = sendSegment(w, Opcode.RC_BASE, true);
        }
        qp.completer().armAckTimer();
        return step;
    }

    private SendStep sendUc(SendWqe w) {
        SendStep step = sendSegment(w, Opcode.UC_BASE, false);
        if (w.offset >= w.length) {
            w.done = true; // UC: complete once sent (IBA 9.8.2)
            qp.completer().completeReady();
        }
        return step;
    }

    /** One SEND/WRITE packet at {@link RequesterInfo#psn} from byte {@code w.offset}. */
    private SendStep sendSegment(SendWqe w, int base, boolean reliable) {
        int mtu = qp.pathMtu();
        boolean first = w.offset == 0;
        int len = Math.min(mtu, w.length - w.offset);
        boolean last = w.offset + len >= w.length;
        Opcode op = Opcode.of(base + opcodeOffset(w.opcode, first, last));
        boolean ackReq = reliable && (last ? ackReqOnLast() : req.noAckPkts + 1 >= maxPktPerAck);
        req.noAckPkts = ackReq ? 0 : req.noAckPkts + 1;
        boolean se = last && w.solicited && (w.opcode.isSend() || w.opcode == WrOpcode.RDMA_WRITE_WITH_IMM);
        PacketWriter pw = qp.port().writer;
        ByteBuf b = pw.begin(qp.udpSourcePort(), qp.route(), op, se, qp.pkey(), qp.destQpn(), ackReq, req.psn, len);
        if (op.hasHeader(ExtHeader.RETH)) {
            Reth.write(b, pw.ext(ExtHeader.RETH), w.remoteAddr, w.rkey, w.length);
        }
        if (op.hasHeader(ExtHeader.IMM_DT)) {
            ImmDt.write(b, pw.ext(ExtHeader.IMM_DT), w.imm);
        }
        if (op.hasHeader(ExtHeader.IETH)) {
            Ieth.write(b, pw.ext(ExtHeader.IETH), w.invRkey);
        }
        payload(w, b, pw.payloadOffset(), w.offset, len);
        SendStep step = qp.port().emit(qp.route(), pw.finish());
        advance(1);
        w.offset += len;
        if (last) {
            w.offset = w.length;
            qp.sq().advance();
            qp.port().counters.increment(NicCounter.RDMA_SENDS);
        }
        return step;
    }

    private void payload(SendWqe w, ByteBuf b, int at, int from, int len) {
        if (w.inlineData != null) {
            b.setBytes(at, w.inlineData, from, len);
        } else {
            qp.nic().memory.gather(w.sgl, from, b, at, len);
        }
    }

    /** Offset of the opcode from its transport base (IBA Table 38). */
    private static int opcodeOffset(WrOpcode op, boolean first, boolean last) {
        boolean only = first && last;
        switch (op) {
            case SEND:
                return only ? 0x04 : first ? 0x00 : last ? 0x02 : 0x01;
            case SEND_WITH_IMM:
                return only ? 0x05 : first ? 0x00 : last ? 0x03 : 0x01;
            case SEND_WITH_INV:
                return only ? 0x17 : first ? 0x00 : last ? 0x16 : 0x01;
            case RDMA_WRITE:
                return only ? 0x0A : first ? 0x06 : last ? 0x08 : 0x07;
            case RDMA_WRITE_WITH_IMM:
                return only ? 0x0B : first ? 0x06 : last ? 0x09 : 0x07;
            default:
                throw new IllegalArgumentException("not a segmented opcode: " + op);
        }
    }

    /** A READ request for what is still missing: from {@code w.offset} (0, or where a retry resumes). */
    private SendStep sendReadRequest(SendWqe w) {
        int remaining = w.length - w.offset;
        int pkts = Math.max(1, (remaining + qp.pathMtu() - 1) / qp.pathMtu());
        PacketWriter pw = qp.port().writer;
        ByteBuf b = pw.begin(qp.udpSourcePort(), qp.route(), Opcode.RC_RDMA_READ_REQUEST, false, qp.pkey(),
                qp.destQpn(), true, req.psn, 0);
        Reth.write(b, pw.ext(ExtHeader.RETH), w.remoteAddr + w.offset, w.rkey, remaining);
        SendStep step = qp.port().emit(qp.route(), pw.finish());
        req.noAckPkts = 0;
        advance(pkts);
        w.offset = w.length;
        qp.sq().advance();
        return step;
    }

    private SendStep sendAtomic(SendWqe w) {
        Opcode op = w.opcode == WrOpcode.ATOMIC_CMP_AND_SWP ? Opcode.RC_COMPARE_SWAP : Opcode.RC_FETCH_ADD;
        PacketWriter pw = qp.port().writer;
        ByteBuf b = pw.begin(qp.udpSourcePort(), qp.route(), op, false, qp.pkey(), qp.destQpn(), true, req.psn, 0);
        long swapAdd = w.opcode == WrOpcode.ATOMIC_CMP_AND_SWP ? w.swap : w.compareAdd;
        long compare = w.opcode == WrOpcode.ATOMIC_CMP_AND_SWP ? w.compareAdd : 0;
        AtomicEth.write(b, pw.ext(ExtHeader.ATOMIC_ETH), w.remoteAddr, w.rkey, swapAdd, compare);
        SendStep step = qp.port().emit(qp.route(), pw.finish());
        req.noAckPkts = 0;
        advance(1);
        w.offset = w.length;
        qp.sq().advance();
        return step;
    }

    /**
     * ATOMIC WRITE (a RETH for 8 bytes, and the 8 bytes) or FLUSH (FETH and RETH), one packet asking
     * for its response (IBA Annex A19).
     */
    private SendStep sendPlacement(SendWqe w) {
        boolean write = w.opcode == WrOpcode.ATOMIC_WRITE;
        Opcode op = write ? Opcode.RC_ATOMIC_WRITE : Opcode.RC_FLUSH;
        PacketWriter pw = qp.port().writer;
        ByteBuf b = pw.begin(qp.udpSourcePort(), qp.route(), op, false, qp.pkey(), qp.destQpn(), true, req.psn,
                w.length);
        if (write) {
            Reth.write(b, pw.ext(ExtHeader.RETH), w.remoteAddr, w.rkey, w.length);
            payload(w, b, pw.payloadOffset(), 0, w.length);
        } else {
            Feth.write(b, pw.ext(ExtHeader.FETH), w.feth);
            Reth.write(b, pw.ext(ExtHeader.RETH), w.remoteAddr, w.rkey, w.flushLength);
        }
        SendStep step = qp.port().emit(qp.route(), pw.finish());
        req.noAckPkts = 0;
        advance(1);
        w.offset = w.length;
        qp.sq().advance();
        return step;
    }

    /** Moves {@link RequesterInfo#psn} past {@code n} PSNs just sent. */
    private void advance(int n) {
        req.psn = Psn.add(req.psn, n);
        if (Psn.diff(req.psn, req.nextNewPsn) > 0) {
            req.nextNewPsn = req.psn;
        }
    }

    /**
     * Whether the last packet of a SEND/WRITE asks for an ACK. By default always, as rxe does. With
     * an interval, IBA's cumulative acknowledgement (an ACK for PSN n acknowledges all before it,
     * IBA 9.7.5.1.1) lets the requester ask once per {@code ackReqInterval} packets, which saves the
     * responder the ACKs and the requester their reception; it still asks
     * <ul>
     * <li>when no further WQE waits in the send queue: nothing later would carry the request, and
     *     the message would otherwise complete only on the ACK timeout;</li>
     * <li>on a packet sent again (go-back-N): whatever stopped the stream (a drained SQ, an RNR wait,
     *     a fence) may still hold, and the resent tail must be answered.</li>
     * </ul>
     * A full window always holds an AckReq packet among its last {@code ackReqInterval} PSNs, which
     * {@link SoftNic.Builder#ackReqInterval} keeps to half the window at most.
     */
    private boolean ackReqOnLast() {
        if (ackReqInterval == 0 || Psn.diff(req.psn, req.nextNewPsn) < 0 || req.noAckPkts + 1 >= ackReqInterval) {
            return true;
        }
        return qp.sq().next() + 1 >= qp.sq().size();
    }

    private SendStep sendUd(SendWqe w) {
        Opcode op = w.opcode == WrOpcode.SEND_WITH_IMM ? Opcode.UD_SEND_ONLY_WITH_IMMEDIATE : Opcode.UD_SEND_ONLY;
        // IBA 10.2.5: a Q_Key with the high bit set means "use the QP's own Q_Key"
        int qkey = w.remoteQkey < 0 ? qp.qkey() : w.remoteQkey;
        if (w.ah.destMac() >= 0) {
            qp.port().learn(w.ah.destGid(), w.ah.destMac());
        }
        PacketWriter pw = qp.port().writer;
        // rxe asks for an ACK on the last packet of every request except on UD and UC QPs; QP1 is
        // IB_QPT_GSI, not UD, so its MADs carry AckReq (as in every rdma_cm capture) though nobody ACKs
        boolean ackReq = qp.qpn() == SoftNic.GSI_QPN;
        ByteBuf b = pw.begin(QueuePair.udSourcePort(qp.qpn()), w.route, op, w.solicited, qp.pkey(), w.remoteQpn, ackReq,
                req.psn, w.length);
        Deth.write(b, pw.ext(ExtHeader.DETH), qkey, 0, qp.qpn());
        if (op.hasHeader(ExtHeader.IMM_DT)) {
            ImmDt.write(b, pw.ext(ExtHeader.IMM_DT), w.imm);
        }
        payload(w, b, pw.payloadOffset(), 0, w.length);
        SendStep step = qp.port().emit(w.route, pw.finish());
        advance(1);
        w.offset = w.length;
        w.done = true;
        qp.sq().advance();
        qp.port().counters.increment(NicCounter.RDMA_SENDS);
        qp.completer().completeReady();
        return step;
    }

    /**
     * Go-back-N (IBA 9.7.5.2.x): rewinds to {@code fromPsn} and sends again from there. The WQE
     * holding that PSN resumes at the matching byte offset (a READ asks only for what is missing);
     * later WQEs are sent again whole, with the same PSNs.
     */
    void retry(int fromPsn) {
        position(fromPsn);
        req.noAckPkts = 0;
        kick();
    }

    /**
     * Goes on from {@code ackedPsn}, which responses have acknowledged while this requester was
     * back behind it, resending: what lies before it needs no resending, and a PSN must never be
     * used for two different packets. The completer calls {@link #kick()} next.
     */
    void skipTo(int ackedPsn) {
        position(ackedPsn);
    }

    /**
     * Makes {@code at} the next PSN to send: the WQE holding it resumes at the matching offset,
     * those after it up to where sending had got start again from their first byte. With no WQE
     * holding it ({@code at} is the PSN after everything sent), the first WQE not yet started is next.
     */
    private void position(int at) {
        int i = 0;
        while (i < qp.sq().size() && !qp.sq().get(i).holds(at)) {
            i++;
        }
        if (i == qp.sq().size()) {
            i = 0;
            while (i < qp.sq().size() && qp.sq().get(i).started) {
                i++;
            }
        } else {
            SendWqe w = qp.sq().get(i);
            w.offset = w.opcode.isAtomic() ? 0 : Psn.diff(at, w.firstPsn) * qp.pathMtu();
            // up to and including the send queue's cursor: the WQE there may be half sent (a message
            // longer than the PSN window, or the NAK arriving mid-message) and must start again from
            // its first byte
            for (int j = i + 1; j <= qp.sq().next() && j < qp.sq().size(); j++) {
                SendWqe later = qp.sq().get(j);
                if (later.opcode != WrOpcode.LOCAL_INV) {
                    later.offset = 0;
                }
            }
        }
        qp.sq().rewindTo(i);
        req.psn = at;
    }

    /**
     * Waits for the RNR timer, then goes back to the oldest PSN not yet acknowledged (IBA
     * 9.7.5.2.8; rxe's {@code req_retry} goes back to {@code comp.psn}): what responses acknowledged
     * meanwhile is not sent again.
     */
    void rnrRetryAfter(long delayNanos) {
        req.rnrWait = true;
        req.rnrTimer = qp.nic().scheduler().schedule(delayNanos, qp.nic().guarded(() -> {
            req.rnrTimer = null;
            req.rnrWait = false;
            if (qp.state().canSend()) {
                retry(qp.completer().compPsn());
                qp.completer().armAckTimer();
            }
        }));
    }

    void stop() {
        if (req.rnrTimer != null) {
            req.rnrTimer.cancel();
            req.rnrTimer = null;
        }
        req.rnrWait = false;
    }
}
