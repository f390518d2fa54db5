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

    private int idle;

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
            Thread me = Thread.currentThread();
            cq.onNotify(() -> LockSupport.unpark(me));
            cq.requestNotify(false);
            if (cq.size() == 0) {
                LockSupport.parkNanos(NOTIFIED_PARK_NANOS);
            }
        }
    }

    static void checkInterrupt() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted while waiting for the NIC");
        }
    }
}
