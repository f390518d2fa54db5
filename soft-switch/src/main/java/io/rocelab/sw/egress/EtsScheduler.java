package io.rocelab.sw.egress;

import io.rocelab.sw.config.QueueConfig;

/**
 * The per-port transmission selection of IEEE 802.1Qaz: strict-priority queues first (the higher
 * queue index wins, as on SONiC switches), then deficit weighted round robin (Shreedhar and
 * Varghese) between the ETS queues, each getting bandwidth in proportion to its weight.
 */
public final class EtsScheduler {
    /** Deficit added per round for weight 1. */
    static final int QUANTUM_PER_WEIGHT = 256;

    /** Which queues may send now and how big their head frames are. */
    public interface Queues {
        /** @return true if queue {@code q} has a frame and is not paused */
        boolean eligible(int q);

        /** @return the size of queue {@code q}'s head frame */
        int headLength(int q);

        /** @return true if queue {@code q} is empty */
        boolean isEmpty(int q);
    }

    private final boolean[] strict = new boolean[8];
    private final int[] quantum = new int[8];
    private final long[] deficit = new long[8];
    private int current;
    private boolean fresh = true;

    /** @param queues the eight queues' configurations */
    public EtsScheduler(QueueConfig[] queues) {
        for (int q = 0; q < 8; q++) {
            strict[q] = queues[q].scheduler().strict();
            quantum[q] = queues[q].scheduler().weight() * QUANTUM_PER_WEIGHT;
        }
    }

    /** @return the queue to serve next, or -1 if none may send */
    public int pick(Queues queues) {
        for (int q = 7; q >= 0; q--) {
            if (strict[q] && queues.eligible(q)) {
                return q;
            }
        }
        boolean any = false;
        for (int q = 0; q < 8; q++) {
            if (!strict[q]) {
                if (queues.eligible(q)) {
                    any = true;
                } else if (queues.isEmpty(q)) {
                    deficit[q] = 0;
                }
            }
        }
        if (!any) {
            return -1;
        }
        int moves = 0;
        while (true) {
            int q = current;
            if (!strict[q] && queues.eligible(q)) {
                if (fresh) {
                    deficit[q] += quantum[q];
                    fresh = false;
                }
                int len = queues.headLength(q);
                if (deficit[q] >= len) {
                    deficit[q] -= len;
                    return q;
                }
            }
            current = (current + 1) & 7;
            fresh = true;
            if (++moves == 8) {
                skipRoundsWithoutASender(queues);
                moves = 0;
            }
        }
    }

    /**
     * Called after a whole round in which no queue could send (every eligible queue has less
     * deficit than its head frame). Plain DWRR would now go round again and again, adding one
     * quantum per eligible queue per round (a 4 KB frame at weight 1 takes 17 rounds): instead the
     * rounds in which nobody can send yet are granted at once. The next round then serves the same
     * queue, with the same deficits, as going round one at a time would.
     */
    private void skipRoundsWithoutASender(Queues queues) {
        long rounds = Long.MAX_VALUE;
        for (int q = 0; q < 8; q++) {
            if (!strict[q] && queues.eligible(q)) {
                long missing = queues.headLength(q) - deficit[q];
                rounds = Math.min(rounds, (missing + quantum[q] - 1) / quantum[q] - 1);
            }
        }
        if (rounds > 0) {
            for (int q = 0; q < 8; q++) {
                if (!strict[q] && queues.eligible(q)) {
                    deficit[q] += rounds * quantum[q];
                }
            }
        }
    }
}
