package io.rocelab.fabric.time;

/**
 * A monotonic source of time in nanoseconds.
 *
 * <p>Protocol components (timers, rate limiters, DCQCN) read time only through a {@code Clock} so
 * that they run unchanged in real time and in virtual time. The origin is arbitrary (the start of a
 * simulation, or of the JVM); only differences between two readings of the same clock mean anything.
 */
@FunctionalInterface
public interface Clock {

    /**
     * @return the current time in nanoseconds; never decreases between two calls on the owner thread
     */
    long nanoTime();
}
