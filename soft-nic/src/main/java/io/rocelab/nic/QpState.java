package io.rocelab.nic;

/** QP states of IBA 10.3.1 (Figure 124), named as {@code enum ibv_qp_state}. */
public enum QpState {
    RESET, INIT, RTR, RTS, SQD, SQE, ERR;

    /** States in which the receive side processes incoming packets (IBA 10.3.1: RTR and later). */
    boolean canReceive() {
        return this == RTR || this == RTS || this == SQD || this == SQE;
    }

    /** States in which the send queue may be posted to and transmits (IBA 10.3.1.4). */
    boolean canSend() {
        return this == RTS || this == SQD;
    }
}
