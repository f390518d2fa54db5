package io.rocelab.nic;

/**
 * Completion status ({@code enum ibv_wc_status}), in rdma-core's order; {@link #verbsName()} is the
 * name a verbs user knows, e.g. {@code IBV_WC_RETRY_EXC_ERR}.
 */
public enum WcStatus {
    SUCCESS, LOC_LEN_ERR, LOC_QP_OP_ERR, LOC_EEC_OP_ERR, LOC_PROT_ERR, WR_FLUSH_ERR, MW_BIND_ERR, BAD_RESP_ERR,
    LOC_ACCESS_ERR, REM_INV_REQ_ERR, REM_ACCESS_ERR, REM_OP_ERR, RETRY_EXC_ERR, RNR_RETRY_EXC_ERR,
    LOC_RDD_VIOL_ERR, REM_INV_RD_REQ_ERR, REM_ABORT_ERR, INV_EECN_ERR, INV_EEC_STATE_ERR, FATAL_ERR,
    RESP_TIMEOUT_ERR, GENERAL_ERR;

    public String verbsName() {
        return "IBV_WC_" + name();
    }
}
