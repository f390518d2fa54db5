package io.rocelab.nic.cm;

import io.rocelab.codec.mad.CmReq;
import io.rocelab.codec.mad.CmaIpHeader;

/**
 * One connection event ({@code struct rdma_cm_event}).
 *
 * @param type         what happened
 * @param id           the connection it happened to
 * @param request      on {@link CmEventType#CONNECT_REQUEST}: the REQ, else null
 * @param ipHeader     on {@link CmEventType#CONNECT_REQUEST}: rdma_cm's IP header from the REQ, else null
 * @param rejectReason on {@link CmEventType#REJECTED}: the REJ's reason (IBA table 102), else 0
 */
public record CmEvent(CmEventType type, CmId id, CmReq request, CmaIpHeader ipHeader, int rejectReason) {
    static CmEvent of(CmEventType type, CmId id) {
        return new CmEvent(type, id, null, null, 0);
    }
}
