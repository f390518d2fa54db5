package io.rocelab.topology.fabric;

import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.model.SwitchNode;
import io.rocelab.topology.model.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a topology splits into the logical processes (LPs) of a parallel virtual-time run: fixed by
 * the topology alone, never by the thread count, so that a seed gives the same run on any number of
 * threads.
 *
 * <p>The rule: one LP per switch, with the hosts cabled only to it (a leaf and its hosts; a spine or
 * a core switch alone); a host cabled to several switches is an LP of its own; and any two nodes
 * joined by a link shorter than {@value #FLOOR_NANOS} ns are one LP (a short link would make the
 * windows short: the lookahead is the shortest propagation delay of a link between two LPs).
 * LPs are numbered in the order of their first node, switches first, then hosts, as the topology
 * lists them.
 *
 * @param count          the number of LPs
 * @param lookaheadNanos the shortest propagation delay of a link between two LPs; 0 with one LP
 * @param lpOf           each node's LP
 */
public record LogicalProcesses(int count, long lookaheadNanos, Map<String, Integer> lpOf) {

    /** Links shorter than this join their ends into one LP. */
    public static final long FLOOR_NANOS = 100;

    public LogicalProcesses {
        lpOf = Map.copyOf(lpOf);
    }

    /** @return the LPs of {@code topology} */
    public static LogicalProcesses of(Topology topology) {
        List<String> nodes = new ArrayList<>();
        topology.switches().forEach(s -> nodes.add(s.name()));
        topology.hosts().forEach(h -> nodes.add(h.name()));
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            index.put(nodes.get(i), i);
        }
        int[] parent = new int[nodes.size()];
        for (int i = 0; i < parent.length; i++) {
            parent[i] = i;
        }
        Map<String, List<String>> peers = new HashMap<>();
        for (Link l : topology.links()) {
            peers.computeIfAbsent(l.a().node(), n -> new ArrayList<>()).add(l.b().node());
            peers.computeIfAbsent(l.b().node(), n -> new ArrayList<>()).add(l.a().node());
        }
        for (Host h : topology.hosts()) {
            String only = null;
            boolean single = true;
            for (String peer : peers.getOrDefault(h.name(), List.of())) {
                if (!(topology.node(peer) instanceof SwitchNode) || (only != null && !only.equals(peer))) {
                    single = false;
                }
                only = peer;
            }
            if (single && only != null) {
                union(parent, index.get(h.name()), index.get(only));
            }
        }
        for (Link l : topology.links()) {
            if (l.propagationDelayNanos() < FLOOR_NANOS) {
                union(parent, index.get(l.a().node()), index.get(l.b().node()));
            }
        }
        Map<Integer, Integer> numberOfRoot = new LinkedHashMap<>();
        Map<String, Integer> lpOf = new LinkedHashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            int root = find(parent, i);
            Integer lp = numberOfRoot.computeIfAbsent(root, r -> numberOfRoot.size());
            lpOf.put(nodes.get(i), lp);
        }
        long lookahead = Long.MAX_VALUE;
        for (Link l : topology.links()) {
            if (!lpOf.get(l.a().node()).equals(lpOf.get(l.b().node()))) {
                lookahead = Math.min(lookahead, l.propagationDelayNanos());
            }
        }
        int count = numberOfRoot.size();
        return new LogicalProcesses(count, lookahead == Long.MAX_VALUE ? 0 : lookahead, lpOf);
    }

    private static int find(int[] parent, int i) {
        while (parent[i] != i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    }

    private static void union(int[] parent, int a, int b) {
        int ra = find(parent, a);
        int rb = find(parent, b);
        if (ra != rb) {
            // the smaller index is the root: the numbering follows the first node
            parent[Math.max(ra, rb)] = Math.min(ra, rb);
        }
    }

    /** @return whether the run is parallel at all: more than one LP and a lookahead to window by */
    public boolean parallel() {
        return count > 1 && lookaheadNanos > 0;
    }
}
