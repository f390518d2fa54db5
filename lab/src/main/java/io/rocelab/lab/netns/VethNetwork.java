package io.rocelab.lab.netns;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.topology.model.Attachment;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.model.SwitchNode;
import io.rocelab.topology.model.Topology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A topology laid out on the Linux network: a namespace per host and one for the switches, a veth
 * pair per link (a host's end is {@code eth0} in its namespace, a switch port's end is in the
 * fabric's), the MTU of the switch ports, IPv6 off (no router solicitations or DAD on the wire),
 * the offloads a user-space switch cannot carry off ({@code tx} checksum, TSO, GSO, GRO), and on a
 * linux host the kernel's address, a route to every other host and, behind a routing switch, a
 * permanent neighbour entry to the switch's router MAC for each (as the fabric gives its NICs). A
 * nic host's kernel gets no address: the soft NIC answers ARP for its own, and a kernel that also
 * owned it would answer too and send port unreachable for 4791.
 */
public final class VethNetwork implements AutoCloseable {
    /** Where a link end is: its namespace and its interface there. */
    public record End(String namespace, String iface) {
    }

    private final NetnsNames names;
    private final Map<Attachment, End> ends = new LinkedHashMap<>();
    private final Map<String, Integer> hostMtus = new LinkedHashMap<>();
    private final List<String> namespaces = new ArrayList<>();
    private boolean closed;

    private VethNetwork(NetnsNames names) {
        this.names = names;
    }

    /**
     * Builds {@code topology} on the Linux network; on failure removes what it made.
     *
     * @param linuxHosts the hosts whose kernel has their address (the others are soft NICs)
     * @param rxeVms     the hosts that are qemu VMs: no namespace and no veth (their switch port
     *                   is a frame-over-UDP link, {@link VethPorts})
     * @throws NetnsException naming the command that failed
     */
    public static VethNetwork create(Topology topology, Set<String> linuxHosts, Set<String> rxeVms, NetnsNames names) {
        VethNetwork n = new VethNetwork(names);
        try {
            n.build(topology, linuxHosts, rxeVms);
            return n;
        } catch (RuntimeException e) {
            n.close();
            throw e;
        }
    }

    private void build(Topology t, Set<String> linuxHosts, Set<String> rxeVms) {
        String ip = Commands.require("ip", "iproute2");
        String ethtool = Commands.require("ethtool", "ethtool");
        addNamespace(ip, names.fabric());
        for (Host h : t.hosts()) {
            if (!rxeVms.contains(h.name())) {
                addNamespace(ip, names.host(h.name()));
            }
        }
        for (Link l : t.links()) {
            if (rxeVms.contains(l.a().node()) || rxeVms.contains(l.b().node())) {
                continue;
            }
            End a = endOf(t, l.a());
            End b = endOf(t, l.b());
            ends.put(l.a(), a);
            ends.put(l.b(), b);
            Commands.run(List.of(ip, "-n", a.namespace(), "link", "add", a.iface(), "type", "veth", "peer", "name",
                b.iface(), "netns", b.namespace()));
            int mtu = mtu(t, l);
            for (Attachment at : List.of(l.a(), l.b())) {
                if (t.node(at.node()) instanceof Host) {
                    hostMtus.put(at.node(), mtu);
                }
            }
            for (End e : List.of(a, b)) {
                Commands.run(List.of(ip, "-n", e.namespace(), "link", "set", e.iface(), "mtu", Integer.toString(mtu)));
                Commands.run(List.of(ip, "netns", "exec", e.namespace(), ethtool, "-K", e.iface(), "tx", "off", "tso",
                    "off", "gso", "off", "gro", "off"));
            }
        }
        for (Host h : t.hosts()) {
            if (linuxHosts.contains(h.name()) && ends.containsKey(h.port())) {
                kernelAddress(ip, t, h);
            }
        }
        for (End e : ends.values()) {
            Commands.run(List.of(ip, "-n", e.namespace(), "link", "set", e.iface(), "up"));
        }
    }

    private void addNamespace(String ip, String ns) {
        Commands.run(List.of(ip, "netns", "add", ns));
        namespaces.add(ns);
        Commands.run(List.of(ip, "netns", "exec", ns, Commands.require("sysctl", "procps"), "-qw",
            "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1"));
        Commands.run(List.of(ip, "-n", ns, "link", "set", "lo", "up"));
    }

    private End endOf(Topology t, Attachment a) {
        if (t.node(a.node()) instanceof Host) {
            return new End(names.host(a.node()), NetnsNames.HOST_IFACE);
        }
        int index = t.switches().indexOf(t.switchNode(a.node()));
        return new End(names.fabric(), NetnsNames.switchIface(index, a.port()));
    }

    /** The link's MTU: its switch ports' (the largest frame they take), 1500 between hosts. */
    private static int mtu(Topology t, Link l) {
        int mtu = 0;
        for (Attachment a : List.of(l.a(), l.b())) {
            if (t.node(a.node()) instanceof SwitchNode sw) {
                for (PortConfig p : sw.config().ports()) {
                    if (p.name().equals(a.port())) {
                        mtu = Math.max(mtu, p.mtu());
                    }
                }
            }
        }
        return mtu == 0 ? 1500 : mtu;
    }

    /** A linux host: its MAC and address on eth0, a route to each other host, neighbours behind a router. */
    private void kernelAddress(String ip, Topology t, Host h) {
        String ns = names.host(h.name());
        String dev = NetnsNames.HOST_IFACE;
        Commands.run(List.of(ip, "-n", ns, "link", "set", dev, "address", MacAddress.toString(h.mac())));
        Commands.run(List.of(ip, "-n", ns, "addr", "add", Ipv4.toString(h.ipv4()) + "/32", "dev", dev));
        Commands.run(List.of(ip, "-n", ns, "link", "set", dev, "up"));
        SwitchNode router = t.routerOf(h);
        for (Host peer : t.hosts()) {
            if (peer == h) {
                continue;
            }
            String addr = Ipv4.toString(peer.ipv4());
            Commands.run(List.of(ip, "-n", ns, "route", "replace", addr + "/32", "dev", dev));
            if (router != null) {
                Commands.run(List.of(ip, "-n", ns, "neigh", "replace", addr, "lladdr",
                    MacAddress.toString(router.routerMac()), "dev", dev, "nud", "permanent"));
            }
        }
    }

    /** @return where link end {@code a} is */
    public End end(Attachment a) {
        End e = ends.get(a);
        if (e == null) {
            throw new IllegalArgumentException("nothing is cabled to " + a);
        }
        return e;
    }

    /** @return host {@code host}'s namespace */
    /** The MTU the network gave each host's {@code eth0} (its link's switch port's), by host name. */
    public Map<String, Integer> hostMtus() {
        return Map.copyOf(hostMtus);
    }

    public String namespaceOf(String host) {
        return names.host(host);
    }

    /** @return the fabric's namespace */
    public String fabricNamespace() {
        return names.fabric();
    }

    /** @return every namespace made, the fabric's first */
    public List<String> namespaces() {
        return List.copyOf(namespaces);
    }

    /** Kills what runs in the namespaces and deletes them (and so every veth pair). Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        String ip = Commands.find("ip");
        for (String ns : namespaces) {
            NetnsCleaner.killProcesses(ns);
            Commands.attempt(List.of(ip, "netns", "del", ns));
        }
    }
}
