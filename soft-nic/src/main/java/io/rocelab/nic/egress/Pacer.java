package io.rocelab.nic.egress;

/**
 * A QP's next send time: its rate (the lower of its congestion control's rate and its own rate
 * limit) spread over the packets it sends, as a ConnectX NIC's per-QP packet pacing does. Virtual
 * scheduling (the GCRA of ATM's traffic shaping): each packet pushes a theoretical send time on by
 * its serialization time at the rate; a packet may go once that time, less the burst allowance,
 * has come. Time is passed in.
 */
public final class Pacer {
    private static final double NANOS_PER_SECOND = 1e9;

    /** The theoretical time the next packet is due, in (fractional) nanoseconds. */
    private double dueAt = Double.NEGATIVE_INFINITY;
    /** How far ahead of its due time a packet may go: the burst, in nanoseconds at the rate. */
    private double toleranceNanos;
    private long burstBytes;

    /** @param burstBytes bytes that may go back to back at the line rate before pacing starts */
    public void burst(long burstBytes) {
        this.burstBytes = Math.max(0, burstBytes);
    }

    /**
     * @return the earliest time the next packet may go (a time in the past when it may go now)
     */
    public long readyAtNanos() {
        double at = dueAt - toleranceNanos;
        return at == Double.NEGATIVE_INFINITY ? Long.MIN_VALUE : (long) Math.ceil(at);
    }

    /**
     * A packet of {@code wireBytes} left at {@code nowNanos} at {@code rateBitsPerSecond}; a rate at
     * or above the line rate ({@code lineRateBitsPerSecond}, 0 for an unlimited line) paces nothing.
     */
    public void sent(long nowNanos, int wireBytes, double rateBitsPerSecond, double lineRateBitsPerSecond) {
        if (rateBitsPerSecond <= 0 || lineRateBitsPerSecond > 0 && rateBitsPerSecond >= lineRateBitsPerSecond) {
            dueAt = Double.NEGATIVE_INFINITY;
            return;
        }
        double nanosPerByte = 8 * NANOS_PER_SECOND / rateBitsPerSecond;
        toleranceNanos = burstBytes * nanosPerByte;
        dueAt = Math.max(dueAt, nowNanos) + wireBytes * nanosPerByte;
    }

    /**
     * The rate changed from {@code oldRate} to {@code newRate} (bit/s) while a packet's pacing time
     * was still to come: the wait left is stretched or shrunk to what the new rate gives, so a QP
     * whose rate recovers does not sit out a wait computed at the rate of its deepest cut.
     */
    public void rateChanged(long nowNanos, double oldRate, double newRate) {
        if (dueAt > nowNanos && oldRate > 0 && newRate > 0) {
            dueAt = nowNanos + (dueAt - nowNanos) * oldRate / newRate;
            toleranceNanos = toleranceNanos * oldRate / newRate;
        }
    }

    /** Forgets the history (the QP was reset). */
    public void reset() {
        dueAt = Double.NEGATIVE_INFINITY;
    }
}
