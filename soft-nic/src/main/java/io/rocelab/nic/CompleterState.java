package io.rocelab.nic;

/** States of the {@link Completer}'s machine, after rxe_comp.c's {@code enum comp_state}. */
enum CompleterState {
    GET_WQE, CHECK_PSN, CHECK_ACK, READ, ATOMIC, COMP_ACK, COMP_WQE, UPDATE_COMP, RETRY, RNR_RETRY, ERROR, DONE
}
