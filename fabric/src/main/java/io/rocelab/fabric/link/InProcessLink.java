package io.rocelab.fabric.link;

import io.rocelab.fabric.random.SplitMix64;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.fabric.wire.EthernetFraming;

import java.lang.System.Logger.Level;
import java.util.Objects;

/**
 * Two {@link LinkPort}s joined in memory, full duplex, with a line rate, Ethernet framing overhead,
 * a FIFO transmit queue per direction, a propagation delay, seeded faults and an up/down state.
 *
 * <p>Why: it is the default transport of labs and tests. In {@linkplain
 * io.rocelab.fabric.time.VirtualTimeScheduler virtual time} it reproduces the timing of a real link
 * exactly (a 1500-byte frame at 100 Gb/s arrives (1500 + 24) × 8 / 10^11 s + propagation after it
 * was sent, rounded up to the nanosecond) and, given its seed, the same faults on every run. In
 * real time it hands frames over between the event loops of the two ends.
 *
 * <p>Threading: each port names its owner scheduler; the direction towards a port runs on that
 * port's owner (see {@link LinkDirection}). With one scheduler for both ends (virtual time) the
 * whole link is single-threaded.
 *
 * <p>Randomness: one seed per link (default {@link #DEFAULT_SEED}, so an unconfigured link is
 * reproducible too); each direction derives its own generator from it. The seed is logged at
 * DEBUG level and available from {@link #seed()} so that a failing run can be replayed.
 *
 * <pre>{@code
 * InProcessLink link = InProcessLink.builder().name("h1-s1")
 *     .rateGbps(100).propagationDelayNanos(500)
 *     .faults(FaultProfile.NONE.withLoss(0.01)).seed(42)
 *     .build(scheduler);
 * link.portB().setReceiver((port, frame) -> { ...; frame.release(); });
 * link.portA().send(frame);   // arrives at B 122 + 500 ns later for 1500 bytes
 * }</pre>
 */
public final class InProcessLink {

    /** The seed of a link built without {@link Builder#seed(long)}. */
    public static final long DEFAULT_SEED = 0x5EED_2024_0001L;

    private static final System.Logger LOG = System.getLogger(InProcessLink.class.getName());

    private final String name;
    private final long seed;
    private final long rateBitsPerSecond;
    private final long propagationDelayNanos;
    private final int overheadBytes;
    private final int minFrameBytes;
    private final LinkPort portA;
    private final LinkPort portB;
    private final LinkDirection aToB;
    private final LinkDirection bToA;
    private volatile boolean up;

    private InProcessLink(Builder b, Scheduler ownerA, Scheduler ownerB) {
        this.name = b.name;
        this.seed = b.seed;
        this.rateBitsPerSecond = b.rateBitsPerSecond;
        this.propagationDelayNanos = b.propagationDelayNanos;
        this.overheadBytes = b.overheadBytes;
        this.minFrameBytes = b.minFrameBytes;
        this.up = b.up;
        this.portA = new LinkPort(b.portNameA != null ? b.portNameA : name + ".a", this, ownerA, b.up);
        this.portB = new LinkPort(b.portNameB != null ? b.portNameB : name + ".b", this, ownerB, b.up);
        this.aToB = new LinkDirection(name + " a->b", ownerB, portB, rateBitsPerSecond, propagationDelayNanos,
            minFrameBytes, overheadBytes, SplitMix64.derive(seed, 1), b.faultsAToB, b.up);
        this.bToA = new LinkDirection(name + " b->a", ownerA, portA, rateBitsPerSecond, propagationDelayNanos,
            minFrameBytes, overheadBytes, SplitMix64.derive(seed, 2), b.faultsBToA, b.up);
        portA.connect(aToB, bToA);
        portB.connect(bToA, aToB);
        LOG.log(Level.DEBUG, () -> "link " + name + ": seed " + seed + ", " + rateBitsPerSecond + " bit/s, "
            + propagationDelayNanos + " ns, faults a->b " + b.faultsAToB + ", b->a " + b.faultsBToA);
    }

    /**
     * @return a builder with an unlimited rate, no delay, no faults, the link up
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @return the link's name
     */
    public String name() {
        return name;
    }

    /**
     * @return the seed all of this link's random decisions derive from
     */
    public long seed() {
        return seed;
    }

    /**
     * @return the line rate, 0 for unlimited
     */
    public long rateBitsPerSecond() {
        return rateBitsPerSecond;
    }

    /**
     * @return the propagation delay
     */
    public long propagationDelayNanos() {
        return propagationDelayNanos;
    }

    /**
     * @return the per-frame wire overhead in bytes
     */
    public int overheadBytes() {
        return overheadBytes;
    }

    /**
     * @return the length short frames are padded to on the wire
     */
    public int minFrameBytes() {
        return minFrameBytes;
    }

    /**
     * @return end A
     */
    public LinkPort portA() {
        return portA;
    }

    /**
     * @return end B
     */
    public LinkPort portB() {
        return portB;
    }

    /**
     * @return the direction from A to B
     */
    public LinkDirection aToB() {
        return aToB;
    }

    /**
     * @return the direction from B to A
     */
    public LinkDirection bToA() {
        return bToA;
    }

    /**
     * @return the state last requested with {@link #setUp(boolean)}
     */
    public boolean isUp() {
        return up;
    }

    /**
     * Takes the link down or brings it back up, like pulling and replugging a cable. Going down drops
     * (and counts) every frame in flight and every frame sent until it comes back. Each port applies
     * the change on its owner thread (right away if that is the calling thread) and then tells its
     * listeners.
     *
     * @param newState {@code true} for up
     */
    public void setUp(boolean newState) {
        up = newState;
        portA.requestLinkState(newState);
        portB.requestLinkState(newState);
    }

    @Override
    public String toString() {
        return "InProcessLink[" + name + ", seed=" + seed + ", " + rateBitsPerSecond + " bit/s, "
            + propagationDelayNanos + " ns" + (up ? "" : ", down") + "]";
    }

    /** Configures an {@link InProcessLink}; every setter validates its argument. */
    public static final class Builder {
        private String name = "link";
        private String portNameA;
        private String portNameB;
        private long rateBitsPerSecond;
        private long propagationDelayNanos;
        private int overheadBytes = EthernetFraming.DEFAULT_OVERHEAD_BYTES;
        private int minFrameBytes = EthernetFraming.MIN_FRAME_BYTES;
        private long seed = DEFAULT_SEED;
        private FaultProfile faultsAToB = FaultProfile.NONE;
        private FaultProfile faultsBToA = FaultProfile.NONE;
        private boolean up = true;

        private Builder() {
        }

        /**
         * @param linkName used in port names ({@code name.a}, {@code name.b}), logs and counters
         * @return this
         */
        public Builder name(String linkName) {
            this.name = Objects.requireNonNull(linkName, "linkName");
            return this;
        }

        /**
         * @param a name of port A
         * @param b name of port B
         * @return this
         */
        public Builder portNames(String a, String b) {
            this.portNameA = Objects.requireNonNull(a, "a");
            this.portNameB = Objects.requireNonNull(b, "b");
            return this;
        }

        /**
         * @param bitsPerSecond line rate in bit/s, e.g. {@code 100_000_000_000L}; 0 means unlimited
         *                      (no serialization delay, no queueing)
         * @return this
         */
        public Builder rateBitsPerSecond(long bitsPerSecond) {
            if (bitsPerSecond < 0 || bitsPerSecond > 1_000_000_000_000_000L) {
                throw new IllegalArgumentException("bitsPerSecond must be in [0, 1e15]: " + bitsPerSecond);
            }
            this.rateBitsPerSecond = bitsPerSecond;
            return this;
        }

        /**
         * @param gigabitsPerSecond line rate in Gb/s, e.g. 100
         * @return this
         */
        public Builder rateGbps(long gigabitsPerSecond) {
            if (gigabitsPerSecond < 0 || gigabitsPerSecond > 1_000_000L) {
                throw new IllegalArgumentException("gigabitsPerSecond must be in [0, 1e6]: " + gigabitsPerSecond);
            }
            return rateBitsPerSecond(gigabitsPerSecond * 1_000_000_000L);
        }

        /**
         * @param nanos time from the last bit leaving to the last bit arriving (about 5 ns per metre
         *              of fibre or copper)
         * @return this
         */
        public Builder propagationDelayNanos(long nanos) {
            if (nanos < 0) {
                throw new IllegalArgumentException("propagationDelayNanos must be >= 0: " + nanos);
            }
            this.propagationDelayNanos = nanos;
            return this;
        }

        /**
         * @param bytes wire bytes added to every frame; default
         *              {@link EthernetFraming#DEFAULT_OVERHEAD_BYTES} (FCS, preamble, SFD, gap)
         * @return this
         */
        public Builder overheadBytes(int bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("overheadBytes must be >= 0: " + bytes);
            }
            this.overheadBytes = bytes;
            return this;
        }

        /**
         * @param bytes shorter frames occupy this many bytes on the wire; default
         *              {@link EthernetFraming#MIN_FRAME_BYTES}, 0 for none
         * @return this
         */
        public Builder minFrameBytes(int bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("minFrameBytes must be >= 0: " + bytes);
            }
            this.minFrameBytes = bytes;
            return this;
        }

        /**
         * @param value seed of the fault generators of both directions
         * @return this
         */
        public Builder seed(long value) {
            this.seed = value;
            return this;
        }

        /**
         * @param profile faults of both directions
         * @return this
         */
        public Builder faults(FaultProfile profile) {
            return faultsAToB(profile).faultsBToA(profile);
        }

        /**
         * @param profile faults of the direction A to B
         * @return this
         */
        public Builder faultsAToB(FaultProfile profile) {
            this.faultsAToB = Objects.requireNonNull(profile, "profile");
            return this;
        }

        /**
         * @param profile faults of the direction B to A
         * @return this
         */
        public Builder faultsBToA(FaultProfile profile) {
            this.faultsBToA = Objects.requireNonNull(profile, "profile");
            return this;
        }

        /**
         * @param initiallyUp the state the link starts in
         * @return this
         */
        public Builder up(boolean initiallyUp) {
            this.up = initiallyUp;
            return this;
        }

        /**
         * Builds a link whose two ends share one scheduler (virtual time, or one event loop).
         *
         * @param scheduler owner of both ends
         * @return the link
         */
        public InProcessLink build(Scheduler scheduler) {
            return build(scheduler, scheduler);
        }

        /**
         * Builds a link between two owners (e.g. two NICs on two event loops).
         *
         * @param ownerA scheduler of whatever is attached to port A
         * @param ownerB scheduler of whatever is attached to port B
         * @return the link
         */
        public InProcessLink build(Scheduler ownerA, Scheduler ownerB) {
            return new InProcessLink(this, Objects.requireNonNull(ownerA, "ownerA"),
                Objects.requireNonNull(ownerB, "ownerB"));
        }
    }
}
