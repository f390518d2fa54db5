package io.rocelab.topology.workload;

import java.util.Arrays;

/**
 * Per-message latencies summarised as percentiles: the first {@value #EXACT} samples are kept as
 * they are (exact percentiles for short flows); after that a log-linear histogram with
 * {@value #SUB_BUCKETS} buckets per power of two (each bucket reported at its middle, within 1/64 of
 * any value in it). The maximum is exact. No allocation per sample once the histogram exists.
 */
final class LatencySummary {
    static final int EXACT = 64;
    private static final int SUB_BITS = 6;
    static final int SUB_BUCKETS = 1 << SUB_BITS;

    private long[] exact = new long[8];
    private int n;
    private long[] buckets;
    private long count;
    private long max = -1;

    void record(long nanos) {
        long v = Math.max(0, nanos);
        max = Math.max(max, v);
        count++;
        if (buckets == null) {
            if (n == exact.length) {
                if (n == EXACT) {
                    buckets = new long[bucket(Long.MAX_VALUE) + 1];
                    for (int i = 0; i < n; i++) {
                        buckets[bucket(exact[i])]++;
                    }
                    exact = null;
                    buckets[bucket(v)]++;
                    return;
                }
                exact = Arrays.copyOf(exact, Math.min(EXACT, n * 2));
            }
            exact[n++] = v;
            return;
        }
        buckets[bucket(v)]++;
    }

    long count() {
        return count;
    }

    long max() {
        return max;
    }

    /** @return the value at quantile {@code q} (0..1), -1 without samples */
    long quantile(double q) {
        if (count == 0) {
            return -1;
        }
        long rank = Math.max(1, (long) Math.ceil(q * count)); // the rank-th smallest, 1-based
        if (buckets == null) {
            long[] sorted = Arrays.copyOf(exact, n);
            Arrays.sort(sorted);
            return sorted[(int) rank - 1];
        }
        long seen = 0;
        for (int b = 0; b < buckets.length; b++) {
            seen += buckets[b];
            if (seen >= rank) {
                return Math.min(max, middle(b));
            }
        }
        return max;
    }

    /** Values below {@value #SUB_BUCKETS} have a bucket each; above, SUB_BUCKETS / 2 per power of two. */
    static int bucket(long v) {
        if (v < SUB_BUCKETS) {
            return (int) v;
        }
        int exp = 63 - Long.numberOfLeadingZeros(v); // >= SUB_BITS
        int shift = exp - SUB_BITS + 1;
        int sub = (int) (v >>> shift); // SUB_BUCKETS/2 .. SUB_BUCKETS-1
        return SUB_BUCKETS + (shift - 1) * (SUB_BUCKETS / 2) + (sub - SUB_BUCKETS / 2);
    }

    /** The middle of bucket {@code b}. */
    static long middle(int b) {
        if (b < SUB_BUCKETS) {
            return b;
        }
        int i = b - SUB_BUCKETS;
        int shift = i / (SUB_BUCKETS / 2) + 1;
        long sub = i % (SUB_BUCKETS / 2) + SUB_BUCKETS / 2;
        long low = sub << shift;
        return low + (1L << shift) / 2;
    }
}
