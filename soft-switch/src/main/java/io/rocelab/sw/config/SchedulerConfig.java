package io.rocelab.sw.config;

/**
 * One SONiC {@code SCHEDULER} entry: {@code type} STRICT or DWRR (WRR is read as DWRR) and a
 * {@code weight}. IEEE 802.1Qaz ETS is DWRR between the non-strict queues in proportion to weight.
 *
 * @param name   the key
 * @param strict strict priority (served before every DWRR queue, higher queue index first)
 * @param weight DWRR weight, at least 1
 */
public record SchedulerConfig(String name, boolean strict, int weight) {

    /** The scheduler of a queue that has none configured: DWRR weight 1. */
    public static final SchedulerConfig DEFAULT = new SchedulerConfig("default", false, 1);
}
