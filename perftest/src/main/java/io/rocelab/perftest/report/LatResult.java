package io.rocelab.perftest.report;

/**
 * One line of a latency table, in microseconds (or in ticks with {@code -C}).
 *
 * @param size       message size in bytes
 * @param iterations iterations run
 * @param min        smallest sample
 * @param max        the second-largest sample: perftest sets the two largest aside and reports
 *                   the smaller of them
 * @param typical    median of the kept samples
 * @param average    mean of the kept samples
 * @param stdev      perftest's standard deviation (see {@link LatReport#compute})
 * @param p99        99th percentile
 * @param p999       99.9th percentile
 */
public record LatResult(long size, long iterations, double min, double max, double typical, double average,
                        double stdev, double p99, double p999) {
}
