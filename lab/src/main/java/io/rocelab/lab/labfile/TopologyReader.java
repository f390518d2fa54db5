package io.rocelab.lab.labfile;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.nic.BondMode;
import io.rocelab.nic.FlowControlMode;
import io.rocelab.sw.config.ArsConfig;
import io.rocelab.sw.config.ConfigException;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.sw.config.LoadedConfig;
import io.rocelab.sw.config.SwitchConfigBuilder;
import io.rocelab.topology.generate.FatTree;
import io.rocelab.topology.generate.LeafSpine;
import io.rocelab.topology.model.Attachment;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.model.SwitchNode;
import io.rocelab.topology.model.Topology;
import io.rocelab.topology.model.TopologyException;
import io.rocelab.topology.qos.QosProfile;
import io.rocelab.topology.route.Routing;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code topology:}: a generator ({@code leaf-spine}, {@code fat-tree}) or explicit {@code hosts},
 * {@code switches} and {@code links}, built into a checked {@link Topology}. The topology's own
 * check (duplicate names and addresses, links to missing ports, speeds that disagree, every switch
 * configuration mistake) is reported at the entry it names.
 */
final class TopologyReader {
    private static final long HOST_MAC_BASE = 0x02_00_00_00_00_00L;
    private static final long ROUTER_MAC_BASE = 0x02_01_00_00_00_00L;
    private static final int SWITCH_MTU = 9100;

    private final Problems problems;
    private final LabSources sources;
    private final QosProfile qos;
    private final NicSpec nics;
    private final Map<String, Loc> where = new LinkedHashMap<>();
    /** The hosts of kind linux, each with where its {@code kind} is. */
    private final Map<String, Loc> linuxHosts;
    /** The hosts of kind rxe-vm, each with where its {@code kind} is. */
    private final Map<String, Loc> rxeVms;
    /** What the netns runner cannot lay out on veth pairs: mistakes only of a lab that runs in netns mode. */
    private final Problems netnsLimits = new Problems();
    /** What a switch's own config_db carries that rocelab leaves alone: notes, not mistakes. */
    private final Problems notes = new Problems();
    private Section top;
    /** {@code routing:} (top level): static ECMP routes or eBGP. */
    private Routing routing = Routing.STATIC;

    private TopologyReader(Problems problems, LabSources sources, QosProfile qos, NicSpec nics,
                           Map<String, Loc> linuxHosts, Map<String, Loc> rxeVms) {
        this.problems = problems;
        this.rxeVms = rxeVms;
        this.sources = sources;
        this.qos = qos;
        this.nics = nics;
        this.linuxHosts = linuxHosts;
    }

    /**
     * @param node the value of {@code topology:}
     * @param qos  the fabric's QoS profile (already tuned), or null if it could not be read
     * @param nics every host NIC's settings
     * @param linuxHosts filled with the hosts of {@code kind: linux}, each with where its kind is written
     * @param rxeVms     filled with the hosts of {@code kind: rxe-vm}, the same way
     * @return the topology, or null after reporting why not
     */
    static Topology read(YNode node, Problems problems, LabSources sources, QosProfile qos, NicSpec nics,
                         Map<String, Loc> linuxHosts, Map<String, Loc> rxeVms) {
        return read(node, problems, sources, qos, nics, linuxHosts, rxeVms, new Problems());
    }

    /**
     * As {@link #read(YNode, Problems, LabSources, QosProfile, NicSpec, Map, Map)}, and
     *
     * @param netnsLimits filled with what the file asks that {@code --mode netns} cannot lay out on veth
     *                    pairs (a second port, a link's loss, delay or state, a linux host's VLAN, MTU,
     *                    speed or IPv6, two hosts cabled to each other): mistakes of a lab that runs there
     */
    static Topology read(YNode node, Problems problems, LabSources sources, QosProfile qos, NicSpec nics,
                         Map<String, Loc> linuxHosts, Map<String, Loc> rxeVms, Problems netnsLimits) {
        return read(node, problems, sources, qos, nics, linuxHosts, rxeVms, netnsLimits, new Problems(), Routing.STATIC);
    }

    /**
     * As {@link #read(YNode, Problems, LabSources, QosProfile, NicSpec, Map, Map, Problems)}, and
     *
     * @param notes   filled with what a switch's own config_db carries that rocelab does not model (its
     *                ignored tables in one line, a port that is admin down), at the switch's {@code config}
     * @param routing how the switches route ({@code routing:}, read by {@link RoutingReader})
     */
    static Topology read(YNode node, Problems problems, LabSources sources, QosProfile qos, NicSpec nics,
                         Map<String, Loc> linuxHosts, Map<String, Loc> rxeVms, Problems netnsLimits, Problems notes,
                         Routing routing) {
        TopologyReader r = new TopologyReader(problems, sources, qos, nics, linuxHosts, rxeVms);
        r.routing = routing;
        Topology t = r.read(node);
        netnsLimits.addAll(r.netnsLimits);
        notes.addAll(r.notes);
        return t;
    }

    /** Something {@code --mode netns} cannot lay out: a mistake if the lab runs there. */
    private void netnsLimit(Section s, String key, String what) {
        netnsLimits.add(s.loc(key), s.path(key), what + " (take netns out of modes)");
    }

    private Topology read(YNode node) {
        top = Section.of(node, "topology", problems, "leaf-spine", "fat-tree", "hosts", "switches", "links",
            "flowlet-timeout", "load-balancing");
        if (top == null) {
            return null;
        }
        long flowletNanos = flowletTimeout();
        LoadBalancingMode fabricMode = top.has("load-balancing") ? loadBalancing(top)
            : flowletNanos > 0 ? LoadBalancingMode.FLOWLET : null;
        if (flowletNanos > 0 && fabricMode != null && !fabricMode.flowlets()) {
            top.mistake("flowlet-timeout", "the flowlet timeout is the idle time of flowlets: give it with "
                + "load-balancing flowlet or flowlet-quality, not " + fabricMode.key());
        }
        Topology t = build();
        t = t == null || nics.flowControl() == FlowControlMode.PFC ? t : withNicFlowControl(t, nics.flowControl());
        return t == null || fabricMode == null && switchModes.isEmpty() ? t
            : withLoadBalancing(t, fabricMode, flowletNanos);
    }

    /** {@code load-balancing} of a switch, by name: it overrides the fabric's. */
    private final Map<String, LoadBalancingMode> switchModes = new LinkedHashMap<>();

    /** {@code load-balancing: ecmp|flowlet|flowlet-quality|per-packet} of {@code s}, or null after a mistake. */
    private static LoadBalancingMode loadBalancing(Section s) {
        String text = s.text("load-balancing");
        LoadBalancingMode m = LoadBalancingMode.parse(text);
        if (m == null) {
            s.mistake("load-balancing", "must be ecmp, flowlet, flowlet-quality or per-packet, not '" + text + "'");
        }
        return m;
    }

    /**
     * The same fabric with each switch's load balancing: its own {@code load-balancing}, else the fabric's
     * ({@code flowlet-timeout} alone means {@code flowlet}); either replaces what its configuration says.
     */
    private Topology withLoadBalancing(Topology t, LoadBalancingMode fabricMode, long flowletNanos) {
        long idle = flowletNanos > 0 ? flowletNanos : ArsConfig.ArsObject.DEFAULT_IDLE_MICROS * 1_000;
        Topology.Builder b = Topology.builder();
        t.hosts().forEach(b::host);
        for (SwitchNode s : t.switches()) {
            LoadBalancingMode m = switchModes.getOrDefault(s.name(), fabricMode);
            b.switchNode(s.name(), m == null ? s.config() : m.apply(s.config(), idle));
        }
        t.links().forEach(b::link);
        if (t.qos() != null) {
            b.qos(t.qos());
        }
        return b.build();
    }

    /** The same fabric with every host's NIC in link flow control {@code mode} ({@code nics: flow-control}). */
    private static Topology withNicFlowControl(Topology t, FlowControlMode mode) {
        Topology.Builder b = Topology.builder();
        t.hosts().forEach(h -> b.host(h.withFlowControl(mode)));
        t.switches().forEach(s -> b.switchNode(s.name(), s.config()));
        t.links().forEach(b::link);
        if (t.qos() != null) {
            b.qos(t.qos());
        }
        return b.build();
    }

    /** {@code flowlet-timeout}: SONiC's {@code SWITCH|switch flowlet_timeout}, whole µs; 0 or absent: none. */
    private long flowletTimeout() {
        if (!top.has("flowlet-timeout")) {
            return 0;
        }
        long nanos = top.nanos("flowlet-timeout", 0);
        if (nanos < 0 || nanos % 1_000L != 0) {
            top.mistake("flowlet-timeout", "the flowlet timeout is a whole number of microseconds (SONiC's "
                + "flowlet_timeout), e.g. 50us: " + top.text("flowlet-timeout"));
            return 0;
        }
        return nanos;
    }

    private Topology build() {
        boolean explicit = top.has("hosts") || top.has("switches") || top.has("links");
        int generators = (top.has("leaf-spine") ? 1 : 0) + (top.has("fat-tree") ? 1 : 0);
        if (generators + (explicit ? 1 : 0) != 1) {
            problems.add(top.map().loc(), "topology", "give exactly one of leaf-spine, fat-tree, or hosts/switches/links");
            return null;
        }
        try {
            if (top.has("leaf-spine")) {
                return leafSpine(top.section("leaf-spine", "leaves", "spines", "hosts-per-leaf", "host-speed",
                    "spine-speed", "oversubscription", "cable", "ipv6", "mtu"));
            }
            if (top.has("fat-tree")) {
                return fatTree(top.section("fat-tree", "k", "speed", "cable", "delay", "ipv6", "mtu"));
            }
            return explicit();
        } catch (TopologyException e) {
            for (String p : e.problems()) {
                problems.add(locOf(p), "topology", p);
            }
            return null;
        }
    }

    /** The entry a topology problem names ({@code host 'h3'}, {@code link 'x'}, {@code switch 'leaf0'}). */
    private Loc locOf(String problem) {
        for (Map.Entry<String, Loc> e : where.entrySet()) {
            if (problem.contains(e.getKey())) {
                return e.getValue();
            }
        }
        return top.map().loc();
    }

    private Topology leafSpine(Section s) {
        if (s == null || qos == null) {
            return null;
        }
        LeafSpine.Builder b = LeafSpine.builder().qos(qos).routing(routing);
        if (nics.dcqcn()) {
            b.dcqcn(nics.params());
        }
        b.pauseResponse(nics.pauseResponse());
        b.leaves((int) s.integer("leaves", 2, 1, 256));
        b.spines((int) s.integer("spines", 2, 1, 64));
        b.hostsPerLeaf((int) s.integer("hosts-per-leaf", 2, 1, 253));
        b.hostLinkGbps(gbps(s, "host-speed", 100));
        if (s.has("spine-speed") && s.has("oversubscription")) {
            s.mistake("oversubscription", "give spine-speed or oversubscription, not both");
        } else if (s.has("spine-speed")) {
            b.spineLinkGbps(gbps(s, "spine-speed", 100));
        } else if (s.has("oversubscription")) {
            String t = s.text("oversubscription");
            double ratio = parseRatio(t);
            if (!(ratio > 0)) {
                s.mistake("oversubscription", "must be a ratio such as 3 or 3:1, not '" + t + "'");
            } else {
                b.oversubscription(ratio);
            }
        }
        b.cableMeters(meters(s, "cable", 5));
        b.ipv6(s.bool("ipv6", false));
        b.activeMtu((int) s.integer("mtu", 4096, 256, 4096));
        if (!problems.isEmpty()) {
            return null;
        }
        where.put("leaf-spine", s.map().loc());
        return withNicDcb(b.build().topology());
    }

    private static double parseRatio(String t) {
        if (t == null) {
            return -1;
        }
        try {
            int colon = t.indexOf(':');
            return colon < 0 ? Double.parseDouble(t)
                : Double.parseDouble(t.substring(0, colon)) / Double.parseDouble(t.substring(colon + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private Topology fatTree(Section s) {
        if (s == null || qos == null) {
            return null;
        }
        FatTree.Builder b = FatTree.builder().qos(qos).routing(routing);
        if (nics.dcqcn()) {
            b.dcqcn(nics.params());
        }
        b.pauseResponse(nics.pauseResponse());
        b.k((int) s.integer("k", 4, 2, 64));
        b.linkGbps(gbps(s, "speed", 100));
        if (s.has("delay")) {
            b.propagationDelayNanos(s.nanos("delay", 25));
        } else {
            b.cableMeters(meters(s, "cable", 5));
        }
        b.ipv6(s.bool("ipv6", false));
        b.activeMtu((int) s.integer("mtu", 4096, 256, 4096));
        if (!problems.isEmpty()) {
            return null;
        }
        return withNicDcb(b.build().topology());
    }

    /** A generated fabric with the {@code nics:} section's DCB settings on every host's NIC. */
    private Topology withNicDcb(Topology t) {
        if (nics.dcb().equals(io.rocelab.nic.dcb.DcbSettings.DEFAULTS) && !nics.outOfOrder() && !nics.roceV1()) {
            return t;
        }
        Topology.Builder b = Topology.builder();
        // and the nics: section's out-of-order on every host's NIC
        t.hosts().forEach(h -> b.host(h.withDcb(nics.dcb()).withOooDataPlacement(nics.outOfOrder())
            .withRoceV1(nics.roceV1())));
        t.switches().forEach(s -> b.switchNode(s.name(), s.config()));
        t.links().forEach(b::link);
        if (t.qos() != null) {
            b.qos(t.qos());
        }
        return b.build();
    }

    /** A speed the generators take: whole Gb/s. */
    private static long gbps(Section s, String key, long otherwise) {
        long bps = s.bitsPerSecond(key, otherwise * 1_000_000_000L);
        if (bps % 1_000_000_000L != 0 || bps == 0) {
            s.mistake(key, "the generators take whole Gb/s (e.g. 25G, 100G): " + s.text(key));
            return otherwise;
        }
        return bps / 1_000_000_000L;
    }

    /** A cable length: {@code 5m} or {@code 5}. */
    static int meters(Section s, String key, int otherwise) {
        String t = s.text(key);
        if (t == null) {
            return otherwise;
        }
        String n = t.endsWith("m") ? t.substring(0, t.length() - 1).trim() : t;
        try {
            int m = Integer.parseInt(n);
            if (m >= 0 && m <= 100_000) {
                return m;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        s.mistake(key, "a cable length is whole metres 0..100000, e.g. 5m: '" + t + "'");
        return otherwise;
    }

    private Topology explicit() {
        Topology.Builder t = Topology.builder().routes(routing.filler());
        if (qos != null) {
            t.qos(qos);
        }
        List<YNode> hosts = top.list("hosts");
        int index = 0;
        for (int i = 0; i < hosts.size(); i++) {
            String path = "topology.hosts[" + i + "]";
            YNode h = hosts.get(i);
            if (h instanceof YNode.YScalar sc && sc.value() instanceof String pattern) {
                for (String name : HostPattern.expandNew(pattern)) {
                    where.putIfAbsent("host '" + name + "'", h.loc());
                    Host host = host(name, index++, null, path, h.loc());
                    if (host != null) {
                        t.host(host);
                    }
                }
                continue;
            }
            Section s = Section.of(h, path, problems, "name", "ip", "mac", "ipv6", "mtu", "speed", "vlan", "pcp",
                "kind", "ports", "ip2", "mac2", "bond", "lacp-rate", "trust", "pfc", "dcbx",
                "out-of-order", "roce-v1");
            if (s == null) {
                continue;
            }
            String name = s.text("name");
            if (name == null) {
                s.missing("name", "every host has a name");
                continue;
            }
            where.putIfAbsent("host '" + name + "'", s.map().loc());
            if (s.has("kind")) {
                String kind = s.string("kind", "nic");
                HostKind k = HostKind.of(kind);
                if (k == null) {
                    s.mistake("kind", "a host is a nic (a rocelab soft NIC), linux (a plain network namespace, "
                        + "netns mode) or rxe-vm (a qemu VM with Linux rdma_rxe, netns mode), not '" + kind + "'");
                } else if (k == HostKind.LINUX) {
                    linuxHosts.put(name, s.loc("kind"));
                } else if (k == HostKind.RXE_VM) {
                    rxeVms.put(name, s.loc("kind"));
                }
            }
            Host host = host(name, index++, s, path, s.map().loc());
            if (host != null) {
                t.host(host);
            }
            netnsLimits(s, linuxHosts.containsKey(name));
        }
        List<YNode> switches = top.list("switches");
        for (int i = 0; i < switches.size(); i++) {
            aSwitch(t, switches.get(i), "topology.switches[" + i + "]", i);
        }
        List<YNode> links = top.list("links");
        for (int i = 0; i < links.size(); i++) {
            Link l = link(links.get(i), "topology.links[" + i + "]");
            if (l != null) {
                t.link(l);
            }
        }
        if (hosts.isEmpty()) {
            problems.add(top.map().loc(), "topology.hosts", "a fabric needs hosts");
        }
        if (!problems.isEmpty()) {
            return null;
        }
        return t.build();
    }

    /** A host entry's keys the netns runner ignores: it lays out eth0, and a linux host's ip and mac. */
    private void netnsLimits(Section s, boolean linux) {
        if (s.has("ports") && s.integer("ports", 1, 1, 2) == 2) {
            netnsLimit(s, "ports", "in netns mode a host has one port: the runner lays out eth0 only");
        }
        if (linux) {
            for (String key : List.of("ipv6", "mtu", "speed", "vlan", "pcp")) {
                if (s.has(key)) {
                    netnsLimit(s, key, "a linux host's kernel gets its ip and mac only: no " + key);
                    return;
                }
            }
        }
    }

    private Host host(String name, int index, Section s, String path, Loc loc) {
        try {
            Host.Builder b = Host.builder(name);
            String ip = s == null ? null : s.text("ip");
            int ipv4 = ip != null ? parseIp(s, ip) : defaultIp(index);
            b.ipv4(ipv4);
            String mac = s == null ? null : s.text("mac");
            if (mac != null) {
                b.mac(mac);
            } else {
                b.mac(HOST_MAC_BASE | (index + 1));  // from its place, so a duplicate address is one mistake
            }
            if (s != null) {
                for (String a : s.strings("ipv6")) {
                    b.ipv6(a);
                }
                b.activeMtu((int) s.integer("mtu", 4096, 256, 4096));
                if (s.has("speed")) {
                    b.linkSpeedBitsPerSecond(s.bitsPerSecond("speed", 100_000_000_000L));
                }
                if (s.has("vlan")) {
                    b.vlan((int) s.integer("vlan", 1, 1, 4094), (int) s.integer("pcp", 3, 0, 7));
                }
                secondPort(s, b);
            }
            if (nics.dcqcn()) {
                b.dcqcn(nics.params());
            }
            b.pauseResponse(nics.pauseResponse());
            // a host's own trust, pfc and dcbx over the nics: section's
            b.dcb(s == null ? nics.dcb() : NicsReader.dcb(s, nics.dcb()));
            // a host's own out-of-order over the nics: section's
            b.oooDataPlacement(s == null ? nics.outOfOrder() : NicsReader.outOfOrder(s, nics.outOfOrder()));
            // and its own roce-v1
            b.roceV1(s == null ? nics.roceV1() : NicsReader.roceV1(s, nics.roceV1()));
            return b.build();
        } catch (IllegalArgumentException e) {
            problems.add(loc, path, e.getMessage());
            return null;
        }
    }

    /**
     * {@code ports: 2} (eth0 and eth1, IBA ports 1 and 2), eth1's {@code mac2} / {@code ip2} (by
     * default eth0's with 02:00:.. → 02:02:.. and 10.0.0.1 → 10.128.0.1), or a {@code bond} of the
     * two ({@code lacp-rate} for 802.3ad).
     */
    private void secondPort(Section s, Host.Builder b) {
        int ports = (int) s.integer("ports", 1, 1, 2);
        for (String key : List.of("bond", "ip2", "mac2", "lacp-rate")) {
            if (ports == 1 && s.has(key)) {
                s.mistake(key, "host has one port: " + key + " needs ports: 2");
                return;
            }
        }
        if (ports == 1) {
            return;
        }
        b.secondPort();
        String bond = s.text("bond");
        if (bond != null) {
            BondMode mode;
            try {
                mode = BondMode.parse(bond);
            } catch (IllegalArgumentException e) {
                s.mistake("bond", e.getMessage());
                return;
            }
            for (String key : List.of("ip2", "mac2")) {
                if (s.has(key)) {
                    s.mistake(key, "a bond puts eth1 behind eth0's MAC and address: no " + key);
                    return;
                }
            }
            b.bond(mode);
            if (s.has("lacp-rate")) {
                if (mode != BondMode.LACP) {
                    s.mistake("lacp-rate", "LACP runs only in an 802.3ad bond, not " + mode.configName());
                    return;
                }
                String rate = s.text("lacp-rate");
                if (!"fast".equals(rate) && !"slow".equals(rate)) {
                    s.mistake("lacp-rate", "fast or slow (Linux's lacp_rate), not '" + rate + "'");
                    return;
                }
                b.lacpRate(rate);
            }
            return;
        }
        if (s.has("lacp-rate")) {
            s.mistake("lacp-rate", "LACP runs only in an 802.3ad bond (bond: 802.3ad)");
            return;
        }
        String ip2 = s.text("ip2");
        if (ip2 != null) {
            try {
                b.ipv4Port2(Ipv4.parse(ip2));
            } catch (IllegalArgumentException e) {
                s.mistake("ip2", "not an IPv4 address: '" + ip2 + "'");
            }
        }
        String mac2 = s.text("mac2");
        if (mac2 != null) {
            b.mac2(mac2);
        }
    }

    private int parseIp(Section s, String ip) {
        try {
            return Ipv4.parse(ip);
        } catch (IllegalArgumentException e) {
            s.mistake("ip", "not an IPv4 address: '" + ip + "'");
            return 0;
        }
    }

    private static int defaultIp(int index) {
        return 10 << 24 | (index / 250) << 8 | (index % 250 + 1);
    }

    private void aSwitch(Topology.Builder t, YNode node, String path, int index) {
        Section s = Section.of(node, path, problems, "name", "ports", "speed", "mtu", "config", "port-speed", "tables",
            "load-balancing");
        if (s == null) {
            return;
        }
        String name = s.text("name");
        if (name == null) {
            s.missing("name", "every switch has a name");
            return;
        }
        if (s.has("load-balancing")) {
            LoadBalancingMode m = loadBalancing(s);
            if (m != null) {
                switchModes.put(name, m);
            }
        }
        where.putIfAbsent("switch '" + name + "'", s.map().loc());
        YNode config = s.get("config");
        String configName = config instanceof YNode.YScalar sc && !sc.isNull() ? sc.text() : null;
        if (config instanceof YNode.YMap) {
            String json = JsonText.of(config);
            tablesSwitch(t, s, name, json, path + ".config");
            return;
        }
        if (configName != null && (configName.endsWith(".json") || configName.contains("/"))) {
            String json;
            try {
                json = sources.read(configName);
            } catch (IOException e) {
                s.mistake("config", "cannot read '" + configName + "': " + e.getMessage());
                return;
            }
            tablesSwitch(t, s, name, json, path + ".config");
            return;
        }
        if (configName != null && qos != null && !configName.equals(qos.name())) {
            s.mistake("config", "QoS profile '" + configName + "' is not the fabric's ('" + qos.name()
                + "', from qos.profile): one profile per fabric; give this switch a config_db.json for its own QoS");
            return;
        }
        if (!s.has("ports")) {
            s.missing("ports", "how many ports (Ethernet0, Ethernet4, ...), or a config_db.json as 'config'");
            return;
        }
        int ports = (int) s.integer("ports", 1, 1, 256);
        long speed = s.bitsPerSecond("speed", 100_000_000_000L);
        if (speed % 1_000_000L != 0 || speed == 0) {
            s.mistake("speed", "a switch port's speed is whole Mb/s: " + s.text("speed"));
            return;
        }
        int mtu = (int) s.integer("mtu", SWITCH_MTU, 1500, 9216);
        Map<String, Long> portSpeeds = portSpeeds(s, ports);
        SwitchConfigBuilder b = new SwitchConfigBuilder().hostname(name).mac(ROUTER_MAC_BASE | (index + 1))
            .ecmpHashSeed(index + 1L);
        for (int p = 0; p < ports; p++) {
            String port = "Ethernet" + 4 * p;
            b.port(port, portSpeeds.getOrDefault(port, speed) / 1_000_000L, mtu);
        }
        YNode tables = s.get("tables");
        if (tables instanceof YNode.YMap) {
            // config_db tables over the generated ones (PORT_QOS_MAP fields, ACL_TABLE, ...): ConfigOverlay
            b.overlay(JsonText.of(tables));
        } else if (tables != null) {
            s.mistake("tables", "config_db tables to lay over the switch's, a map of TABLE: {key: {field: value}}");
        }
        t.switchNode(name, b);
    }

    /** {@code port-speed: {Ethernet8: 10G}}: ports whose speed is not the switch's {@code speed}. */
    private static Map<String, Long> portSpeeds(Section s, int ports) {
        Map<String, Long> out = new LinkedHashMap<>();
        if (!s.has("port-speed")) {
            return out;
        }
        Section p = s.anySection("port-speed");
        if (p == null) {
            return out;
        }
        for (String port : p.map().entries().keySet()) {
            if (!port.matches("Ethernet\\d+") || Integer.parseInt(port.substring(8)) % 4 != 0
                || Integer.parseInt(port.substring(8)) / 4 >= ports) {
                p.mistake(port, "the switch has no port '" + port + "' (its ports are Ethernet0 to Ethernet"
                    + 4 * (ports - 1) + ")");
                continue;
            }
            long bps = p.bitsPerSecond(port, 0);
            if (bps <= 0 || bps % 1_000_000L != 0) {
                p.mistake(port, "a switch port's speed is whole Mb/s: " + p.text(port));
                continue;
            }
            out.put(port, bps);
        }
        return out;
    }

    /** A switch whose configuration is its own (SONiC's config_db JSON): used as it is, checked by the switch. */
    private void tablesSwitch(Topology.Builder t, Section s, String name, String json, String path) {
        if (s.has("ports") || s.has("speed")) {
            s.mistake(s.has("ports") ? "ports" : "speed", "a switch with a config_db takes its ports from its PORT table");
        }
        try {
            LoadedConfig loaded = ConfigLoader.read(json);
            t.switchNode(name, loaded.config());
            for (String line : loaded.lines()) {
                notes.add(s.loc("config"), path, line);
            }
        } catch (ConfigException e) {
            for (String p : e.problems()) {
                problems.add(s.loc("config"), path, p);
            }
        }
    }

    private Link link(YNode node, String path) {
        Section s = Section.of(node, path, problems, "name", "a", "b", "speed", "cable", "delay", "loss", "up");
        if (s == null) {
            return null;
        }
        String a = s.text("a");
        String b = s.text("b");
        if (a == null || b == null) {
            s.missing(a == null ? "a" : "b", "a link joins two ends, node:port or a host's name");
            return null;
        }
        Link.Builder l = Link.between(a, b);
        String name = s.text("name");
        if (name != null) {
            l.name(name);
        }
        if (s.has("speed")) {
            l.speedBitsPerSecond(s.bitsPerSecond("speed", 0));
        }
        if (s.has("delay")) {
            l.propagationDelayNanos(s.nanos("delay", 25));
        } else {
            l.cableMeters(meters(s, "cable", 5));
        }
        if (s.has("loss")) {
            l.faults(FaultProfile.NONE.withLoss(s.fraction("loss", 0)));
        }
        l.up(s.bool("up", true));
        if (s.has("loss")) {
            netnsLimit(s, "loss", "a veth pair loses nothing in netns mode: no loss");
        } else if (s.has("delay") || s.has("cable")) {
            String key = s.has("delay") ? "delay" : "cable";
            netnsLimit(s, key, "a veth pair has no length in netns mode: no " + key);
        } else if (!s.bool("up", true)) {
            netnsLimit(s, "up", "every veth pair is up in netns mode: no up: false");
        } else if (where.containsKey("host '" + Attachment.parse(a).node() + "'")
            && where.containsKey("host '" + Attachment.parse(b).node() + "'")) {
            netnsLimit(s, "b", "in netns mode every host is cabled to a switch, not to host '"
                + Attachment.parse(b).node() + "'");
        }
        Link built = l.build();
        where.putIfAbsent("link '" + built.name() + "'", s.map().loc());
        return built;
    }

    /** Every link name a problem could mention, with where it is (for the checks that follow). */
    List<String> names() {
        return new ArrayList<>(where.keySet());
    }
}
