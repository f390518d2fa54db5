package io.rocelab.nic;

/** Which attributes a modify-QP call carries ({@code enum ibv_qp_attr_mask}). */
public enum QpAttrMask {
    STATE, CUR_STATE, EN_SQD_ASYNC_NOTIFY, ACCESS_FLAGS, PKEY_INDEX, PORT, QKEY, AV, PATH_MTU, TIMEOUT, RETRY_CNT,
    RNR_RETRY, RQ_PSN, MAX_QP_RD_ATOMIC, ALT_PATH, MIN_RNR_TIMER, SQ_PSN, MAX_DEST_RD_ATOMIC, PATH_MIG_STATE,
    DEST_QPN
}
