package io.rocelab.nic.egress;

import io.rocelab.nic.stats.NicCounter;

/** The per-priority PFC counters of {@link NicCounter}, by priority. */
public final class PfcCounters {
    private static final NicCounter[] RX_PAUSE = byPriority("RX_PRIO%d_PAUSE");
    private static final NicCounter[] RX_PAUSE_DURATION = byPriority("RX_PRIO%d_PAUSE_DURATION");
    private static final NicCounter[] RX_PAUSE_TRANSITION = byPriority("RX_PRIO%d_PAUSE_TRANSITION");
    private static final NicCounter[] TX_PAUSE = byPriority("TX_PRIO%d_PAUSE");

    private PfcCounters() {
    }

    private static NicCounter[] byPriority(String pattern) {
        NicCounter[] c = new NicCounter[8];
        for (int p = 0; p < 8; p++) {
            c[p] = NicCounter.valueOf(String.format(pattern, p));
        }
        return c;
    }

    /**
     * {@code rx_prio<p>_pause}: PFC frames received naming priority p, XOFF or XON (a frame with a
     * zero time is a pause frame too, as 802.3 counts them and SONiC's {@code show pfc counters} does;
     * {@link #rxTransition} tells the resumes that ended a pause apart).
     */
    static NicCounter rxPause(int p) {
        return RX_PAUSE[p];
    }

    /** {@code rx_prio<p>_pause_duration}: microseconds priority p was paused. */
    static NicCounter rxPauseDuration(int p) {
        return RX_PAUSE_DURATION[p];
    }

    /** {@code rx_prio<p>_pause_transition}: times priority p went from paused to resumed by an XON. */
    static NicCounter rxTransition(int p) {
        return RX_PAUSE_TRANSITION[p];
    }

    /** {@code tx_prio<p>_pause}: PFC frames sent naming priority p, XOFF or XON. */
    public static NicCounter txPause(int p) {
        return TX_PAUSE[p];
    }
}
