package io.rocelab.perftest.nic;

import io.rocelab.nic.CompletionQueue;
import io.rocelab.nic.QueuePair;
import io.rocelab.nic.SendWr;
import io.rocelab.perftest.cli.PerftestOptions;
import io.rocelab.perftest.report.BwMeasurement;
import java.util.function.Consumer;

/**
 * When a bandwidth send loop ends and what it measures: after {@code -n} iterations per QP, with
 * the post and completion time of every WR ({@link Iterations}), or after a {@code -D} window,
 * counting completions ({@link Duration}; with {@code --run_infinitely} one window after another,
 * forever). {@link BandwidthRun} has the one loop; these are its end conditions, asked at each
 * step: whether a QP may post, which WRs are signalled, what a completion counts for.
 */
abstract class BwEnd {
    final long size;
    final int cqMod;
    final int postList;

    private BwEnd(long size, PerftestOptions o) {
        this.size = size;
        this.cqMod = Math.max(1, o.cqModeration());
        this.postList = Math.max(1, o.postList());
    }

    /** {@code -n}: {@code o.iterations()} WRs per QP of {@code qps}. */
    static BwEnd iterations(long size, PerftestOptions o, int qps) {
        return new Iterations(size, o, qps);
    }

    /**
     * {@code -D} and {@code --run_infinitely}: posts without an iteration limit; after the
     * {@code --margin} warm-up, counts completions over each {@code -D} window.
     *
     * @param eachPeriod null for one {@code -D} window; else called once per window, forever
     */
    static BwEnd duration(long size, PerftestOptions o, Consumer<BwMeasurement> eachPeriod) {
        return new Duration(size, o, eachPeriod);
    }

    // ---- the loop on the NIC's thread ----

    /** The send loop to run on the NIC's thread. */
    abstract OwnerThreadSendLoop ownerThreadLoop(QueuePair[] qps, CompletionQueue cq, SendWr[][] wrs, int txDepth,
                                                 int postList, int cqMod, OwnerThreadSendLoop.Checker checker);

    /** Starts {@code loop} on the NIC's thread and waits, on this one, for what it measures. */
    abstract BwMeasurement onOwnerThread(BandwidthRun run, OwnerThreadSendLoop loop) throws Exception;

    // ---- the loop on this thread (bidirectional send) ----

    /** Before the first step. */
    void begin(BandwidthRun.Counts c) {
    }

    /** Whether the loop is over (asked before each step and after its polls). */
    abstract boolean done(BandwidthRun.Counts c);

    /** At the start of each step, before posting. */
    void beforePosting(BandwidthRun.Counts c) {
    }

    /** Whether QP {@code qp}, with room in its TX depth, may post another batch. */
    abstract boolean mayPost(BandwidthRun.Counts c, int qp);

    /** Whether the QP's WR number {@code s} is signalled. */
    abstract boolean signaled(long s);

    /** Just before a batch is posted. */
    void posting(BandwidthRun.Counts c) {
    }

    /** Whether this step polls the send CQ. */
    abstract boolean pollsSends(BandwidthRun.Counts c);

    /** The posted count an error completion of QP {@code qp} names. */
    abstract long postedForCheck(BandwidthRun.Counts c, int qp);

    /** A signalled completion of QP {@code qp} at {@code now}: how many WRs it completes. */
    abstract long completing(BandwidthRun.Counts c, int qp, long now);

    /** Whether this step polls the receive CQ. */
    abstract boolean pollsReceives(BandwidthRun.Counts c);

    /** The posted count an error receive completion names. */
    abstract long postedForReceiveCheck(BandwidthRun.Counts c);

    /** Whether an idle step sleeps on the send CQ (else it spins, yields, parks briefly). */
    abstract boolean awaitsSends(BandwidthRun.Counts c);

    /** What the loop measured, once {@link #done}. */
    abstract BwMeasurement result(BandwidthRun.Counts c);

    /**
     * {@code -n}: each QP posts its iterations, the last one signalled; every WR's post and
     * completion time is kept (the first post and the last completion only with {@code -N}).
     */
    private static final class Iterations extends BwEnd {
        private final int n;
        private final long iters;
        private final long total;
        private final boolean noPeak;
        private final long[] posted;
        private final long[] completed;

        Iterations(long size, PerftestOptions o, int qps) {
            super(size, o);
            this.n = qps;
            this.iters = o.iterations();
            this.total = iters * qps;
            this.noPeak = o.noPeak();
            this.posted = new long[noPeak ? 1 : (int) total];
            this.completed = new long[noPeak ? 1 : (int) total];
        }

        @Override
        OwnerThreadSendLoop ownerThreadLoop(QueuePair[] qps, CompletionQueue cq, SendWr[][] wrs, int txDepth,
                                            int postList, int cqMod, OwnerThreadSendLoop.Checker checker) {
            return new OwnerThreadSendLoop(qps, cq, wrs, txDepth, postList, cqMod, checker, iters, posted, completed,
                    noPeak);
        }

        @Override
        BwMeasurement onOwnerThread(BandwidthRun run, OwnerThreadSendLoop loop) throws Exception {
            run.runOnNicThread(loop);
            run.awaitEnd(loop, false);
            return measurement();
        }

        @Override
        boolean done(BandwidthRun.Counts c) {
            return !(c.totS < total || c.totC < total || c.totR < total);
        }

        @Override
        boolean mayPost(BandwidthRun.Counts c, int qp) {
            return c.scnt[qp] < iters;
        }

        @Override
        boolean signaled(long s) {
            return s % cqMod == cqMod - 1 || s == iters - 1;
        }

        @Override
        void posting(BandwidthRun.Counts c) {
            long now = System.nanoTime();
            if (!noPeak) {
                posted[(int) c.totS] = now;
            } else if (c.totS == 0) {
                posted[0] = now;
            }
        }

        @Override
        boolean pollsSends(BandwidthRun.Counts c) {
            return c.totC < total;
        }

        @Override
        long postedForCheck(BandwidthRun.Counts c, int qp) {
            return c.totS;
        }

        @Override
        long completing(BandwidthRun.Counts c, int qp, long now) {
            // one signalled WR per -Q, and the last one, which may close a shorter group
            long add = Math.min(cqMod, iters - c.ccnt[qp]);
            if (!noPeak) {
                // a signalled completion also completes the unsignalled WRs before it
                java.util.Arrays.fill(completed, (int) c.totC, (int) (c.totC + add), now);
            } else if (c.totC + add == total) {
                completed[0] = now;
            }
            return add;
        }

        @Override
        boolean pollsReceives(BandwidthRun.Counts c) {
            return c.totR < total;
        }

        @Override
        long postedForReceiveCheck(BandwidthRun.Counts c) {
            return c.totS;
        }

        @Override
        boolean awaitsSends(BandwidthRun.Counts c) {
            return c.totC < total;
        }

        @Override
        BwMeasurement result(BandwidthRun.Counts c) {
            return measurement();
        }

        private BwMeasurement measurement() {
            return new BwMeasurement(size, iters, n, postList, cqMod, noPeak, false, 1, posted, completed,
                    BandwidthRun.NS_PER_SECOND);
        }
    }

    /**
     * {@code -D} (one window after the {@code --margin} warm-up; then the send loop on the NIC's
     * thread stops posting at the next signalled WR and drains, the loop on this thread simply ends) and {@code --run_infinitely} (window after window from the
     * start, each handed on).
     */
    private static final class Duration extends BwEnd {
        private final Consumer<BwMeasurement> eachPeriod;
        private final long window;
        private final long margin;
        private long sampleStart;
        private long sampleEnd;
        private boolean sampling;
        private long c0;
        private long t0;
        private boolean stopping;
        private BwMeasurement result;

        Duration(long size, PerftestOptions o, Consumer<BwMeasurement> eachPeriod) {
            super(size, o);
            this.eachPeriod = eachPeriod;
            this.window = o.durationSeconds() * 1_000_000_000L;
            this.margin = eachPeriod == null ? o.marginSeconds() * 1_000_000_000L : 0;
        }

        @Override
        OwnerThreadSendLoop ownerThreadLoop(QueuePair[] qps, CompletionQueue cq, SendWr[][] wrs, int txDepth,
                                            int postList, int cqMod, OwnerThreadSendLoop.Checker checker) {
            return new OwnerThreadSendLoop(qps, cq, wrs, txDepth, postList, cqMod, checker);
        }

        /** This thread sleeps to the edges of the sampling windows and reads the completion count there. */
        @Override
        BwMeasurement onOwnerThread(BandwidthRun run, OwnerThreadSendLoop loop) throws Exception {
            long start = System.nanoTime();
            long firstSample = start + margin;
            run.runOnNicThread(loop);
            boolean ended = false;
            try {
                BandwidthRun.sleepUntil(loop, firstSample);
                long from = System.nanoTime();
                long c = loop.completed();
                while (true) {
                    BandwidthRun.sleepUntil(loop, from + window);
                    long now = System.nanoTime();
                    long cNow = loop.completed();
                    BwMeasurement m = BwMeasurement.total(size, cNow - c, from, now, BandwidthRun.NS_PER_SECOND);
                    if (eachPeriod == null) {
                        // everything posted completes before the QPs are torn down
                        ended = true;
                        run.awaitEnd(loop, true);
                        return m;
                    }
                    eachPeriod.accept(m);
                    from = now;
                    c = cNow;
                }
            } finally {
                if (!ended) {
                    run.awaitEnd(loop, true);
                }
            }
        }

        @Override
        void begin(BandwidthRun.Counts c) {
            long start = System.nanoTime();
            sampleStart = start + margin;
            sampleEnd = sampleStart + window;
        }

        /**
         * The loop on this thread (bidirectional send) ends when the window does, without waiting for
         * its sends, as perftest's {@code run_iter_bi} leaves its loop at {@code END_STATE}: the two
         * sides' windows do not end together, and the peer stops re-posting receives when its own
         * ends, so a send still outstanding here may wait on RNR for as long as the peer's window
         * lasts past ours (with {@code rnr_retry} 7, for ever). What is still posted is flushed when
         * the QPs are torn down.
         */
        @Override
        boolean done(BandwidthRun.Counts c) {
            return stopping;
        }

        /** Opens the first window at its start; at a window's end, hands it on or starts stopping. */
        @Override
        void beforePosting(BandwidthRun.Counts c) {
            long now = System.nanoTime();
            if (!sampling && now >= sampleStart) {
                sampling = true;
                c0 = c.totC;
                t0 = now;
            }
            if (sampling && now >= sampleEnd && !stopping) {
                BwMeasurement m = BwMeasurement.total(size, c.totC - c0, t0, now, BandwidthRun.NS_PER_SECOND);
                if (eachPeriod != null) {
                    eachPeriod.accept(m);
                    c0 = c.totC;
                    t0 = now;
                    sampleEnd = now + window;
                } else {
                    result = m;
                    stopping = true;
                }
            }
        }

        /** Nothing more once the window has ended. */
        @Override
        boolean mayPost(BandwidthRun.Counts c, int qp) {
            return !stopping;
        }

        @Override
        boolean signaled(long s) {
            return s % cqMod == cqMod - 1;
        }

        @Override
        boolean pollsSends(BandwidthRun.Counts c) {
            return true;
        }

        @Override
        long postedForCheck(BandwidthRun.Counts c, int qp) {
            return c.scnt[qp];
        }

        @Override
        long completing(BandwidthRun.Counts c, int qp, long now) {
            return cqMod;
        }

        @Override
        boolean pollsReceives(BandwidthRun.Counts c) {
            return true;
        }

        @Override
        long postedForReceiveCheck(BandwidthRun.Counts c) {
            return 0;
        }

        @Override
        boolean awaitsSends(BandwidthRun.Counts c) {
            return false;
        }

        @Override
        BwMeasurement result(BandwidthRun.Counts c) {
            return result;
        }
    }
}
