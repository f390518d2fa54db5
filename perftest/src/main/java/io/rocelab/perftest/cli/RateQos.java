package io.rocelab.perftest.cli;

import io.rocelab.perftest.RateLimit;

/**
 * How fast a perftest run may send and in which traffic class (the settings of
 * {@link RateQosFlags}): the rate limiter, and the service level and type of service of the QPs.
 *
 * @param rateLimit    {@code --rate_limit} with {@code --rate_units}, {@code --rate_limit_type} and
 *                     {@code --burst_size}: who limits the rate, to what, in bursts of how many
 *                     messages; null when the rate is not limited
 * @param serviceLevel {@code -S}: the service level of the QPs' address vector (IBA SL, 0..15)
 * @param tos          {@code -T}: type of service of rdma_cm QPs, the IP header's traffic class byte;
 *                     -1 when not given
 */
public record RateQos(RateLimit rateLimit, int serviceLevel, int tos) {

    /** perftest's {@code MAX_SL}: the largest {@code -S} (IBA service levels are 0..15). */
    static final int MAX_SL = 15;

    /** The settings while perftest's rules fill them in; starts at perftest's defaults. */
    static final class Builder {
        RateLimit rateLimit = null;
        int serviceLevel = 0;
        int tos = -1;

        Builder() {
        }

        Builder(RateQos r) {
            rateLimit = r.rateLimit;
            serviceLevel = r.serviceLevel;
            tos = r.tos;
        }

        RateQos build() {
            return new RateQos(rateLimit, serviceLevel, tos);
        }
    }
}
