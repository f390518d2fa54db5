package io.rocelab.nic;

import io.rocelab.codec.header.Aeth;
import io.rocelab.codec.header.AtomicAckEth;
import io.rocelab.codec.ib.AethSyndrome;
import io.rocelab.codec.ib.ExtHeader;
import io.rocelab.codec.ib.NakCode;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.codec.ib.Psn;
import io.rocelab.nic.stats.NicCounter;

/**
 * The completer (rxe_comp.c): processes ACKs, NAKs, READ responses and ATOMIC ACKs, and completes
 * send WQEs strictly in order. An explicit state machine: {@link #step} returns the next state.
 *
 * <p>Rules followed (IBA 9.7.5.2 and 9.9.2): an ACK acknowledges every request up to its PSN
 * (coalesced ACKs, C9-?? "implicit acknowledge"); a READ response or ATOMIC ACK implicitly
 * acknowledges earlier SEND/WRITEs, but a response beyond an unanswered READ/ATOMIC means that
 * response was lost, so the requester goes back; a PSN sequence error NAK makes the requester go
 * back to the NAK's PSN; an RNR NAK waits for the timer of IBA Table 45 and retries up to
 * rnr_retry times (7 = for ever); other NAKs complete the WQE in error and take the QP to ERR.
 * The local ACK timer (4.096 µs × 2^timeout) restarts on progress; when it fires the requester
 * goes back to the oldest unacknowledged PSN, at most retry_cnt times in a row. While the requests
 * are still parked waiting for ARP/ND the timer holds instead: they have not left, so they cannot
 * have been lost.
 *
 * <p>The timer is a deadline plus one armed check, as rxe's retransmit timer is one
 * {@code timer_list} that each ACK pushes back with {@code mod_timer}: progress only moves the
 * deadline, and the check, when it comes, either finds the deadline passed (a timeout) or re-arms
 * itself for it. Restarting the timer on every ACK therefore schedules nothing and allocates
 * nothing; a check is scheduled at most once per timeout period.
 *
 * <p>Acknowledgements only ever acknowledge what was sent (IBA 9.7.5.1): a response for a PSN the
 * requester never sent completes and skips nothing and is counted ({@code drop_unsent_psn}), as
 * rxe's completer ignores an ACK beyond a WQE still being sent (its "pending" state). The
 * responses of a READ follow their opcode sequence: a MIDDLE or LAST with no FIRST before it is a
 * bad response ({@code IBV_WC_BAD_RESP_ERR}, IBA 9.7.5.2.x), as rxe's {@code check_ack} finds it.
 * While an RNR NAK's timer runs nothing goes back; the timer then goes back to the oldest PSN not
 * yet acknowledged, as rxe's {@code req_retry} goes back to {@code comp.psn}.
 *
 * <p>A QP with out-of-order data placement ({@link QpCreateFlag#OOO_DP}) takes the responses that
 * come ahead of an unanswered READ or ATOMIC, within its {@link ReorderWindow}, for their turn
 * instead of going back: a sprayed fabric delivers a READ's responses out of order. Each is
 * processed, in PSN order, once the responses before it came (a READ response is placed by its
 * PSN distance from the READ's first, as in order); a response held already is dropped. A response
 * really lost is asked for again by the ACK timer.
 */
final class Completer {
    private static final long NO_DEADLINE = CompleterInfo.NO_DEADLINE;
    private final QueuePair qp;
    /**
     * The completer's transport state (rxe's {@code qp->comp}): the oldest unacknowledged PSN, the
     * retry counters, the local ACK timer, the READ responses' sequence.
     */
    private final CompleterInfo comp = new CompleterInfo();
    /** A timer task: an internal error in it makes the device fatal (SoftNic#guarded). */
    private final Runnable onAckCheck;

    // the machine's registers for the packet in hand
    private SendWqe wqe;
    private WcStatus errorStatus;
    /** Out-of-order QP: the responses held ahead of an unanswered READ/ATOMIC; else null (rxe's completer). */
    private final ReorderWindow window;

    Completer(QueuePair qp) {
        this.qp = qp;
        this.window = qp.oooDataPlacement() ? new ReorderWindow(qp.nic().oooWindowPsns()) : null;
        this.onAckCheck = qp.nic().guarded(this::onAckCheck);
    }

    void resetRetryCounters() {
        comp.retryLeft = qp.retryCnt();
        comp.rnrLeft = qp.rnrRetry();
    }

    void receive(RxPacket p) {
        if (qp.type() != QpType.RC) {
            qp.port().counters.increment(NicCounter.DROP_BAD_OPCODE); // a response on a UC/UD QP
            return;
        }
        if (!qp.state().canSend() && qp.state() != QpState.SQE) {
            // IBA 10.3.1.7: a QP in ERR discards what arrives, e.g. the responses still in flight when
            // it got there; one in RTR has sent nothing to be answered. Not an opcode error.
            qp.port().counters.increment(NicCounter.DROP_QP_STATE);
            return;
        }
        run(p);
        if (window != null && window.count() > 0) {
            runHeld();
        }
    }

    private void run(RxPacket p) {
        CompleterState s = CompleterState.GET_WQE;
        while (s != CompleterState.DONE) {
            s = step(s, p);
        }
    }

    /**
     * The held responses whose turn came, lowest PSN first: the one at the oldest unacknowledged
     * PSN, or, when no READ/ATOMIC waits there, the next one held (an ACK of later requests, a
     * later READ's responses).
     */
    private void runHeld() {
        while (window.count() > 0 && (qp.state().canSend() || qp.state() == QpState.SQE)) {
            RxPacket h = window.peek(comp.psn);
            if (h == null) {
                SendWqe oldest = oldestWqe();
                if (oldest != null && oldest.opcode.isReadOrAtomic()) {
                    return; // its response at comp.psn has not come
                }
                h = nextHeld();
                if (h == null) {
                    return;
                }
            }
            window.take(h.psn);
            run(h);
            h.buf.release();
            if (window.has(h.psn)) {
                return; // held again: not its turn yet
            }
        }
    }

    /** The held response of lowest PSN from comp.psn on, or null. */
    private RxPacket nextHeld() {
        for (int d = 0; d < window.size(); d++) {
            RxPacket h = window.peek(Psn.add(comp.psn, d));
            if (h != null) {
                return h;
            }
        }
        return null;
    }

    /**
     * The oldest unfinished WQE that has packets on the wire; it may be the one still being sent
     * (the send queue's cursor), when a message longer than the PSN window waits for ACKs to go on.
     */
    private SendWqe oldestWqe() {
        for (int i = 0; i < qp.sq().size() && qp.sq().get(i).started; i++) {
            SendWqe w = qp.sq().get(i);
            if (!w.done) {
                return w;
            }
        }
        return null;
    }

    /** An out-of-order QP holds a response that came ahead of the READ/ATOMIC response expected. */
    private CompleterState hold(RxPacket p) {
        if (!window.has(p.psn)) {
            window.put(p.copy());
            qp.port().counters.increment(NicCounter.OOO_PLACED_PACKETS);
        }
        return CompleterState.DONE;
    }

    private CompleterState step(CompleterState s, RxPacket p) {
        switch (s) {
            case GET_WQE:
                wqe = null;
                // the oldest unfinished WQE that has packets on the wire; it may be the one still being
                // sent (the send queue's cursor), when a message longer than the PSN window waits for these ACKs to go on
                for (int i = 0; i < qp.sq().size() && qp.sq().get(i).started; i++) {
                    SendWqe w = qp.sq().get(i);
                    if (!w.done) {
                        wqe = w;
                        break;
                    }
                }
                return wqe == null ? CompleterState.DONE : CompleterState.CHECK_PSN;
            case CHECK_PSN:
                if (!Psn.before(p.psn, qp.requester().nextNewPsn())) {
                    // IBA 9.7.5.1: a response can only acknowledge a request that was sent
                    qp.port().counters.increment(NicCounter.DROP_UNSENT_PSN);
                    return CompleterState.DONE;
                }
                if (Psn.before(p.psn, comp.psn)) {
                    return CompleterState.DONE; // an old or duplicate response
                }
                if (window != null && wqe.opcode.isReadOrAtomic() && p.psn != comp.psn
                        && Psn.diff(p.psn, comp.psn) < window.size()) {
                    return hold(p); // out-of-order QP: ahead of the READ/ATOMIC response expected
                }
                if (Psn.after(p.psn, wqe.lastPsn)) {
                    // A response beyond this WQE: it acknowledges a SEND/WRITE; an unanswered READ or
                    // ATOMIC means its response was lost (IBA 9.7.5.2.x, C9-?? implicit NAK).
                    return wqe.opcode.isReadOrAtomic() ? retryFrom(comp.psn) : CompleterState.COMP_ACK;
                }
                if (p.is(Opcode.READ) && p.is(Opcode.RESPONSE) && p.psn != comp.psn) {
                    return retryFrom(comp.psn); // a READ response is missing in the middle
                }
                return CompleterState.CHECK_ACK;
            case CHECK_ACK:
                return checkAck(p);
            case READ:
                return readResponse(p);
            case ATOMIC:
                if (!qp.nic().memory.scatterLong(qp.pd(), wqe.sgl,
                        AtomicAckEth.origRemoteData(p.buf, p.ext(ExtHeader.ATOMIC_ACK_ETH)))) {
                    errorStatus = WcStatus.LOC_PROT_ERR;
                    return CompleterState.ERROR;
                }
                return CompleterState.COMP_WQE;
            case COMP_ACK: {
                SendWqe w = wqe;
                finish(w);
                return Psn.after(p.psn, w.lastPsn) ? CompleterState.GET_WQE : CompleterState.DONE;
            }
            case COMP_WQE:
                finish(wqe);
                return CompleterState.DONE;
            case UPDATE_COMP:
                comp.psn = Psn.next(p.psn);
                progress();
                return CompleterState.DONE;
            case RNR_RETRY:
                return rnrRetry(p);
            case ERROR:
                wqe.done = true;
                wqe.status = errorStatus;
                completeReady();
                qp.enterError();
                return CompleterState.DONE;
            default:
                return CompleterState.DONE;
        }
    }

    private CompleterState checkAck(RxPacket p) {
        Opcode op = p.opcode;
        if (op.has(Opcode.READ) && wqe.opcode.isPlacement()) {
            // ATOMIC WRITE and FLUSH are answered by one empty READ RESPONSE ONLY (IBA Annex A19)
            return op.has(Opcode.ONLY) && p.payloadLength == 0 && p.psn == wqe.firstPsn && positive(p)
                    ? CompleterState.COMP_WQE : unexpected();
        }
        if (op.has(Opcode.READ)) {
            if (wqe.opcode != WrOpcode.RDMA_READ || !positive(p)) {
                return unexpected(); // a READ response for no READ, or one carrying a NAK
            }
            if ((op.has(Opcode.MIDDLE) || op.has(Opcode.LAST)) && !comp.readOpen) {
                errorStatus = WcStatus.BAD_RESP_ERR; // out of sequence: no FIRST opened these responses
                return CompleterState.ERROR;
            }
            return CompleterState.READ;
        }
        if (op.has(Opcode.ATOMIC)) {
            return wqe.opcode.isAtomic() && p.psn == wqe.firstPsn && positive(p) ? CompleterState.ATOMIC
                    : unexpected();
        }
        int syndrome = Aeth.syndrome(p.buf, p.ext(ExtHeader.AETH));
        switch (AethSyndrome.kind(syndrome)) {
            case ACK:
                if (wqe.opcode.isReadOrAtomic()) {
                    return CompleterState.DONE; // an ACK inside a READ's PSNs: nothing to learn
                }
                return p.psn == wqe.lastPsn ? CompleterState.COMP_ACK : CompleterState.UPDATE_COMP;
            case RNR_NAK:
                qp.port().counters.increment(NicCounter.RCVD_RNR_ERR);
                return CompleterState.RNR_RETRY;
            case NAK:
                return nak(NakCode.of(AethSyndrome.value(syndrome)), p);
            default:
                return CompleterState.DONE;
        }
    }

    /** Whether the response's AETH, if it has one, is an ACK (a READ response or ATOMIC ACK carries no NAK). */
    private static boolean positive(RxPacket p) {
        return !p.opcode.hasHeader(ExtHeader.AETH)
                || AethSyndrome.kind(Aeth.syndrome(p.buf, p.ext(ExtHeader.AETH))) == AethSyndrome.Kind.ACK;
    }

    /** A response nobody waits for: dropped and counted, the WQE goes on waiting. */
    private CompleterState unexpected() {
        qp.port().counters.increment(NicCounter.DROP_BAD_OPCODE);
        return CompleterState.DONE;
    }

    private CompleterState nak(NakCode code, RxPacket p) {
        switch (code) {
            case PSN_SEQUENCE_ERROR:
                qp.port().counters.increment(NicCounter.RCVD_SEQ_ERR);
                qp.port().counters.increment(NicCounter.PACKET_SEQ_ERR);
                if (qp.requester().inRnrWait()) {
                    return CompleterState.DONE; // the RNR retry will go back anyway
                }
                if (Psn.after(p.psn, comp.psn)) {
                    // Everything before the NAK's PSN is acknowledged (IBA 9.7.5.2.3): that is forward
                    // progress, so the retry count starts afresh; it limits retries in a row without
                    // progress, and a long message over a lossy link must not run out while it advances.
                    comp.psn = p.psn;
                    comp.retryLeft = qp.retryCnt();
                }
                return retryFrom(p.psn);
            case INVALID_REQUEST:
                errorStatus = WcStatus.REM_INV_REQ_ERR;
                return CompleterState.ERROR;
            case REMOTE_ACCESS_ERROR:
                errorStatus = WcStatus.REM_ACCESS_ERR;
                return CompleterState.ERROR;
            case REMOTE_OPERATIONAL_ERROR:
                errorStatus = WcStatus.REM_OP_ERR;
                return CompleterState.ERROR;
            default:
                errorStatus = WcStatus.BAD_RESP_ERR;
                return CompleterState.ERROR;
        }
    }

    private CompleterState readResponse(RxPacket p) {
        long off = (long) Psn.diff(p.psn, wqe.firstPsn) * qp.pathMtu();
        int len = p.payloadLength;
        boolean ends = p.ends();
        // IBA 9.7.5.1.5: FIRST/MIDDLE carry exactly PMTU bytes; the total must match the request.
        if ((!ends && len != qp.pathMtu()) || off + len > wqe.length || (ends && off + len != wqe.length)) {
            errorStatus = WcStatus.BAD_RESP_ERR;
            return CompleterState.ERROR;
        }
        if (!qp.nic().memory.scatter(qp.pd(), wqe.sgl, off, p.buf, p.payloadOffset, len)) {
            errorStatus = WcStatus.LOC_PROT_ERR; // the local region went away while the READ was outstanding
            return CompleterState.ERROR;
        }
        if (ends) {
            return CompleterState.COMP_WQE;
        }
        comp.readOpen = true;
        return CompleterState.UPDATE_COMP;
    }

    private CompleterState rnrRetry(RxPacket p) {
        comp.psn = p.psn;
        if (comp.rnrLeft == 0) {
            qp.port().counters.increment(NicCounter.RETRY_RNR_EXCEEDED_ERR);
            errorStatus = WcStatus.RNR_RETRY_EXC_ERR;
            return CompleterState.ERROR;
        }
        if (comp.rnrLeft != 7) {
            comp.rnrLeft--; // 7 means retry for ever (IBA 9.7.5.2.8)
        }
        cancelAckTimer();
        int code = AethSyndrome.value(Aeth.syndrome(p.buf, p.ext(ExtHeader.AETH)));
        qp.requester().rnrRetryAfter(RnrTimer.nanos(code));
        return CompleterState.DONE;
    }

    /**
     * Goes back to {@code psn}, once: further triggers for the same PSN (the rest of a burst of
     * responses behind a lost one, a duplicated NAK) are ignored until progress is made, so one
     * loss costs one retry (rxe's {@code comp.started_retry}).
     */
    private CompleterState retryFrom(int psn) {
        if (qp.requester().inRnrWait()) {
            return CompleterState.DONE; // the RNR timer goes back when it expires (IBA 9.7.5.2.8)
        }
        if (psn == comp.lastNakPsn) {
            return CompleterState.DONE;
        }
        comp.lastNakPsn = psn;
        return retryNow(psn);
    }

    private CompleterState retryNow(int psn) {
        if (comp.retryLeft == 0 && qp.migrateOnPathFailure()) {
            // IBA 9.7.7: the retries on the primary path are spent and an alternate path is armed:
            // the QP has migrated; it resends from the oldest unacknowledged PSN there, retries afresh
            comp.lastNakPsn = -1;
            resetRetryCounters();
            qp.requester().retry(psn);
            return CompleterState.DONE;
        }
        if (comp.retryLeft == 0) {
            qp.port().counters.increment(NicCounter.RETRY_EXCEEDED_ERR);
            errorStatus = WcStatus.RETRY_EXC_ERR;
            return CompleterState.ERROR;
        }
        comp.retryLeft--;
        qp.port().counters.increment(NicCounter.COMPLETER_RETRY_ERR);
        qp.requester().retry(psn);
        return CompleterState.DONE;
    }

    /** The WQE is finished: everything up to its last PSN is acknowledged. */
    private void finish(SendWqe w) {
        w.done = true;
        comp.readOpen = false;
        comp.psn = Psn.next(w.lastPsn);
        completeReady();
        progress();
    }

    /** The oldest PSN not yet acknowledged (the requester's window starts there). */
    int compPsn() {
        return comp.psn;
    }

    /** A connection starts (RTS): nothing is outstanding, {@code psn} is the first to be sent. */
    void startAt(int psn) {
        comp.psn = psn;
    }

    /**
     * Progress resets the retry counters and the ACK timer, and may open the window. A requester
     * that went back to resend is never left behind what is now acknowledged: it goes on from there.
     */
    private void progress() {
        comp.lastNakPsn = -1;
        resetRetryCounters();
        cancelAckTimer();
        armAckTimer();
        if (Psn.after(comp.psn, qp.requester().nextPsn())) {
            qp.requester().skipTo(comp.psn);
        }
        qp.requester().kick();
    }

    /** Completes finished WQEs at the head of the send queue, in posting order (IBA 10.8.3.x, C10-?). */
    void completeReady() {
        while (!qp.sq().isEmpty() && qp.sq().get(0).done) {
            qp.completeSend(qp.sq().removeFirst());
        }
        qp.checkDrained();
    }

    /** Starts the local ACK timer if requests are outstanding and it is not running. */
    void armAckTimer() {
        long t = RnrTimer.ackTimeoutNanos(qp.localAckTimeout());
        if (comp.ackDeadline != NO_DEADLINE || t == 0 || !outstanding() || qp.requester().inRnrWait()) {
            return;
        }
        long deadline = qp.nic().scheduler().nanoTime() + t;
        comp.ackDeadline = deadline;
        if (comp.ackCheck != null && comp.ackCheckAt <= deadline) {
            return; // the armed check comes first and will re-arm itself for the deadline
        }
        if (comp.ackCheck != null) {
            comp.ackCheck.cancel(); // only if the timeout was shortened by a modify since it was armed
        }
        comp.ackCheckAt = deadline;
        comp.ackCheck = qp.nic().scheduler().scheduleAt(deadline, onAckCheck);
    }

    /** Stops the local ACK timer: the deadline goes; a check still armed will find nothing to do. */
    private void cancelAckTimer() {
        comp.ackDeadline = NO_DEADLINE;
    }

    private void onAckCheck() {
        comp.ackCheck = null;
        long deadline = comp.ackDeadline;
        if (deadline == NO_DEADLINE) {
            comp.expiryDeferred = false;
            return;
        }
        long now = qp.nic().scheduler().nanoTime();
        if (now < deadline) {
            comp.expiryDeferred = false;
            comp.ackCheckAt = deadline; // progress pushed the deadline back since this check was armed
            comp.ackCheck = qp.nic().scheduler().scheduleAt(deadline, onAckCheck);
            return;
        }
        if (!comp.expiryDeferred) {
            // As rxe's completer does (the retransmit timer only flags qp->comp.timeout; the completer
            // takes the queued responses first and retries only if requests are still unacknowledged),
            // responses that have already arrived are handled before the timeout: the check runs once
            // more behind every task already due. A response due at the very deadline, or one that
            // waited while this thread itself was not running, is progress, not a lost packet.
            comp.expiryDeferred = true;
            comp.ackCheckAt = now;
            comp.ackCheck = qp.nic().scheduler().scheduleAt(now, onAckCheck);
            return;
        }
        comp.expiryDeferred = false;
        comp.ackDeadline = NO_DEADLINE;
        onAckTimeout();
    }

    /** Whether a PSN that was sent is not yet acknowledged. */
    private boolean outstanding() {
        return Psn.after(qp.requester().nextNewPsn(), comp.psn);
    }

    private void onAckTimeout() {
        if (!qp.state().canSend() || !outstanding()) {
            return;
        }
        if (qp.port().resolving(qp.route())) {
            // The requests are parked until ARP/ND answers: nothing is lost, so nothing is resent and
            // no retry is used up (a retransmission would only park second copies of the same PSNs).
            // If resolution fails the parked frames are dropped and the next expiry retries as usual.
            armAckTimer();
            return;
        }
        comp.lastNakPsn = comp.psn;
        CompleterState s = retryNow(comp.psn);
        if (s == CompleterState.ERROR) {
            step(CompleterState.GET_WQE, null);
            if (wqe != null) {
                step(CompleterState.ERROR, null);
            } else {
                qp.enterError();
            }
        } else {
            armAckTimer();
        }
    }

    void stop() {
        cancelAckTimer();
        comp.expiryDeferred = false;
        if (comp.ackCheck != null) {
            comp.ackCheck.cancel(); // a stopped QP leaves no task behind on the scheduler
            comp.ackCheck = null;
        }
    }
}
