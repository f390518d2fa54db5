package io.rocelab.fabric.time;

/**
 * A clock that only moves when a test moves it, as in Agrona's test kit.
 *
 * <p>For unit tests of components that only read time (rate meters, token buckets, timestamping)
 * and need no scheduled tasks; components that schedule take a {@link VirtualTimeScheduler}.
 * Not thread-safe: one test thread drives it.
 */
public final class ManualClock implements Clock {

    private long nanoTime;

    /** A clock starting at 0 ns. */
    public ManualClock() {
        this(0L);
    }

    /**
     * @param initialNanos the time the clock starts at
     */
    public ManualClock(long initialNanos) {
        this.nanoTime = initialNanos;
    }

    @Override
    public long nanoTime() {
        return nanoTime;
    }

    /**
     * Moves the clock forward.
     *
     * @param deltaNanos how far, {@code >= 0}
     * @return the new time
     * @throws IllegalArgumentException if {@code deltaNanos} is negative (the clock is monotonic)
     */
    public long advance(long deltaNanos) {
        if (deltaNanos < 0) {
            throw new IllegalArgumentException("deltaNanos must be >= 0: " + deltaNanos);
        }
        nanoTime = Math.addExact(nanoTime, deltaNanos);
        return nanoTime;
    }

    /**
     * Sets the clock to an absolute time that is not before the current one.
     *
     * @param nanos the new time
     * @throws IllegalArgumentException if {@code nanos} is before the current time
     */
    public void set(long nanos) {
        if (nanos < nanoTime) {
            throw new IllegalArgumentException("nanos must not go back in time: " + nanos + " < " + nanoTime);
        }
        nanoTime = nanos;
    }

    @Override
    public String toString() {
        return "ManualClock[" + nanoTime + " ns]";
    }
}
