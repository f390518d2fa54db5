package io.rocelab.nic.cm;

/** What happened to a connection, named like rdma_cm's {@code enum rdma_cm_event_type}. */
public enum CmEventType {
    /** A REQ arrived for a listened port: accept or reject it. */
    CONNECT_REQUEST,
    /** The handshake finished: the QP is in RTS (active side after sending RTU, passive on RTU). */
    ESTABLISHED,
    /** The peer answered the REQ with REJ. */
    REJECTED,
    /** The REQ was never answered within its retries. */
    UNREACHABLE,
    /** The REP was never answered within its retries. */
    CONNECT_ERROR,
    /** DREQ/DREP done (or given up on): the QP is in ERR. */
    DISCONNECTED
}
