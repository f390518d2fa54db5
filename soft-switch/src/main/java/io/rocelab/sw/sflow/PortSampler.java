package io.rocelab.sw.sflow;

import java.util.SplittableRandom;

/**
 * One port's packet sampler: takes one packet in {@code rate} at random, as the sFlow v5
 * specification (section "Packet Flow Sampling") describes it: a skip count drawn uniformly so that
 * its mean is the rate (here 1 to 2 x rate - 1), counted down with each packet; the packet that
 * brings it to zero is sampled and a new skip is drawn. The generator is seeded: one seed, one
 * sequence of samples, in virtual time as in real time. Owner thread only.
 */
public final class PortSampler {
    private final int rate;
    private final SplittableRandom random;
    private long skip;
    /** {@code sample_pool}: packets seen (skipped and sampled), 32-bit in the datagram. */
    private long pool;
    /** Samples taken: the flow sample {@code sequence_number}. */
    private long taken;

    /**
     * @param rate one packet in this many (1: every packet)
     * @param seed seed of the skip counts
     */
    public PortSampler(int rate, long seed) {
        if (rate < 1) {
            throw new IllegalArgumentException("sampling rate " + rate);
        }
        this.rate = rate;
        this.random = new SplittableRandom(seed);
        this.skip = nextSkip();
    }

    private long nextSkip() {
        return rate == 1 ? 1 : 1 + random.nextLong(2L * rate - 1);
    }

    /** A packet went by: @return whether it is sampled */
    public boolean offer() {
        pool++;
        if (--skip > 0) {
            return false;
        }
        skip = nextSkip();
        taken++;
        return true;
    }

    /** @return one packet in this many */
    public int rate() {
        return rate;
    }

    /** @return packets seen */
    public long pool() {
        return pool;
    }

    /** @return samples taken */
    public long taken() {
        return taken;
    }
}
