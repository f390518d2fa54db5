package io.rocelab.nic.cc;

/**
 * No congestion control ({@code none}): the QP always sends at the line rate and ignores CNPs, as a
 * ConnectX port with DCQCN disabled for the priority does (it counts them, {@code rp_cnp_ignored}).
 */
public final class NoCongestionControl implements CongestionControl {
    private final double lineRate;

    public NoCongestionControl(double lineRateBitsPerSecond) {
        this.lineRate = lineRateBitsPerSecond;
    }

    @Override
    public String name() {
        return "none";
    }

    @Override
    public double rateBitsPerSecond() {
        return lineRate;
    }

    @Override
    public boolean onCnp(long nowNanos) {
        return false;
    }

    @Override
    public void onBytesSent(long nowNanos, int bytes) {
        // nothing to track
    }

    @Override
    public long nextTimerNanos() {
        return NEVER;
    }

    @Override
    public void onTimer(long nowNanos) {
        // no timers
    }
}
