package io.rocelab.nic;

/**
 * Queue sizes and limits of a QP ({@code struct ibv_qp_cap}), plus {@code sq_sig_all}: when true
 * every send WR completes, when false only those marked {@linkplain SendWr#signaled signaled}.
 */
public record QpCaps(int maxSendWr, int maxRecvWr, int maxSendSge, int maxRecvSge, int maxInlineData,
                     boolean sqSigAll) {
    public QpCaps {
        positive("maxSendWr", maxSendWr);
        positive("maxRecvWr", maxRecvWr);
        positive("maxSendSge", maxSendSge);
        positive("maxRecvSge", maxRecvSge);
        if (maxInlineData < 0) {
            throw new IllegalArgumentException("maxInlineData must be >= 0: " + maxInlineData);
        }
    }

    /** rxe-like defaults: 1024 WRs each way, 8 SGEs, 256 bytes inline, only signaled WRs complete. */
    public static QpCaps defaults() {
        return new QpCaps(1024, 1024, 8, 8, 256, false);
    }

    private static void positive(String name, int v) {
        if (v <= 0) {
            throw new IllegalArgumentException(name + " must be > 0: " + v);
        }
    }
}
