package io.rocelab.lab.labfile;

import io.rocelab.topology.model.Attachment;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.SwitchNode;
import io.rocelab.topology.model.Topology;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * {@code capture:}: a bounded pcapng of switch ports ({@code ports}, by name or pattern; a host's
 * name stands for the switch port it is cabled to; the first {@code frames} of each), and, in netns
 * mode, tshark on hosts' interfaces ({@code tshark}).
 */
final class CaptureReader {
    private CaptureReader() {
    }

    /** @return the capture, or null for none (mistakes reported) */
    static CaptureSpec read(Section top, Topology topology, Set<Mode> modes) {
        if (!top.has("capture")) {
            return null;
        }
        Section s = top.section("capture", "ports", "frames", "tshark");
        if (s == null || topology == null) {
            return null;
        }
        int frames = (int) s.integer("frames", 1000, 1, 1_000_000);
        List<String> tshark = List.of();
        if (s.has("tshark")) {
            if (!modes.equals(EnumSet.of(Mode.NETNS))) {
                s.mistake("tshark", "tshark captures an interface of the Linux network: the lab runs only in netns "
                    + "mode then (modes: [netns])");
            }
            tshark = TopologyRefs.hosts(s, "tshark", topology);
        }
        if (!s.has("ports")) {
            if (!tshark.isEmpty()) {
                return new CaptureSpec(List.of(), frames, tshark);
            }
            s.missing("ports", "the switch ports to capture, e.g. [leaf0:Ethernet0]");
            return null;
        }
        List<String> all = TopologyRefs.switchPorts(topology);
        List<String> wanted = new ArrayList<>();
        for (String p : s.strings("ports")) {
            // a host's name stands for the switch port it is cabled to
            if (topology.node(p) instanceof Host h) {
                Attachment peer = topology.peerOf(h);
                if (topology.node(peer.node()) instanceof SwitchNode) {
                    wanted.add(peer.toString());
                } else {
                    s.mistake("ports", "host '" + p + "' is not cabled to a switch");
                }
            } else {
                wanted.add(p);
            }
        }
        List<String> unknown = new ArrayList<>();
        List<String> ports;
        try {
            ports = HostPattern.resolve(wanted, all, unknown);
        } catch (IllegalArgumentException e) {
            s.mistake("ports", e.getMessage());
            return null;
        }
        for (String u : unknown) {
            Attachment a = Attachment.parse(u);
            String why = topology.node(a.node()) == null ? "unknown node '" + a.node() + "'"
                : topology.node(a.node()) instanceof SwitchNode sw && !sw.hasPort(a.port())
                    ? "switch '" + a.node() + "' has no port '" + a.port() + "'"
                    : "nothing is cabled there";
            s.mistake("ports", "cannot capture '" + u + "': " + why);
        }
        return new CaptureSpec(ports, frames, tshark);
    }
}
