package io.rocelab.lab.labfile;

/**
 * One flow of a lab, after an entry of {@code flows:} was expanded over its sources: what the
 * workload engine's {@code Flow} is built from.
 *
 * @param name            unique flow name ({@code incast-h3}: the entry's name and the source when the
 *                        entry has several sources, else the entry's name; {@code h3-h0} by default)
 * @param group           the entry's name (its flows share it)
 * @param source          source host
 * @param destination     destination host
 * @param verb            write, read, send or ud-send
 * @param sizeBytes       fixed message size, or 0 when {@code sizeCdf} gives them
 * @param sizeCdf         a CDF file's path as written (relative to the lab file), or null
 * @param messages        messages to complete, 0 for unbounded
 * @param durationNanos   time to keep posting, 0 for unbounded
 * @param qps             QPs
 * @param window          messages outstanding per QP
 * @param startNanos      start time, {@link Long#MAX_VALUE} to wait for a {@code flow-start} event
 * @param stopNanos       stop time, {@link Long#MAX_VALUE} for none
 * @param rateBitsPerSecond rate cap, 0 for none
 * @param dscp            DSCP, -1 for the fabric's RoCE DSCP
 * @param ackTimeout      IBA ACK timeout exponent
 * @param retryCount      retry count
 * @param rnrRetry        RNR retry count
 * @param reconnectNanos  0, or: connected through rdma_cm and reconnected this long after an error
 * @param altPort         0, or the source's port of the flow's alternate path ({@code alt-path.port})
 * @param altRemotePort   the destination's port the alternate path goes to ({@code alt-path.remote-port})
 * @param altAckTimeout   the ACK timeout on the alternate path, -1 for the flow's
 * @param verify          whether the flow's bytes are checked ({@code verify: true})
 * @param loc             where the entry is
 * @param path            the entry's key path
 */
public record FlowSpec(String name, String group, String source, String destination, String verb, long sizeBytes,
                       String sizeCdf, long messages, long durationNanos, int qps, int window, long startNanos,
                       long stopNanos, long rateBitsPerSecond, int dscp, int ackTimeout, int retryCount, int rnrRetry,
                       long reconnectNanos, int altPort, int altRemotePort, int altAckTimeout, boolean verify,
                       Loc loc, String path) {
    /** @return whether the flow has an alternate path */
    public boolean hasAltPath() {
        return altPort > 0;
    }
}
