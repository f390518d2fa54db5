package io.rocelab.sw.vxlan;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.VxlanFrame;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.Udp;
import io.rocelab.codec.header.Vxlan;
import io.rocelab.sw.config.TunnelEcnMode;
import io.rocelab.sw.config.VxlanConfig;
import io.rocelab.sw.forward.FlowHash;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.sw.pipeline.PacketContext;
import io.rocelab.sw.pipeline.ParseStage;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * The switch's VXLAN tunnel endpoint (RFC 7348), the data plane of {@link VxlanConfig}.
 *
 * <ul>
 *   <li><b>Encapsulation</b> ({@link #encapsulate}): a bridged frame of a VLAN mapped to a VNI whose
 *       destination MAC was learned behind a remote VTEP goes to that VTEP; a flooded one (unknown
 *       unicast, broadcast, multicast) goes to every VTEP of the VNI's flood list as well as to the
 *       local members (head-end replication). Outer IPv4 from {@code src_ip}, DF, TTL 64; DSCP by the
 *       tunnel's {@code dscp_mode}; ECN copied from the inner packet (RFC 6040 section 4.1 normal
 *       mode); UDP to 4789 from a source port hashed from the inner flow (RFC 7348 section 5, range
 *       49152-65535), so ECMP in the underlay spreads the tunnel's flows as it spreads RoCE's own.
 *       The switch routes the result as any packet it originates, and the outer header is what the
 *       underlay's classifiers, WRED/ECN and PFC see.</li>
 *   <li><b>Decapsulation</b> ({@link #decapsulate}): a routed IPv4 packet to {@code src_ip}, UDP 4789,
 *       with the I flag: its VNI gives the VLAN (an unmapped VNI is dropped and counted), the inner
 *       source MAC is learned behind the sending VTEP, the inner DSCP follows {@code dscp_mode} and the
 *       inner ECN {@code ecn_mode} (RFC 6040 section 4.2: an outer CE marks an ECT inner packet CE and
 *       drops a Not-ECT one), and the inner frame is bridged to the local members of its VLAN, never
 *       back into the tunnel (split horizon).</li>
 * </ul>
 * Counters per remote VTEP as SONiC names its tunnels to them ({@code EVPN_<ip>}), SAI's in and out
 * packets and octets, and the VTEP's sum. Owner thread only.
 */
public final class Vtep {
    private static final int NO_VNI = -1;
    /** MACs kept behind remote VTEPs at most: a flood of forged inner sources cannot grow the table further. */
    static final int MAX_REMOTE_MACS = 65_536;

    private final VxlanConfig config;
    private final VxlanConfig.Tunnel tunnel;
    private final long routerMac;
    private final long seed;
    private final long agingNanos;
    private final int[] vniByVid = new int[4096];
    private final Int2IntHashMap vidByVni = new Int2IntHashMap(NO_VNI);
    private final int[][] floodByVid = new int[4096][];
    /** Per remote VTEP, in the order they were configured, then learned. */
    private final Map<Integer, TunnelCounters> byRemote = new LinkedHashMap<>();
    /** The same counters by remote VTEP, read on every packet without boxing its address. */
    private final Int2ObjectHashMap<TunnelCounters> countersByIp = new Int2ObjectHashMap<>();
    /** Per port: a member of a VLAN mapped to a VNI (the overlay's side), where no VXLAN packet is decapsulated. */
    private final boolean[] overlayPort;
    /** Inner MACs behind remote VTEPs, keyed as the FDB keys them (VID above the MAC). */
    private final Long2ObjectHashMap<RemoteMac> remoteMacs = new Long2ObjectHashMap<>();

    /** Where an inner MAC was last seen. */
    private static final class RemoteMac {
        int vtep;
        long seen;
    }

    /**
     * @param config     the VTEP's tables (not empty)
     * @param ports      the switch's ports, in order (their VLAN memberships)
     * @param routerMac  the switch's MAC, the outer source
     * @param seed       the switch's hash seed (the outer source port's hash)
     * @param agingNanos how long a MAC learned behind a remote VTEP is kept unseen (the FDB's ageing)
     */
    public Vtep(VxlanConfig config, List<io.rocelab.sw.config.PortConfig> ports, long routerMac, long seed,
                long agingNanos) {
        if (config.isEmpty()) {
            throw new IllegalArgumentException("no VXLAN_TUNNEL");
        }
        this.config = config;
        this.tunnel = config.tunnel();
        this.routerMac = routerMac;
        this.seed = seed;
        this.agingNanos = agingNanos;
        Arrays.fill(vniByVid, NO_VNI);
        for (VxlanConfig.TunnelMap m : config.maps()) {
            vniByVid[m.vid()] = m.vni();
            vidByVni.put(m.vni(), m.vid());
        }
        for (VxlanConfig.TunnelMap m : config.maps()) {
            List<Integer> ips = config.floodList(m.vid());
            floodByVid[m.vid()] = ips.stream().mapToInt(Integer::intValue).toArray();
        }
        for (int ip : config.remoteVteps()) {
            counters(ip);
        }
        overlayPort = new boolean[ports.size()];
        for (int i = 0; i < overlayPort.length; i++) {
            io.rocelab.sw.config.VlanMembership m = ports.get(i).vlans();
            for (VxlanConfig.TunnelMap map : config.maps()) {
                overlayPort[i] |= m != null && m.isMember(map.vid());
            }
        }
    }

    /** @return the VNI of VLAN {@code vid}, or -1 if it is not extended over the tunnel */
    public int vniOf(int vid) {
        return vid > 0 && vid < vniByVid.length ? vniByVid[vid] : NO_VNI;
    }

    /** @return the remote VTEPs VLAN {@code vid} floods to (head-end replication); do not modify */
    public int[] floodList(int vid) {
        int[] ips = floodByVid[vid];
        return ips == null ? new int[0] : ips;
    }

    /**
     * @return the remote VTEP behind which {@code mac} of VLAN {@code vid} was last seen, or 0 if it
     *         was not, or not within the ageing time
     */
    public int remoteOf(int vid, long mac, long now) {
        RemoteMac r = remoteMacs.get(key(vid, mac));
        if (r == null) {
            return 0;
        }
        if (now - r.seen > agingNanos) {
            remoteMacs.remove(key(vid, mac));
            return 0;
        }
        return r.vtep;
    }

    /**
     * @return true if {@code ctx} (parsed) is a VXLAN packet for this VTEP: to the router, IPv4,
     *         {@code src_ip}, UDP 4789, and from the underlay: a port in a VLAN the tunnel extends is a
     *         tenant's, and a tenant's host must not reach into another tenant's VNI by sending VXLAN
     *         itself (its packet goes on as any packet to the router, and finds no route)
     */
    public boolean terminates(PacketContext ctx) {
        return !overlayPort[ctx.ingressPort] && ctx.dstMac == routerMac && ctx.ipVersion == 4 && ctx.l4Protocol == Ipv4.PROTO_UDP
            && ctx.l4Offset >= 0 && Ipv4.dst(ctx.frame, ctx.l3Offset) == tunnel.srcIp()
            && Udp.dstPort(ctx.frame, ctx.l4Offset) == Vxlan.PORT
            && (Ipv4.flagsFragment(ctx.frame, ctx.l3Offset) & (Ipv4.FLAG_MF | Ipv4.FRAGMENT_OFFSET_MASK)) == 0;
    }

    /**
     * Takes the outer headers off a packet {@link #terminates} accepted: the context then describes
     * the inner frame (re-parsed, {@link PacketContext#vid} its VLAN), its DSCP and ECN set by the
     * tunnel's modes. The traffic class the switch gave the packet on arrival (from the outer
     * header, the underlay's class) stays.
     *
     * @return null if the inner frame goes on, or why the packet is dropped
     */
    public DropReason decapsulate(PacketContext ctx, ParseStage parse, long now) {
        ByteBuf b = ctx.frame;
        int udp = ctx.l4Offset;
        int remote = Ipv4.src(b, ctx.l3Offset);
        TunnelCounters c = counters(remote);
        int udpLength = Udp.length(b, udp);
        int vx = udp + Udp.LENGTH;
        if (udpLength < Udp.LENGTH + Vxlan.LENGTH + 14 || !Vxlan.validVni(b, vx)) {
            c.rxDrops++;
            return DropReason.MALFORMED;
        }
        int vid = vidByVni.get(Vxlan.vni(b, vx));
        if (vid == NO_VNI) {
            c.rxDrops++;
            return DropReason.VXLAN_UNKNOWN_VNI;
        }
        int outerDscp = ctx.dscp;
        int outerEcn = ctx.ecn;
        int outerLength = ctx.length;
        b.writerIndex(udp + udpLength);
        b.readerIndex(vx + Vxlan.LENGTH);
        if (!parse.apply(ctx)) {
            c.rxDrops++;
            return DropReason.MALFORMED;
        }
        ctx.length = b.readableBytes();
        if (ctx.ecn >= 0) {
            int ecn = tunnel.ecnMode().inner(outerEcn, ctx.ecn);
            if (ecn == TunnelEcnMode.DROP) {
                c.rxDrops++;
                return DropReason.VXLAN_ECN;
            }
            if (ecn != ctx.ecn) {
                if (ecn == TunnelEcnMode.CE) {
                    c.ceMarked++;
                }
                setEcn(ctx, ecn);
            }
            int dscp = tunnel.dscpMode().inner(outerDscp, ctx.dscp);
            if (dscp != ctx.dscp) {
                setDscp(ctx, dscp);
            }
        }
        ctx.vid = vid;
        c.rxPackets++;
        c.rxBytes += outerLength;
        long key = key(vid, ctx.srcMac);
        RemoteMac r = remoteMacs.get(key);
        if (r == null && ctx.srcMac != 0 && (ctx.srcMac & 0x0100_0000_0000L) == 0
                && remoteMacs.size() < MAX_REMOTE_MACS) {
            r = new RemoteMac();
            remoteMacs.put(key, r);
        }
        if (r != null) {
            r.vtep = remote;
            r.seen = now;
        }
        return null;
    }

    /**
     * The VXLAN packet carrying {@code ctx}'s frame (a bridged frame of a mapped VLAN) to
     * {@code remote}; its outer MACs are the router's to fill in when it routes it.
     *
     * @return a new frame; {@code ctx}'s is left as it is
     */
    public ByteBuf encapsulate(PacketContext ctx, int remote, ByteBufAllocator alloc) {
        int innerDscp = ctx.dscp >= 0 ? ctx.dscp : 0;
        int innerEcn = ctx.ecn >= 0 ? ctx.ecn : 0;
        int dscp = tunnel.dscpMode().outer(innerDscp, tunnel.encapDscp());
        return VxlanFrame.encapsulate(alloc, ctx.frame, new VxlanFrame.Outer(routerMac, routerMac, tunnel.srcIp(),
            remote, dscp, innerEcn, tunnel.ttl(), Vxlan.sourcePort(innerHash(ctx)), vniByVid[ctx.vid]));
    }

    /** An encapsulated packet of {@code bytes} left for {@code remote}. */
    public void sent(int remote, int bytes) {
        TunnelCounters c = counters(remote);
        c.txPackets++;
        c.txBytes += bytes;
    }

    /** An encapsulated packet for {@code remote} was dropped (no route to it). */
    public void notSent(int remote) {
        counters(remote).txDrops++;
    }

    /** The inner flow's hash: its IPv4 5-tuple, else its MACs and EtherType's kind (RFC 7348: "a hash of fields from the inner packet"). */
    private long innerHash(PacketContext ctx) {
        ByteBuf b = ctx.frame;
        if (ctx.ipVersion == 4) {
            int ports = ctx.l4Protocol == Ipv4.PROTO_UDP || ctx.l4Protocol == Ipv4.PROTO_TCP
                ? b.getInt(ctx.l4Offset) : 0;
            return FlowHash.of(seed, Ipv4.src(b, ctx.l3Offset), Ipv4.dst(b, ctx.l3Offset), ctx.l4Protocol,
                ports >>> 16, ports & 0xFFFF);
        }
        if (ctx.ipVersion == 6) {
            int ports = ctx.l4Protocol == Ipv4.PROTO_UDP || ctx.l4Protocol == Ipv4.PROTO_TCP
                ? b.getInt(ctx.l4Offset) : 0;
            return FlowHash.of6(seed, b.getLong(ctx.l3Offset + Ipv6.SRC), b.getLong(ctx.l3Offset + Ipv6.SRC + 8),
                b.getLong(ctx.l3Offset + Ipv6.DST), b.getLong(ctx.l3Offset + Ipv6.DST + 8), ctx.l4Protocol,
                ports >>> 16, ports & 0xFFFF, Ipv6.flowLabel(b, ctx.l3Offset));
        }
        return FlowHash.of(seed, (int) ctx.srcMac, (int) ctx.dstMac, 0, (int) (ctx.srcMac >>> 32),
            (int) (ctx.dstMac >>> 32));
    }

    private static void setEcn(PacketContext ctx, int ecn) {
        if (ctx.ipVersion == 4) {
            Ipv4.setEcn(ctx.frame, ctx.l3Offset, ecn);
        } else {
            Ipv6.setEcn(ctx.frame, ctx.l3Offset, ecn);
        }
        ctx.ecn = ecn;
    }

    private static void setDscp(PacketContext ctx, int dscp) {
        if (ctx.ipVersion == 4) {
            Ipv4.setDscp(ctx.frame, ctx.l3Offset, dscp);
        } else {
            Ipv6.setTrafficClass(ctx.frame, ctx.l3Offset, dscp << 2 | ctx.ecn);
        }
        ctx.dscp = dscp;
    }

    private TunnelCounters counters(int remote) {
        TunnelCounters c = countersByIp.get(remote);
        if (c == null) {
            c = new TunnelCounters();
            countersByIp.put(remote, c);
            byRemote.put(remote, c);
        }
        return c;
    }

    private static long key(int vid, long mac) {
        return (long) vid << 48 | mac;
    }

    /** @return the tables this VTEP runs */
    public VxlanConfig config() {
        return config;
    }

    /** @return a copy of each remote VTEP's counters, in order */
    public Map<Integer, TunnelCounters> counters() {
        Map<Integer, TunnelCounters> out = new LinkedHashMap<>();
        byRemote.forEach((ip, c) -> out.put(ip, c.copy()));
        return out;
    }

    /** @return the VTEP's counters: every remote's summed */
    public TunnelCounters total() {
        TunnelCounters t = new TunnelCounters();
        byRemote.values().forEach(t::add);
        return t;
    }

    /**
     * An inner MAC learned behind a remote VTEP.
     *
     * @param vid    its VLAN
     * @param mac    the MAC
     * @param remote the remote VTEP
     * @param vni    the VLAN's VNI
     */
    public record RemoteMacEntry(int vid, long mac, int remote, int vni) {
    }

    /** @return the MACs learned behind remote VTEPs and not aged out at {@code now}, by VLAN then MAC */
    public List<RemoteMacEntry> remoteMacs(long now) {
        List<RemoteMacEntry> out = new java.util.ArrayList<>();
        remoteMacs.forEach((key, r) -> {
            if (now - r.seen <= agingNanos) {
                int vid = (int) (key >>> 48);
                out.add(new RemoteMacEntry(vid, key & 0xFFFF_FFFF_FFFFL, r.vtep, vniByVid[vid]));
            }
        });
        out.sort(java.util.Comparator.comparingInt(RemoteMacEntry::vid).thenComparingLong(RemoteMacEntry::mac));
        return out;
    }

    /** @return how many inner MACs are known behind remote VTEPs (aged ones may still count) */
    public int remoteMacCount() {
        return remoteMacs.size();
    }
}
