package io.rocelab.fabric.time;

import java.util.concurrent.Executor;

/**
 * A clock that also runs tasks, all of them on one owner thread.
 *
 * <p>This is the only way protocol code gets time and timers, which is what lets the same NIC and
 * switch code run in {@linkplain VirtualTimeScheduler virtual time} and in
 * {@linkplain RealTimeScheduler real time}. All the state of a NIC or a switch is touched only by
 * tasks of its scheduler, so it needs no locks.
 *
 * <p>Ordering guarantee, shared by both implementations: tasks scheduled for the same deadline run
 * in the order they were scheduled, and a task never runs inside the call that scheduled it.
 */
public interface Scheduler extends Clock, Executor {

    /**
     * Runs {@code task} on the owner thread once {@code delayNanos} have passed.
     *
     * @param delayNanos delay from {@link #nanoTime()}, {@code >= 0}
     * @param task       the task
     * @return a handle that can stop the task before it runs
     * @throws IllegalArgumentException if {@code delayNanos} is negative
     */
    Cancellable schedule(long delayNanos, Runnable task);

    /**
     * Like {@link #schedule(long, Runnable)} but without a handle, so an implementation needs no
     * per-call allocation. Meant for the per-frame paths (link deliveries) that never cancel.
     *
     * @param delayNanos delay from {@link #nanoTime()}, {@code >= 0}
     * @param task       the task
     * @throws IllegalArgumentException if {@code delayNanos} is negative
     */
    void scheduleUncancellable(long delayNanos, Runnable task);

    /**
     * Runs {@code task} at {@code deadlineNanos} on this scheduler's clock. A deadline that has
     * already passed runs the task as soon as possible, after the tasks that are already due.
     *
     * @param deadlineNanos absolute time on this scheduler's clock
     * @param task          the task
     * @return a handle that can stop the task before it runs
     */
    default Cancellable scheduleAt(long deadlineNanos, Runnable task) {
        return schedule(Math.max(0L, deadlineNanos - nanoTime()), task);
    }

    /**
     * Runs {@code task} on the owner thread as soon as possible, after the tasks already due now.
     * Never runs it inside this call, even when called from the owner thread.
     */
    @Override
    void execute(Runnable task);

    /**
     * @return {@code true} if the calling thread is the one that runs this scheduler's tasks, i.e. it
     *         may touch the state this scheduler owns directly
     */
    boolean inOwnerThread();

    /**
     * Registers a queue that other threads fill and the owner thread empties with {@code drain}, and
     * returns the doorbell the producers ring after each enqueue.
     *
     * <p>Why: one {@link #execute} per item (a frame, a posted work request) allocates a task and, on
     * a sleeping event loop, wakes the thread once per item. With a doorbell, a burst costs one
     * hand-off; a {@link BusyPollScheduler} polls the drain on every turn of its duty cycle and the
     * ring costs nothing at all. This default executes one drain per ring unless one is already
     * pending, which is what a scheduler that sleeps when idle needs.
     *
     * @param drain empties the queue on the owner thread
     * @return the doorbell; ring it after every enqueue, from any thread
     */
    /**
     * How far ahead of this scheduler's clock a device may do timed work in one go instead of
     * arming a timer for it: 0 in virtual time, where every event runs exactly when due; on a real
     * clock, a little more than the time a timer takes to fire, so that a transmitter hands over
     * the frames of the next few microseconds at once (as a NIC fills its transmit ring) rather
     * than waking up for each one.
     *
     * @return the slack in nanoseconds, {@code >= 0}
     */
    default long timerSlackNanos() {
        return 0;
    }

    default Doorbell doorbell(Drain drain) {
        return new ExecutingDoorbell(this, java.util.Objects.requireNonNull(drain, "drain"));
    }
}
