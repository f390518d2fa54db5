package io.rocelab.nic;

/**
 * States of the {@link Responder}'s machine, after rxe_resp.c's {@code enum resp_states}; rxe has
 * no {@code OUT_OF_ORDER}: it is a QP with out-of-order data placement taking a packet ahead of ePSN
 * into its reorder window (where rxe goes to {@code ERR_PSN_OUT_OF_SEQ}).
 */
enum ResponderState {
    CHECK_PSN, CHECK_OP_SEQ, CHECK_OP_VALID, CHECK_RESOURCE, CHECK_LENGTH, CHECK_RKEY, EXECUTE, COMPLETE,
    ACKNOWLEDGE, DUPLICATE, ERR_PSN_OUT_OF_SEQ, ERR_RNR, ERR_INVALID_REQUEST, ERR_ACCESS, ERR_LENGTH,
    ERR_MALFORMED_WQE, DROP, DONE, OUT_OF_ORDER
}
