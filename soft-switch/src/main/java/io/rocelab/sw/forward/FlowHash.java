package io.rocelab.sw.forward;

import io.rocelab.fabric.random.SplitMix64;

/**
 * The seeded ECMP hash of a 5-tuple. RoCEv2 puts all flows on UDP port 4791, so the source port
 * (chosen per QP from 0xC000-0xFFFF) is what spreads them; changing the seed changes the mapping,
 * as a switch's {@code ecmp_hash_seed} does, which is how polarisation between tiers is avoided.
 */
public final class FlowHash {
    private FlowHash() {
    }

    /** @return a well-mixed 64-bit hash of the flow under {@code seed} */
    public static long of(long seed, int srcIp, int dstIp, int protocol, int srcPort, int dstPort) {
        long h = SplitMix64.mix(seed ^ (((long) srcIp << 32) | (dstIp & 0xFFFF_FFFFL)));
        return SplitMix64.mix(h ^ (((long) protocol << 32) | ((long) srcPort << 16) | dstPort));
    }
}
