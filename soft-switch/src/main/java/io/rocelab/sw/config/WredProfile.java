package io.rocelab.sw.config;

/**
 * One SONiC {@code WRED_PROFILE} entry: a rule per packet colour ({@code green_}, {@code yellow_}
 * and {@code red_} thresholds and drop probability, {@code wred_<colour>_enable}, and whether the
 * {@code ecn} mode covers the colour). A colour whose fields are absent is never hit by WRED (only
 * the buffer's tail drop applies to it). How a packet gets its colour: {@link Color}.
 *
 * @param name   the profile's key
 * @param green  the rule for green packets
 * @param yellow the rule for yellow packets
 * @param red    the rule for red packets
 */
public record WredProfile(String name, ColorRule green, ColorRule yellow, ColorRule red) {

    /**
     * The WRED rule for one colour. Between the thresholds the probability rises linearly from 0
     * to {@code maxProbability}; at or above the maximum threshold every packet is hit. A hit ECT
     * packet is marked CE when {@code ecn} is set; otherwise it is dropped when {@code dropEnabled}
     * is set, and passes untouched when it is not. Equal thresholds give DCTCP-style step marking
     * at K = the threshold.
     *
     * @param dropEnabled    {@code wred_<colour>_enable}
     * @param ecn            the {@code ecn} mode covers this colour
     * @param minThreshold   {@code <colour>_min_threshold}, bytes of queue depth
     * @param maxThreshold   {@code <colour>_max_threshold}, bytes of queue depth
     * @param maxProbability {@code <colour>_drop_probability} as a fraction in [0, 1]
     */
    public record ColorRule(boolean dropEnabled, boolean ecn, long minThreshold, long maxThreshold,
                            double maxProbability) {

        /** A colour with no WRED configured: never hit. */
        public static final ColorRule OFF = new ColorRule(false, false, Long.MAX_VALUE, Long.MAX_VALUE, 0);

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

    /** A profile for green packets only (yellow and red never hit). */
    public WredProfile(String name, boolean wredEnabled, boolean ecnGreen, long minThreshold, long maxThreshold,
                       double maxProbability) {
        this(name, new ColorRule(wredEnabled, ecnGreen, minThreshold, maxThreshold, maxProbability),
            ColorRule.OFF, ColorRule.OFF);
    }

    /** @return the rule for {@link Color} {@code color} */
    public ColorRule rule(int color) {
        return color == Color.GREEN ? green : color == Color.YELLOW ? yellow : red;
    }

    /** @return {@code wred_green_enable} */
    public boolean wredEnabled() {
        return green.dropEnabled();
    }

    /** @return the {@code ecn} mode covers green */
    public boolean ecnGreen() {
        return green.ecn();
    }

    /** @return the green probability at {@code depthBytes} */
    public double probability(long depthBytes) {
        return green.probability(depthBytes);
    }
}
