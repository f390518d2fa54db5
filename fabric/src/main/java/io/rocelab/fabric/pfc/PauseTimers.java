package io.rocelab.fabric.pfc;

import io.rocelab.codec.header.Pfc;
import java.util.Arrays;

/**
 * The pause state of a port's eight priorities as received PFC frames set it, with the port's
 * {@linkplain PauseResponse response time}: a priority is paused from {@code from} to
 * {@code until}.
 *
 * <ul>
 * <li>An XOFF (a non-zero pause time) for a priority that is not paused starts its pause timer at
 *     once, as IEEE 802.3 Annex 31B's MAC Control does on receipt ({@code until} = arrival + the
 *     pause time in quanta of 512 bit times), but the port acts on it only the response time
 *     later ({@code from} = arrival + response): frames that start before then still go out.
 *     A pause time no longer than the response time therefore holds nothing back.</li>
 * <li>An XOFF for a priority already paused, or whose pause is still to take effect, only
 *     reloads the timer ({@code until} = arrival + the new time): the port is already acting on
 *     it, so there is no second response delay.</li>
 * <li>An XON (a zero pause time) ends the pause at once, and cancels one still to take effect:
 *     the timer is set to zero, and a port that may send again has no reason to wait (the
 *     standard bounds only how late a port may stop, and resuming early never costs the
 *     receiver's headroom anything).</li>
 * </ul>
 *
 * <p>It also keeps the time each priority is paused, counted when a frame sets it and corrected
 * when a later frame cuts it short: what mlx5's {@code rx_prio<N>_pause_duration} counts. The
 * response time is not part of it.
 *
 * <p>Owner thread only; every time is the owner's scheduler's.
 */
public final class PauseTimers {
    private static final int PRIORITIES = Pfc.PRIORITIES;

    private final long bitsPerSecond;
    private final long responseNanos;
    private final long[] from = new long[PRIORITIES];
    private final long[] until = new long[PRIORITIES];
    private final long[] pausedNanos = new long[PRIORITIES];
    /** Latest {@code until} of any priority: from then on nothing is paused. */
    private long horizon = Long.MIN_VALUE;

    /**
     * @param bitsPerSecond the speed the pause quanta are counted at (512 bit times each)
     * @param responseNanos how long the port takes to stop once an XOFF arrived (0: at once)
     */
    public PauseTimers(long bitsPerSecond, long responseNanos) {
        if (bitsPerSecond < 0 || responseNanos < 0) {
            throw new IllegalArgumentException("bitsPerSecond and responseNanos must be >= 0: " + bitsPerSecond
                + ", " + responseNanos);
        }
        this.bitsPerSecond = bitsPerSecond;
        this.responseNanos = responseNanos;
        Arrays.fill(from, Long.MIN_VALUE);
        Arrays.fill(until, Long.MIN_VALUE);
    }

    /** @return how long the port takes to act on an XOFF */
    public long responseNanos() {
        return responseNanos;
    }

    /**
     * A PFC frame named priority {@code p} with pause time {@code quanta} at {@code now}.
     *
     * @return whether it ended a pause in effect (an XON while paused: a paused-to-resumed transition)
     */
    public boolean receive(int p, int quanta, long now) {
        boolean inEffect = paused(p, now);
        boolean pending = now < from[p] && from[p] < until[p];
        // what was counted ahead and will not happen now
        pausedNanos[p] -= ahead(p, now);
        if (quanta == 0) {
            from[p] = now;
            until[p] = now;
            return inEffect;
        }
        if (!inEffect && !pending) {
            from[p] = now + responseNanos;
        }
        until[p] = now + Pfc.quantaToNanos(quanta, bitsPerSecond);
        pausedNanos[p] += ahead(p, now);
        horizon = Math.max(horizon, until[p]);
        return false;
    }

    /** @return the part of priority {@code p}'s pause after {@code now} (compared first: the times may be far apart) */
    private long ahead(int p, long now) {
        long start = Math.max(from[p], now);
        return until[p] > start ? until[p] - start : 0;
    }

    /** @return whether priority {@code p} is held at {@code now} */
    public boolean paused(int p, long now) {
        return from[p] <= now && now < until[p];
    }

    /** @return bit p set for each priority held at {@code now} */
    public int pausedMask(long now) {
        if (now >= horizon) {
            return 0;
        }
        int mask = 0;
        for (int p = 0; p < PRIORITIES; p++) {
            if (from[p] <= now && now < until[p]) {
                mask |= 1 << p;
            }
        }
        return mask;
    }

    /** @return when priority {@code p}'s pause ends (in the past, or not after its start, if it is not paused) */
    public long resumesAt(int p) {
        return until[p];
    }

    /**
     * @return the time priority {@code p} has been paused, with the rest of a pause in effect or
     *         still to take effect counted already, in nanoseconds
     */
    public long pausedNanos(int p) {
        return pausedNanos[p];
    }
}
