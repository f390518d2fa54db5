package io.rocelab.nic.cm;

import io.rocelab.codec.mad.CmRej;
import io.rocelab.codec.mad.CmReq;
import java.util.function.Predicate;

/**
 * What the passive side checks in a REQ (IBA 12.6.5, table 99) before a listener sees it, each
 * field with the REJ reason of IBA 12.6.7.2 table 102 that refuses it (Linux's {@code
 * ib_cm_rej_reason} numbers them alike). A REQ that breaks a rule is answered with a REJ and never
 * offered to the listener, which goes on taking requests (IBA 12.6.7: a REJ is the answer to a REQ
 * the passive side cannot accept). Only fields that would make no valid connection are here: the
 * others have no values a REQ can carry that the QP refuses.
 */
enum RequestRule {
    /** This CM connects RC QPs only (IBA table 99: 0 RC, 1 UC, 2 RD, 3 reserved or XRC). */
    TRANSPORT_SERVICE_TYPE(CmRej.REASON_INVALID_TRANSPORT_TYPE, r -> r.transportServiceType() == 0),
    /** Path Packet Payload MTU: 1 (256 bytes) to 5 (4096 bytes); 0 and 6 to 15 are reserved (IBA 9.6.1.1). */
    PATH_MTU(CmRej.REASON_INVALID_MTU, r -> r.pathMtu() >= 1 && r.pathMtu() <= 5);

    private final int rejectReason;
    private final Predicate<CmReq> holds;

    RequestRule(int rejectReason, Predicate<CmReq> holds) {
        this.rejectReason = rejectReason;
        this.holds = holds;
    }

    /** The REJ reason for the first rule {@code r} breaks, or 0 when it breaks none. */
    static int rejectReason(CmReq r) {
        for (RequestRule rule : values()) {
            if (!rule.holds.test(r)) {
                return rule.rejectReason;
            }
        }
        return 0;
    }
}
