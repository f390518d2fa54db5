package io.rocelab.sw.config;

/**
 * One SONiC {@code WRED_PROFILE} entry for green packets (rocelab has no policer, so every packet
 * is green). Between the thresholds the probability rises linearly from 0 to
 * {@code green_drop_probability} percent; at or above the maximum threshold every packet is hit.
 * Whether a hit ECT packet is marked CE instead of dropped follows the {@code ecn} mode
 * ({@code ecn_none}, {@code ecn_green}, {@code ecn_all}, ...). Equal thresholds give DCTCP-style
 * step marking at K = the threshold.
 *
 * @param name           the profile's key
 * @param wredEnabled    {@code wred_green_enable}: non-ECT (or unmarkable) packets are dropped
 * @param ecnGreen       the {@code ecn} mode covers green: ECT packets are marked CE instead
 * @param minThreshold   {@code green_min_threshold}, bytes of queue depth
 * @param maxThreshold   {@code green_max_threshold}, bytes of queue depth
 * @param maxProbability {@code green_drop_probability} as a fraction in [0, 1]
 */
public record WredProfile(String name, boolean wredEnabled, boolean ecnGreen, long minThreshold,
                          long maxThreshold, double maxProbability) {

    /**
     * @param depthBytes queue depth when the packet leaves
     * @return the probability that the packet is marked (ECT) or dropped
     */
    public double probability(long depthBytes) {
        if (depthBytes < minThreshold) {
            return 0.0;
        }
        if (depthBytes >= maxThreshold) {
            return 1.0;
        }
        return maxProbability * (depthBytes - minThreshold) / (double) (maxThreshold - minThreshold);
    }
}
