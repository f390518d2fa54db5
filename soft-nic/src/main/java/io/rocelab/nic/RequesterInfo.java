package io.rocelab.nic;

import io.rocelab.fabric.time.Cancellable;

/**
 * The requester's transport state, as Linux rxe keeps it apart from the rest of the QP in
 * {@code struct rxe_req_info} ({@code qp->req}, rxe_verbs.h). Only the {@link Requester} holds it;
 * the other engines learn what they need through the requester's methods ({@link Requester#nextPsn},
 * {@link Requester#nextNewPsn}, {@link Requester#inRnrWait}) and change it only by asking it to
 * ({@link Requester#retry}, {@link Requester#skipTo}, {@link Requester#rnrRetryAfter}). RESET gives
 * the QP a new requester, so a new one of these (IBA 10.3.1.1, rxe's {@code rxe_qp_reset}).
 *
 * <p>The send queue's cursor, rxe's {@code req.wqe_index}, is the {@link SendQueue}'s.
 */
final class RequesterInfo {
    /** Next PSN to send (rxe {@code req.psn}); the completer reads it ({@link Requester#nextPsn()}). */
    int psn;
    /** The PSN after the highest ever sent: below it, a packet is sent again (go-back-N). */
    int nextNewPsn;
    /** Packets sent since the last one with AckReq (rxe {@code req.noack_pkts}). */
    int noAckPkts;
    /** While an RNR NAK's timer runs nothing is sent (IBA 9.7.5.2.8; rxe {@code req.wait_for_rnr_timer}). */
    boolean rnrWait;
    /** That timer (rxe's {@code qp->rnr_nak_timer}), or null. */
    Cancellable rnrTimer;
}
