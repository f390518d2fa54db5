package io.rocelab.topology.collective;

import java.util.Locale;

/** How a collective's data moves between its ranks ({@link Schedule}). */
public enum Algorithm {
    /**
     * NCCL's ring: the ranks in a ring, each sending only to the next; a step forwards what arrived
     * in the step before, piece by piece (all-to-all, which has no ring, sends to every peer at once).
     */
    RING("ring"),
    /**
     * All-reduce by recursive halving then recursive doubling (Rabenseifner's algorithm: Thakur,
     * Rabenseifner and Gropp, "Optimization of Collective Communication Operations in MPICH", 2005):
     * log2(n) reduce-scatter steps with the partner at distance n/2, n/4, ..., 1 and half the data
     * each time, then log2(n) all-gather steps back out; the same bytes per rank as the ring in
     * 2 log2(n) steps instead of 2(n-1), each step a pairwise exchange, each waiting for the whole
     * step before. A power of two of ranks.
     */
    HALVING_DOUBLING("halving-doubling");

    private final String label;

    Algorithm(String label) {
        this.label = label;
    }

    /** @return the lab file's name */
    public String label() {
        return label;
    }

    /** @return the algorithm named {@code label}, or null */
    public static Algorithm of(String label) {
        for (Algorithm a : values()) {
            if (a.label.equals(label.toLowerCase(Locale.ROOT))) {
                return a;
            }
        }
        return null;
    }
}
