package io.rocelab.topology.workload;

/**
 * Live progress of one flow. Virtual time: read it on the thread that drives the run (between
 * events, e.g. in {@code Fabric.runUntil}'s condition). Real time: any thread; each figure is a
 * recent snapshot written by the source NIC's owner thread.
 */
public interface FlowProgress {
    /** @return bytes of the work requests completed successfully at the source */
    long bytesCompleted();

    /** @return messages completed successfully (their last work request) */
    long messagesCompleted();

    /** @return completions in error at the source, all statuses together */
    long errorCompletions();

    /**
     * @return the frame bytes the flow's QPs have put on the wire (for a READ flow its responders'
     *     READ responses), retransmissions included: what the flow offers the network, as opposed to
     *     {@link #bytesCompleted()}, which moves in whole work requests; -1 if unknown
     */
    default long bytesSent() {
        return -1;
    }

    /**
     * @return the sum over the flow's sending QPs of the rate their congestion control allows now
     *     (DCQCN's current rate Rc), bit/s; NaN when no congestion control runs or it is unknown
     */
    default double congestionRateBitsPerSecond() {
        return Double.NaN;
    }

    /** @return whether the flow has started */
    boolean started();

    /** @return whether it is over: its bound reached, stopped, or failed, and nothing outstanding */
    boolean finished();
}
