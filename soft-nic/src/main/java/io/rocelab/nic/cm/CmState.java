package io.rocelab.nic.cm;

/** A connection's place in the CM state machine (IBA 12.9.6, figure 137, simplified to what RC needs). */
public enum CmState {
    REQ_SENT,
    REQ_RCVD,
    REP_SENT,
    ESTABLISHED,
    DREQ_SENT,
    REJECTED,
    CLOSED
}
