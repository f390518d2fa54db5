package io.rocelab.sw.egress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rocelab.sw.config.QueueConfig;
import io.rocelab.sw.config.SchedulerConfig;
import java.util.ArrayDeque;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The ETS scheduler grants the DWRR rounds in which no queue can send all at once; it must pick
 * exactly what plain DWRR (Shreedhar and Varghese), going round one quantum at a time, picks.
 */
class EtsRoundSkipTest {

    /** Plain DWRR over the same queues: the reference. */
    private static final class PlainDwrr {
        private final boolean[] strict = new boolean[8];
        private final int[] quantum = new int[8];
        private final long[] deficit = new long[8];
        private int current;
        private boolean fresh = true;

        PlainDwrr(QueueConfig[] queues) {
            for (int q = 0; q < 8; q++) {
                strict[q] = queues[q].scheduler().strict();
                quantum[q] = queues[q].scheduler().weight() * EtsScheduler.QUANTUM_PER_WEIGHT;
            }
        }

        int pick(FakeQueues queues) {
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
            }
        }
    }

    /** Eight FIFOs of frame lengths, some paused. */
    private static final class FakeQueues implements EtsScheduler.Queues {
        @SuppressWarnings("unchecked")
        final ArrayDeque<Integer>[] fifo = new ArrayDeque[8];
        final boolean[] paused = new boolean[8];

        FakeQueues() {
            for (int q = 0; q < 8; q++) {
                fifo[q] = new ArrayDeque<>();
            }
        }

        boolean eligible(int q) {
            return !fifo[q].isEmpty() && !paused[q];
        }

        boolean isEmpty(int q) {
            return fifo[q].isEmpty();
        }

        @Override
        public int eligibleMask() {
            int m = 0;
            for (int q = 0; q < 8; q++) {
                m |= eligible(q) ? 1 << q : 0;
            }
            return m;
        }

        @Override
        public int nonEmptyMask() {
            int m = 0;
            for (int q = 0; q < 8; q++) {
                m |= isEmpty(q) ? 0 : 1 << q;
            }
            return m;
        }

        @Override
        public int headLength(int q) {
            return fifo[q].peek();
        }
    }

    @Property(tries = 300)
    void picksWhatPlainDwrrPicks(@ForAll long seed) {
        Random r = new Random(seed);
        QueueConfig[] configs = new QueueConfig[8];
        for (int q = 0; q < 8; q++) {
            boolean strict = r.nextInt(6) == 0;
            configs[q] = new QueueConfig(new SchedulerConfig("s" + q, strict, 1 + r.nextInt(r.nextBoolean() ? 3 : 100)),
                null, null);
        }
        EtsScheduler fast = new EtsScheduler(configs);
        PlainDwrr plain = new PlainDwrr(configs);
        FakeQueues queues = new FakeQueues();
        for (int step = 0; step < 2_000; step++) {
            int arrivals = r.nextInt(3);
            for (int a = 0; a < arrivals; a++) {
                int len = r.nextBoolean() ? 60 + r.nextInt(300) : 60 + r.nextInt(9_100);
                queues.fifo[r.nextInt(8)].add(len);
            }
            if (r.nextInt(10) == 0) {
                int q = r.nextInt(8);
                queues.paused[q] = !queues.paused[q];
            }
            int expected = plain.pick(queues);
            int got = fast.pick(queues);
            assertEquals(expected, got, "step " + step);
            if (got >= 0) {
                queues.fifo[got].poll();
            }
        }
    }

    /**
     * Mostly one ETS queue able to send at a time (the pick is sometimes made with
     * {@link EtsScheduler#pickAlone}, as for a frame reaching an idle port) (the others empty or paused, and the sender
     * changing now and then), which the scheduler serves without going round: the deficits it
     * leaves must still make every later pick the one plain DWRR makes.
     */
    @Property(tries = 300)
    void oneSenderAtATimePicksWhatPlainDwrrPicks(@ForAll long seed) {
        Random r = new Random(seed);
        QueueConfig[] configs = new QueueConfig[8];
        for (int q = 0; q < 8; q++) {
            configs[q] = new QueueConfig(new SchedulerConfig("s" + q, q == 7 && r.nextInt(4) == 0,
                1 + r.nextInt(r.nextBoolean() ? 3 : 100)), null, null);
        }
        EtsScheduler fast = new EtsScheduler(configs);
        PlainDwrr plain = new PlainDwrr(configs);
        FakeQueues queues = new FakeQueues();
        int sender = r.nextInt(8);
        for (int step = 0; step < 2_000; step++) {
            if (r.nextInt(50) == 0) {
                sender = r.nextInt(8);
            }
            if (r.nextInt(3) > 0) {
                int len = r.nextBoolean() ? 60 + r.nextInt(300) : 60 + r.nextInt(9_100);
                queues.fifo[r.nextInt(20) == 0 ? r.nextInt(8) : sender].add(len);
            }
            if (r.nextInt(20) == 0) {
                int q = r.nextInt(8);
                queues.paused[q] = !queues.paused[q];
            }
            int expected = plain.pick(queues);
            int nonEmpty = queues.nonEmptyMask();
            int got = Integer.bitCount(nonEmpty) == 1 && queues.eligibleMask() == nonEmpty && r.nextBoolean()
                ? fast.pickAlone(Integer.numberOfTrailingZeros(nonEmpty), queues.headLength(
                    Integer.numberOfTrailingZeros(nonEmpty)))
                : fast.pick(queues);
            assertEquals(expected, got, "step " + step);
            if (got >= 0) {
                queues.fifo[got].poll();
            }
        }
    }
}
