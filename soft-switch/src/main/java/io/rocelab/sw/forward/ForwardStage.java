package io.rocelab.sw.forward;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.header.Udp;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.sw.pipeline.PacketContext;

/**
 * Forwarder: frames to the router MAC are routed (IPv4 longest prefix, ECMP over a seeded 5-tuple
 * hash, optional flowlets; MACs rewritten and TTL decremented), everything else is bridged
 * (learning, flooding of unknown and broadcast destinations, ageing).
 */
public final class ForwardStage {
    private final long routerMac;
    private final long seed;
    private final FdbTable fdb;
    private final RouteTable routes;
    private final FlowletTable flowlets;
    private final PortView ports;

    /**
     * @param routerMac the switch's own MAC: frames addressed to it are routed
     * @param seed      ECMP hash seed
     * @param fdb       the L2 table
     * @param routes    the L3 table
     * @param flowlets  flowlet table, or null for plain per-flow ECMP
     * @param ports     link state and load
     */
    public ForwardStage(long routerMac, long seed, FdbTable fdb, RouteTable routes, FlowletTable flowlets,
                        PortView ports) {
        this.routerMac = routerMac;
        this.seed = seed;
        this.fdb = fdb;
        this.routes = routes;
        this.flowlets = flowlets;
        this.ports = ports;
    }

    /**
     * Sets {@link PacketContext#egressPort} or {@link PacketContext#flood}.
     *
     * @return null if the frame goes on, or why it is dropped
     */
    public DropReason apply(PacketContext ctx, long now) {
        if (!MacAddress.isMulticast(ctx.srcMac)) {
            fdb.learn(ctx.srcMac, ctx.ingressPort, now);
        }
        if (ctx.dstMac == routerMac && ctx.ipVersion == 4) {
            return route(ctx, now);
        }
        if (MacAddress.isMulticast(ctx.dstMac)) {
            ctx.flood = true;
            return null;
        }
        int port = fdb.lookup(ctx.dstMac, now);
        if (port < 0) {
            ctx.flood = true;
            return null;
        }
        if (port == ctx.ingressPort) {
            return DropReason.NO_ROUTE;
        }
        ctx.egressPort = port;
        return null;
    }

    private DropReason route(PacketContext ctx, long now) {
        int dst = Ipv4.dst(ctx.frame, ctx.l3Offset);
        EcmpGroup group = routes.lookup(dst);
        if (group == null) {
            return DropReason.NO_ROUTE;
        }
        if (Ipv4.ttl(ctx.frame, ctx.l3Offset) <= 1) {
            return DropReason.TTL_EXPIRED;
        }
        long hash = hash(ctx, dst);
        int member = flowlets != null ? flowlets.select(hash, group, ports, now) : group.select(hash, ports);
        if (member < 0) {
            return DropReason.NO_ROUTE;
        }
        rewriteMacs(ctx.frame, ctx.frame.readerIndex(), group.mac(member));
        Ipv4.decrementTtl(ctx.frame, ctx.l3Offset);
        ctx.egressPort = group.port(member);
        ctx.routed = true;
        return null;
    }

    /**
     * A routed frame leaves with the next hop's MAC as destination and the router's as source: the
     * 12 address bytes are written as one long and one int instead of four narrower writes.
     */
    private void rewriteMacs(ByteBuf frame, int start, long nextHopMac) {
        frame.setLong(start + Ethernet.DST, (nextHopMac << 16) | (routerMac >>> 32));
        frame.setInt(start + Ethernet.SRC + 2, (int) routerMac);
    }

    private long hash(PacketContext ctx, int dst) {
        int src = Ipv4.src(ctx.frame, ctx.l3Offset);
        int sport = 0;
        int dport = 0;
        if (ctx.l4Protocol == Ipv4.PROTO_UDP || ctx.l4Protocol == Ipv4.PROTO_TCP) {
            sport = Udp.srcPort(ctx.frame, ctx.l4Offset);
            dport = Udp.dstPort(ctx.frame, ctx.l4Offset);
        }
        return FlowHash.of(seed, src, dst, ctx.l4Protocol, sport, dport);
    }

    /** A port went up or down, or was attached: ECMP groups recompute their live members. */
    public void linkStateChanged() {
        routes.invalidateGroups();
    }

    /** @return the flowlet table, or null */
    public FlowletTable flowlets() {
        return flowlets;
    }
}
