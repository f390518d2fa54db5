package io.rocelab.lab.labfile;

import io.rocelab.topology.model.Attachment;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.model.SwitchNode;
import io.rocelab.topology.model.Topology;
import java.util.ArrayList;
import java.util.List;

/**
 * How the sections of a lab file name what its topology has: hosts (by name, pattern or list),
 * links (by name or by one of their ends) and switch ports. A name the topology lacks is a mistake
 * at the key that wrote it, with the nearest known name when there is one.
 */
public final class TopologyRefs {
    private TopologyRefs() {
    }

    /** Every cabled switch port, {@code switch:port}, in topology order. */
    public static List<String> switchPorts(Topology topology) {
        List<String> out = new ArrayList<>();
        for (SwitchNode sw : topology.switches()) {
            for (var port : sw.config().ports()) {
                if (topology.linkAt(new Attachment(sw.name(), port.name())) != null) {
                    out.add(sw.name() + ":" + port.name());
                }
            }
        }
        return out;
    }

    static List<String> hostNames(Topology t) {
        return t.hosts().stream().map(Host::name).toList();
    }

    /** Host names from a name, a pattern or a list of them; unknown names are mistakes. */
    static List<String> hosts(Section s, String key, Topology topology) {
        List<String> unknown = new ArrayList<>();
        List<String> known = hostNames(topology);
        List<String> out;
        try {
            out = HostPattern.resolve(s.strings(key), known, unknown);
        } catch (IllegalArgumentException e) {
            s.mistake(key, e.getMessage());
            return List.of();
        }
        for (String u : unknown) {
            String near = Section.closest(u, known);
            String what = topology.node(u) instanceof SwitchNode ? "'" + u + "' is a switch, not a host"
                : "unknown host '" + u + "'" + (near != null ? " (did you mean '" + near + "'?)" : "");
            s.mistake(key, what);
        }
        return unknown.isEmpty() ? out : List.of();
    }

    /** @return whether {@code host} is a host of the topology (a mistake at {@code key} if not) */
    static boolean host(Section s, String key, String host, Topology topology) {
        if (host == null || topology == null) {
            return false;
        }
        if (topology.node(host) instanceof Host) {
            return true;
        }
        String near = Section.closest(host, hostNames(topology));
        s.mistake(key, topology.node(host) != null ? "'" + host + "' is a switch, not a host"
            : "unknown host '" + host + "'" + (near != null ? " (did you mean '" + near + "'?)" : ""));
        return false;
    }

    /** A link by its name, or by one of its ends ({@code leaf0:Ethernet8}, a host's name): its name, or null. */
    static String link(Section s, String key, String ref, Topology topology) {
        if (ref == null || topology == null) {
            if (ref == null && s != null) {
                s.missing(key, "the link: its name or one of its ends, e.g. leaf0:Ethernet8");
            }
            return null;
        }
        for (Link l : topology.links()) {
            if (l.name().equals(ref)) {
                return l.name();
            }
        }
        Attachment end = Attachment.parse(ref);
        Link l = topology.linkAt(end);
        if (l != null) {
            return l.name();
        }
        String reason = topology.node(end.node()) == null ? "unknown node '" + end.node() + "'"
            : "nothing is cabled to " + end;
        s.mistake(key, "no link '" + ref + "': " + reason + " (a link is named by its name or by one of its ends, "
            + "e.g. leaf0:Ethernet8)");
        return null;
    }
}
