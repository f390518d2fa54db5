package io.rocelab.lab.labfile;

import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.model.Topology;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which hosts can reach which over the fabric's cables: through switches, never through another
 * host (a host does not forward). Links that start down count: an event may bring them up.
 */
final class Reachability {
    private final Topology topology;
    private final Map<String, List<String>> neighbours = new HashMap<>();
    private final Map<String, Set<String>> reach = new HashMap<>();

    Reachability(Topology topology) {
        this.topology = topology;
        for (Link l : topology.links()) {
            neighbours.computeIfAbsent(l.a().node(), k -> new java.util.ArrayList<>()).add(l.b().node());
            neighbours.computeIfAbsent(l.b().node(), k -> new java.util.ArrayList<>()).add(l.a().node());
        }
    }

    boolean reaches(String from, String to) {
        return reach.computeIfAbsent(from, this::from).contains(to);
    }

    private Set<String> from(String host) {
        Set<String> seen = new HashSet<>();
        ArrayDeque<String> todo = new ArrayDeque<>();
        seen.add(host);
        todo.add(host);
        while (!todo.isEmpty()) {
            String n = todo.poll();
            if (!n.equals(host) && topology.node(n) instanceof Host) {
                continue;
            }
            for (String m : neighbours.getOrDefault(n, List.of())) {
                if (seen.add(m)) {
                    todo.add(m);
                }
            }
        }
        return seen;
    }
}
