package io.rocelab.topology.model;

import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.sw.config.ConfigLoader;
import java.util.Objects;

/**
 * A full-duplex cable between two attachment points, with its line rate, propagation delay and
 * faults (the fabric's {@link FaultProfile}, the same both ways), up or down when the fabric starts.
 *
 * @param name                  unique link name
 * @param a                     one end
 * @param b                     the other end
 * @param speedBitsPerSecond    line rate; 0 to take the ends' port speeds
 * @param propagationDelayNanos time on the cable
 * @param cableMeters           cable length if the delay came from one (it also sizes the switches'
 *                              PFC headroom, {@code CABLE_LENGTH}), else -1
 * @param faults                loss, corruption, duplication, reordering
 * @param up                    the state the link starts in
 */
public record Link(String name, Attachment a, Attachment b, long speedBitsPerSecond, long propagationDelayNanos,
                   int cableMeters, FaultProfile faults, boolean up) {
    public Link {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        Objects.requireNonNull(faults, "faults");
    }

    /** @return a builder of the link from {@code a} to {@code b}, named {@code a--b} */
    public static Builder between(Attachment a, Attachment b) {
        return new Builder(a, b);
    }

    /** @return a builder of the link from {@code a} to {@code b} ({@code node:port} or a host's name) */
    public static Builder between(String a, String b) {
        return new Builder(Attachment.parse(a), Attachment.parse(b));
    }

    /** @return a copy with line rate {@code bitsPerSecond} */
    public Link withSpeed(long bitsPerSecond) {
        return new Link(name, a, b, bitsPerSecond, propagationDelayNanos, cableMeters, faults, up);
    }

    /** @return the end of this link on {@code node}, or null */
    public Attachment endOn(String node) {
        return a.node().equals(node) ? a : b.node().equals(node) ? b : null;
    }

    /** @return the end opposite {@code end} */
    public Attachment other(Attachment end) {
        return end.equals(a) ? b : a;
    }

    /** Fills in a {@link Link}. */
    public static final class Builder {
        private final Attachment a;
        private final Attachment b;
        private String name;
        private long speed;
        private long delay = 5 * ConfigLoader.NANOS_PER_METRE;
        private int cable = -1;
        private FaultProfile faults = FaultProfile.NONE;
        private boolean up = true;

        private Builder(Attachment a, Attachment b) {
            this.a = Objects.requireNonNull(a, "a");
            this.b = Objects.requireNonNull(b, "b");
        }

        public Builder name(String linkName) {
            name = Objects.requireNonNull(linkName, "linkName");
            return this;
        }

        public Builder speedBitsPerSecond(long bitsPerSecond) {
            if (bitsPerSecond < 0) {
                throw new IllegalArgumentException("link speed must be >= 0: " + bitsPerSecond);
            }
            speed = bitsPerSecond;
            return this;
        }

        public Builder speedGbps(long gbps) {
            return speedBitsPerSecond(gbps * 1_000_000_000L);
        }

        /** The delay of a cable of {@code meters} (5 ns a metre); the switches size PFC headroom for it. */
        public Builder cableMeters(int meters) {
            if (meters < 0) {
                throw new IllegalArgumentException("cable length must be >= 0: " + meters);
            }
            cable = meters;
            delay = meters * ConfigLoader.NANOS_PER_METRE;
            return this;
        }

        public Builder propagationDelayNanos(long nanos) {
            if (nanos < 0) {
                throw new IllegalArgumentException("propagation delay must be >= 0: " + nanos);
            }
            delay = nanos;
            cable = -1;
            return this;
        }

        public Builder faults(FaultProfile profile) {
            faults = Objects.requireNonNull(profile, "profile");
            return this;
        }

        public Builder up(boolean initiallyUp) {
            up = initiallyUp;
            return this;
        }

        public Link build() {
            return new Link(name != null ? name : a + "--" + b, a, b, speed, delay, cable, faults, up);
        }
    }
}
