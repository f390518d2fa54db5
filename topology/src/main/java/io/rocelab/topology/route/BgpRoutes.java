package io.rocelab.topology.route;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.routing.Ipv6Prefix;
import io.rocelab.sw.config.BgpConfig;
import io.rocelab.sw.config.SwitchConfigBuilder;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.model.RouteFiller;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * eBGP on every switch-to-switch link, as RFC 7938 lays out a datacenter (section 5.2) and SONiC's
 * T0/T1 configurations number it: the switches start with their hosts' routes only ({@code STATIC_ROUTE}
 * /32s and /128s, see {@link EcmpRoutes#EcmpRoutes(boolean)}) and learn the rest, IPv6 too (MP-BGP over
 * the IPv4 sessions).
 *
 * <p>ASNs (section 5.2.1): every switch with hosts (a leaf, a fat tree's edge) its own, 65001 on (4-byte
 * private ASNs from 4200000000 past 98 of them); the top tier (spines, cores) one, 65100; a tier in
 * between one per group of switches serving the same switches below (a fat tree pod's aggregation
 * layer), 65200 on. Tiers are the hop distance from the nearest switch with hosts.
 *
 * <p>Addresses: link k between two switches is 10.254.x.y/31, the upper tier's end (or the link's
 * first end between equals) the even address, as SONiC's T1 configuration gives the T1 side; each
 * switch's router ID is 10.255.x.y. Every switch originates its rack: the /24 (IPv6: /64) its hosts
 * share if it holds all of that prefix's hosts, else their /32s (/128s).
 */
public final class BgpRoutes implements RouteFiller {
    /** 10.254.0.0/16: the fabric links' /31s. */
    static final int LINK_BASE = 10 << 24 | 254 << 16;
    /** 10.255.0.0/16: router IDs. */
    static final int ROUTER_ID_BASE = 10 << 24 | 255 << 16;
    static final long LEAF_ASN = 65001;
    static final long LEAF_ASN_4BYTE = 4_200_000_000L;
    static final long TOP_ASN = 65100;
    static final long MIDDLE_ASN = 65200;

    private final Routing routing;

    public BgpRoutes(Routing routing) {
        this.routing = routing;
    }

    private record Edge(String port, int to, int localAddr, int peerAddr) {
    }

    @Override
    public void fill(List<Host> hosts, Map<String, Long> routerMacs, List<Link> links,
                     Map<String, SwitchConfigBuilder> tables) {
        new EcmpRoutes(false).fill(hosts, routerMacs, links, tables);
        List<String> names = new ArrayList<>(routerMacs.keySet());
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < names.size(); i++) {
            index.put(names.get(i), i);
        }
        Map<String, Host> hostsByName = new HashMap<>();
        hosts.forEach(h -> hostsByName.put(h.name(), h));
        int n = names.size();
        List<List<Edge>> edges = new ArrayList<>();
        List<List<Integer>> local = new ArrayList<>();
        List<List<String>> local6 = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            edges.add(new ArrayList<>());
            local.add(new ArrayList<>());
            local6.add(new ArrayList<>());
        }
        List<Link> fabricLinks = new ArrayList<>();
        for (Link l : links) {
            Integer a = index.get(l.a().node());
            Integer b = index.get(l.b().node());
            if (a != null && b != null) {
                fabricLinks.add(l);
            } else if (a != null && hostsByName.containsKey(l.b().node())) {
                local.get(a).add(hostsByName.get(l.b().node()).ipv4Of(l.b().port()));
                local6.get(a).addAll(hostsByName.get(l.b().node()).ipv6Of(l.b().port()));
            } else if (b != null && hostsByName.containsKey(l.a().node())) {
                local.get(b).add(hostsByName.get(l.a().node()).ipv4Of(l.a().port()));
                local6.get(b).addAll(hostsByName.get(l.a().node()).ipv6Of(l.a().port()));
            }
        }
        int[] tier = tiers(n, local, fabricLinks, index);
        int k = 0;
        for (Link l : fabricLinks) {
            int a = index.get(l.a().node());
            int b = index.get(l.b().node());
            boolean aUpper = tier[a] >= tier[b];
            int even = LINK_BASE + 2 * k++;
            int aAddr = aUpper ? even : even + 1;
            int bAddr = aUpper ? even + 1 : even;
            edges.get(a).add(new Edge(l.a().port(), b, aAddr, bAddr));
            edges.get(b).add(new Edge(l.b().port(), a, bAddr, aAddr));
        }
        long[] asn = asns(n, tier, edges);
        List<Set<String>> networks = networks(n, local);
        List<Set<String>> networks6 = networks6(n, local6);
        for (Map.Entry<String, SwitchConfigBuilder> e : tables.entrySet()) {
            int s = index.get(e.getKey());
            List<BgpConfig.Neighbor> neighbors = new ArrayList<>();
            for (Edge edge : edges.get(s)) {
                if (!tables.containsKey(names.get(edge.to))) {
                    continue; // a switch with a configuration of its own speaks BGP only if that says so
                }
                neighbors.add(new BgpConfig.Neighbor(edge.port, edge.localAddr, edge.peerAddr, asn[edge.to],
                    names.get(edge.to), true));
            }
            e.getValue().bgp(new BgpConfig(asn[s], ROUTER_ID_BASE + s + 1, routing.keepaliveNanos(), routing.holdNanos(),
                BgpConfig.SONIC_CONNECT_NANOS, routing.mraiNanos(), routing.processingNanos(), routing.bfd(), true,
                neighbors, concat(networks.get(s), networks6.get(s))));
        }
    }

    /** Hops from the nearest switch with hosts; a switch no host reaches is tier 0. */
    private static int[] tiers(int n, List<List<Integer>> local, List<Link> fabricLinks, Map<String, Integer> index) {
        List<List<Integer>> adj = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            adj.add(new ArrayList<>());
        }
        for (Link l : fabricLinks) {
            int a = index.get(l.a().node());
            int b = index.get(l.b().node());
            adj.get(a).add(b);
            adj.get(b).add(a);
        }
        int[] d = new int[n];
        Arrays.fill(d, -1);
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int i = 0; i < n; i++) {
            if (!local.get(i).isEmpty()) {
                d[i] = 0;
                queue.add(i);
            }
        }
        while (!queue.isEmpty()) {
            int u = queue.poll();
            for (int v : adj.get(u)) {
                if (d[v] < 0) {
                    d[v] = d[u] + 1;
                    queue.add(v);
                }
            }
        }
        for (int i = 0; i < n; i++) {
            d[i] = Math.max(d[i], 0);
        }
        return d;
    }

    private static long[] asns(int n, int[] tier, List<List<Edge>> edges) {
        int top = Arrays.stream(tier).max().orElse(0);
        long[] asn = new long[n];
        int leaves = (int) Arrays.stream(tier).filter(t -> t == 0).count();
        int leaf = 0;
        Map<Set<Integer>, Long> groups = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            if (tier[i] == 0) {
                asn[i] = leaves <= 98 ? LEAF_ASN + leaf : LEAF_ASN_4BYTE + leaf;
                leaf++;
            } else if (tier[i] == top) {
                asn[i] = TOP_ASN;
            } else {
                Set<Integer> below = new TreeSet<>();
                for (Edge e : edges.get(i)) {
                    if (tier[e.to] < tier[i]) {
                        below.add(e.to);
                    }
                }
                int ti = tier[i];
                below.add(-1 - ti); // groups are per tier
                asn[i] = groups.computeIfAbsent(below, x -> MIDDLE_ASN + groups.size());
            }
        }
        return asn;
    }

    private static List<String> concat(Set<String> a, Set<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** Each switch's IPv6 rack: the /64 of its hosts where it holds all of that /64's hosts, else their /128s. */
    private static List<Set<String>> networks6(int n, List<List<String>> local6) {
        Map<Ipv6Prefix, Integer> owner = new HashMap<>();
        for (int s = 0; s < n; s++) {
            for (String a : local6.get(s)) {
                int me = s;
                owner.merge(rack6(a), s, (x, y) -> x == me ? x : -1);
            }
        }
        List<Set<String>> out = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            Set<String> mine = new LinkedHashSet<>();
            for (String a : local6.get(s)) {
                Ipv6Prefix rack = rack6(a);
                mine.add(owner.get(rack) == s ? rack.toString() : Ipv6Prefix.parse(a).toString());
            }
            out.add(mine);
        }
        return out;
    }

    private static Ipv6Prefix rack6(String address) {
        Ipv6Prefix p = Ipv6Prefix.parse(address);
        return new Ipv6Prefix(p.high(), p.low(), 64);
    }

    /** Each switch's rack: the /24 of its hosts where it holds all of that /24's hosts, else their /32s. */
    private static List<Set<String>> networks(int n, List<List<Integer>> local) {
        Map<Integer, Integer> owner = new HashMap<>();
        for (int s = 0; s < n; s++) {
            for (int ip : local.get(s)) {
                int me = s;
                owner.merge(ip & 0xFFFF_FF00, s, (x, y) -> x == me ? x : -1);
            }
        }
        List<Set<String>> out = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            Set<String> mine = new LinkedHashSet<>();
            for (int ip : local.get(s)) {
                int rack = ip & 0xFFFF_FF00;
                mine.add(owner.get(rack) == s ? Ipv4.toString(rack) + "/24" : Ipv4.toString(ip) + "/32");
            }
            out.add(mine);
        }
        return out;
    }
}
