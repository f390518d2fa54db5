package io.rocelab.perftest.nic;

import io.rocelab.fabric.time.Cancellable;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.nic.CompletionQueue;
import io.rocelab.nic.QueuePair;
import io.rocelab.nic.SendWr;
import io.rocelab.nic.WorkCompletion;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The send loop of a bandwidth run ({@code -n}, {@code -D}, {@code --run_infinitely}; not the
 * bidirectional send tests, which also repost receives) driven from the NIC's own thread: the send
 * CQ's notification handler, which runs there, polls the completions and posts as many new WRs, then arms the CQ again for the next batch (a quarter of the signalled sends
 * outstanding, with the CQ's completion moderation). The application thread only reads the
 * completion count at the edges of its sampling windows and sleeps in between.
 *
 * <p>Why: when the NIC's thread and the application thread share a core (each end of the UDP
 * endpoint benchmark is pinned to one), every wake-up of the application thread costs two context
 * switches and a futex round on top of its own work; at 64 KB messages that was about one wake-up
 * per 32 messages and 5-10 % of the core (async-profiler, {@code perf stat}). Here posting and
 * polling cost what they cost, on the thread that is awake anyway.
 *
 * <p>What the loop does is perftest's {@code run_iter_bw}: post while fewer than the TX depth are
 * outstanding (and, with {@code -n}, until each QP has posted its iterations, the last one
 * signalled), count each signalled completion as {@code cqMod} WRs, and when told to stop, post only
 * up to the next signalled WR so that everything posted completes. With perftest's SW rate limiter
 * ({@link #rateLimited}) it posts in bursts and, between them, waits on a timer of the NIC's
 * scheduler as well as on the CQ (a stopping loop posts its last WRs without waiting). Threads:
 * {@link #run()} on the NIC's thread only (the first call through {@code SoftNic.call}); the other
 * methods from the application thread.
 */
final class OwnerThreadSendLoop implements Runnable {
    /** Checks a completion; throws on an error completion (the run fails with its message). */
    interface Checker {
        void check(WorkCompletion wc, long posted, long completed);
    }

    private final QueuePair[] qps;
    private final CompletionQueue cq;
    private final SendWr[][] wrs;
    private final int txDepth;
    private final int postList;
    private final int cqMod;
    private final Checker checker;
    private final Thread app;
    /** WRs to post per QP: perftest's {@code -n}, or unlimited for a timed run. */
    private final long iters;
    /** Post and completion time of every WR ({@code postedAt[0]} and {@code completedAt[0]} only
     *  with {@code noPeak}), or null for a timed run. */
    private final long[] postedAt;
    private final long[] completedAt;
    private final boolean noPeak;
    private long totS;
    private final long[] scnt;
    private final long[] ccnt;
    private final List<WorkCompletion> wcs = new ArrayList<>(16);
    private long totC;
    /** Completed WRs, published for the application thread. */
    private volatile long completed;
    /** perftest's SW rate limiter, or null; its clock and timer are the NIC's scheduler's. */
    private SwRateLimiter limiter;
    private Scheduler scheduler;
    private Cancellable burstTimer;
    private long burstTimerAt = Long.MAX_VALUE;
    private volatile boolean stopping;
    private volatile boolean done;
    private volatile Throwable failure;

    /**
     * @param qps      the QPs, all completing into {@code cq}; a WR's id is its QP's index
     * @param wrs      each QP's WR batch ({@code postList} WRs), reused for every post
     * @param txDepth  WRs outstanding per QP at most
     * @param postList WRs per post ({@code -l})
     * @param cqMod    one signalled WR per this many ({@code -Q})
     */
    OwnerThreadSendLoop(QueuePair[] qps, CompletionQueue cq, SendWr[][] wrs, int txDepth, int postList, int cqMod,
                        Checker checker) {
        this(qps, cq, wrs, txDepth, postList, cqMod, checker, Long.MAX_VALUE, null, null, true);
    }

    /**
     * perftest's {@code run_iter_bw} with {@code -n}: {@code iters} WRs per QP, the last one
     * signalled, with the post and completion time of each (or of the first post and the last
     * completion only, with {@code noPeak}); the loop ends once all have completed.
     */
    OwnerThreadSendLoop(QueuePair[] qps, CompletionQueue cq, SendWr[][] wrs, int txDepth, int postList, int cqMod,
                        Checker checker, long iters, long[] postedAt, long[] completedAt, boolean noPeak) {
        this.iters = iters;
        this.postedAt = postedAt;
        this.completedAt = completedAt;
        this.noPeak = noPeak;
        this.qps = qps;
        this.cq = cq;
        this.wrs = wrs;
        this.txDepth = txDepth;
        this.postList = postList;
        this.cqMod = cqMod;
        this.checker = checker;
        this.app = Thread.currentThread();
        this.scnt = new long[qps.length];
        this.ccnt = new long[qps.length];
    }

    /**
     * Posts in the bursts of perftest's SW rate limiter; call before the loop first runs.
     *
     * @param scheduler the NIC's, whose thread runs the loop: the limiter's clock and timer
     */
    OwnerThreadSendLoop rateLimited(SwRateLimiter swLimiter, Scheduler nicScheduler) {
        this.limiter = java.util.Objects.requireNonNull(swLimiter, "swLimiter");
        this.scheduler = java.util.Objects.requireNonNull(nicScheduler, "nicScheduler");
        return this;
    }

    /** NIC thread: polls, posts, and arms the CQ for the next batch (or finishes). */
    @Override
    public void run() {
        if (done) {
            return;
        }
        try {
            while (true) {
                wcs.clear();
                while (cq.poll(16, wcs) > 0) {
                    long now = completedAt != null ? System.nanoTime() : 0;
                    for (WorkCompletion wc : wcs) {
                        int qi = (int) wc.wrId();
                        checker.check(wc, scnt[qi], totC);
                        // one signalled WR per -Q, and the last one, which may close a shorter group
                        long add = Math.min(cqMod, iters - ccnt[qi]);
                        ccnt[qi] += add;
                        if (completedAt != null && !noPeak) {
                            // a signalled completion also completes the unsignalled WRs before it
                            java.util.Arrays.fill(completedAt, (int) totC, (int) (totC + add), now);
                        }
                        totC += add;
                        if (completedAt != null && noPeak) {
                            completedAt[0] = now;
                        }
                    }
                    wcs.clear();
                }
                boolean stop = stopping;
                post(stop);
                completed = totC;
                long pending = 0;
                boolean allPosted = true;
                for (int i = 0; i < qps.length; i++) {
                    pending += (scnt[i] - ccnt[i] + cqMod - 1) / cqMod;
                    allPosted &= scnt[i] >= iters;
                }
                if (pending == 0 && (stop || allPosted)) {
                    finish(null);
                    return;
                }
                if (limiter != null && !stop && !allPosted && !limiter.sending()) {
                    armBurstTimer(limiter.nextBurstAtNanos());
                }
                // wake at a quarter of what is outstanding, as an application thread would (Waiter);
                // while stopping, at every completion, so the drain is seen at once
                int batch = stop ? 1 : (int) Math.max(1, Math.min(pending / 4, cq.capacity()));
                cq.moderate(batch);
                cq.onNotify(this);
                cq.requestNotify(false);
                // a request fires on a completion that arrives after it: the ones already here are ours
                if (cq.size() < batch) {
                    return;
                }
            }
        } catch (RuntimeException | Error e) {
            finish(e);
        }
    }

    private void post(boolean stop) {
        boolean paced = limiter != null && !stop;
        long now = paced ? scheduler.nanoTime() : 0;
        for (int i = 0; i < qps.length; i++) {
            if (paced && !limiter.mayPost(now)) {
                continue; // the next burst is not due yet
            }
            // when stopping, post only up to the next signalled WR, so every posted WR completes
            while (scnt[i] < iters && scnt[i] - ccnt[i] + postList <= txDepth && (!stop || scnt[i] % cqMod != 0)
                    && (!paced || limiter.sending())) {
                SendWr[] b = wrs[i];
                for (int k = 0; k < b.length; k++) {
                    long n = scnt[i] + k;
                    b[k].signaled(n % cqMod == cqMod - 1 || n == iters - 1);
                }
                if (postedAt != null && (!noPeak || totS == 0)) {
                    postedAt[noPeak ? 0 : (int) totS] = System.nanoTime();
                }
                qps[i].postSend(b);
                scnt[i] += postList;
                totS += postList;
                if (paced) {
                    limiter.posted(postList);
                }
            }
        }
    }

    /** Runs the loop again when the next burst is due (one timer, moved only earlier). */
    private void armBurstTimer(long at) {
        if (burstTimer != null && burstTimerAt <= at) {
            return;
        }
        if (burstTimer != null) {
            burstTimer.cancel();
        }
        burstTimerAt = at;
        burstTimer = scheduler.scheduleAt(at, () -> {
            burstTimer = null;
            burstTimerAt = Long.MAX_VALUE;
            run();
        });
    }

    private void finish(Throwable t) {
        if (burstTimer != null) {
            burstTimer.cancel();
            burstTimer = null;
        }
        failure = t;
        done = true;
        cq.onNotify(null);
        LockSupport.unpark(app);
    }

    /** WRs posted and not completed; read once {@link #done()} (application thread). */
    long outstanding() {
        long n = 0;
        for (int i = 0; i < qps.length; i++) {
            n += scnt[i] - ccnt[i];
        }
        return n;
    }

    /** WRs completed so far (application thread). */
    long completed() {
        return completed;
    }

    /** Stop posting new work; {@link #run()} finishes once what was posted has completed. */
    void stop() {
        stopping = true;
    }

    boolean done() {
        return done;
    }

    /** The error that ended the loop, or null. */
    Throwable failure() {
        return failure;
    }
}
