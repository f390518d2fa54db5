package io.rocelab.perftest.nic;

import io.rocelab.perftest.RateLimit;

/**
 * perftest's SW rate limiter ({@code --rate_limit_type SW}, {@code run_iter_bw}): the send loop
 * posts {@code --burst_size} messages back to back, then posts nothing until the next burst is
 * due, one burst every {@code burst / rate} seconds, the rate in messages per second for the
 * message size ({@link RateLimit#messagesPerSecond}). Each burst is due one gap after the one
 * before it was due, as perftest since 4.5 counts it (4.5 itself counted from when the burst
 * began, so a late loop lost the time for good): a loop held up catches up. The burst counts posts
 * over all QPs, as perftest's does. Time is passed in; the owner is the send loop's thread.
 */
final class SwRateLimiter {
    private final int burst;
    private final long gapNanos;
    private long dueAt;
    private boolean started;
    private boolean sending;
    private int posted;

    /**
     * @param limit the run's rate limit, SW
     * @param size  the message size of this run
     */
    SwRateLimiter(RateLimit limit, long size) {
        if (limit.type().onNic()) {
            throw new IllegalArgumentException("not the SW limiter: " + limit);
        }
        this.burst = Math.max(1, limit.burstSize());
        double gap = burst / limit.messagesPerSecond(size) * 1e9;
        this.gapNanos = gap >= Long.MAX_VALUE / 4 ? Long.MAX_VALUE / 4 : Math.max(1, (long) gap);
    }

    /** Time between the starts of two bursts, in nanoseconds. */
    long gapNanos() {
        return gapNanos;
    }

    /**
     * Whether the loop may post now: inside a burst, or when the next one is due (which starts it).
     * The first call starts the first burst.
     */
    boolean mayPost(long nowNanos) {
        if (sending) {
            return true;
        }
        if (!started) {
            started = true;
            dueAt = nowNanos;
        }
        if (nowNanos < dueAt) {
            return false;
        }
        dueAt += gapNanos;
        sending = true;
        posted = 0;
        return true;
    }

    /** {@code n} messages were posted; the burst ends once it holds {@code --burst_size}. */
    void posted(int n) {
        posted += n;
        if (posted >= burst) {
            sending = false;
        }
    }

    /** Whether a burst is being posted. */
    boolean sending() {
        return sending;
    }

    /** When the next burst is due (after {@link #mayPost} has started one). */
    long nextBurstAtNanos() {
        return dueAt;
    }
}
