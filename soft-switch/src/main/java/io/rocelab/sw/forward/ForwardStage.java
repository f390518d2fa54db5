package io.rocelab.sw.forward;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.FrameKind;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.header.Udp;
import io.rocelab.sw.lag.LagGroup;
import io.rocelab.sw.lag.PortChannels;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.sw.pipeline.PacketContext;

/**
 * Forwarder: frames to the router MAC are routed (IPv4 or IPv6 longest prefix, ECMP over a seeded
 * 5-tuple hash, with the flow label for IPv6, or the group's adaptive {@link LoadBalancer}: flowlets,
 * flowlets by quality, per-packet spraying; MACs rewritten and TTL or hop
 * limit decremented), everything else is bridged (learning, flooding of unknown and broadcast
 * destinations, ageing).
 *
 * <p>A port channel is one interface here: a MAC is learned on it whichever member brought the
 * frame, a route's next hop may be it, and a frame going to it leaves by the member
 * {@link LagHash} picks among those distributing.
 */
public final class ForwardStage {
    private final long routerMac;
    private final long seed;
    private final FdbTable fdb;
    private final RouteTable routes;
    private final Route6Table routes6;
    private final LoadBalancing balancing;
    private final PortView ports;
    private final PortChannels lags;
    private PeerLinkRules peer = PeerLinkRules.NONE;

    /**
     * @param routerMac the switch's own MAC: frames addressed to it are routed
     * @param seed      ECMP hash seed
     * @param fdb       the L2 table
     * @param routes    the IPv4 L3 table
     * @param routes6   the IPv6 L3 table
     * @param balancing each ECMP group's load balancer
     * @param ports     link state and load, of ports and port channels
     * @param lags      the switch's port channels
     */
    public ForwardStage(long routerMac, long seed, FdbTable fdb, RouteTable routes, Route6Table routes6,
                        LoadBalancing balancing, PortView ports, PortChannels lags) {
        this.lags = lags;
        this.routerMac = routerMac;
        this.seed = seed;
        this.fdb = fdb;
        this.routes = routes;
        this.routes6 = routes6;
        this.balancing = balancing;
        this.ports = ports;
    }

    /**
     * Sets {@link PacketContext#egressPort} or {@link PacketContext#flood}.
     *
     * @return null if the frame goes on, or why it is dropped
     */
    public DropReason apply(PacketContext ctx, long now) {
        int in = lags.interfaceOf(ctx.ingressPort);
        if (!MacAddress.isMulticast(ctx.srcMac) && peer.learnsOn(in)) {
            long key = fdbKey(ctx, ctx.srcMac);
            if (fdb.learn(key, in, now)) {
                peer.learned(key, in);
            }
        }
        if (ctx.dstMac == routerMac && ctx.ipVersion == 4) {
            return route(ctx, now);
        }
        if (ctx.dstMac == routerMac && ctx.ipVersion == 6) {
            return route6(ctx, now);
        }
        if (ctx.dstMac == routerMac && ctx.kind != FrameKind.ARP) {
            // not IP, so not routable (SAI_IN_DROP_REASON_NO_L3_HEADER): a RoCEv1 frame to the gateway, or
            // any other EtherType sent to the router MAC (ARP to it is the host interface's: bridged here)
            return DropReason.NO_L3_HEADER;
        }
        if (MacAddress.isMulticast(ctx.dstMac)) {
            ctx.flood = true;
            return null;
        }
        int port = fdb.lookup(fdbKey(ctx, ctx.dstMac), now);
        if (port < 0) {
            ctx.flood = true;
            return null;
        }
        if (port == in) {
            return DropReason.NO_ROUTE;
        }
        if (peer.isolated(in, port)) {
            return DropReason.MLAG_ISOLATED;
        }
        ctx.egressPort = port;
        return toMember(ctx);
    }

    /**
     * Bridges a frame the switch's VTEP decapsulated: its inner destination in its VLAN's FDB, or
     * flooding; the inner source is not learned here (it lives behind the remote VTEP, which the
     * VTEP remembers), so no local port claims it.
     *
     * @return null if the frame goes on, or why it is dropped
     */
    public DropReason bridgeDecapsulated(PacketContext ctx, long now) {
        if (MacAddress.isMulticast(ctx.dstMac)) {
            ctx.flood = true;
            return null;
        }
        int port = fdb.lookup(fdbKey(ctx, ctx.dstMac), now);
        if (port < 0) {
            ctx.flood = true;
            return null;
        }
        ctx.egressPort = port;
        return toMember(ctx);
    }

    /**
     * Routes a packet the switch itself sends (a VTEP's encapsulated frame) by its IPv4 destination:
     * the longest prefix, the ECMP member its 5-tuple (with the outer UDP source port's entropy)
     * hashes to, the MACs rewritten; its TTL is the sender's own, not decremented.
     *
     * @return null if the packet goes on, or why it is dropped
     */
    public DropReason routeOriginated(PacketContext ctx, long now) {
        ByteBuf b = ctx.frame;
        long addresses = b.getLong(ctx.l3Offset + Ipv4.SRC);
        int dst = (int) addresses;
        EcmpGroup group = routes.lookup(dst);
        if (group == null) {
            return DropReason.NO_ROUTE;
        }
        LoadBalancer lb = balancing.of(group);
        int member = lb.withoutHash(group, ports);
        if (member == EcmpGroup.MANY) {
            member = lb.select(group, hash(ctx, (int) (addresses >>> 32), dst), ctx, now);
        }
        if (member < 0) {
            return DropReason.NO_ROUTE;
        }
        rewriteMacs(b, b.readerIndex(), group.mac(member));
        ctx.egressPort = group.port(member);
        ctx.routed = true;
        return toMember(ctx);
    }

    /** An MLAG peer's rules for the peer link (learning, isolation); {@link PeerLinkRules#NONE} without MLAG. */
    public void setPeerLinkRules(PeerLinkRules rules) {
        peer = rules;
    }

    /** An egress port channel becomes the member for the frame's flow; a plain port stays. */
    private DropReason toMember(PacketContext ctx) {
        LagGroup g = lags.group(ctx.egressPort);
        if (g == null) {
            return null;
        }
        int member = g.select(LagHash.of(ctx, seed));
        if (member < 0) {
            return DropReason.LINK_DOWN;
        }
        ctx.egressPort = member;
        return null;
    }

    private DropReason route(PacketContext ctx, long now) {
        ByteBuf b = ctx.frame;
        int l3 = ctx.l3Offset;
        // source and destination address in one read
        long addresses = b.getLong(l3 + Ipv4.SRC);
        int dst = (int) addresses;
        EcmpGroup group = routes.lookup(dst);
        if (group == null) {
            return DropReason.NO_ROUTE;
        }
        // TTL, protocol and header checksum in one read
        int ttlWord = b.getInt(l3 + Ipv4.TTL);
        if (ttlWord >>> 24 <= 1) {
            return DropReason.TTL_EXPIRED;
        }
        LoadBalancer lb = balancing.of(group);
        int member = lb.withoutHash(group, ports);
        if (member == EcmpGroup.MANY) {
            member = lb.select(group, hash(ctx, (int) (addresses >>> 32), dst), ctx, now);
        }
        if (member < 0) {
            return DropReason.NO_ROUTE;
        }
        rewriteMacs(b, b.readerIndex(), group.mac(member));
        b.setInt(l3 + Ipv4.TTL, decrementTtl(ttlWord));
        ctx.egressPort = group.port(member);
        ctx.routed = true;
        return toMember(ctx);
    }

    /**
     * The TTL decremented and the header checksum patched (RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m'),
     * m the 16-bit word of TTL and protocol), the same bits as the codec's {@code Ipv4.decrementTtl},
     * on the header's bytes 8-11 read and written as one int.
     */
    static int decrementTtl(int ttlWord) {
        int oldWord = ttlWord >>> 16;
        int newWord = oldWord - 0x100;
        int sum = (~ttlWord & 0xFFFF) + (~oldWord & 0xFFFF) + newWord;
        sum = (sum & 0xFFFF) + (sum >>> 16);
        sum = (sum & 0xFFFF) + (sum >>> 16);
        return newWord << 16 | (~sum & 0xFFFF);
    }

    private DropReason route6(PacketContext ctx, long now) {
        ByteBuf b = ctx.frame;
        int l3 = ctx.l3Offset;
        long dstHigh = b.getLong(l3 + Ipv6.DST);
        long dstLow = b.getLong(l3 + Ipv6.DST + 8);
        EcmpGroup group = routes6.lookup(dstHigh, dstLow);
        if (group == null) {
            return DropReason.NO_ROUTE;
        }
        int hopLimit = Ipv6.hopLimit(b, l3);
        if (hopLimit <= 1) {
            return DropReason.TTL_EXPIRED;
        }
        LoadBalancer lb = balancing.of(group);
        int member = lb.withoutHash(group, ports);
        if (member == EcmpGroup.MANY) {
            int sport = 0;
            int dport = 0;
            if (ctx.l4Protocol == Ipv4.PROTO_UDP || ctx.l4Protocol == Ipv4.PROTO_TCP) {
                sport = Udp.srcPort(b, ctx.l4Offset);
                dport = Udp.dstPort(b, ctx.l4Offset);
            }
            long hash = FlowHash.of6(seed, b.getLong(l3 + Ipv6.SRC), b.getLong(l3 + Ipv6.SRC + 8), dstHigh, dstLow,
                ctx.l4Protocol, sport, dport, Ipv6.flowLabel(b, l3));
            member = lb.select(group, hash, ctx, now);
        }
        if (member < 0) {
            return DropReason.NO_ROUTE;
        }
        rewriteMacs(b, b.readerIndex(), group.mac(member));
        // IPv6 has no header checksum: the hop limit is rewritten alone (RFC 8200 section 3)
        b.setByte(l3 + Ipv6.HOP_LIMIT, hopLimit - 1);
        ctx.egressPort = group.port(member);
        ctx.routed = true;
        return toMember(ctx);
    }

    /**
     * The FDB key of a MAC in the frame's VLAN: the VID above the 48 MAC bits, so each VLAN learns
     * on its own (IEEE 802.1Q 8.8.8, independent VLAN learning); VLAN-unaware frames use the MAC.
     */
    static long fdbKey(PacketContext ctx, long mac) {
        return ctx.vid > 0 ? ((long) ctx.vid << 48) | mac : mac;
    }

    /**
     * A routed frame leaves with the next hop's MAC as destination and the router's as source: the
     * 12 address bytes are written as one long and one int instead of four narrower writes.
     */
    private void rewriteMacs(ByteBuf frame, int start, long nextHopMac) {
        frame.setLong(start + Ethernet.DST, (nextHopMac << 16) | (routerMac >>> 32));
        frame.setInt(start + Ethernet.SRC + 2, (int) routerMac);
    }

    private long hash(PacketContext ctx, int src, int dst) {
        int ports = 0;
        if (ctx.l4Protocol == Ipv4.PROTO_UDP || ctx.l4Protocol == Ipv4.PROTO_TCP) {
            // source and destination port in one read
            ports = ctx.frame.getInt(ctx.l4Offset + Udp.SRC_PORT);
        }
        return FlowHash.of(seed, src, dst, ctx.l4Protocol, ports >>> 16, ports & 0xFFFF);
    }

    /** A port went up or down, or was attached: ECMP groups recompute their live members. */
    public void linkStateChanged() {
        routes.invalidateGroups();
        routes6.invalidateGroups();
    }

    /** @return the IPv4 route table (static routes, and those a routing protocol programs): owner thread only */
    public RouteTable routes() {
        return routes;
    }

    /** @return the IPv6 route table: owner thread only */
    public Route6Table routes6() {
        return routes6;
    }

    /** @return the queue-only flowlet table of {@code SWITCH|switch flowlet_timeout}, or null */
    public FlowletTable flowlets() {
        return balancing.queueFlowlets();
    }

    /** @return each group's load balancer and the switch's path changes */
    public LoadBalancing balancing() {
        return balancing;
    }
}
