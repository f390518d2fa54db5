package io.rocelab.topology.collective;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What each rank sends and receives, step by step, and what each step waits for. */
class ScheduleTest {
    private static Collective c(CollectiveKind kind, Algorithm algo, int n, long size) {
        List<String> ranks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ranks.add("h" + i);
        }
        return new Collective("c", kind, algo, ranks, size, 1, 0, 1, 65536, 8, 0, -1);
    }

    private static long sent(List<Schedule.Step> steps) {
        return steps.stream().mapToLong(Schedule.Step::sent).sum();
    }

    @Test
    void ringAllReduceIsTwoNMinusOneStepsOfAShareToTheNextRank() {
        Collective ar = c(CollectiveKind.ALL_REDUCE, Algorithm.RING, 8, 8L << 20);
        assertEquals(1L << 20, ar.segmentBytes());
        for (int r = 0; r < 8; r++) {
            List<Schedule.Step> steps = Schedule.of(ar, r);
            assertEquals(14, steps.size());
            for (int k = 0; k < 14; k++) {
                Schedule.Step s = steps.get(k);
                assertArrayEquals(new int[] {(r + 1) % 8}, s.sendTo());
                assertArrayEquals(new int[] {(r + 7) % 8}, s.recvFrom());
                assertEquals(1L << 20, s.sent());
                assertEquals(k == 0 ? Schedule.Wait.NONE : Schedule.Wait.PIECES, s.waitsFor());
            }
            assertEquals(2 * 7 * (1L << 20), sent(steps), "2(n-1)/n of the buffer");
        }
    }

    @Test
    void allGatherAndReduceScatterAreHalfTheRing() {
        for (CollectiveKind k : List.of(CollectiveKind.ALL_GATHER, CollectiveKind.REDUCE_SCATTER)) {
            List<Schedule.Step> steps = Schedule.of(c(k, Algorithm.RING, 4, 4096), 2);
            assertEquals(3, steps.size(), k.label());
            assertEquals(3 * 1024, sent(steps), k.label() + ": (n-1)/n of the buffer");
        }
    }

    @Test
    void allToAllSendsAShareToEveryOtherRankAtOnce() {
        List<Schedule.Step> steps = Schedule.of(c(CollectiveKind.ALL_TO_ALL, Algorithm.RING, 4, 4096), 1);
        assertEquals(1, steps.size());
        Schedule.Step s = steps.get(0);
        assertArrayEquals(new int[] {2, 3, 0}, s.sendTo(), "r+1, r+2, ... so no rank is everyone's first");
        assertArrayEquals(new int[] {0, 3, 2}, s.recvFrom());
        assertArrayEquals(new long[] {1024, 1024, 1024}, s.sendBytes());
        assertEquals(Schedule.Wait.NONE, s.waitsFor());
    }

    /** Recursive halving at distance n/2, n/4, ..., 1, then doubling back: halves, then doubles. */
    @Test
    void halvingDoublingPairsRanksAtHalvingThenDoublingDistances() {
        Collective hd = c(CollectiveKind.ALL_REDUCE, Algorithm.HALVING_DOUBLING, 8, 8L << 20);
        List<Schedule.Step> steps = Schedule.of(hd, 5);
        assertEquals(6, steps.size());
        int[] partners = {1, 7, 4, 4, 7, 1};
        long[] bytes = {4L << 20, 2L << 20, 1L << 20, 1L << 20, 2L << 20, 4L << 20};
        for (int k = 0; k < 6; k++) {
            assertArrayEquals(new int[] {partners[k]}, steps.get(k).sendTo(), "step " + k);
            assertArrayEquals(new int[] {partners[k]}, steps.get(k).recvFrom(), "step " + k);
            assertEquals(bytes[k], steps.get(k).sent(), "step " + k);
            assertEquals(k == 0 ? Schedule.Wait.NONE : Schedule.Wait.STEP, steps.get(k).waitsFor());
        }
        assertEquals(2 * 7 * (1L << 20), sent(steps), "the ring's bytes in 2 log2(n) steps");
    }

    @Test
    void theSizeIsRoundedToWholeFloatsPerRankAsNcclTestsCounts() {
        Collective ar = c(CollectiveKind.ALL_REDUCE, Algorithm.RING, 3, 1000);
        assertEquals(332, ar.segmentBytes(), "83 floats a rank");
        assertEquals(996, ar.effectiveBytes());
        assertEquals(249, CollectiveKind.ALL_REDUCE.count(996, 3), "all-reduce counts the whole buffer");
        assertEquals(83, CollectiveKind.ALL_GATHER.count(996, 3), "the others count per rank");
        assertEquals(2.0 * 2 / 3, CollectiveKind.ALL_REDUCE.busBwFactor(3), 1e-12);
        assertEquals(2.0 / 3, CollectiveKind.ALL_TO_ALL.busBwFactor(3), 1e-12);
    }
}
