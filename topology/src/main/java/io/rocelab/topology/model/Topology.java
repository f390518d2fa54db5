package io.rocelab.topology.model;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.sw.config.ConfigException;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.config.SwitchConfigBuilder;
import io.rocelab.topology.qos.QosProfile;
import io.rocelab.topology.qos.QosProfiles;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A fabric as data: hosts, switches and the links between their ports, checked as a whole. What a
 * {@code Fabric} builds and runs, what generators produce and what a topology file will describe.
 * Immutable; every link's speed is resolved (its ends' port speeds when it gave none).
 */
public final class Topology {
    private final List<Host> hosts;
    private final List<SwitchNode> switches;
    private final List<Link> links;
    private final QosProfile qos;
    private final Map<String, Node> nodes = new HashMap<>();
    private final Map<String, Link> linksByName = new HashMap<>();
    private final Map<Attachment, Link> linksByEnd = new HashMap<>();

    private Topology(List<Host> hosts, List<SwitchNode> switches, List<Link> links, QosProfile qos) {
        this.hosts = List.copyOf(hosts);
        this.switches = List.copyOf(switches);
        this.links = List.copyOf(links);
        this.qos = qos;
        hosts.forEach(h -> nodes.put(h.name(), h));
        switches.forEach(s -> nodes.put(s.name(), s));
        for (Link l : links) {
            linksByName.put(l.name(), l);
            linksByEnd.put(l.a(), l);
            linksByEnd.put(l.b(), l);
        }
    }

    /** @return an empty builder */
    public static Builder builder() {
        return new Builder();
    }

    public List<Host> hosts() {
        return hosts;
    }

    public List<SwitchNode> switches() {
        return switches;
    }

    public List<Link> links() {
        return links;
    }

    /** @return the QoS profile named for the whole fabric, or null */
    public QosProfile qos() {
        return qos;
    }

    /** @return the host called {@code name} */
    public Host host(String name) {
        return nodes.get(name) instanceof Host h ? h : missing("host", name);
    }

    /** @return the switch called {@code name} */
    public SwitchNode switchNode(String name) {
        return nodes.get(name) instanceof SwitchNode s ? s : missing("switch", name);
    }

    /** @return the node called {@code name}, or null */
    public Node node(String name) {
        return nodes.get(name);
    }

    /** @return the link called {@code name} */
    public Link link(String name) {
        Link l = linksByName.get(name);
        return l != null ? l : missing("link", name);
    }

    /** @return the link plugged into {@code end}, or null */
    public Link linkAt(Attachment end) {
        return linksByEnd.get(end);
    }

    /** @return what the first port of {@code host} is cabled to */
    public Attachment peerOf(Host host) {
        Link l = linksByEnd.get(host.port());
        return l.other(host.port());
    }

    /**
     * @return the VNI of the VXLAN segment {@code host}'s first port is on: its switch port's untagged
     *         VLAN, mapped to a VNI by the switch's {@code VXLAN_TUNNEL_MAP}; -1 if none (a host of no tenant overlay)
     */
    public int vniOf(Host host) {
        Link l = linksByEnd.get(host.port());
        return l == null ? -1 : vniAt(l.other(host.port()), nodes);
    }

    private static int vniAt(Attachment end, Map<String, Node> nodes) {
        if (!(nodes.get(end.node()) instanceof SwitchNode sw)) {
            return -1;
        }
        int i = sw.config().portIndex(end.port());
        if (i < 0 || sw.config().vxlan().isEmpty() || sw.config().ports().get(i).vlans() == null) {
            return -1;
        }
        return sw.config().vxlan().vniOfVlan(sw.config().ports().get(i).vlans().pvid());
    }

    /**
     * @return the switch the first port of {@code host} is cabled to if it routes (the host's router,
     *         whose router MAC its frames to every other host go to), else null
     */
    public SwitchNode routerOf(Host host) {
        return node(peerOf(host).node()) instanceof SwitchNode sw && sw.routes() ? sw : null;
    }

    /** @return what {@code end} is cabled to, or null if nothing is */
    public Attachment peerOf(Attachment end) {
        Link l = linksByEnd.get(end);
        return l == null ? null : l.other(end);
    }

    private static <T> T missing(String what, String name) {
        throw new IllegalArgumentException("no " + what + " '" + name + "' in the topology");
    }

    @Override
    public String toString() {
        return "Topology[" + hosts.size() + " hosts, " + switches.size() + " switches, " + links.size() + " links"
            + (qos == null ? "" : ", qos " + qos.name()) + "]";
    }

    /**
     * Gathers hosts, switches and links; {@link #build()} checks them all at once. A switch given as
     * tables ({@link SwitchConfigBuilder}) gets, in this order, routes from the {@link RouteFiller},
     * the cable lengths of its links ({@code CABLE_LENGTH}, unless it has its own) and the fabric's QoS
     * profile, and is then checked by the switch's own validator.
     */
    public static final class Builder {
        private record SwitchEntry(String name, SwitchConfig config, SwitchConfigBuilder tables) {
        }

        private final List<Host> hosts = new ArrayList<>();
        private final List<SwitchEntry> switches = new ArrayList<>();
        private final List<Link> links = new ArrayList<>();
        private String qosName;
        private QosProfile qos;
        private RouteFiller routes;

        private Builder() {
        }

        public Builder host(Host host) {
            hosts.add(Objects.requireNonNull(host, "host"));
            return this;
        }

        /** A switch whose configuration is done. */
        public Builder switchNode(String name, SwitchConfig config) {
            switches.add(new SwitchEntry(Objects.requireNonNull(name, "name"), Objects.requireNonNull(config, "config"),
                null));
            return this;
        }

        /** A switch whose configuration is still tables: routes, cable lengths and QoS may be added. */
        public Builder switchNode(String name, SwitchConfigBuilder tables) {
            switches.add(new SwitchEntry(Objects.requireNonNull(name, "name"), null,
                Objects.requireNonNull(tables, "tables")));
            return this;
        }

        public Builder link(Link link) {
            links.add(Objects.requireNonNull(link, "link"));
            return this;
        }

        /** The QoS profile of every switch given as tables, by name ({@link QosProfiles}). */
        public Builder qos(String profileName) {
            qosName = Objects.requireNonNull(profileName, "profileName");
            qos = null;
            return this;
        }

        /** The QoS profile of every switch given as tables. */
        public Builder qos(QosProfile profile) {
            qos = Objects.requireNonNull(profile, "profile");
            qosName = null;
            return this;
        }

        /** Fills in the routes of the switches given as tables (e.g. ECMP over shortest paths). */
        public Builder routes(RouteFiller filler) {
            routes = Objects.requireNonNull(filler, "filler");
            return this;
        }

        /**
         * @return the topology
         * @throws TopologyException with one line per mistake: duplicate names or addresses, links to
         *                           unknown nodes or ports or to a port already used, speeds that
         *                           disagree, an unknown QoS profile, and every switch configuration
         *                           mistake (prefixed with the switch's name)
         */
        public Topology build() {
            List<String> problems = new ArrayList<>();
            Map<String, Node> nodes = new LinkedHashMap<>();
            Map<String, SwitchConfigBuilder> tables = new LinkedHashMap<>();
            Map<String, Long> routerMacs = new LinkedHashMap<>();
            for (Host h : hosts) {
                if (nodes.putIfAbsent(h.name(), h) != null) {
                    problems.add("duplicate node name '" + h.name() + "'");
                }
            }
            for (SwitchEntry s : switches) {
                long mac = s.config != null ? s.config.routerMac() : s.tables.routerMac();
                if (nodes.containsKey(s.name) || tables.containsKey(s.name)) {
                    problems.add("duplicate node name '" + s.name + "'");
                    continue;
                }
                if (s.config != null) {
                    nodes.put(s.name, new SwitchNode(s.name, s.config));
                } else {
                    tables.put(s.name, s.tables);
                }
                routerMacs.put(s.name, mac);
            }
            addresses(problems, routerMacs);
            List<Link> resolved = links(problems, nodes, tables);
            QosProfile profile = qos;
            if (qosName != null) {
                profile = QosProfiles.named(qosName);
                if (profile == null) {
                    problems.add("qos: no profile '" + qosName + "' (known: " + String.join(", ", QosProfiles.names())
                        + ")");
                }
            }
            if (!problems.isEmpty()) {
                sharedAddresses(problems, null, List.of());
                throw new TopologyException(problems);
            }
            if (routes != null) {
                routes.fill(Collections.unmodifiableList(hosts), Collections.unmodifiableMap(routerMacs), resolved,
                    Collections.unmodifiableMap(tables));
            }
            for (Link l : resolved) {
                for (Attachment end : List.of(l.a(), l.b())) {
                    SwitchConfigBuilder t = tables.get(end.node());
                    if (t != null && l.cableMeters() >= 0 && !t.hasCableLength(end.port())) {
                        t.cableLength(end.port(), l.cableMeters());
                    }
                }
            }
            List<SwitchNode> built = new ArrayList<>();
            for (SwitchEntry s : switches) {
                if (s.config != null) {
                    built.add((SwitchNode) nodes.get(s.name));
                    continue;
                }
                if (tables.get(s.name) != s.tables) {
                    continue;
                }
                if (profile != null) {
                    profile.applyTo(s.tables);
                }
                try {
                    built.add(new SwitchNode(s.name, s.tables.build()));
                } catch (ConfigException e) {
                    e.problems().forEach(p -> problems.add("switch '" + s.name + "': " + p));
                }
            }
            Map<String, Node> builtNodes = new HashMap<>();
            built.forEach(n -> builtNodes.put(n.name(), n));
            sharedAddresses(problems, builtNodes, resolved);
            if (!problems.isEmpty()) {
                throw new TopologyException(problems);
            }
            return new Topology(hosts, built, resolved, profile);
        }

        /** Hosts whose IPv4 address another host has too: [host, the other]. */
        private final List<String[]> sharedIps = new ArrayList<>();

        /**
         * Two hosts may share an IPv4 address only in two tenants' overlays: each cabled to an access
         * port of a VLAN its switch maps to a VNI, the two VNIs different (VXLAN_TUNNEL_MAP).
         */
        private void sharedAddresses(List<String> problems, Map<String, Node> nodes, List<Link> links) {
            Map<Attachment, Link> ends = new HashMap<>();
            for (Link l : links) {
                ends.put(l.a(), l);
                ends.put(l.b(), l);
            }
            Map<String, Host> byName = new HashMap<>();
            hosts.forEach(h -> byName.put(h.name(), h));
            for (String[] pair : sharedIps) {
                Host h = byName.get(pair[0]);
                Host o = byName.get(pair[1]);
                int vni = vni(h, nodes, ends);
                int other = vni(o, nodes, ends);
                if (vni < 0 || other < 0 || vni == other) {
                    problems.add("host '" + h.name() + "': ipv4 " + Ipv4.toString(h.ipv4()) + " is also host '"
                        + o.name() + "''s");
                }
            }
        }

        private static int vni(Host h, Map<String, Node> nodes, Map<Attachment, Link> ends) {
            Link l = nodes == null ? null : ends.get(h.port());
            return l == null ? -1 : vniAt(l.other(h.port()), nodes);
        }

        private void addresses(List<String> problems, Map<String, Long> routerMacs) {
            Map<Long, String> macs = new HashMap<>();
            routerMacs.forEach((name, mac) -> macs.putIfAbsent(mac, "switch '" + name + "''s router MAC"));
            Map<Integer, String> ips = new HashMap<>();
            Map<String, String> ip6s = new HashMap<>();
            for (Host h : hosts) {
                String owner = macs.putIfAbsent(h.mac(), "host '" + h.name() + "''s");
                if (owner != null) {
                    problems.add("host '" + h.name() + "': mac " + MacAddress.toString(h.mac()) + " is also " + owner);
                }
                owner = ips.putIfAbsent(h.ipv4(), h.name());
                if (owner != null) {
                    // the same address in two tenants' overlays is no mistake: decided once the switches are built
                    sharedIps.add(new String[] {h.name(), owner});
                }
                if (h.port2() != null && !h.bonded()) {
                    long mac2 = h.port2().mac();
                    owner = macs.putIfAbsent(mac2, "host '" + h.name() + "''s");
                    if (owner != null) {
                        problems.add("host '" + h.name() + "': " + Host.PORT2 + "'s mac " + MacAddress.toString(mac2)
                            + " is also " + owner);
                    }
                    owner = ips.putIfAbsent(h.port2().ipv4(), h.name());
                    if (owner != null) {
                        problems.add("host '" + h.name() + "': " + Host.PORT2 + "'s ipv4 "
                            + Ipv4.toString(h.port2().ipv4()) + " is also host '" + owner + "''s");
                    }
                }
                for (String a : h.ipv6()) {
                    owner = ip6s.putIfAbsent(a, h.name());
                    if (owner != null) {
                        problems.add("host '" + h.name() + "': ipv6 " + a + " is also host '" + owner + "''s");
                    }
                }
            }
        }

        private List<Link> links(List<String> problems, Map<String, Node> nodes, Map<String, SwitchConfigBuilder> tables) {
            Map<String, Link> byName = new HashMap<>();
            Map<Attachment, Link> used = new HashMap<>();
            java.util.Set<String> named = new java.util.HashSet<>();
            List<Link> resolved = new ArrayList<>();
            for (Link l : links) {
                named.add(l.a().node());
                named.add(l.b().node());
                String where = "link '" + l.name() + "'";
                if (byName.putIfAbsent(l.name(), l) != null) {
                    problems.add("duplicate link name '" + l.name() + "'");
                    continue;
                }
                boolean ok = true;
                for (Attachment end : List.of(l.a(), l.b())) {
                    String bad = portProblem(end, nodes, tables);
                    if (bad != null) {
                        problems.add(where + ": " + bad);
                        ok = false;
                        continue;
                    }
                    Link other = used.putIfAbsent(end, l);
                    if (other != null) {
                        problems.add(where + ": " + end + " is already used by link '" + other.name() + "'");
                        ok = false;
                    }
                }
                if (ok && l.a().node().equals(l.b().node())) {
                    problems.add(where + ": both ends are on '" + l.a().node() + "'");
                    ok = false;
                }
                if (ok) {
                    long speed = speed(where, l, nodes, tables, problems);
                    resolved.add(speed == l.speedBitsPerSecond() ? l : l.withSpeed(speed));
                }
            }
            for (Host h : hosts) {
                if (!named.contains(h.name()) && nodes.get(h.name()) == h) {
                    problems.add("host '" + h.name() + "': not attached to any link");
                } else if (h.portCount() == 2 && nodes.get(h.name()) == h) {
                    dualPort(h, used, resolved, problems);
                }
            }
            return resolved;
        }

        /** A dual-port host has both ports cabled, at one speed (the NIC's ports share their line rate). */
        private static void dualPort(Host h, Map<Attachment, Link> used, List<Link> resolved, List<String> problems) {
            for (String port : h.portNames()) {
                if (!used.containsKey(h.port(port))) {
                    problems.add("host '" + h.name() + "': nothing is cabled to " + h.name() + ":" + port + " (it has "
                        + (h.bonded() ? "a bond of " : "") + "two ports)");
                    return;
                }
            }
            long[] speeds = new long[2];
            for (Link l : resolved) {
                for (int i = 0; i < 2; i++) {
                    Attachment port = h.port(h.portNames().get(i));
                    if (l.a().equals(port) || l.b().equals(port)) {
                        speeds[i] = l.speedBitsPerSecond();
                    }
                }
            }
            if (speeds[0] != 0 && speeds[1] != 0 && speeds[0] != speeds[1]) {
                problems.add("host '" + h.name() + "': " + gbps(speeds[1]) + " on " + Host.PORT2 + " but " + gbps(speeds[0])
                    + " on " + Host.PORT + ": a NIC's two ports run at one speed");
            }
        }

        private static String portProblem(Attachment end, Map<String, Node> nodes, Map<String, SwitchConfigBuilder> tables) {
            Node n = nodes.get(end.node());
            SwitchConfigBuilder t = tables.get(end.node());
            if (n == null && t == null) {
                return "unknown node '" + end.node() + "'";
            }
            if (n instanceof Host h && !h.hasPort(end.port())) {
                return h.portCount() == 1
                    ? "host '" + end.node() + "' has one port, '" + Host.PORT + "', not '" + end.port() + "'"
                        + (Host.PORT2.equals(end.port()) ? " (only a dual-port host has '" + Host.PORT2 + "')" : "")
                    : "host '" + end.node() + "' has ports '" + Host.PORT + "' and '" + Host.PORT2 + "', not '"
                        + end.port() + "'";
            }
            if (n instanceof SwitchNode && !n.hasPort(end.port()) || t != null && !t.portNames().contains(end.port())) {
                return "switch '" + end.node() + "' has no port '" + end.port() + "'";
            }
            return null;
        }

        /** The link's own speed, else its ends'; they must agree. */
        private static long speed(String where, Link l, Map<String, Node> nodes, Map<String, SwitchConfigBuilder> tables,
                                  List<String> problems) {
            long speed = l.speedBitsPerSecond();
            String from = speed > 0 ? "the link" : null;
            for (Attachment end : List.of(l.a(), l.b())) {
                Node n = nodes.get(end.node());
                long s = n instanceof Host h ? h.linkSpeedBitsPerSecond()
                    : n instanceof SwitchNode sw ? sw.portSpeedBitsPerSecond(end.port())
                    : tables.get(end.node()).portSpeedMbps(end.port()) * 1_000_000L;
                if (s == 0) {
                    continue;
                }
                if (speed == 0) {
                    speed = s;
                    from = end.toString();
                } else if (s != speed) {
                    problems.add(where + ": " + gbps(s) + " at " + end + " but " + gbps(speed) + " at " + from);
                }
            }
            return speed;
        }

        private static String gbps(long bitsPerSecond) {
            return bitsPerSecond % 1_000_000_000L == 0 ? bitsPerSecond / 1_000_000_000L + " Gb/s"
                : bitsPerSecond / 1_000_000L + " Mb/s";
        }
    }
}
