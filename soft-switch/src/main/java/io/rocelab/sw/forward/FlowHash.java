package io.rocelab.sw.forward;

import io.rocelab.fabric.random.SplitMix64;

/**
 * The seeded ECMP hash of a 5-tuple. RoCEv2 puts all flows on UDP port 4791, so the source port
 * (chosen per QP from 0xC000-0xFFFF) is what spreads them; changing the seed changes the mapping,
 * as a switch's {@code ecmp_hash_seed} does, which is how polarisation between tiers is avoided.
 *
 * <p>IPv6 adds the flow label to the 5-tuple (RFC 6438: the label is for exactly this). A RoCEv2
 * QP keeps its label as it keeps its source port (Linux derives one from the other), so a flow is
 * never split; a host that changes a flow's label on purpose (RFC 6437 allows it, e.g. to leave a
 * failing path) gets a new path, as it wanted.
 */
public final class FlowHash {
    private FlowHash() {
    }

    /** @return a well-mixed 64-bit hash of the flow under {@code seed} */
    public static long of(long seed, int srcIp, int dstIp, int protocol, int srcPort, int dstPort) {
        long h = SplitMix64.mix(seed ^ (((long) srcIp << 32) | (dstIp & 0xFFFF_FFFFL)));
        return SplitMix64.mix(h ^ (((long) protocol << 32) | ((long) srcPort << 16) | dstPort));
    }

    /** @return a well-mixed 64-bit hash of the IPv6 flow (addresses as two longs each) under {@code seed} */
    public static long of6(long seed, long srcHigh, long srcLow, long dstHigh, long dstLow, int nextHeader,
                           int srcPort, int dstPort, int flowLabel) {
        long h = SplitMix64.mix(seed ^ srcHigh);
        h = SplitMix64.mix(h ^ srcLow);
        h = SplitMix64.mix(h ^ dstHigh);
        h = SplitMix64.mix(h ^ dstLow);
        return SplitMix64.mix(h ^ (((long) flowLabel << 40) | ((long) nextHeader << 32) | ((long) srcPort << 16)
            | dstPort));
    }
}
