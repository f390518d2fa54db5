package io.rocelab.perftest.run;

/**
 * The outcome of a {@code -D} latency run: how many iterations fit in the measured window.
 *
 * @param iterations    iterations completed in the window
 * @param totalTicks    ticks from the first post to the end of the window
 * @param ticksPerMicro clock ticks per microsecond
 */
public record LatDuration(long iterations, long totalTicks, double ticksPerMicro) {
}
