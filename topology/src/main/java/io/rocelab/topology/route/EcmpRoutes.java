package io.rocelab.topology.route;

import io.rocelab.sw.config.RouteConfig;
import io.rocelab.sw.config.SwitchConfigBuilder;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.model.RouteFiller;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Static routes over every equal-cost shortest path, as a routing protocol with ECMP would install
 * them, written as {@code STATIC_ROUTE}s (a route with several next hops is an ECMP group).
 *
 * <p>Each switch gets: a host route (/32, /128) to each host cabled to it; for every other switch
 * with hosts (a rack), the rack's prefixes (the /24 and IPv6 /64 its hosts share, or their host
 * routes where a prefix is spread over racks) through each neighbour one hop closer to that rack.
 * The table is then aggregated as fabrics are: the racks of one /16 (IPv6 /32, a pod or a leaf-spine
 * fabric) that all leave by the same next hops become one route, and the largest group of routes
 * with the same next hops becomes the default route. A leaf then holds its hosts and one route up
 * over all spines; a fat tree's edge switch its hosts and a default over its pod's aggregation
 * switches, an aggregation switch its pod's racks and a default over its cores, a core one route per pod.
 * A route the tables already have (same prefix text) is left as it is.
 */
public final class EcmpRoutes implements RouteFiller {
    private final boolean fabric;

    /** Every route, IPv4 and IPv6. */
    public EcmpRoutes() {
        this(true);
    }

    /**
     * @param fabric false: host routes only (IPv4 and IPv6), the routes between racks being a routing
     *               protocol's ({@link BgpRoutes})
     */
    public EcmpRoutes(boolean fabric) {
        this.fabric = fabric;
    }

    /** Rack prefixes: hosts share an IPv4 /24 and an IPv6 /64. */
    static final int RACK4 = 24;
    static final int RACK6 = 64;
    /** Aggregates: an IPv4 /16 and an IPv6 /32. */
    static final int POD4 = 16;
    static final int POD6 = 32;

    private record Edge(String port, int to) {
    }

    /** A host's port cabled to a switch's port: the port's addresses are what the switch routes to it. */
    private record HostPort(Host host, String hostPort, String switchPort) {
        int ipv4() {
            return host.ipv4Of(hostPort);
        }

        long mac() {
            return host.macOf(hostPort);
        }

        List<String> ipv6() {
            return host.ipv6Of(hostPort);
        }
    }

    /** A route being put together: prefix, next hops, how many hosts it reaches. */
    private record Entry(Prefix prefix, List<RouteConfig.NextHop> hops, int hosts) {
    }

    /** Longest prefix first, then by address: the order a person reads a routing table in. */
    private static final java.util.Comparator<Entry> LONGEST_FIRST = (x, y) -> {
        int c = Integer.compare(y.prefix.length(), x.prefix.length());
        c = c != 0 ? c : Long.compareUnsigned(x.prefix.high(), y.prefix.high());
        return c != 0 ? c : Long.compareUnsigned(x.prefix.low(), y.prefix.low());
    };

    @Override
    public void fill(List<Host> hosts, Map<String, Long> routerMacs, List<Link> links,
                     Map<String, SwitchConfigBuilder> tables) {
        List<String> names = new ArrayList<>(routerMacs.keySet());
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < names.size(); i++) {
            index.put(names.get(i), i);
        }
        Map<String, Host> hostsByName = new HashMap<>();
        hosts.forEach(h -> hostsByName.put(h.name(), h));
        int n = names.size();
        List<List<Edge>> edges = new ArrayList<>();
        List<List<HostPort>> local = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            edges.add(new ArrayList<>());
            local.add(new ArrayList<>());
        }
        for (Link l : links) {
            Integer a = index.get(l.a().node());
            Integer b = index.get(l.b().node());
            if (a != null && b != null) {
                edges.get(a).add(new Edge(l.a().port(), b));
                edges.get(b).add(new Edge(l.b().port(), a));
            } else if (a != null && hostsByName.containsKey(l.b().node())) {
                local.get(a).add(new HostPort(hostsByName.get(l.b().node()), l.b().port(), l.a().port()));
            } else if (b != null && hostsByName.containsKey(l.a().node())) {
                local.get(b).add(new HostPort(hostsByName.get(l.a().node()), l.a().port(), l.b().port()));
            }
        }
        List<List<Prefix>> racks = racks(n, local);
        Map<Prefix, Integer> hostsPerPod = new HashMap<>();
        for (Host h : hosts) {
            hostsPerPod.merge(Prefix.ipv4(h.ipv4(), POD4), 1, Integer::sum);
            for (String a : h.ipv6()) {
                hostsPerPod.merge(Prefix.ipv6(a, POD6), 1, Integer::sum);
            }
            if (h.portCount() == 2 && !h.bonded()) {
                hostsPerPod.merge(Prefix.ipv4(h.ipv4Of(Host.PORT2), POD4), 1, Integer::sum);
            }
        }
        int[][] dist = new int[n][];
        for (int r = 0; r < n; r++) {
            if (!racks.get(r).isEmpty()) {
                dist[r] = distances(r, edges);
            }
        }
        for (Map.Entry<String, SwitchConfigBuilder> e : tables.entrySet()) {
            int s = index.get(e.getKey());
            SwitchConfigBuilder t = e.getValue();
            Map<String, Integer> portOrder = new HashMap<>();
            for (String port : t.portNames()) {
                portOrder.put(port, portOrder.size());
            }
            List<Edge> out = new ArrayList<>(edges.get(s));
            out.sort((x, y) -> Integer.compare(portOrder.getOrDefault(x.port, -1), portOrder.getOrDefault(y.port, -1)));
            long[] macs = new long[out.size()];
            for (int i = 0; i < macs.length; i++) {
                macs[i] = routerMacs.get(names.get(out.get(i).to));
            }
            List<Entry> entries = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                if (r == s || racks.get(r).isEmpty() || dist[r][s] <= 0) {
                    continue;
                }
                List<RouteConfig.NextHop> hops = new ArrayList<>();
                for (int i = 0; i < macs.length; i++) {
                    if (dist[r][out.get(i).to] == dist[r][s] - 1) {
                        hops.add(new RouteConfig.NextHop(out.get(i).port, macs[i]));
                    }
                }
                for (Prefix p : racks.get(r)) {
                    entries.add(new Entry(p, hops, hostsIn(p, local.get(r))));
                }
            }
            List<Entry> own = new ArrayList<>();
            for (HostPort at : local.get(s)) {
                RouteConfig.NextHop hop = new RouteConfig.NextHop(at.switchPort(), at.mac());
                own.add(new Entry(Prefix.ipv4(at.ipv4(), 32), List.of(hop), 1));
                for (String a : at.ipv6()) {
                    own.add(new Entry(Prefix.ipv6(a, 128), List.of(hop), 1));
                }
            }
            List<Entry> routes = new ArrayList<>(own);
            for (boolean v6 : fabric ? new boolean[] {false, true} : new boolean[0]) {
                List<Entry> family = entries.stream().filter(x -> x.prefix.v6() == v6).toList();
                List<Entry> table = new ArrayList<>(withDefault(aggregate(family, own, hostsPerPod, v6 ? POD6 : POD4), v6));
                table.sort(LONGEST_FIRST);
                routes.addAll(table);
            }
            for (Entry r : routes) {
                String text = r.prefix.text();
                if (!t.hasStaticRoute(text)) {
                    t.staticRoute(text, r.hops);
                }
            }
        }
    }

    /** Each rack's prefixes: a /24 (/64) all of whose hosts it holds, else host routes. */
    private static List<List<Prefix>> racks(int n, List<List<HostPort>> local) {
        Map<Prefix, Integer> owner = new HashMap<>();
        for (int s = 0; s < n; s++) {
            for (HostPort at : local.get(s)) {
                int me = s;
                owner.merge(Prefix.ipv4(at.ipv4(), RACK4), s, (x, y) -> x == me ? x : -1);
                for (String a : at.ipv6()) {
                    owner.merge(Prefix.ipv6(a, RACK6), s, (x, y) -> x == me ? x : -1);
                }
            }
        }
        List<List<Prefix>> racks = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            LinkedHashMap<Prefix, Boolean> mine = new LinkedHashMap<>();
            for (HostPort at : local.get(s)) {
                Prefix p4 = Prefix.ipv4(at.ipv4(), RACK4);
                mine.put(owner.get(p4) == s ? p4 : Prefix.ipv4(at.ipv4(), 32), true);
                for (String a : at.ipv6()) {
                    Prefix p6 = Prefix.ipv6(a, RACK6);
                    mine.put(owner.get(p6) == s ? p6 : Prefix.ipv6(a, 128), true);
                }
            }
            racks.add(new ArrayList<>(mine.keySet()));
        }
        return racks;
    }

    private static int hostsIn(Prefix p, List<HostPort> local) {
        int count = 0;
        for (HostPort at : local) {
            if (p.contains(Prefix.ipv4(at.ipv4(), 32))) {
                count++;
            }
            for (String a : at.ipv6()) {
                if (p.contains(Prefix.ipv6(a, 128))) {
                    count++;
                }
            }
        }
        return count;
    }

    /** Hops from every switch to {@code r} (-1 unreachable), breadth first over switch-to-switch links. */
    private static int[] distances(int r, List<List<Edge>> edges) {
        int[] d = new int[edges.size()];
        Arrays.fill(d, -1);
        d[r] = 0;
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        queue.add(r);
        while (!queue.isEmpty()) {
            int u = queue.poll();
            for (Edge e : edges.get(u)) {
                if (d[e.to] < 0) {
                    d[e.to] = d[u] + 1;
                    queue.add(e.to);
                }
            }
        }
        return d;
    }

    /** The racks of one pod prefix that all leave by the same hops, and reach all its hosts but ours: one route. */
    private static List<Entry> aggregate(List<Entry> entries, List<Entry> own, Map<Prefix, Integer> hostsPerPod,
                                         int podLength) {
        Map<Prefix, List<Entry>> byPod = new LinkedHashMap<>();
        for (Entry e : entries) {
            byPod.computeIfAbsent(e.prefix.widen(Math.min(podLength, e.prefix.length())), p -> new ArrayList<>()).add(e);
        }
        List<Entry> out = new ArrayList<>();
        byPod.forEach((pod, group) -> {
            int covered = group.stream().mapToInt(Entry::hosts).sum()
                + (int) own.stream().filter(o -> pod.contains(o.prefix)).count();
            boolean sameHops = group.stream().allMatch(e -> e.hops.equals(group.get(0).hops));
            if (group.size() > 1 && sameHops && pod.length() == podLength
                    && covered == hostsPerPod.getOrDefault(pod, -1)) {
                out.add(new Entry(pod, group.get(0).hops, covered));
            } else {
                out.addAll(group);
            }
        });
        return out;
    }

    /** The largest group of routes with the same next hops, if more than one route, becomes the default. */
    private static List<Entry> withDefault(List<Entry> entries, boolean v6) {
        Map<List<RouteConfig.NextHop>, Integer> counts = new LinkedHashMap<>();
        entries.forEach(e -> counts.merge(e.hops, 1, Integer::sum));
        List<RouteConfig.NextHop> best = null;
        int most = 1;
        for (Map.Entry<List<RouteConfig.NextHop>, Integer> c : counts.entrySet()) {
            if (c.getValue() > most) {
                best = c.getKey();
                most = c.getValue();
            }
        }
        if (best == null) {
            return entries;
        }
        List<Entry> out = new ArrayList<>();
        Entry first = null;
        for (Entry e : entries) {
            if (e.hops.equals(best)) {
                if (first == null) {
                    first = e;
                    out.add(new Entry(v6 ? Prefix.ipv6("::", 0) : Prefix.ipv4(0, 0), e.hops, 0));
                }
            } else {
                out.add(e);
            }
        }
        return out;
    }
}
