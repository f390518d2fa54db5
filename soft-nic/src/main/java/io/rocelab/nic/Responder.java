package io.rocelab.nic;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.header.Aeth;
import io.rocelab.codec.header.AtomicAckEth;
import io.rocelab.codec.header.AtomicEth;
import io.rocelab.codec.header.Deth;
import io.rocelab.codec.header.ImmDt;
import io.rocelab.codec.header.Ieth;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Reth;
import io.rocelab.codec.ib.AethSyndrome;
import io.rocelab.codec.ib.ExtHeader;
import io.rocelab.codec.ib.NakCode;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.codec.ib.Psn;
import io.rocelab.nic.egress.SendStep;
import io.rocelab.nic.stats.NicCounter;

/**
 * The responder (rxe_resp.c): checks and executes incoming requests and answers them. An explicit
 * state machine: {@link #step} returns the next state, from {@code CHECK_PSN} to {@code DONE}.
 *
 * <p>RC (IBA 9.7.5.1): a request at the expected PSN is executed; one ahead of it is a sequence
 * error, answered by one NAK carrying the expected PSN until that PSN arrives (C9-108); one behind
 * it is a duplicate (C9-104..106): a SEND/WRITE is acknowledged again, a READ executed again, an
 * ATOMIC answered from the saved result. ACKs are coalesced: only AckReq packets are answered
 * (9.7.5.1.1). MSN counts completed messages (9.7.5.1.2). A request needing a receive WQE when
 * there is none gets an RNR NAK with this QP's min_rnr_timer (9.7.5.2.8). Invalid requests,
 * access violations and length errors are NAKed and put the QP in ERR (9.9.3.1). ATOMIC WRITE and
 * FLUSH (Annex A19) are checked and executed by {@link MemoryPlacement}.
 * UC (9.7.8): no ACKs; a PSN gap drops the message in progress up to the next FIRST/ONLY, and a
 * receive WQE it had taken is used for the next message (9.8.3; rxe's class D1 error), so none is
 * ever lost: it completes with a later message or is flushed.
 * UD (9.8.3): Q_Key checked (mismatch dropped and counted), the 40-byte GRH area filled.
 * A receive WQE whose memory the NIC may not write (a bad lkey, a region gone) completes with
 * {@code IBV_WC_LOC_QP_OP_ERR} and the QP goes to ERR, as rxe's malformed-WQE error (class A).
 *
 * <p>Out-of-order data placement ({@link QpCreateFlag#OOO_DP}, RC): a request ahead of ePSN by less
 * than the {@link ReorderWindow} is not a sequence error: it is held (a WRITE's data placed at once
 * by its offset in its message when the message's first packet is known) and executed in PSN order
 * once the packets before it came, so ePSN advances over contiguous runs only, ACKs stay cumulative
 * (one ACK, for the last in-order PSN, after a run) and a message completes when all of its packets
 * are in. A packet held already is a duplicate and dropped; one beyond the window is NAKed as above.
 */
final class Responder {
    /** The GRH area at the front of every UD receive buffer (IBA 11.4.1.1, as rdma-core expects). */
    static final int GRH_LENGTH = 40;
    private static final ByteBuf ZEROS =
            io.netty.buffer.Unpooled.unreleasableBuffer(io.netty.buffer.Unpooled.wrappedBuffer(new byte[GRH_LENGTH]));

    private final QueuePair qp;
    /**
     * The responder's transport state (rxe's {@code qp->resp}): ePSN and MSN, the message in
     * progress, the responder resources, the READ responses to send.
     */
    private final ResponderInfo resp = new ResponderInfo();
    /** The reorder window of a QP with out-of-order data placement, else null (rxe's in-order responder). */
    private final ReorderWindow window;

    Responder(QueuePair qp) {
        this.qp = qp;
        this.window = qp.oooDataPlacement() ? new ReorderWindow(qp.nic().oooWindowPsns()) : null;
    }

    /** The PSN expected next (IBA 9.7.5.1's ePSN). */
    int expectedPsn() {
        return resp.ePsn;
    }

    /** A connection starts (RTR): {@code psn} is the first request expected ({@code rq_psn}). */
    void startAt(int psn) {
        resp.ePsn = psn;
    }

    void setMaxDestRdAtomic(int n) {
        resp.resources = new RdAtomicResource[Math.max(1, n)];
        for (int i = 0; i < resp.resources.length; i++) {
            resp.resources[i] = new RdAtomicResource();
        }
        resp.nextResource = 0;
    }

    /**
     * UC drops the message in progress (IBA 9.8.3; rxe's class D1 error): a receive WQE it had
     * taken stays, as if untouched, for the next message.
     */
    private void discardMessage() {
        RecvWqe r = abortMessage();
        resp.recv = r;
    }

    /** Forgets the message in progress; returns the receive WQE it had taken, if any. */
    RecvWqe abortMessage() {
        RecvWqe r = resp.recv;
        resp.inMessage = false;
        resp.inWrite = false;
        resp.recv = null;
        resp.recvOffset = 0;
        resp.writeMr = null;
        if (window != null) {
            window.clear();
        }
        return r;
    }

    void receive(RxPacket p) {
        // P_Key check (IBA 9.6.1.1 C9-42 ... o9-?): same partition, at least one full member.
        if (((p.pkey ^ qp.pkey()) & 0x7FFF) != 0 || ((p.pkey | qp.pkey()) & 0x8000) == 0) {
            qp.port().counters.increment(NicCounter.DROP_BAD_PKEY);
            return;
        }
        if (window == null) {
            run(p);
            return;
        }
        resp.ackDue = false;
        run(p);
        // the packets held behind p, in PSN order, as long as each is the expected one
        RxPacket next;
        while (qp.state() != QpState.ERR && (next = window.take(resp.ePsn)) != null) {
            run(next);
            next.buf.release();
        }
        if (resp.inMessage && resp.inWrite && window.count() > 0 && qp.state() != QpState.ERR) {
            placeHeldOfWriteInProgress();
        }
        if (resp.ackDue && qp.state() != QpState.ERR) {
            // one cumulative ACK for the run (IBA 9.7.5.1.1): the last PSN in order, the MSN of now;
            // behind the READ responses of the run, which it must not overtake (an ACK past a READ
            // whose responses have not come tells the requester they were lost: IBA 9.7.5.2's implicit NAK)
            ackInTurn(Psn.add(resp.ePsn, -1));
        }
        resp.ackDue = false;
    }

    private void run(RxPacket p) {
        ResponderState s = ResponderState.CHECK_PSN;
        while (s != ResponderState.DONE) {
            s = step(s, p);
        }
    }

    ResponderState step(ResponderState s, RxPacket p) {
        switch (s) {
            case CHECK_PSN:
                return checkPsn(p);
            case CHECK_OP_SEQ:
                return checkOpSeq(p);
            case CHECK_OP_VALID:
                return checkOpValid(p);
            case CHECK_RESOURCE:
                return checkResource(p);
            case CHECK_LENGTH:
                return checkLength(p);
            case CHECK_RKEY:
                return checkRkey(p);
            case EXECUTE:
                return execute(p);
            case COMPLETE:
                return complete(p);
            case ACKNOWLEDGE:
                if (qp.type() == QpType.RC) {
                    if (p.ackReq && window != null) {
                        resp.ackDue = true; // sent once the held packets behind this one are executed too
                    } else if (p.ackReq) {
                        sendAck(AethSyndrome.ACK_NO_CREDIT, p.psn);
                    } else {
                        qp.port().counters.increment(NicCounter.ACK_DEFERRED);
                    }
                }
                return ResponderState.DONE;
            case DUPLICATE:
                return duplicate(p);
            case OUT_OF_ORDER:
                return outOfOrder(p);
            case ERR_PSN_OUT_OF_SEQ:
                if (!resp.nakSent) {
                    resp.nakSent = true;
                    sendAck(AethSyndrome.nak(NakCode.PSN_SEQUENCE_ERROR), resp.ePsn);
                }
                return ResponderState.DONE;
            case ERR_RNR:
                qp.port().counters.increment(NicCounter.SEND_RNR_ERR);
                sendAck(AethSyndrome.rnrNak(qp.minRnrTimer()), p.psn);
                return ResponderState.DONE;
            case ERR_INVALID_REQUEST:
                return classError(p, NakCode.INVALID_REQUEST);
            case ERR_ACCESS:
                return classError(p, NakCode.REMOTE_ACCESS_ERROR);
            case ERR_LENGTH:
                if (resp.recv != null || (!resp.inMessage && !qp.rq().isEmpty() && p.is(Opcode.SEND))) {
                    RecvWqe r = resp.recv != null ? resp.recv : qp.takeRecv();
                    resp.recv = null;
                    qp.completeRecv(r.wrId, WcStatus.LOC_LEN_ERR, WcOpcode.RECV, 0, 0, 0, 0, 0, false);
                }
                return classError(p, NakCode.INVALID_REQUEST);
            case ERR_MALFORMED_WQE:
                return malformedWqe(p);
            case DROP:
            default:
                return ResponderState.DONE;
        }
    }

    private ResponderState checkPsn(RxPacket p) {
        if (qp.type() == QpType.UD) {
            return ResponderState.CHECK_OP_VALID; // UD has no sequence (IBA 9.8.3)
        }
        int d = Psn.diff(p.psn, resp.ePsn);
        if (qp.type() == QpType.UC) {
            if (d != 0 || resp.ucDropping) {
                if (p.starts()) {
                    discardMessage(); // resynchronise on a new message (IBA 9.7.8.1)
                    resp.ucDropping = false;
                    resp.ePsn = p.psn;
                    return ResponderState.CHECK_OP_SEQ;
                }
                resp.ucDropping = true;
                discardMessage();
                qp.port().counters.increment(NicCounter.DROP_UC_SEQUENCE);
                return ResponderState.DROP;
            }
            return ResponderState.CHECK_OP_SEQ;
        }
        if (d > 0) {
            qp.port().counters.increment(NicCounter.OUT_OF_SEQ_REQUEST);
            qp.port().counters.increment(NicCounter.OUT_OF_SEQUENCE);
            return window != null && window.fits(d) ? ResponderState.OUT_OF_ORDER : ResponderState.ERR_PSN_OUT_OF_SEQ;
        }
        if (d < 0) {
            qp.port().counters.increment(NicCounter.DUPLICATE_REQUEST);
            return ResponderState.DUPLICATE;
        }
        if (window != null && window.peek(p.psn) != null && window.peek(p.psn) != p) {
            window.take(p.psn).buf.release(); // this copy arrived again as the expected one: it is used instead
        }
        resp.nakSent = false;
        return ResponderState.CHECK_OP_SEQ;
    }

    /** IBA 9.7.5.1.1 / C9-?? opcode sequence: FIRST opens, MIDDLE/LAST continue the same kind. */
    private ResponderState checkOpSeq(RxPacket p) {
        boolean continues = p.is(Opcode.MIDDLE) || p.is(Opcode.LAST);
        boolean ok;
        if (resp.inMessage) {
            ok = continues && (resp.inWrite ? p.is(Opcode.WRITE) : p.is(Opcode.SEND));
        } else {
            ok = !continues;
        }
        if (ok) {
            return ResponderState.CHECK_OP_VALID;
        }
        if (qp.type() == QpType.UC) {
            if (resp.inMessage && p.starts()) {
                discardMessage(); // UC: a new message abandons the unfinished one
                return ResponderState.CHECK_OP_VALID;
            }
            resp.ucDropping = true;
            discardMessage();
            qp.port().counters.increment(NicCounter.DROP_UC_SEQUENCE);
            return ResponderState.DROP;
        }
        return ResponderState.ERR_INVALID_REQUEST;
    }

    /** The QP must allow the operation (IBA 10.2.x access flags; rxe check_op_valid). */
    private ResponderState checkOpValid(RxPacket p) {
        int need = p.is(Opcode.WRITE) ? AccessFlags.REMOTE_WRITE
                : p.is(Opcode.READ) ? AccessFlags.REMOTE_READ
                : p.is(Opcode.ATOMIC) ? AccessFlags.REMOTE_ATOMIC
                : MemoryPlacement.handles(p) ? MemoryPlacement.qpAccess(p) : 0;
        if (need != 0 && qp.type() != QpType.UD && (qp.accessFlags() & need) != need) {
            return qp.type() == QpType.RC ? ResponderState.ERR_INVALID_REQUEST : ResponderState.DROP;
        }
        if (qp.type() == QpType.UD) {
            int qkey = Deth.qkey(p.buf, p.ext(ExtHeader.DETH));
            if (qkey != qp.qkey()) {
                qp.port().counters.increment(NicCounter.DROP_BAD_QKEY); // IBA 10.2.5, C10-?: silently dropped
                return ResponderState.DROP;
            }
        }
        return ResponderState.CHECK_RESOURCE;
    }

    private ResponderState checkResource(RxPacket p) {
        boolean needsRecv = p.is(Opcode.SEND) || (p.is(Opcode.IMMEDIATE) && p.is(Opcode.WRITE) && p.ends());
        if (needsRecv && resp.recv == null && qp.rq().isEmpty()) {
            return qp.type() == QpType.RC ? ResponderState.ERR_RNR : ResponderState.DROP;
        }
        if ((p.is(Opcode.READ) || p.is(Opcode.ATOMIC) || MemoryPlacement.handles(p)) && resp.resources.length == 0) {
            return ResponderState.ERR_INVALID_REQUEST;
        }
        return ResponderState.CHECK_LENGTH;
    }

    private ResponderState checkLength(RxPacket p) {
        int mtu = qp.type() == QpType.UD ? qp.nic().activeMtu() : qp.pathMtu();
        int len = p.payloadLength;
        // IBA 9.7.5.1.x C9-?? : FIRST/MIDDLE exactly PMTU, LAST 1..PMTU, ONLY 0..PMTU
        if ((p.is(Opcode.FIRST) || p.is(Opcode.MIDDLE)) && len != mtu
                || (p.is(Opcode.LAST) && (len == 0 || len > mtu)) || len > mtu) {
            return qp.type() == QpType.RC ? ResponderState.ERR_INVALID_REQUEST : ResponderState.DROP;
        }
        if (p.is(Opcode.SEND)) {
            RecvWqe r = resp.recv != null ? resp.recv : qp.rq().peek();
            long base = qp.type() == QpType.UD ? GRH_LENGTH : 0;
            if (resp.recvOffset + base + len > r.length) {
                return qp.type() == QpType.RC ? ResponderState.ERR_LENGTH : dropUnreliable(r);
            }
        }
        if (p.is(Opcode.WRITE) && !p.starts() && len > resp.writeRemaining) {
            return qp.type() == QpType.RC ? ResponderState.ERR_INVALID_REQUEST : ResponderState.DROP;
        }
        if (MemoryPlacement.handles(p) && !MemoryPlacement.lengthValid(p)) {
            return ResponderState.ERR_INVALID_REQUEST;
        }
        return ResponderState.CHECK_RKEY;
    }

    private ResponderState dropUnreliable(RecvWqe r) {
        // UC/UD: the receive WQE completes with a length error and the message is dropped (IBA 9.8.3)
        if (r != resp.recv) {
            qp.takeRecv(); // r is the head of the queue, not yet taken
        }
        abortMessage();
        qp.completeRecv(r.wrId, WcStatus.LOC_LEN_ERR, WcOpcode.RECV, 0, 0, 0, 0, 0, false);
        return ResponderState.DROP;
    }

    /** IBA 9.7.4.1.3 / C9-87: rkey valid, same PD, right granted, inside the region, before any byte moves. */
    private ResponderState checkRkey(RxPacket p) {
        if (p.is(Opcode.WRITE) && p.starts()) {
            int off = p.ext(ExtHeader.RETH);
            long va = Reth.va(p.buf, off);
            int rkey = Reth.rkey(p.buf, off);
            long len = Reth.dmaLength(p.buf, off);
            if (p.is(Opcode.ONLY) && p.payloadLength != len || p.is(Opcode.FIRST) && len <= p.payloadLength) {
                return qp.type() == QpType.RC ? ResponderState.ERR_INVALID_REQUEST : ResponderState.DROP;
            }
            MemoryRegion mr = len == 0 ? null : qp.nic().mrByKey(rkey);
            if (len != 0 && (mr == null || !mr.allowsRemote(qp.pd(), AccessFlags.REMOTE_WRITE, va, len))) {
                return qp.type() == QpType.RC ? ResponderState.ERR_ACCESS : ResponderState.DROP;
            }
            resp.writeMr = mr;
            resp.writeVa = va;
            resp.writeRemaining = len;
            resp.writeLength = len;
        } else if (p.is(Opcode.READ)) {
            int off = p.ext(ExtHeader.RETH);
            long len = Reth.dmaLength(p.buf, off);
            if (len > Integer.MAX_VALUE) {
                return ResponderState.ERR_INVALID_REQUEST;
            }
            MemoryRegion mr = len == 0 ? null : qp.nic().mrByKey(Reth.rkey(p.buf, off));
            if (len != 0 && (mr == null
                    || !mr.allowsRemote(qp.pd(), AccessFlags.REMOTE_READ, Reth.va(p.buf, off), len))) {
                return ResponderState.ERR_ACCESS;
            }
        } else if (p.is(Opcode.ATOMIC)) {
            int off = p.ext(ExtHeader.ATOMIC_ETH);
            long va = AtomicEth.va(p.buf, off);
            if ((va & 7) != 0) {
                return ResponderState.ERR_INVALID_REQUEST; // C9-?? misaligned atomic
            }
            MemoryRegion mr = qp.nic().mrByKey(AtomicEth.rkey(p.buf, off));
            if (mr == null || !mr.allowsRemote(qp.pd(), AccessFlags.REMOTE_ATOMIC, va, 8)) {
                return ResponderState.ERR_ACCESS;
            }
        } else if (MemoryPlacement.handles(p)) {
            return MemoryPlacement.checkRkey(qp, p);
        }
        return ResponderState.EXECUTE;
    }

    private ResponderState execute(RxPacket p) {
        if (p.is(Opcode.READ)) {
            RdAtomicResource r = claimResource();
            int off = p.ext(ExtHeader.RETH);
            int len = (int) Reth.dmaLength(p.buf, off);
            int pkts = Math.max(1, (len + qp.pathMtu() - 1) / qp.pathMtu());
            r.kind = RdAtomicResource.Kind.READ;
            r.firstPsn = p.psn;
            r.lastPsn = Psn.add(p.psn, pkts - 1);
            resp.msn = Psn.next(resp.msn);
            sendReadResponses(p.psn, Reth.va(p.buf, off), Reth.rkey(p.buf, off), len);
            resp.ePsn = Psn.add(resp.ePsn, pkts);
            return ResponderState.DONE;
        }
        if (p.is(Opcode.ATOMIC)) {
            int off = p.ext(ExtHeader.ATOMIC_ETH);
            MemoryRegion mr = qp.nic().mrByKey(AtomicEth.rkey(p.buf, off));
            int i = mr.index(AtomicEth.va(p.buf, off));
            long orig = Memory.getLongLE(mr.buffer(), i);
            long result;
            if (p.opcode.code() == Opcode.RC_COMPARE_SWAP.code()) {
                result = orig == AtomicEth.compare(p.buf, off) ? AtomicEth.swapAdd(p.buf, off) : orig;
            } else {
                result = orig + AtomicEth.swapAdd(p.buf, off);
            }
            Memory.putLongLE(mr.buffer(), i, result);
            RdAtomicResource r = claimResource();
            r.kind = RdAtomicResource.Kind.ATOMIC;
            r.firstPsn = p.psn;
            r.lastPsn = p.psn;
            r.originalValue = orig;
            resp.msn = Psn.next(resp.msn);
            sendAtomicAck(p.psn, orig);
            resp.ePsn = Psn.next(resp.ePsn);
            return ResponderState.DONE;
        }
        if (MemoryPlacement.handles(p)) {
            MemoryPlacement.execute(qp, p);
            RdAtomicResource r = claimResource();
            r.kind = MemoryPlacement.kind(p);
            r.firstPsn = p.psn;
            r.lastPsn = p.psn;
            resp.msn = Psn.next(resp.msn);
            sendReadResponses(p.psn, 0, 0, 0); // A19: the response is a zero-length READ RESPONSE ONLY
            resp.ePsn = Psn.next(resp.ePsn);
            return ResponderState.DONE;
        }
        if (p.is(Opcode.SEND)) {
            if (resp.recv == null) {
                resp.recv = qp.takeRecv();
                resp.recvOffset = 0;
            }
            boolean ud = qp.type() == QpType.UD;
            long base = ud ? GRH_LENGTH : 0;
            if (ud && !writeGrh(resp.recv, p)
                    || !qp.nic().memory.scatter(qp.pd(), resp.recv.sgl, base + resp.recvOffset, p.buf, p.payloadOffset,
                            p.payloadLength)) {
                return ResponderState.ERR_MALFORMED_WQE;
            }
            resp.recvOffset += p.payloadLength;
        } else if (p.is(Opcode.WRITE)) {
            if (p.payloadLength > 0 && !p.placed) {
                p.buf.getBytes(p.payloadOffset, resp.writeMr.buffer(), resp.writeMr.index(resp.writeVa),
                        p.payloadLength);
            }
            resp.writeVa += p.payloadLength;
            resp.writeRemaining -= p.payloadLength;
        }
        if (qp.type() != QpType.UD) {
            resp.ePsn = Psn.next(resp.ePsn);
        }
        if (p.ends()) {
            if (p.is(Opcode.WRITE) && resp.writeRemaining != 0) {
                return qp.type() == QpType.RC ? ResponderState.ERR_INVALID_REQUEST : ResponderState.DROP;
            }
            resp.msn = Psn.next(resp.msn);
            resp.inMessage = false;
        } else {
            resp.inMessage = true;
            resp.inWrite = p.is(Opcode.WRITE);
        }
        return ResponderState.COMPLETE;
    }

    private ResponderState complete(RxPacket p) {
        if (!p.ends()) {
            return ResponderState.ACKNOWLEDGE;
        }
        boolean imm = p.is(Opcode.IMMEDIATE);
        if (p.is(Opcode.SEND) || (imm && p.is(Opcode.WRITE))) {
            RecvWqe r = resp.recv != null ? resp.recv : qp.takeRecv();
            resp.recv = null;
            int flags = 0;
            int immData = 0;
            int inv = 0;
            if (imm) {
                flags |= WorkCompletion.WC_WITH_IMM;
                immData = ImmDt.immediate(p.buf, p.ext(ExtHeader.IMM_DT));
            }
            if (p.is(Opcode.INVALIDATE)) {
                inv = Ieth.rkey(p.buf, p.ext(ExtHeader.IETH));
                MemoryRegion mr = qp.nic().mrByKey(inv);
                if (mr == null || mr.pd() != qp.pd() || !mr.remotelyInvalidatable()) {
                    // IBA 10.6.5 / 9.7.5.1.x: only a fast-registered region (or a memory window) may be
                    // invalidated by a peer, as rxe_invalidate_mr takes only IB_MR_TYPE_MEM_REG; an
                    // IETH R_Key naming anything else is an invalid request
                    qp.completeRecv(r.wrId, WcStatus.REM_INV_REQ_ERR, WcOpcode.RECV, 0, 0, 0, 0, 0, false);
                    return classError(p, NakCode.INVALID_REQUEST);
                }
                mr.invalidate();
                flags |= WorkCompletion.WC_WITH_INV;
            }
            int srcQp = 0;
            long len = resp.recvOffset;
            if (qp.type() == QpType.UD) {
                srcQp = Deth.srcQp(p.buf, p.ext(ExtHeader.DETH));
                flags |= WorkCompletion.WC_GRH;
                len += GRH_LENGTH;
            }
            WcOpcode op = p.is(Opcode.WRITE) ? WcOpcode.RECV_RDMA_WITH_IMM : WcOpcode.RECV;
            if (p.is(Opcode.WRITE)) {
                len = resp.writeLength; // rxe: byte_len of a WRITE_WITH_IMM receive is the RDMA length
            }
            resp.recvOffset = 0;
            qp.port().counters.increment(NicCounter.RDMA_RECVS);
            qp.completeRecv(r.wrId, WcStatus.SUCCESS, op, (int) len, immData, inv, srcQp, flags, p.solicited);
            if (qp.state() == QpState.ERR) {
                return ResponderState.DONE; // the receive CQ overflowed: no ACK for a lost completion
            }
        }
        return ResponderState.ACKNOWLEDGE;
    }

    /**
     * rdma-core's UD receive buffers start with 40 bytes of GRH area (IBA 11.4.1.1); rxe fills it
     * with the IPv6 header as received, or for IPv4 with 20 zero bytes then the IPv4 header
     * ({@code union rdma_network_hdr}). Copied straight from the frame, nothing allocated.
     */
    private boolean writeGrh(RecvWqe r, RxPacket p) {
        Memory m = qp.nic().memory;
        if (p.ipVersion == 6) {
            return m.scatter(qp.pd(), r.sgl, 0, p.buf, p.ipHeaderOffset, GRH_LENGTH);
        }
        return m.scatter(qp.pd(), r.sgl, 0, ZEROS, 0, GRH_LENGTH - Ipv4.MIN_LENGTH)
                && m.scatter(qp.pd(), r.sgl, GRH_LENGTH - Ipv4.MIN_LENGTH, p.buf, p.ipHeaderOffset, Ipv4.MIN_LENGTH);
    }

    /**
     * A request ahead of ePSN within the reorder window: a duplicate if a packet of its PSN is held
     * already, else held (a copy) for its turn; a WRITE's data goes to memory now if its message's
     * place is known ({@link #placeEarly}). No NAK, no ACK: ePSN has not moved.
     */
    private ResponderState outOfOrder(RxPacket p) {
        if (window.has(p.psn)) {
            qp.port().counters.increment(NicCounter.DUPLICATE_REQUEST);
            return ResponderState.DONE;
        }
        RxPacket held = p.copy();
        window.put(held);
        qp.port().counters.increment(NicCounter.OOO_PLACED_PACKETS);
        if (held.is(Opcode.WRITE)) {
            placeEarly(held);
        }
        return ResponderState.DONE;
    }

    /**
     * Places a held WRITE packet's data by its offset in its message: a FIRST/ONLY by its RETH (the
     * rkey checked as {@link #checkRkey} does), and with it the held packets of its span; a MIDDLE
     * or LAST by its PSN distance from the message's first packet, that of the WRITE in progress
     * (its next byte is the one at ePSN) or a FIRST held before it. A packet whose place is not
     * known yet, or whose length does not fit its place, waits: executed in order, it is checked
     * and placed (or refused) as any other.
     */
    private void placeEarly(RxPacket h) {
        int mtu = qp.pathMtu();
        if (h.starts()) {
            MemoryRegion mr = writeRegion(h);
            if (mr == null) {
                return;
            }
            int off = h.ext(ExtHeader.RETH);
            long va = Reth.va(h.buf, off);
            long len = Reth.dmaLength(h.buf, off);
            place(h, mr, va);
            long pkts = (len + mtu - 1) / mtu;
            for (int k = 1; k < pkts && k < window.size(); k++) {
                RxPacket m = window.peek(Psn.add(h.psn, k));
                if (m != null && !m.placed && fitsWrite(m, k, len, mtu)) {
                    place(m, mr, va + (long) k * mtu);
                }
            }
            return;
        }
        int ahead = Psn.diff(h.psn, resp.ePsn);
        if (resp.inMessage && resp.inWrite && resp.writeMr != null) {
            long off = (long) ahead * mtu;
            long rest = resp.writeRemaining - off;
            if (rest > 0 && (h.is(Opcode.LAST) ? h.payloadLength == rest : h.payloadLength == mtu && rest > mtu)) {
                place(h, resp.writeMr, resp.writeVa + off);
            }
            return;
        }
        for (int k = 1; k < ahead; k++) {
            RxPacket f = window.peek(Psn.add(h.psn, -k));
            if (f == null) {
                continue;
            }
            if (f.is(Opcode.WRITE) && f.is(Opcode.FIRST) && f.placed) {
                int off = f.ext(ExtHeader.RETH);
                long len = Reth.dmaLength(f.buf, off);
                if (fitsWrite(h, k, len, mtu)) {
                    place(h, qp.nic().mrByKey(Reth.rkey(f.buf, off)), Reth.va(f.buf, off) + (long) k * mtu);
                }
            }
            if (f.starts() || f.ends()) {
                return; // h's message starts here or after: its first packet is not held yet
            }
        }
    }

    /**
     * The WRITE in progress has its first packet in: the held packets of its span that wait for their
     * place get it now (their offset from ePSN, where the WRITE's next byte goes).
     */
    private void placeHeldOfWriteInProgress() {
        int mtu = qp.pathMtu();
        long span = (resp.writeRemaining + mtu - 1) / mtu;
        for (int k = 1; k < span && k < window.size(); k++) {
            RxPacket m = window.peek(Psn.add(resp.ePsn, k));
            if (m != null && !m.placed && m.is(Opcode.WRITE)) {
                placeEarly(m);
            }
        }
    }

    /** The region a held WRITE FIRST/ONLY may write, its RETH checked as in order (C9-87); else null. */
    private MemoryRegion writeRegion(RxPacket h) {
        int off = h.ext(ExtHeader.RETH);
        long va = Reth.va(h.buf, off);
        long len = Reth.dmaLength(h.buf, off);
        if (h.is(Opcode.ONLY) ? h.payloadLength != len : len <= h.payloadLength || h.payloadLength != qp.pathMtu()) {
            return null;
        }
        if (len == 0 || (qp.accessFlags() & AccessFlags.REMOTE_WRITE) == 0) {
            return null;
        }
        MemoryRegion mr = qp.nic().mrByKey(Reth.rkey(h.buf, off));
        return mr != null && mr.allowsRemote(qp.pd(), AccessFlags.REMOTE_WRITE, va, len) ? mr : null;
    }

    /** Whether WRITE packet {@code m}, {@code k} packets after its message's first, fits a {@code len}-byte WRITE. */
    private static boolean fitsWrite(RxPacket m, int k, long len, int mtu) {
        if (!m.is(Opcode.WRITE) || m.starts()) {
            return false;
        }
        long rest = len - (long) k * mtu;
        return m.is(Opcode.LAST) ? rest > 0 && rest <= mtu && m.payloadLength == rest
                : rest > mtu && m.payloadLength == mtu;
    }

    private void place(RxPacket h, MemoryRegion mr, long va) {
        if (h.payloadLength > 0) {
            h.buf.getBytes(h.payloadOffset, mr.buffer(), mr.index(va), h.payloadLength);
        }
        h.placed = true;
    }

    private ResponderState duplicate(RxPacket p) {
        if (p.is(Opcode.SEND) || p.is(Opcode.WRITE)) {
            if (window != null) {
                ackInTurn(Psn.add(resp.ePsn, -1)); // C9-104: acknowledge again, behind READ responses
                return ResponderState.DONE;
            }
            sendAck(AethSyndrome.ACK_NO_CREDIT, Psn.add(resp.ePsn, -1)); // C9-104: acknowledge again
            return ResponderState.DONE;
        }
        for (RdAtomicResource r : resp.resources) {
            if (!r.holds(p.psn)) {
                continue;
            }
            if (p.is(Opcode.ATOMIC)) {
                if (r.kind == RdAtomicResource.Kind.ATOMIC && r.firstPsn == p.psn) {
                    sendAtomicAck(p.psn, r.originalValue); // C9-152: never executed twice
                }
                return ResponderState.DONE;
            }
            if (MemoryPlacement.handles(p)) {
                if (r.kind == MemoryPlacement.kind(p) && r.firstPsn == p.psn) {
                    sendReadResponses(p.psn, 0, 0, 0); // oA19-14, oA19-15: acknowledged again, not executed
                }
                return ResponderState.DONE;
            }
            if (r.kind == RdAtomicResource.Kind.READ) {
                // C9-105: a duplicate READ is executed again, from its own RETH (a retry may ask for a tail)
                int off = p.ext(ExtHeader.RETH);
                long va = Reth.va(p.buf, off);
                int rkey = Reth.rkey(p.buf, off);
                long len = Reth.dmaLength(p.buf, off);
                MemoryRegion mr = len == 0 ? null : qp.nic().mrByKey(rkey);
                int pkts = Math.max(1, (int) ((len + qp.pathMtu() - 1) / qp.pathMtu()));
                if (Psn.after(Psn.add(p.psn, pkts - 1), r.lastPsn) || len != 0
                        && (mr == null || !mr.allowsRemote(qp.pd(), AccessFlags.REMOTE_READ, va, len))) {
                    return ResponderState.DONE;
                }
                sendReadResponses(p.psn, va, rkey, (int) len);
            }
            return ResponderState.DONE;
        }
        return ResponderState.DONE;
    }

    private RdAtomicResource claimResource() {
        RdAtomicResource r = resp.resources[resp.nextResource];
        resp.nextResource = (resp.nextResource + 1) % resp.resources.length;
        r.valid = true;
        return r;
    }

    /**
     * The receive WQE names memory the NIC may not write (rxe's RESPST_ERR_MALFORMED_WQE, class A, for
     * every QP type): it completes with {@code IBV_WC_LOC_QP_OP_ERR}, an RC peer gets a remote
     * operational error NAK, and the QP goes to ERR.
     */
    private ResponderState malformedWqe(RxPacket p) {
        RecvWqe r = resp.recv;
        resp.recv = null;
        qp.completeRecv(r.wrId, WcStatus.LOC_QP_OP_ERR, WcOpcode.RECV, 0, 0, 0, 0, 0, false);
        if (qp.type() == QpType.RC) {
            sendAck(AethSyndrome.nak(NakCode.REMOTE_OPERATIONAL_ERROR), p.psn);
        }
        qp.enterError();
        return ResponderState.DONE;
    }

    /** NAK and, for RC, the responder's QP goes to ERR (IBA 9.9.3.1: class C/B responder errors). */
    private ResponderState classError(RxPacket p, NakCode code) {
        if (qp.type() != QpType.RC) {
            return ResponderState.DROP;
        }
        sendAck(AethSyndrome.nak(code), p.psn);
        qp.enterError();
        return ResponderState.DONE;
    }

    /**
     * An out-of-order QP's positive ACK of {@code psn}: at once, or behind the READ responses
     * waiting to be sent, which it must not overtake: an ACK past a READ whose responses have not
     * come tells the requester they were lost (IBA 9.7.5.2's implicit NAK), and a spraying fabric
     * brings duplicates whose ACK would otherwise pass them.
     */
    private void ackInTurn(int psn) {
        if (hasReadResponses()) {
            resp.readResponses.add(ResponderInfo.ReadResponse.ack(psn, resp.msn));
        } else {
            sendAck(AethSyndrome.ACK_NO_CREDIT, psn);
        }
    }

    private void sendAck(int syndrome, int psn) {
        PacketWriter pw = qp.port().writer;
        ByteBuf b = pw.begin(qp.udpSourcePort(), qp.route(), Opcode.RC_ACKNOWLEDGE, false, qp.pkey(), qp.destQpn(),
                false, psn, 0);
        Aeth.write(b, pw.ext(ExtHeader.AETH), syndrome, resp.msn);
        qp.port().sendControl(qp.route(), pw.finish());
    }

    private void sendAtomicAck(int psn, long orig) {
        PacketWriter pw = qp.port().writer;
        ByteBuf b = pw.begin(qp.udpSourcePort(), qp.route(), Opcode.RC_ATOMIC_ACKNOWLEDGE, false, qp.pkey(),
                qp.destQpn(), false, psn, 0);
        Aeth.write(b, pw.ext(ExtHeader.AETH), AethSyndrome.ACK_NO_CREDIT, resp.msn);
        AtomicAckEth.write(b, pw.ext(ExtHeader.ATOMIC_ACK_ETH), orig);
        qp.port().sendControl(qp.route(), pw.finish());
    }

    /**
     * Queues the READ responses FIRST(AETH) MIDDLE.. LAST(AETH), or ONLY(AETH), from {@code psn}
     * (IBA 9.7.5.1.5): the NIC's transmitter pulls them one packet at a time, with the QP's other
     * data, each read from memory as it leaves (as a NIC's DMA reads it). The MSN they carry is the
     * one of this moment.
     */
    private void sendReadResponses(int psn, long va, int rkey, int len) {
        MemoryRegion mr = len == 0 ? null : qp.nic().mrByKey(rkey);
        resp.readResponses.add(new ResponderInfo.ReadResponse(psn, mr, va, len, resp.msn));
        qp.requester().kick();
    }

    /** Whether READ responses wait to be sent. */
    boolean hasReadResponses() {
        return !resp.readResponses.isEmpty();
    }

    /** Builds the next READ response packet and returns what it made (owner thread, from the QP's egress flow). */
    SendStep sendNextReadResponse() {
        ResponderInfo.ReadResponse r = resp.readResponses.peek();
        if (r.ack) {
            resp.readResponses.poll();
            PacketWriter pw = qp.port().writer;
            ByteBuf b = pw.begin(qp.udpSourcePort(), qp.route(), Opcode.RC_ACKNOWLEDGE, false, qp.pkey(),
                    qp.destQpn(), false, r.psn, 0);
            Aeth.write(b, pw.ext(ExtHeader.AETH), AethSyndrome.ACK_NO_CREDIT, r.msn);
            return qp.port().emit(qp.route(), pw.finish());
        }
        int mtu = qp.pathMtu();
        int n = Math.min(mtu, r.length - r.sent);
        boolean first = r.sent == 0;
        boolean last = r.sent + n >= r.length;
        Opcode op = first && last ? Opcode.RC_RDMA_READ_RESPONSE_ONLY
                : first ? Opcode.RC_RDMA_READ_RESPONSE_FIRST
                : last ? Opcode.RC_RDMA_READ_RESPONSE_LAST : Opcode.RC_RDMA_READ_RESPONSE_MIDDLE;
        PacketWriter pw = qp.port().writer;
        ByteBuf b = pw.begin(qp.udpSourcePort(), qp.route(), op, false, qp.pkey(), qp.destQpn(), false, r.psn, n);
        if (op.hasHeader(ExtHeader.AETH)) {
            Aeth.write(b, pw.ext(ExtHeader.AETH), AethSyndrome.ACK_NO_CREDIT, r.msn);
        }
        if (n > 0) {
            b.setBytes(pw.payloadOffset(), r.mr.buffer(), r.mr.index(r.va + r.sent), n);
        }
        r.sent += n;
        r.psn = Psn.next(r.psn);
        if (last) {
            resp.readResponses.poll();
        }
        return qp.port().emit(qp.route(), pw.finish());
    }

    /** Drops the READ responses not yet sent (the QP left RTS/RTR: IBA 10.3.1.7). */
    void dropReadResponses() {
        resp.readResponses.clear();
    }
}
