package io.rocelab.fabric.time;

/**
 * A handle to a scheduled task that can still be prevented from running.
 *
 * <p>Kept to one method so that a retransmission or RNR timer can hold it without caring whether it
 * came from virtual or real time.
 */
@FunctionalInterface
public interface Cancellable {

    /**
     * Prevents the task from running if it has not started yet.
     *
     * @return {@code true} if this call stopped the task; {@code false} if it had already run, was
     *         already cancelled, or is running now
     */
    boolean cancel();
}
