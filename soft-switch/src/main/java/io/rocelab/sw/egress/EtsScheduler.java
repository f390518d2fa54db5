package io.rocelab.sw.egress;

import io.rocelab.sw.config.QueueConfig;

/**
 * The per-port transmission selection of IEEE 802.1Qaz: strict-priority queues first (the higher
 * queue index wins, as on SONiC switches), then deficit weighted round robin (Shreedhar and
 * Varghese) between the ETS queues, each getting bandwidth in proportion to its weight.
 *
 * <p>Queues are given as bit masks (bit q = queue q), read once per pick: which queues hold frames
 * and which of those may send now. Nothing changes during one pick, so the masks stand for the
 * eight per-queue questions that would otherwise be asked again on every round.
 */
public final class EtsScheduler {
    /** Deficit added per round for weight 1. */
    static final int QUANTUM_PER_WEIGHT = 256;

    /** Which queues may send now and how big their head frames are. */
    public interface Queues {
        /** @return bit q set if queue q has a frame and is not paused */
        int eligibleMask();

        /** @return bit q set if queue q has a frame (paused or not) */
        int nonEmptyMask();

        /** @return the size of queue {@code q}'s head frame */
        int headLength(int q);
    }

    private final int strictMask;
    private final int dwrrMask;
    /**
     * Queue q's deficit at [2q], its quantum (weight x {@value #QUANTUM_PER_WEIGHT}) at [2q + 1]:
     * side by side, so that a pick reads one cache line for both.
     */
    private final long[] state = new long[16];
    /** Bit q set: queue q's deficit may be non-zero (so an idle queue's reset touches only these). */
    private int credited;
    private int current;
    private boolean fresh = true;

    /** @param queues the eight queues' configurations */
    public EtsScheduler(QueueConfig[] queues) {
        int strict = 0;
        for (int q = 0; q < 8; q++) {
            if (queues[q].scheduler().strict()) {
                strict |= 1 << q;
            }
            state[2 * q + 1] = (long) queues[q].scheduler().weight() * QUANTUM_PER_WEIGHT;
        }
        strictMask = strict;
        dwrrMask = ~strict & 0xFF;
    }

    /** @return the queue to serve next, or -1 if none may send */
    public int pick(Queues queues) {
        int eligible = queues.eligibleMask();
        int strictReady = eligible & strictMask;
        if (strictReady != 0) {
            return 31 - Integer.numberOfLeadingZeros(strictReady);
        }
        resetIdle(queues.nonEmptyMask());
        int ready = eligible & dwrrMask;
        if (ready == 0) {
            return -1;
        }
        if ((ready & (ready - 1)) == 0) {
            int q = Integer.numberOfTrailingZeros(ready);
            return only(q, queues.headLength(q));
        }
        int moves = 0;
        while (true) {
            int q = current;
            if ((ready & (1 << q)) != 0) {
                if (fresh) {
                    state[2 * q] += state[2 * q + 1];
                    credited |= 1 << q;
                    fresh = false;
                }
                int len = queues.headLength(q);
                if (state[2 * q] >= len) {
                    state[2 * q] -= len;
                    return q;
                }
            }
            current = (current + 1) & 7;
            fresh = true;
            if (++moves == 8) {
                skipRoundsWithoutASender(queues, ready);
                moves = 0;
            }
        }
    }

    /**
     * The pick when queue {@code q} is the only queue holding a frame and may send, its head frame
     * {@code len} bytes long: what {@link #pick} returns ({@code q}) with the same state change,
     * without asking the queues. For a frame that reaches an idle port.
     */
    public int pickAlone(int q, int len) {
        if ((strictMask & (1 << q)) != 0) {
            return q;
        }
        resetIdle(1 << q);
        return only(q, len);
    }

    /** An ETS queue that went empty starts its next busy period without credit (DRR). */
    private void resetIdle(int nonEmpty) {
        int idle = dwrrMask & ~nonEmpty & credited;
        credited &= ~idle;
        while (idle != 0) {
            state[2 * Integer.numberOfTrailingZeros(idle)] = 0;
            idle &= idle - 1;
        }
    }

    /**
     * The one ETS queue that may send: plain DWRR would go round (other queues get no quantum while
     * they cannot send) until {@code q} has the deficit for its head frame. The quanta that takes
     * are added at once, and the state left behind (deficits, current queue, whether it has had
     * this round's quantum) is what going round one quantum at a time leaves. This is the usual
     * case: one class of traffic on a port.
     */
    private int only(int q, int len) {
        long d = state[2 * q];
        if (current != q || fresh) {
            // arriving at q starts a round for it
            d += state[2 * q + 1];
        }
        if (d < len) {
            // ceil(missing / (weight * 256)) as ceil(ceil(missing / 256) / weight): a shift, and a
            // division only for a weight above 1 (what is missing is less than a frame: an int)
            int units = ((int) (len - d) + QUANTUM_PER_WEIGHT - 1) / QUANTUM_PER_WEIGHT;
            int w = (int) (state[2 * q + 1] / QUANTUM_PER_WEIGHT);
            int quanta = w == 1 ? units : (units + w - 1) / w;
            d += (long) quanta * state[2 * q + 1];
        }
        current = q;
        fresh = false;
        state[2 * q] = d - len;
        credited |= 1 << q;
        return q;
    }

    /**
     * Called after a whole round in which no queue could send (every eligible queue has less
     * deficit than its head frame). Plain DWRR would now go round again and again, adding one
     * quantum per eligible queue per round (a 4 KB frame at weight 1 takes 17 rounds): instead the
     * rounds in which nobody can send yet are granted at once. The next round then serves the same
     * queue, with the same deficits, as going round one at a time would.
     */
    private void skipRoundsWithoutASender(Queues queues, int ready) {
        long rounds = Long.MAX_VALUE;
        for (int m = ready; m != 0; m &= m - 1) {
            int q = Integer.numberOfTrailingZeros(m);
            long missing = queues.headLength(q) - state[2 * q];
            rounds = Math.min(rounds, (missing + state[2 * q + 1] - 1) / state[2 * q + 1] - 1);
        }
        if (rounds > 0) {
            for (int m = ready; m != 0; m &= m - 1) {
                int q = Integer.numberOfTrailingZeros(m);
                state[2 * q] += rounds * state[2 * q + 1];
                credited |= 1 << q;
            }
        }
    }
}
