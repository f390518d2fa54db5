package io.rocelab.nic.cm;

/**
 * What a side offers when it connects or accepts ({@code struct rdma_conn_param}).
 *
 * @param responderResources RDMA READ/atomic requests this side will answer at once (its max_dest_rd_atomic)
 * @param initiatorDepth     RDMA READ/atomic requests this side will have outstanding (its max_rd_atomic)
 * @param retryCount         transport retries (3 bits)
 * @param rnrRetryCount      RNR retries (3 bits, 7 = infinite)
 */
public record CmConnectParams(int responderResources, int initiatorDepth, int retryCount, int rnrRetryCount) {
    public CmConnectParams {
        if (responderResources < 0 || responderResources > 255 || initiatorDepth < 0 || initiatorDepth > 255) {
            throw new IllegalArgumentException("responderResources and initiatorDepth must be 0..255");
        }
        if (retryCount < 0 || retryCount > 7 || rnrRetryCount < 0 || rnrRetryCount > 7) {
            throw new IllegalArgumentException("retryCount and rnrRetryCount must be 0..7");
        }
    }
}
