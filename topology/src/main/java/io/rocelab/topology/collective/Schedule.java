package io.rocelab.topology.collective;

import java.util.ArrayList;
import java.util.List;

/**
 * What each rank of a collective sends and receives, step by step, and what each step waits for.
 * The bytes moved and the order of the dependencies are the algorithm's; the reduction arithmetic
 * is not done (the buffers are scratch), since what the network sees is the same.
 *
 * <ul>
 *   <li>Ring all-reduce (NCCL's ring): 2(n-1) steps, each sending one share (size/n) to the next
 *       rank and receiving one from the previous: n-1 of reduce-scatter, then n-1 of all-gather.
 *       Step k forwards what arrived in step k-1 (rank r's step k sends the share it received,
 *       reduced, in step k-1): {@link Wait#PIECES}, a step sends no more bytes than have arrived of
 *       the step before, so the pieces flow through the ring as NCCL's chunks do.</li>
 *   <li>Ring all-gather and reduce-scatter: the n-1 steps of one half of the all-reduce.</li>
 *   <li>All-to-all: one step, a share to every other rank at once (n-1 transfers, started in the
 *       order r+1, r+2, ..., so that no rank is everyone's first), nothing to wait for.</li>
 *   <li>Halving-doubling all-reduce ({@link Algorithm#HALVING_DOUBLING}): 2 log2(n) pairwise
 *       exchanges, each waiting for the whole step before ({@link Wait#STEP}).</li>
 * </ul>
 */
public final class Schedule {
    /** What a step's sends wait for. */
    public enum Wait {
        /** Nothing: the first step, or all-to-all. */
        NONE,
        /** As many bytes of the step before as the step has sent (pipelined). */
        PIECES,
        /** The whole step before: every byte received and every send completed. */
        STEP
    }

    /**
     * One step of one rank.
     *
     * @param sendTo    the ranks it sends to, in the order it starts them
     * @param sendBytes what it sends to each
     * @param recvFrom  the ranks it receives from
     * @param recvBytes what it receives from each
     * @param waitsFor  what its sends wait for
     */
    public record Step(int[] sendTo, long[] sendBytes, int[] recvFrom, long[] recvBytes, Wait waitsFor) {
        /** @return the bytes it sends in all */
        public long sent() {
            long s = 0;
            for (long b : sendBytes) {
                s += b;
            }
            return s;
        }

        /** @return the bytes it receives in all */
        public long received() {
            long s = 0;
            for (long b : recvBytes) {
                s += b;
            }
            return s;
        }
    }

    private Schedule() {
    }

    /** @return rank {@code r}'s steps in {@code c} */
    public static List<Step> of(Collective c, int r) {
        int n = c.n();
        long seg = c.segmentBytes();
        List<Step> steps = new ArrayList<>();
        if (c.kind() == CollectiveKind.ALL_TO_ALL) {
            int[] peers = new int[n - 1];
            long[] bytes = new long[n - 1];
            int[] from = new int[n - 1];
            for (int i = 1; i < n; i++) {
                peers[i - 1] = (r + i) % n;
                from[i - 1] = (r - i + n) % n;
                bytes[i - 1] = seg;
            }
            steps.add(new Step(peers, bytes, from, bytes.clone(), Wait.NONE));
            return steps;
        }
        if (c.algorithm() == Algorithm.HALVING_DOUBLING) {
            int rounds = Integer.numberOfTrailingZeros(n);
            long half = seg * n;
            for (int k = 0; k < rounds; k++) {
                half /= 2;
                int partner = r ^ (n >> (k + 1));
                steps.add(pair(partner, half, k == 0 ? Wait.NONE : Wait.STEP));
            }
            for (int k = 0; k < rounds; k++) {
                int partner = r ^ (1 << k);
                steps.add(pair(partner, seg << k, Wait.STEP));
            }
            return steps;
        }
        int count = c.kind() == CollectiveKind.ALL_REDUCE ? 2 * (n - 1) : n - 1;
        for (int k = 0; k < count; k++) {
            steps.add(new Step(new int[] {(r + 1) % n}, new long[] {seg}, new int[] {(r - 1 + n) % n},
                new long[] {seg}, k == 0 ? Wait.NONE : Wait.PIECES));
        }
        return steps;
    }

    private static Step pair(int partner, long bytes, Wait wait) {
        return new Step(new int[] {partner}, new long[] {bytes}, new int[] {partner}, new long[] {bytes}, wait);
    }
}
