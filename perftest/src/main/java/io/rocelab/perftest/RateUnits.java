package io.rocelab.perftest;

/**
 * perftest's {@code --rate_units}: what the number of {@code --rate_limit} counts. perftest calls
 * {@code M} "MiBps" and converts it with 1,048,576 bytes for the HW and SW limiters (and with
 * 8 × 1024 kb/s per unit for packet pacing); {@code p} counts the messages the send loop posts.
 */
public enum RateUnits {
    /** {@code M}: MiB per second. */
    MEGA_BYTE_PS("M"),
    /** {@code g}: 10^9 bits per second, the default. */
    GIGA_BIT_PS("g"),
    /** {@code p}: messages ("packets") per second; the SW limiter only. */
    PACKET_PS("p");

    private final String flag;

    RateUnits(String flag) {
        this.flag = flag;
    }

    /** The letter {@code --rate_units} takes. */
    public String flag() {
        return flag;
    }

    /** The units {@code --rate_units} names by {@code letter} (case matters, as in perftest), or null. */
    public static RateUnits ofFlag(String letter) {
        for (RateUnits u : values()) {
            if (u.flag.equals(letter)) {
                return u;
            }
        }
        return null;
    }
}
