package io.rocelab.perftest.nic;

import io.rocelab.nic.CompletionQueue;
import io.rocelab.nic.WorkCompletion;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * How the application thread waits for the NIC: spin a little (the NIC answers within
 * microseconds when it has a core), then yield, then sleep until a completion notification or a
 * short timeout. On a machine with fewer cores than busy threads a pure spin would starve the
 * NIC's own thread, so the backoff matters more than the spin.
 */
final class Waiter {
    private static final int SPINS = 200;
    private static final int YIELDS = 400;
    private static final long PARK_NANOS = 20_000;
    private static final long NOTIFIED_PARK_NANOS = 1_000_000;
    /**
     * Signalled sends outstanding from which {@link #awaitSends} sleeps at once: with this many
     * messages queued the NIC has far more work than a thread's wake-up takes.
     */
    static final long DEEP_PIPELINE = 8;
    /** A deep pipeline's sleeper wakes once this fraction (1/n) of its outstanding sends have completed. */
    private static final int WAKE_FRACTION = 4;

    private int idle;
    /** The thread that sleeps on CQ notifications, and the handler that wakes it (made once, not per sleep). */
    private Thread sleeper;
    private Runnable wake;

    /** Something happened: start the backoff again. */
    void reset() {
        idle = 0;
    }

    /** Nothing happened this round: back off one step. */
    void idle() throws InterruptedException {
        checkInterrupt();
        idle++;
        if (idle < SPINS) {
            Thread.onSpinWait();
        } else if (idle < SPINS + YIELDS) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(PARK_NANOS);
        }
    }

    /**
     * Polls {@code cq} into {@code out}; when it is empty, backs off one step, sleeping on the
     * CQ's notification once spinning has not helped.
     *
     * @return completions moved into {@code out}
     */
    int poll(CompletionQueue cq, int max, List<WorkCompletion> out) throws InterruptedException {
        int n = cq.poll(max, out);
        if (n > 0) {
            idle = 0;
            return n;
        }
        await(cq);
        return 0;
    }

    /** Backs off one step unless {@code cq} holds a completion; the deepest step sleeps until one arrives. */
    void await(CompletionQueue cq) throws InterruptedException {
        checkInterrupt();
        if (cq.size() > 0) {
            idle = 0;
            return;
        }
        idle++;
        if (idle < SPINS) {
            Thread.onSpinWait();
        } else if (idle < SPINS + YIELDS) {
            Thread.yield();
        } else {
            sleepFor(cq, 1);
        }
    }

    /**
     * Waits for send completions when {@code pending} signalled sends are outstanding and none can
     * be posted. A deep pipeline ({@value #DEEP_PIPELINE} or more) sleeps at once until a quarter of
     * them have completed, with the CQ's completion moderation ({@code ibv_modify_cq}'s
     * {@code cq_count}) so the NIC wakes this thread once per batch: the send queue still holds
     * three quarters of its work, milliseconds at these rates, while spinning or yielding for every
     * completion (a 64 KB message is signalled alone, perftest's rule for large messages) would take
     * the cores the NIC's threads need. A shallow pipeline backs off as {@link #await(CompletionQueue)}.
     */
    void awaitSends(CompletionQueue cq, long pending) throws InterruptedException {
        if (pending < DEEP_PIPELINE) {
            await(cq);
            return;
        }
        checkInterrupt();
        if (cq.size() > 0) {
            idle = 0;
            return;
        }
        sleepFor(cq, (int) Math.min(pending / WAKE_FRACTION, cq.capacity()));
    }

    /**
     * Sleeps until {@code cq} holds {@code count} completions, or for at most a millisecond (fewer may
     * come, and a caller with a deadline must see it).
     */
    private void sleepFor(CompletionQueue cq, int count) {
        if (cq.moderationCount() != count) {
            cq.moderate(count);
        }
        Thread me = Thread.currentThread();
        if (sleeper != me) {
            sleeper = me;
            wake = () -> LockSupport.unpark(me);
        }
        cq.onNotify(wake);
        cq.requestNotify(false);
        // the notification fires only for a completion that arrives after the request
        if (cq.size() < count) {
            LockSupport.parkNanos(NOTIFIED_PARK_NANOS);
        }
    }

    static void checkInterrupt() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted while waiting for the NIC");
        }
    }
}
