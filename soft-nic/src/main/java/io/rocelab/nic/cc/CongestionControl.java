package io.rocelab.nic.cc;

/**
 * The sender side of a QP's congestion control (its reaction point): what the NIC tells it, and the
 * rate it gives back, which sets the QP's next send time in the NIC's transmitter.
 *
 * <p>Time is passed in, never read: the same algorithm runs in virtual time, in real time and in
 * {@code rocelab dcqcn replay}. The algorithm asks for no timer of its own either; it names its
 * next deadline ({@link #nextTimerNanos()}) and the QP keeps one timer at that time, re-armed only
 * when the deadline moves earlier (as {@code Completer.armAckTimer} keeps the ACK timer).
 *
 * <p>Threading: the QP's owner thread (the NIC's) only.
 */
public interface CongestionControl {
    /** No deadline: {@link #nextTimerNanos()} when no timer runs. */
    long NEVER = Long.MAX_VALUE;

    /** @return the algorithm's name as the command line takes it, e.g. {@code dcqcn} */
    String name();

    /** @return the rate the QP may send at now, in bit/s; the line rate when unconstrained */
    double rateBitsPerSecond();

    /**
     * A congestion notification packet arrived for this QP.
     *
     * @return true if the algorithm acted on it ({@code rp_cnp_handled}), false if it ignores CNPs
     *     ({@code rp_cnp_ignored})
     */
    boolean onCnp(long nowNanos);

    /** The QP sent a packet of {@code bytes} (frame bytes) at {@code nowNanos}. */
    void onBytesSent(long nowNanos, int bytes);

    /** @return when {@link #onTimer} is next due, or {@link #NEVER} */
    long nextTimerNanos();

    /** Applies every timer event due at or before {@code nowNanos}, in time order. */
    void onTimer(long nowNanos);

    /** Makes congestion control for one QP. */
    @FunctionalInterface
    interface Factory {
        /**
         * @param lineRateBitsPerSecond the speed of the NIC's port: the rate a QP starts at and
         *                              returns to
         */
        CongestionControl newInstance(double lineRateBitsPerSecond);
    }
}
