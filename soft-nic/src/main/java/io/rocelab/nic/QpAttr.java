package io.rocelab.nic;

import java.util.EnumSet;
import java.util.Set;

/**
 * Attributes for {@link QueuePair#modify} ({@code struct ibv_qp_attr} plus its mask): every setter
 * adds its attribute to the mask, so the mask always says exactly what was given.
 * <pre>{@code
 * qp.modify(new QpAttr().state(QpState.RTR).av(AddressHandle.ipv4(peerIp)).pathMtu(1024)
 *     .destQpn(peerQpn).rqPsn(peerPsn).maxDestRdAtomic(1).minRnrTimer(12));
 * }</pre>
 */
public final class QpAttr {
    final EnumSet<QpAttrMask> mask = EnumSet.noneOf(QpAttrMask.class);
    QpState state;
    QpState curState;
    int accessFlags;
    int pkeyIndex;
    int port = 1;
    int qkey;
    AddressHandle av;
    int pathMtu = 1024;
    int timeout;
    int retryCnt;
    int rnrRetry;
    int rqPsn;
    int sqPsn;
    int maxRdAtomic;
    int maxDestRdAtomic;
    int minRnrTimer;
    int destQpn;
    boolean enSqdAsyncNotify;
    AddressHandle altAv;
    int altPort;
    int altTimeout;
    int altPkeyIndex;
    MigState pathMigState;

    private QpAttr with(QpAttrMask m) {
        mask.add(m);
        return this;
    }

    /**
     * With RTS to SQD: raise {@link AsyncEventType#SQ_DRAINED} once the send queue has drained
     * ({@code IBV_QP_EN_SQD_ASYNC_NOTIFY}, IBA 11.2.5.2).
     */
    public QpAttr enSqdAsyncNotify(boolean notify) {
        enSqdAsyncNotify = notify;
        return with(QpAttrMask.EN_SQD_ASYNC_NOTIFY);
    }

    public QpAttr state(QpState s) {
        state = s;
        return with(QpAttrMask.STATE);
    }

    public QpAttr curState(QpState s) {
        curState = s;
        return with(QpAttrMask.CUR_STATE);
    }

    public QpAttr accessFlags(int flags) {
        accessFlags = AccessFlags.validate(flags);
        return with(QpAttrMask.ACCESS_FLAGS);
    }

    public QpAttr pkeyIndex(int index) {
        if (index != 0) {
            throw new IllegalArgumentException("pkeyIndex: the P_Key table has one entry (0xFFFF): " + index);
        }
        pkeyIndex = index;
        return with(QpAttrMask.PKEY_INDEX);
    }

    /**
     * The port the QP is bound to ({@code IBV_QP_PORT}): 1, or 2 on a dual-port NIC (checked
     * against the NIC's ports when the QP is modified).
     */
    public QpAttr port(int p) {
        if (p != 1 && p != 2) {
            throw new IllegalArgumentException("port must be 1 or 2: " + p);
        }
        port = p;
        return with(QpAttrMask.PORT);
    }

    public QpAttr qkey(int key) {
        qkey = key;
        return with(QpAttrMask.QKEY);
    }

    public QpAttr av(AddressHandle handle) {
        av = handle;
        return with(QpAttrMask.AV);
    }

    /** Path MTU in bytes: 256, 512, 1024, 2048 or 4096 (IBA 9.6.1.1 PMTU). */
    public QpAttr pathMtu(int bytes) {
        if (bytes != 256 && bytes != 512 && bytes != 1024 && bytes != 2048 && bytes != 4096) {
            throw new IllegalArgumentException("pathMtu must be 256, 512, 1024, 2048 or 4096: " + bytes);
        }
        pathMtu = bytes;
        return with(QpAttrMask.PATH_MTU);
    }

    /** Local ACK timeout exponent: 4.096 µs × 2^timeout, 0 = infinite (IBA 9.7.6.1.3). */
    public QpAttr timeout(int exponent) {
        timeout = range("timeout", exponent, 0, 31);
        return with(QpAttrMask.TIMEOUT);
    }

    public QpAttr retryCnt(int count) {
        retryCnt = range("retryCnt", count, 0, 7);
        return with(QpAttrMask.RETRY_CNT);
    }

    /** RNR retry count; 7 means infinite (IBA 9.7.5.2.8). */
    public QpAttr rnrRetry(int count) {
        rnrRetry = range("rnrRetry", count, 0, 7);
        return with(QpAttrMask.RNR_RETRY);
    }

    public QpAttr rqPsn(int psn) {
        rqPsn = range("rqPsn", psn, 0, 0xFFFFFF);
        return with(QpAttrMask.RQ_PSN);
    }

    public QpAttr sqPsn(int psn) {
        sqPsn = range("sqPsn", psn, 0, 0xFFFFFF);
        return with(QpAttrMask.SQ_PSN);
    }

    public QpAttr maxRdAtomic(int n) {
        maxRdAtomic = range("maxRdAtomic", n, 0, 128);
        return with(QpAttrMask.MAX_QP_RD_ATOMIC);
    }

    public QpAttr maxDestRdAtomic(int n) {
        maxDestRdAtomic = range("maxDestRdAtomic", n, 0, 128);
        return with(QpAttrMask.MAX_DEST_RD_ATOMIC);
    }

    /** RNR NAK timer code of IBA Table 45 that this responder advertises. */
    public QpAttr minRnrTimer(int code) {
        minRnrTimer = range("minRnrTimer", code, 0, 31);
        return with(QpAttrMask.MIN_RNR_TIMER);
    }

    public QpAttr destQpn(int qpn) {
        destQpn = range("destQpn", qpn, 0, 0xFFFFFF);
        return with(QpAttrMask.DEST_QPN);
    }

    /**
     * The alternate path ({@code IBV_QP_ALT_PATH}: {@code alt_ah_attr}, {@code alt_port_num},
     * {@code alt_timeout}, {@code alt_pkey_index}) the QP migrates to (IBA 17.2.8). On RoCE it leaves
     * by the NIC's other port: the port must differ from the QP's (checked when the QP is modified).
     */
    public QpAttr altPath(AddressHandle av, int port, int timeout, int pkeyIndex) {
        altAv = java.util.Objects.requireNonNull(av, "av");
        if (port != 1 && port != 2) {
            throw new IllegalArgumentException("altPort must be 1 or 2: " + port);
        }
        if (pkeyIndex != 0) {
            throw new IllegalArgumentException("altPkeyIndex: the P_Key table has one entry (0xFFFF): " + pkeyIndex);
        }
        altPort = port;
        altTimeout = range("altTimeout", timeout, 0, 31);
        altPkeyIndex = pkeyIndex;
        return with(QpAttrMask.ALT_PATH);
    }

    /** {@code IBV_QP_PATH_MIG_STATE}: REARM, ARMED (arm the alternate path) or MIGRATED (migrate to it now). */
    public QpAttr pathMigState(MigState s) {
        pathMigState = java.util.Objects.requireNonNull(s, "pathMigState");
        return with(QpAttrMask.PATH_MIG_STATE);
    }

    public Set<QpAttrMask> mask() {
        return EnumSet.copyOf(mask.isEmpty() ? EnumSet.noneOf(QpAttrMask.class) : mask);
    }

    private static int range(String name, int v, int lo, int hi) {
        if (v < lo || v > hi) {
            throw new IllegalArgumentException(name + " must be " + lo + ".." + hi + ": " + v);
        }
        return v;
    }
}
