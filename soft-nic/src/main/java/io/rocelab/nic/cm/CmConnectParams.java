package io.rocelab.nic.cm;

/**
 * What a side offers when it connects or accepts ({@code struct rdma_conn_param}).
 *
 * @param responderResources RDMA READ/atomic requests this side will answer at once (its max_dest_rd_atomic)
 * @param initiatorDepth     RDMA READ/atomic requests this side will have outstanding (its max_rd_atomic)
 * @param retryCount         transport retries (3 bits)
 * @param rnrRetryCount      RNR retries (3 bits, 7 = infinite)
 * @param pathMtu            the largest path MTU in bytes the QP may use (256..4096, a power of two), or 0
 *                           for the port's active MTU; what rdma_cm's route resolution would find for a
 *                           path whose far end has a smaller MTU than this port
 * @param trafficClass       the IP traffic class (DSCP &lt;&lt; 2 | ECN) of the connection's frames and of the
 *                           REQ's path (rdma_cm's {@code RDMA_OPTION_ID_TOS}); the passive side takes the REQ's
 * @param ackTimeout         this side's QP's local ACK timeout (IBA exponent, 1..31) as rdma_cm's
 *                           {@code rdma_set_ack_timeout} sets it, or 0 for rdma_cm's own: the path's packet
 *                           lifetime plus one, raised to cover the peer's ACK delay (about 2 s on RoCE)
 */
public record CmConnectParams(int responderResources, int initiatorDepth, int retryCount, int rnrRetryCount,
                              int pathMtu, int trafficClass, int ackTimeout) {
    /** Parameters for a path as large as the port's active MTU, traffic class 0. */
    public CmConnectParams(int responderResources, int initiatorDepth, int retryCount, int rnrRetryCount) {
        this(responderResources, initiatorDepth, retryCount, rnrRetryCount, 0, 0);
    }

    /** Parameters with rdma_cm's own ACK timeout. */
    public CmConnectParams(int responderResources, int initiatorDepth, int retryCount, int rnrRetryCount,
                           int pathMtu, int trafficClass) {
        this(responderResources, initiatorDepth, retryCount, rnrRetryCount, pathMtu, trafficClass, 0);
    }

    public CmConnectParams {
        if (trafficClass < 0 || trafficClass > 255) {
            throw new IllegalArgumentException("trafficClass must be 0..255: " + trafficClass);
        }
        if (pathMtu != 0 && (pathMtu < 256 || pathMtu > 4096 || Integer.bitCount(pathMtu) != 1)) {
            throw new IllegalArgumentException("pathMtu must be 0 or 256..4096, a power of two: " + pathMtu);
        }
        if (responderResources < 0 || responderResources > 255 || initiatorDepth < 0 || initiatorDepth > 255) {
            throw new IllegalArgumentException("responderResources and initiatorDepth must be 0..255");
        }
        if (ackTimeout < 0 || ackTimeout > 31) {
            throw new IllegalArgumentException("ackTimeout must be 0 (rdma_cm's) or 1..31: " + ackTimeout);
        }
        if (retryCount < 0 || retryCount > 7 || rnrRetryCount < 0 || rnrRetryCount > 7) {
            throw new IllegalArgumentException("retryCount and rnrRetryCount must be 0..7");
        }
    }
}
