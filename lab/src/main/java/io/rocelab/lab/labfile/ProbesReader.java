package io.rocelab.lab.labfile;

import io.rocelab.topology.model.Topology;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code probes:}: what a run samples ({@code sample}: {@link ProbeSpec#KINDS}, or all), how often
 * ({@code interval}, else one that follows the run's duration) and where: switch queues
 * ({@code queues}, the RoCE queue of every cabled switch port unless given) and ports ({@code ports},
 * all unless given), by name or pattern.
 */
final class ProbesReader {
    private ProbesReader() {
    }

    /** @return what the run samples (mistakes reported) */
    static ProbeSpec read(Section top, Topology topology, long duration) {
        Section s = top.section("probes", "interval", "sample", "queues", "ports");
        boolean given = s != null && s.has("interval");
        long interval = given ? s.nanos("interval", ProbeSpec.defaultIntervalNanos(duration))
            : ProbeSpec.defaultIntervalNanos(duration);
        if (given && interval < 100) {
            s.mistake("interval", "sample at most every 100ns: " + s.text("interval"));
            interval = ProbeSpec.defaultIntervalNanos(duration);
        }
        Set<String> kinds = new LinkedHashSet<>();
        if (s == null || !s.has("sample")) {
            kinds.addAll(ProbeSpec.KINDS);
        } else {
            List<String> asked = s.strings("sample");
            for (String k : asked) {
                if (k.equals("all")) {
                    kinds.addAll(ProbeSpec.KINDS);
                } else if (!ProbeSpec.KINDS.contains(k)) {
                    String near = Section.closest(k, ProbeSpec.KINDS);
                    s.mistake("sample", "no probe '" + k + "'" + (near != null ? " (did you mean '" + near + "'?)" : "")
                        + "; known: " + String.join(", ", ProbeSpec.KINDS) + ", all");
                }
            }
            for (String k : ProbeSpec.KINDS) {
                if (asked.contains(k)) {
                    kinds.add(k);
                }
            }
        }
        if (topology == null) {
            return new ProbeSpec(interval, kinds, List.of(), List.of(), !given);
        }
        int roce = topology.qos() == null ? 3 : topology.qos().roceTc();
        List<String> allPorts = TopologyRefs.switchPorts(topology);
        List<String> allQueues = new ArrayList<>();
        for (String p : allPorts) {
            for (int q = 0; q < 8; q++) {
                allQueues.add(p + ":" + q);
            }
        }
        List<String> queues;
        if (s != null && s.has("queues")) {
            queues = match(s, "queues", allQueues, "queue (switch:port:queue)");
        } else {
            queues = allPorts.stream().map(p -> p + ":" + roce).toList();
        }
        List<String> ports = s != null && s.has("ports") ? match(s, "ports", allPorts, "switch port (switch:port)")
            : allPorts;
        return new ProbeSpec(interval, kinds, queues, ports, !given);
    }

    private static List<String> match(Section s, String key, List<String> all, String what) {
        List<String> unknown = new ArrayList<>();
        List<String> out;
        try {
            out = HostPattern.resolve(s.strings(key), all, unknown);
        } catch (IllegalArgumentException e) {
            s.mistake(key, e.getMessage());
            return List.of();
        }
        for (String u : unknown) {
            String near = Section.closest(u, all);
            s.mistake(key, "no " + what + " '" + u + "'" + (near != null ? " (did you mean '" + near + "'?)" : ""));
        }
        return out;
    }
}
