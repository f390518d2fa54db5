package io.rocelab.fabric.time;

/**
 * What a producer thread rings after it put something in a queue that a {@link Drain} empties on
 * the owner thread; obtained from {@link Scheduler#doorbell(Drain)}.
 *
 * <p>Guarantee: the drain runs on the owner thread at least once after every ring (so nothing queued
 * before a ring is left behind). Rings that come while a drain is already due are merged into it,
 * so a burst of frames costs one hand-off, not one per frame.
 */
@FunctionalInterface
public interface Doorbell {

    /**
     * Makes sure the drain runs soon. Any thread.
     *
     * @throws java.util.concurrent.RejectedExecutionException if the owner has shut down: the drain
     *         will never run again, so whatever the caller queued is its own to clean up
     */
    void ring();
}
