package io.rocelab.perftest;

import java.util.Objects;

/**
 * A bandwidth test's rate limit ({@code --rate_limit}, {@code --rate_units},
 * {@code --rate_limit_type}, {@code --burst_size}) after perftest's checks, with perftest's
 * conversions of the rate.
 *
 * @param type               who limits
 * @param rate               the number given to {@code --rate_limit}, in {@code units}
 * @param units              what {@code rate} counts
 * @param burstSize          messages per burst: {@code --burst_size}, or the TX depth perftest
 *                           puts there when it is not given (0 for PP)
 * @param burstSizeRequested whether {@code --burst_size} was given
 */
public record RateLimit(RateLimitType type, double rate, RateUnits units, int burstSize, boolean burstSizeRequested) {
    private static final double MIB = 1_048_576;
    private static final double GIGA = 1e9;
    /** perftest's packet pacing takes {@code M} as 8 × 1024 kb/s ({@code rate_limit * 8 * 1024}). */
    private static final double PP_BITS_PER_M = 8 * 1024 * 1000;

    public RateLimit {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(units, "units");
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("rate must be > 0 and finite: " + rate);
        }
        if (burstSize < 0) {
            throw new IllegalArgumentException("burstSize must be >= 0: " + burstSize);
        }
    }

    /**
     * The rate the NIC paces each QP at (HW, PP), in bit/s: {@code g} × 10^9; {@code M} × 8 × 2^20
     * for HW, × 8 × 1024 × 1000 for PP, as perftest converts them.
     *
     * @throws IllegalStateException for the SW limiter, or in {@code p} units, which perftest refuses on the NIC
     */
    public double nicBitsPerSecond() {
        if (!type.onNic() || units == RateUnits.PACKET_PS) {
            throw new IllegalStateException("no NIC rate for " + this);
        }
        if (units == RateUnits.GIGA_BIT_PS) {
            return rate * GIGA;
        }
        return type == RateLimitType.PP ? rate * PP_BITS_PER_M : rate * 8 * MIB;
    }

    /**
     * The SW limiter's messages per second for messages of {@code size} bytes ({@code run_iter_bw}'s
     * {@code rate_limit_pps}): {@code M} × 2^20 / size, {@code g} × 10^9 / (8 × size), {@code p} as is.
     * Unlike perftest this is not rounded down to whole messages per second (a rate under one message
     * a second would stop perftest's loop for good).
     */
    public double messagesPerSecond(long size) {
        if (size < 1) {
            throw new IllegalArgumentException("size must be >= 1: " + size);
        }
        return switch (units) {
            case MEGA_BYTE_PS -> rate / size * MIB;
            case GIGA_BIT_PS -> rate / (size * 8.0) * GIGA;
            case PACKET_PS -> rate;
        };
    }
}
