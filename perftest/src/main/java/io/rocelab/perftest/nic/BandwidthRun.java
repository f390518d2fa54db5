package io.rocelab.perftest.nic;

import io.rocelab.nic.SendWr;
import io.rocelab.nic.WorkCompletion;
import io.rocelab.perftest.RateLimit;
import io.rocelab.perftest.Verb;
import io.rocelab.perftest.cli.PerftestOptions;
import io.rocelab.perftest.report.BwMeasurement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * perftest's bandwidth loops on the soft NIC: {@code run_iter_bw} (post up to the TX depth per QP,
 * one signalled WR per {@code -Q}, poll) and {@code run_iter_bw_server} (the receiving side of
 * ib_send_bw). One send loop serves {@code -n}, {@code -D} and {@code --run_infinitely}: when it
 * ends and what it measures is its {@link BwEnd}. The loop runs on the NIC's own thread
 * ({@link OwnerThreadSendLoop}) unless it must also re-post receives (bidirectional send), in
 * which case it runs here, on the application's thread.
 */
final class BandwidthRun {
    static final double NS_PER_SECOND = 1e9;
    static final int POLL_BATCH = 16;

    private final NicEngine engine;
    private final NicQueues q;
    private final Waiter waiter;
    private final List<WorkCompletion> wcs = new ArrayList<>(POLL_BATCH);

    /**
     * @param engine the engine whose {@code sendCheck} checks the owner-thread loop's completions and
     *               which keeps {@code lastLoopOutstanding}
     */
    BandwidthRun(NicEngine engine, NicQueues queues, Waiter waiter) {
        this.engine = engine;
        this.q = queues;
        this.waiter = waiter;
    }

    /** What the send loop counts, per QP and in total; the {@link BwEnd} reads and extends it. */
    static final class Counts {
        /** WRs posted and completed per QP. */
        final long[] scnt;
        final long[] ccnt;
        /** WRs posted, WRs completed and receives completed, over all QPs. */
        long totS;
        long totC;
        long totR;

        Counts(int qps) {
            scnt = new long[qps];
            ccnt = new long[qps];
        }

        /** Signalled send WRs posted and not yet completed, over all QPs (each completion stands for {@code cqMod} WRs). */
        long signalledPending(int cqMod) {
            long pending = 0;
            for (int i = 0; i < scnt.length; i++) {
                pending += (scnt[i] - ccnt[i]) / cqMod;
            }
            return pending;
        }
    }

    /** The sending side's loop: posts and polls until {@code end} says the run is over. */
    BwMeasurement send(long size, BwEnd end) throws Exception {
        PerftestOptions o = q.options;
        int cqMod = Math.max(1, o.cqModeration());
        int postList = Math.max(1, o.postList());
        int txDepth = o.txDepth();
        boolean bidiSend = o.bidirectional() && o.kind().verb() == Verb.SEND;
        SendWr[][] wrs = q.batches(size);
        if (!bidiSend) {
            // the send loop on the NIC's thread: no wake-ups of this one (OwnerThreadSendLoop)
            return end.onOwnerThread(this, swRateLimited(end.ownerThreadLoop(q.qps, q.sendCq, wrs, txDepth,
                    postList, cqMod, engine.sendCheck), size));
        }
        return onThisThread(wrs, txDepth, postList, cqMod, end);
    }

    /**
     * The bidirectional send tests' loop, on this thread: posts, polls the send CQ and the receive
     * CQ, re-posts each receive.
     */
    private BwMeasurement onThisThread(SendWr[][] wrs, int txDepth, int postList, int cqMod, BwEnd end)
            throws Exception {
        int n = q.qps.length;
        Counts c = new Counts(n);
        end.begin(c);
        waiter.reset();
        while (!end.done(c)) {
            end.beforePosting(c);
            boolean progress = false;
            for (int i = 0; i < n; i++) {
                while (c.scnt[i] - c.ccnt[i] + postList <= txDepth && end.mayPost(c, i)) {
                    SendWr[] b = wrs[i];
                    for (int k = 0; k < b.length; k++) {
                        b[k].signaled(end.signaled(c.scnt[i] + k));
                    }
                    end.posting(c);
                    q.qps[i].postSend(b);
                    c.scnt[i] += postList;
                    c.totS += postList;
                    progress = true;
                }
            }
            if (end.pollsSends(c)) {
                wcs.clear();
                if (q.sendCq.poll(POLL_BATCH, wcs) > 0) {
                    long now = System.nanoTime();
                    for (WorkCompletion wc : wcs) {
                        int qi = (int) wc.wrId();
                        q.check(wc, end.postedForCheck(c, qi), c.totC);
                        long add = end.completing(c, qi, now);
                        c.ccnt[qi] += add;
                        c.totC += add;
                    }
                    progress = true;
                }
            }
            if (end.pollsReceives(c)) {
                wcs.clear();
                if (q.recvCq.poll(POLL_BATCH, wcs) > 0) {
                    for (WorkCompletion wc : wcs) {
                        q.check(wc, end.postedForReceiveCheck(c), c.totC);
                        c.totR++;
                        q.postRecv((int) wc.wrId());
                    }
                    progress = true;
                }
            }
            if (end.done(c)) {
                break;
            }
            if (progress) {
                waiter.reset();
            } else if (end.awaitsSends(c)) {
                waiter.awaitSends(q.sendCq, c.signalledPending(cqMod));
            } else {
                waiter.idle();
            }
        }
        return end.result(c);
    }

    /**
     * {@code run_iter_bw_server}: the receiving side of ib_send_bw counts its receives, re-posting
     * each, and measures from the first to the last.
     */
    BwMeasurement receive(long size) throws Exception {
        PerftestOptions o = q.options;
        int n = q.qps.length;
        boolean timed = o.durationMode();
        long total = timed ? Long.MAX_VALUE : o.iterations() * n;
        long rcnt = 0;
        long first = 0;
        long last = 0;
        long sampleStart = Long.MAX_VALUE;
        long sampleEnd = Long.MAX_VALUE;
        long c0 = -1;
        waiter.reset();
        while (rcnt < total) {
            wcs.clear();
            int got = waiter.poll(q.recvCq, POLL_BATCH, wcs);
            long now = System.nanoTime();
            for (int k = 0; k < got; k++) {
                WorkCompletion wc = wcs.get(k);
                q.check(wc, 0, rcnt);
                if (rcnt == 0) {
                    first = now;
                    sampleStart = now + o.marginSeconds() * 1_000_000_000L;
                    sampleEnd = sampleStart + o.durationSeconds() * 1_000_000_000L;
                }
                rcnt++;
                q.postRecv((int) wc.wrId());
            }
            if (got > 0) {
                last = now;
            }
            if (timed) {
                if (c0 < 0 && now >= sampleStart) {
                    c0 = rcnt;
                    first = now;
                }
                if (now >= sampleEnd) {
                    return BwMeasurement.total(size, rcnt - c0, first, now, NS_PER_SECOND);
                }
            }
        }
        return new BwMeasurement(size, o.iterations(), n, 1, 1, true, false, 1, new long[] {first},
                new long[] {last}, NS_PER_SECOND);
    }

    /**
     * perftest's SW rate limiter ({@code --rate_limit_type SW}) on a send loop: bursts of
     * {@code --burst_size} posts at the rate for this message size. perftest refuses it where
     * the send loop is not {@link OwnerThreadSendLoop}'s (bidirectional send, latency tests).
     */
    private OwnerThreadSendLoop swRateLimited(OwnerThreadSendLoop loop, long size) {
        RateLimit limit = q.options.rateLimit();
        if (limit == null || limit.type().onNic()) {
            return loop;
        }
        return loop.rateLimited(new SwRateLimiter(limit, size), q.nic.scheduler());
    }

    // ---- the send loop on the NIC's thread, seen from this one ----

    /**
     * Runs the send loop once on the NIC's thread; the first run hands it over: from then on only
     * that thread polls the send CQ and posts.
     */
    void runOnNicThread(OwnerThreadSendLoop loop) {
        q.nic.call(() -> {
            loop.run();
            return null;
        });
    }

    /**
     * Waits until the loop has ended; with {@code stopNow} (or on an interrupt) it first stops
     * posting, and what was posted still completes. Rethrows what ended it.
     */
    void awaitEnd(OwnerThreadSendLoop loop, boolean stopNow) throws InterruptedException {
        try {
            while (!stopNow && !loop.done()) {
                LockSupport.parkNanos(1_000_000_000L); // the loop unparks this thread when it ends
                Waiter.checkInterrupt();
            }
        } finally {
            if (!loop.done()) {
                loop.stop();
                runOnNicThread(loop);
                while (!loop.done()) {
                    LockSupport.parkNanos(1_000_000);
                }
            }
            engine.lastLoopOutstanding = loop.outstanding();
        }
        if (loop.failure() != null) {
            throwFailure(loop.failure());
        }
    }

    /** Sleeps until {@code deadline} (nanoTime), or until the loop ends; rethrows what ended it. */
    static void sleepUntil(OwnerThreadSendLoop loop, long deadline) throws InterruptedException {
        long left;
        while (!loop.done() && (left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
            Waiter.checkInterrupt();
        }
        if (loop.failure() != null) {
            throwFailure(loop.failure());
        }
    }

    private static void throwFailure(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        throw (Error) t;
    }
}
