package io.rocelab.nic;

import io.rocelab.fabric.time.Cancellable;

/**
 * The completer's transport state, as Linux rxe keeps it apart from the rest of the QP in
 * {@code struct rxe_comp_info} ({@code qp->comp}, rxe_verbs.h), with the local ACK timer (rxe's
 * {@code qp->retrans_timer}). Only the {@link Completer} holds it; the requester reads the window's
 * left edge through {@link Completer#compPsn()} and asks for the timer through
 * {@link Completer#armAckTimer()}. RESET gives the QP a new completer, so a new one of these
 * (IBA 10.3.1.1, rxe's {@code rxe_qp_reset}).
 *
 * <p>The completer's machine keeps the WQE and the error of the packet in hand as its own
 * registers: they mean nothing between two packets.
 */
final class CompleterInfo {
    /** {@link #ackDeadline} while the local ACK timer is stopped. */
    static final long NO_DEADLINE = Long.MAX_VALUE;

    /**
     * The oldest PSN not yet acknowledged: the window's left edge (for a READ: the next response
     * PSN expected). rxe {@code comp.psn}.
     */
    int psn;
    /** Retries left after ACK timeouts and sequence error NAKs (rxe {@code comp.retry_cnt}). */
    int retryLeft;
    /** Retries left after RNR NAKs, 7 for ever (rxe {@code comp.rnr_retry}). */
    int rnrLeft;
    /**
     * The PSN the requester last went back to, -1 after progress: one loss, one retry (rxe keeps
     * the flag {@code comp.started_retry}).
     */
    int lastNakPsn = -1;
    /** When the local ACK timer expires; {@link #NO_DEADLINE} while it is stopped. */
    long ackDeadline = NO_DEADLINE;
    /** The one scheduled check of {@link #ackDeadline}, or null. */
    Cancellable ackCheck;
    long ackCheckAt;
    /**
     * The check found the deadline passed and gave the responses already due one more turn (as
     * rxe's timer only sets {@code comp.timeout} and the completer takes its queued responses first).
     */
    boolean expiryDeferred;
    /** A READ response FIRST has opened the oldest WQE's responses: MIDDLE and LAST may follow (rxe comp.opcode). */
    boolean readOpen;
}
