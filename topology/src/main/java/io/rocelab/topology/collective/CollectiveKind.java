package io.rocelab.topology.collective;

import java.util.Locale;

/**
 * What a collective computes, and how nccl-tests reports it. The bus bandwidth factors are
 * nccl-tests' ({@code doc/PERFORMANCE.md}, "Summary"): busbw = algbw x factor, so that a
 * collective's busbw compares with a rank's link rate whatever the number of ranks.
 */
public enum CollectiveKind {
    /** Every rank ends with the sum of every rank's buffer: reduce-scatter, then all-gather. */
    ALL_REDUCE("all-reduce", "sum", true),
    /** Every rank ends with every rank's share: {@code size} is the gathered buffer. */
    ALL_GATHER("all-gather", "none", false),
    /** Every rank ends with its share of the sum: {@code size} is the buffer reduced. */
    REDUCE_SCATTER("reduce-scatter", "sum", false),
    /** Every rank sends a share of its buffer to every other (an MoE layer's exchange). */
    ALL_TO_ALL("all-to-all", "none", false);

    private final String label;
    private final String redop;
    private final boolean wholeCount;

    CollectiveKind(String label, String redop, boolean wholeCount) {
        this.label = label;
        this.redop = redop;
        this.wholeCount = wholeCount;
    }

    /** @return the lab file's name: {@code all-reduce} */
    public String label() {
        return label;
    }

    /** @return the kind named {@code label} ({@code all-reduce}, ...), or null */
    public static CollectiveKind of(String label) {
        for (CollectiveKind k : values()) {
            if (k.label.equals(label.toLowerCase(Locale.ROOT))) {
                return k;
            }
        }
        return null;
    }

    /**
     * nccl-tests' bus bandwidth factor for {@code n} ranks: all-reduce 2(n-1)/n, all-gather,
     * reduce-scatter and all-to-all (n-1)/n.
     */
    public double busBwFactor(int n) {
        return this == ALL_REDUCE ? 2.0 * (n - 1) / n : (double) (n - 1) / n;
    }

    /** @return nccl-tests' {@code redop} column: {@code sum} for the reductions, {@code none} else */
    public String redop() {
        return redop;
    }

    /**
     * nccl-tests' {@code count} column, elements of 4-byte floats: all-reduce counts the whole
     * buffer, the others the count per rank (all_gather's {@code sendcount}, reduce_scatter's
     * {@code recvcount}, alltoall's count per peer).
     */
    public long count(long sizeBytes, int n) {
        long elements = sizeBytes / Collective.ELEMENT_BYTES;
        return wholeCount ? elements : elements / n;
    }
}
