package io.rocelab.perftest;

/**
 * perftest's {@code --rate_limit_type}: who holds a bandwidth test to its {@code --rate_limit}.
 *
 * <ul>
 *   <li>{@link #HW}: the NIC. perftest 4.5 asks for the InfiniBand static rate of the QPs' address
 *       vector ({@code ah_attr.static_rate}), so on real hardware the rate must be one of the IB
 *       rates (2.5, 5, 10, ... Gb/s), and on a RoCE port perftest falls back to {@link #SW}.
 *       rocelab's NIC paces each QP at any rate ({@code QueuePair.setRateLimit}, packet by
 *       packet).</li>
 *   <li>{@link #SW}: perftest's send loop posts {@code --burst_size} messages, then waits until the
 *       next burst is due ({@code run_iter_bw}); bandwidth tests only, not atomic or bidirectional
 *       send.</li>
 *   <li>{@link #PP}: packet pacing, the rate given to the QP itself ({@code IBV_QP_RATE_LIMIT},
 *       in kb/s); perftest allows it on Raw Ethernet QPs only. rocelab treats it as {@link #HW}:
 *       the same per-QP pacer, on any QP, with perftest's PP unit conversion.</li>
 * </ul>
 */
public enum RateLimitType {
    HW,
    SW,
    PP;

    /** The limiter paces the QPs on the NIC (HW and PP), rather than the posts of the send loop. */
    public boolean onNic() {
        return this != SW;
    }
}
