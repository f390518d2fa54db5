package io.rocelab.sw.forward;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.Udp;
import io.rocelab.fabric.random.SplitMix64;
import io.rocelab.sw.pipeline.PacketContext;

/**
 * Which member of a port channel a frame takes: the switch's ECMP 5-tuple hash ({@link FlowHash},
 * the same seed, the flow label for IPv6), remixed once more so that a port channel behind an ECMP
 * group does not see only the flows that group's choice already sorted (the polarisation a switch
 * avoids by giving its LAG hash an offset from its ECMP hash). A frame without IP is hashed on its
 * MAC addresses and EtherType. One flow, one member: its frames stay in order.
 */
public final class LagHash {
    /** What tells the LAG's hash from the ECMP hash of the same 5-tuple. */
    private static final long LAG_SALT = 0x4C41_4731_0000_0001L;

    private LagHash() {
    }

    /** @return the member-selecting hash of the frame in {@code ctx} (parsed) */
    public static long of(PacketContext ctx, long seed) {
        return SplitMix64.mix(flow(ctx, seed) ^ LAG_SALT);
    }

    private static long flow(PacketContext ctx, long seed) {
        var b = ctx.frame;
        int sport = 0;
        int dport = 0;
        boolean ports = ctx.l4Offset >= 0 && (ctx.l4Protocol == Ipv4.PROTO_UDP || ctx.l4Protocol == Ipv4.PROTO_TCP);
        if (ports) {
            sport = Udp.srcPort(b, ctx.l4Offset);
            dport = Udp.dstPort(b, ctx.l4Offset);
        }
        if (ctx.ipVersion == 4) {
            long addresses = b.getLong(ctx.l3Offset + Ipv4.SRC);
            return FlowHash.of(seed, (int) (addresses >>> 32), (int) addresses, ctx.l4Protocol, sport, dport);
        }
        if (ctx.ipVersion == 6) {
            int l3 = ctx.l3Offset;
            return FlowHash.of6(seed, b.getLong(l3 + Ipv6.SRC), b.getLong(l3 + Ipv6.SRC + 8), b.getLong(l3 + Ipv6.DST),
                b.getLong(l3 + Ipv6.DST + 8), ctx.l4Protocol, sport, dport, Ipv6.flowLabel(b, l3));
        }
        return SplitMix64.mix(SplitMix64.mix(seed ^ ctx.srcMac) ^ ctx.dstMac);
    }
}
