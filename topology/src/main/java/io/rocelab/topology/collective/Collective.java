package io.rocelab.topology.collective;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * One collective operation run back to back: its ranks (hosts, in ring order), its buffer and how
 * its data is cut into work requests. Sizes mean what nccl-tests' {@code -b}/{@code -e} size means
 * for the operation ({@link CollectiveKind}); the buffer is taken as 4-byte floats, rounded down to a
 * whole number of elements per rank, as nccl-tests rounds its counts.
 *
 * @param name       unique among the workload's collectives
 * @param kind       what it computes
 * @param algorithm  how its data moves ({@link Algorithm#HALVING_DOUBLING}: all-reduce only)
 * @param ranks      its hosts, rank 0 first, each once, at least 2
 * @param sizeBytes  the buffer size per rank, nccl-tests' size
 * @param iterations timed iterations, back to back
 * @param warmup     iterations run before them and not counted (nccl-tests' {@code -w})
 * @param qps        RC QPs per peer connection (NCCL's {@code NCCL_IB_QPS_PER_CONNECTION}), a
 *                   step's work requests spread over them in turn
 * @param chunkBytes the largest work request a step is cut into
 * @param window     work requests outstanding per QP
 * @param startNanos when every rank starts the first iteration, from the start of the {@link Collectives}
 * @param dscp       the DSCP of its packets, or -1 for the fabric's RoCE DSCP
 */
public record Collective(String name, CollectiveKind kind, Algorithm algorithm, List<String> ranks, long sizeBytes,
                         int iterations, int warmup, int qps, int chunkBytes, int window, long startNanos, int dscp) {
    /** nccl-tests' default data type, float: 4 bytes an element. */
    public static final int ELEMENT_BYTES = 4;
    /** The largest work request: 1 MiB (the immediate names the step; the receive says the length). */
    public static final int MAX_CHUNK = 1 << 20;
    public static final int MAX_QPS = 64;
    public static final int MAX_WINDOW = 256;
    /** Defaults: NCCL's one QP per connection; 64 KiB work requests; 8 outstanding per QP. */
    public static final int DEFAULT_QPS = 1;
    public static final int DEFAULT_CHUNK = 64 * 1024;
    public static final int DEFAULT_WINDOW = 8;

    /** @throws IllegalArgumentException with one line per bad field */
    public Collective {
        ranks = List.copyOf(ranks);
        List<String> p = problems(kind, algorithm, ranks, sizeBytes, iterations, warmup, qps, chunkBytes, window,
            startNanos, dscp);
        if (!p.isEmpty()) {
            throw new IllegalArgumentException("collective '" + name + "': " + String.join("; ", p));
        }
    }

    /** @return what is wrong with these fields, one line each (empty: nothing) */
    public static List<String> problems(CollectiveKind kind, Algorithm algorithm, List<String> ranks, long sizeBytes,
                                        int iterations, int warmup, int qps, int chunkBytes, int window,
                                        long startNanos, int dscp) {
        List<String> p = new ArrayList<>();
        int n = ranks.size();
        if (n < 2) {
            p.add("a collective needs at least 2 ranks");
        }
        if (new HashSet<>(ranks).size() != n) {
            p.add("a host is a rank twice");
        }
        if (algorithm == Algorithm.HALVING_DOUBLING && kind != CollectiveKind.ALL_REDUCE) {
            p.add("halving-doubling is an all-reduce algorithm");
        }
        if (algorithm == Algorithm.HALVING_DOUBLING && n >= 2 && Integer.bitCount(n) != 1) {
            p.add("halving-doubling needs a power of two of ranks, not " + n);
        }
        if (n >= 2 && sizeBytes / ((long) ELEMENT_BYTES * n) < 1) {
            p.add("size must be at least 4 bytes (one float) per rank: " + (ELEMENT_BYTES * n) + " B for " + n
                + " ranks");
        }
        if (iterations < 1) {
            p.add("iterations must be at least 1");
        }
        if (warmup < 0) {
            p.add("warmup must be 0 or more");
        }
        if (qps < 1 || qps > MAX_QPS) {
            p.add("qps must be 1.." + MAX_QPS);
        }
        if (chunkBytes < 1 || chunkBytes > MAX_CHUNK) {
            p.add("chunk must be 1 B..1 MiB");
        }
        if (window < 1 || window > MAX_WINDOW) {
            p.add("window must be 1.." + MAX_WINDOW);
        }
        if (startNanos < 0) {
            p.add("start must be 0 or later");
        }
        if (dscp < -1 || dscp > 63) {
            p.add("dscp must be 0..63");
        }
        return p;
    }

    /** @return the number of ranks */
    public int n() {
        return ranks.size();
    }

    /** @return the bytes each rank's share (a ring step) holds: the buffer's elements split evenly */
    public long segmentBytes() {
        return sizeBytes / ((long) ELEMENT_BYTES * n()) * ELEMENT_BYTES;
    }

    /** @return the size nccl-tests prints and algbw divides: the buffer rounded to whole shares */
    public long effectiveBytes() {
        return segmentBytes() * n();
    }
}
