package io.rocelab.perftest.cli;

import io.rocelab.perftest.RateLimit;
import io.rocelab.perftest.RateLimitType;
import io.rocelab.perftest.RateUnits;
import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.Verb;

/**
 * perftest's rules for its rate limiter's four flags, {@code --rate_limit}, {@code --rate_units},
 * {@code --rate_limit_type} and {@code --burst_size}: each flag's own check (perftest's
 * {@code parser}), then the ones that involve the test ({@code force_dependecies}), with
 * perftest's messages. perftest 4.5 prints no rate in its header block, and neither does rocelab.
 *
 * <p>Where rocelab differs, it says so in one line instead of running something else: perftest
 * runs an unchecked limiter when {@code --rate_limit_type} comes without a rate (the SW limiter
 * then never sends its second burst), so rocelab asks for the rate; perftest allows packet pacing
 * (PP) on Raw Ethernet QPs only, rocelab's NIC paces RC, UC and UD QPs; perftest's HW limiter takes
 * only the InfiniBand static rates (and on a RoCE port falls back to its SW limiter), rocelab's NIC
 * paces a QP at any rate, so HW takes any rate too.
 */
final class RateLimitRules {
    /** The four flags as read, before the test is considered. */
    private final String rateText;
    private final double rate;
    private final RateUnits units;
    /** The type asked for ({@code --rate_limit_type}), or HW when only a rate was given; null: no limiter. */
    private final RateLimitType type;
    private final Integer burstSize;

    private RateLimitRules(String rateText, double rate, RateUnits units, RateLimitType type, Integer burstSize) {
        this.rateText = rateText;
        this.rate = rate;
        this.units = units;
        this.type = type;
        this.burstSize = burstSize;
    }

    /** perftest's {@code parser}: each flag alone. */
    static RateLimitRules parse(PerftestCommand c) {
        double rate = 0;
        if (c.rate.rateLimit != null) {
            Double v = CNumbers.parseDouble(c.rate.rateLimit);
            if (v == null || !(v > 0) || v.isInfinite()) {
                throw new OptionException(" Rate limit must be non-negative floating point number");
            }
            rate = v;
        }
        Integer burst = null;
        if (c.rate.burstSize != null) {
            Long v = CNumbers.parse(c.rate.burstSize);
            if (v == null || v > Integer.MAX_VALUE) {
                throw new OptionException(" Burst size argument " + c.rate.burstSize + " should be an integer");
            }
            if (v < 0) {
                throw new OptionException(" Burst size must be non-negative int");
            }
            burst = v.intValue();
        }
        RateUnits units = RateUnits.GIGA_BIT_PS;
        if (c.rate.rateUnits != null) {
            units = RateUnits.ofFlag(c.rate.rateUnits);
            if (units == null) {
                throw new OptionException(" Invalid rate limit units. Please use M,g or p");
            }
        }
        RateLimitType type = null;
        if (c.rate.rateLimitType != null) {
            type = switch (c.rate.rateLimitType) {
                case "HW" -> RateLimitType.HW;
                case "SW" -> RateLimitType.SW;
                case "PP" -> RateLimitType.PP;
                default -> throw new OptionException(" Invalid rate limit type flag. Please use HW, SW or PP.");
            };
        } else if (c.rate.rateLimit != null) {
            // perftest: "if not specified, choose HW rate limiter as default"
            type = RateLimitType.HW;
        }
        return new RateLimitRules(c.rate.rateLimit, rate, units, type, burst);
    }

    /** Whether a rate limiter was asked for (perftest's {@code rate_limit_type != DISABLE_RATE_LIMIT}). */
    boolean limited() {
        return type != null;
    }

    /**
     * perftest's {@code force_dependecies} for the limiter, on settings whose TX depth is final.
     *
     * @return the limit the run keeps, or null when the rate is not limited
     */
    RateLimit resolve(PerftestOptions.Builder b) {
        TestKind kind = b.kind();
        Verb verb = kind.verb();
        if (burstSize != null && burstSize > 0 && type == null) {
            throw new OptionException(" Can't enable burst mode when rate limiter is off");
        }
        if (type == null) {
            return null;
        }
        if (rateText == null) {
            throw new OptionException(type == RateLimitType.PP
                    ? " Must specify a rate limit when using Packet Pacing. Please add --rate_limit=<limit>."
                    : " Must specify a rate limit when using the " + type + " rate limiter. Please add"
                            + " --rate_limit=<limit>.");
        }
        int burst = burstSize == null ? 0 : burstSize;
        if (burst <= 0) {
            if (type == RateLimitType.SW) {
                b.warning(" Setting burst size to tx depth = " + b.txDepth());
            }
            if (type != RateLimitType.PP) {
                burst = b.txDepth();
            }
        }
        switch (type) {
            case SW:
                if (!kind.isBandwidth() || verb == Verb.ATOMIC || verb == Verb.SEND && b.bidirectional()) {
                    throw new OptionException("SW Rate limiter cann't be executed on non-BW, ATOMIC or bidirectional"
                            + " SEND tests");
                }
                break;
            case HW:
                if (b.rdmaCm()) {
                    throw new OptionException(" HW rate limit isn't supported yet with rdma_cm scenarios");
                }
                if (units == RateUnits.PACKET_PS) {
                    throw new OptionException(" Failed: pps rate limit units is not supported when setting HW rate"
                            + " limit");
                }
                // perftest on InfiniBand takes only the IB static rates (2.5, 5, 10, ... Gb/s): the
                // soft NIC's pacer takes any rate, so rocelab does not look the number up
                break;
            case PP:
                if (units != RateUnits.MEGA_BYTE_PS) {
                    throw new OptionException("Packet Pacing only supports MEGA_BYTE_PS.");
                }
                break;
            default:
                throw new AssertionError(type);
        }
        return new RateLimit(type, rate, units, burst, burstSize != null && burstSize > 0);
    }
}
