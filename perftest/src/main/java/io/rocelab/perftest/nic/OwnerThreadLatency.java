package io.rocelab.perftest.nic;

import io.rocelab.fabric.time.Scheduler;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * In-process, a latency run's loop driven by the thread that owns both NICs: on a polling scheduler
 * ({@code --busy-poll}) a drain steps the run ({@link LatencySteps}) on every turn of the duty cycle,
 * beside the link rings and command queues it polls anyway; on the default sleeping loop each step
 * is a task that queues the next, behind the frames and timers the loop has to handle, so the loop
 * does not sleep until the run is over. The application thread sleeps until then.
 *
 * <p>Why: a perftest process polls its CQ and its memory on a core of its own while the NIC works
 * on others. In-process on two cores the two tool threads (server and client) and the NICs' thread
 * were three threads, and every half round trip waited for the kernel to put the right one back on
 * a core (a tool thread that had backed off to a 20 us sleep, stretched by Linux's 50 us timer
 * slack; the loop in {@code epoll_wait}): {@code ib_write_lat --in-process} measured 10.5-15.5 us
 * with {@code --busy-poll} and 36-50 us without, where the NIC's own ping-pong takes 1-2 and 3 us.
 * Here a WRITE posted by one side is taken from the command queue, sent, received and placed in the
 * peer's memory, and the peer's step sees it, all on one thread, which spins for the run as
 * perftest's own loop does; the time stamps are taken there, as perftest's are taken by the thread
 * that posts.
 *
 * <p>One per engine: the drain is registered once, with the NIC's first latency run, and steps
 * whichever run is current ({@code -a} runs one per size); between runs it costs one volatile
 * read a turn.
 */
final class OwnerThreadLatency {
    private static final long WAIT_NANOS = 1_000_000;

    /** A run as the drain steps it: {@link LatencySteps}. */
    interface Run {
        /** Advances as far as it goes without waiting; {@link LatencySteps.Blocked#DONE} at the end. */
        LatencySteps.Blocked step();

        /** Whether the last step did anything. */
        boolean progressed();

        /** Iterations completed, once done. */
        long result();
    }

    private final Scheduler scheduler;
    /** Whether the scheduler polls its drains on every turn (busy-poll); else the run re-queues itself. */
    private final boolean polls;
    /** A sleeping loop's task that steps the current run and queues itself again until the run ends. */
    private final Runnable tick = this::tick;
    private boolean registered;
    /** The run the drain steps, or null (set by the application thread, cleared by the NIC's). */
    private final AtomicReference<Job> current = new AtomicReference<>();

    /** One run handed to the NIC's thread, and how it ended. */
    private static final class Job {
        final Run steps;
        final Thread app;
        volatile boolean cancelled;
        volatile boolean done;
        volatile Throwable failure;

        Job(Run steps, Thread app) {
            this.steps = steps;
            this.app = app;
        }
    }

    /**
     * @param scheduler the NIC's
     * @param polls     whether it polls its drains on every turn ({@code BusyPollScheduler}); else
     *                  each step is a task that queues the next, so the loop does not sleep until the
     *                  run is over
     */
    OwnerThreadLatency(Scheduler scheduler, boolean polls) {
        this.scheduler = scheduler;
        this.polls = polls;
    }

    /**
     * Runs {@code steps} on the NIC's thread and waits for the end.
     *
     * @return iterations completed
     * @throws InterruptedException if this thread is interrupted (the run is abandoned)
     */
    long run(Run steps) throws InterruptedException {
        Job job = new Job(steps, Thread.currentThread());
        current.set(job);
        if (!polls) {
            scheduler.execute(tick);
        } else if (!registered) {
            registered = true;
            scheduler.doorbell(this::drain);
        }
        try {
            while (!job.done) {
                LockSupport.parkNanos(WAIT_NANOS); // the drain unparks this thread at the end
                Waiter.checkInterrupt();
            }
        } finally {
            if (!job.done) {
                job.cancelled = true;
            }
        }
        if (job.failure instanceof RuntimeException r) {
            throw r;
        }
        if (job.failure instanceof Error e) {
            throw e;
        }
        return steps.result();
    }

    /** NIC thread, sleeping loop: one step, and the next queued behind what the loop has to do. */
    private void tick() {
        drain();
        if (current.get() != null) {
            scheduler.execute(tick);
        }
    }

    /** NIC thread: one step of the current run. */
    private int drain() {
        Job job = current.get();
        if (job == null) {
            return 0;
        }
        if (job.cancelled) {
            current.compareAndSet(job, null);
            return 0;
        }
        try {
            LatencySteps.Blocked b = job.steps.step();
            if (b != LatencySteps.Blocked.DONE) {
                return job.steps.progressed() ? 1 : 0;
            }
        } catch (RuntimeException | Error e) {
            job.failure = e;
        }
        current.compareAndSet(job, null);
        job.done = true;
        LockSupport.unpark(job.app);
        return 1;
    }
}
