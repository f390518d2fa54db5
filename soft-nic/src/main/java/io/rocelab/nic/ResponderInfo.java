package io.rocelab.nic;

import java.util.ArrayDeque;

/**
 * The responder's transport state, as Linux rxe keeps it apart from the rest of the QP in
 * {@code struct rxe_resp_info} ({@code qp->resp}, rxe_verbs.h): the expected PSN and the MSN, the
 * message in progress (its receive WQE, its WRITE's region and place), the responder resources of
 * READ and ATOMIC requests, and the READ responses still to send. Only the {@link Responder} holds
 * it; the QP sets the first expected PSN through {@link Responder#startAt} and the egress takes the
 * READ responses through {@link Responder#sendNextReadResponse()}. RESET gives the QP a new
 * responder, so a new one of these (IBA 10.3.1.1, rxe's {@code rxe_qp_reset}).
 */
final class ResponderInfo {
    /** Expected PSN (IBA 9.7.5.1's ePSN; rxe {@code resp.psn}). */
    int ePsn;
    /** Message sequence number: completed messages, 24 bits (IBA 9.7.5.1.2; rxe {@code resp.msn}). */
    int msn;
    /** A sequence error NAK went for {@link #ePsn}: no other until it arrives (rxe {@code resp.sent_psn_nak}). */
    boolean nakSent;
    /**
     * Out-of-order QP: a packet executed in this receive asked for an ACK; one cumulative ACK goes
     * once the held packets behind it are executed too.
     */
    boolean ackDue;

    /** A message is open: its FIRST came, MIDDLE/LAST must follow (rxe checks {@code resp.opcode}). */
    boolean inMessage;
    /** The open message is a WRITE (else a SEND). */
    boolean inWrite;
    /** UC: the rest of a message with a PSN gap is dropped up to the next FIRST/ONLY (rxe {@code resp.drop_msg}). */
    boolean ucDropping;
    /** The receive WQE the SEND in progress fills (rxe {@code resp.wqe}), or null. */
    RecvWqe recv;
    /** Bytes of the SEND in progress placed so far. */
    long recvOffset;
    /**
     * The WRITE in progress: its region, where its next byte goes, the bytes still to come, its RETH
     * length (rxe {@code resp.mr}, {@code resp.va}, {@code resp.resid}, {@code resp.length}).
     */
    MemoryRegion writeMr;
    long writeVa;
    long writeRemaining;
    long writeLength;

    /** Responder resources of READ/ATOMIC requests (IBA 9.5; rxe {@code resp.resources}), used round robin. */
    RdAtomicResource[] resources = new RdAtomicResource[0];
    /** READ responses waiting for the transmitter, oldest first. */
    final ArrayDeque<ReadResponse> readResponses = new ArrayDeque<>();
    /** The resource the next READ/ATOMIC takes (rxe {@code resp.res_head}). */
    int nextResource;

    /** A READ being answered: where its next response packet comes from. */
    static final class ReadResponse {
        int psn;
        final MemoryRegion mr;
        final long va;
        final int length;
        final int msn;
        int sent;
        /**
         * Not a READ: the cumulative ACK of an out-of-order QP's run, queued behind the run's READ
         * responses so that it does not overtake them.
         */
        final boolean ack;

        ReadResponse(int psn, MemoryRegion mr, long va, int length, int msn) {
            this(psn, mr, va, length, msn, false);
        }

        private ReadResponse(int psn, MemoryRegion mr, long va, int length, int msn, boolean ack) {
            this.psn = psn;
            this.mr = mr;
            this.va = va;
            this.length = length;
            this.msn = msn;
            this.ack = ack;
        }

        /** The ACK of {@code psn} with {@code msn}, sent in turn with the READ responses. */
        static ReadResponse ack(int psn, int msn) {
            return new ReadResponse(psn, null, 0, 0, msn, true);
        }
    }
}
