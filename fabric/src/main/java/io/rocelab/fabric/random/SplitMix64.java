package io.rocelab.fabric.random;

/**
 * A small, seeded SplitMix64 generator (Steele, Lea, Flood: "Fast splittable pseudorandom number
 * generators", OOPSLA 2014).
 *
 * <p>Why our own rather than {@code java.util.Random} or {@code SplittableRandom}: the output
 * sequence is fixed by this code, not by a JDK version, so a seed printed by a failing test
 * reproduces the failure anywhere; there is deliberately no constructor without a seed. It is fast
 * (one multiply-xorshift chain per number), allocation-free and not thread-safe: each owner thread
 * (each link direction) has its own instance, derived from a base seed with {@link #derive}.
 */
public final class SplitMix64 {

    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;
    private static final double DOUBLE_UNIT = 0x1.0p-53;

    private final long seed;
    private long state;

    /**
     * @param seed the seed; the same seed gives the same sequence
     */
    public SplitMix64(long seed) {
        this.seed = seed;
        this.state = seed;
    }

    /**
     * Derives the seed of an independent stream from a base seed and a stream number, so that one
     * seed configures many generators (one per link direction, per port) reproducibly.
     *
     * @param seed   the base seed
     * @param stream the stream number
     * @return a seed for that stream
     */
    public static long derive(long seed, long stream) {
        return mix(seed + mix(stream + GOLDEN_GAMMA));
    }

    /**
     * The SplitMix64 finaliser (a variant of MurmurHash3's fmix64): a bijective scrambling of 64 bits.
     *
     * @param z input
     * @return scrambled output
     */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /**
     * @return the seed this generator started from, for logs and failure messages
     */
    public long seed() {
        return seed;
    }

    /**
     * @return the next 64 random bits
     */
    public long nextLong() {
        state += GOLDEN_GAMMA;
        return mix(state);
    }

    /**
     * @return a uniform double in [0, 1) with 53 random bits
     */
    public double nextDouble() {
        return (nextLong() >>> 11) * DOUBLE_UNIT;
    }

    /**
     * @param probability in [0, 1]
     * @return {@code true} with that probability; draws a number only if it is strictly between 0 and 1
     */
    public boolean nextBoolean(double probability) {
        if (probability <= 0.0) {
            return false;
        }
        if (probability >= 1.0) {
            return true;
        }
        return nextDouble() < probability;
    }

    /**
     * @param bound exclusive upper bound, {@code > 0}
     * @return a uniform int in [0, bound), without modulo bias
     */
    public int nextInt(int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be > 0: " + bound);
        }
        // the rejection method of java.util.Random#nextInt(int), on 31 bits of our own output
        int r = (int) (nextLong() >>> 33);
        final int m = bound - 1;
        if ((bound & m) == 0) {
            return (int) ((bound * (long) r) >> 31);
        }
        for (int u = r; u - (r = u % bound) + m < 0; u = (int) (nextLong() >>> 33)) {
            // reject values from the incomplete last block
        }
        return r;
    }

    @Override
    public String toString() {
        return "SplitMix64[seed=" + seed + "]";
    }
}
