package io.rocelab.topology.workload;

import io.rocelab.fabric.random.SplitMix64;

/** Every message {@code bytes} long. */
record FixedSize(long bytes) implements SizeDistribution {
    FixedSize {
        if (bytes < 1) {
            throw new IllegalArgumentException("message size must be >= 1 byte, not " + bytes);
        }
    }

    @Override
    public long sample(SplitMix64 random) {
        return bytes;
    }

    @Override
    public double meanBytes() {
        return bytes;
    }

    @Override
    public long maxBytes() {
        return bytes;
    }

    @Override
    public String describe() {
        return bytes + " B";
    }
}
