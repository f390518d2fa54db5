package io.rocelab.lab.netns;

import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.link.LinkPort;
import io.rocelab.fabric.raw.RawEthernetPort;
import io.rocelab.fabric.raw.RawPortCounter;
import io.rocelab.sw.SoftSwitch;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.model.Attachment;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.model.SwitchNode;
import io.rocelab.topology.model.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A real-time fabric moved onto its veth pairs. Each switch port gets a {@link RawEthernetPort} on
 * its end in the fabric's namespace in place of its in-process cable. A nic host's NIC keeps its
 * cable (the fabric built it with one), whose far end now leads to a raw port on {@code eth0} in the
 * host's namespace: the NIC's frames leave through that interface, and what comes in there reaches
 * the NIC. A linux host's NIC is left idle, its cable leading nowhere; the kernel of its namespace
 * has the interface. Every raw socket is opened on a thread inside the namespace it belongs to.
 */
public final class VethPorts implements AutoCloseable {
    private final List<RawEthernetPort> ports = new ArrayList<>();

    private VethPorts() {
    }

    /**
     * Moves every link of {@code fabric} onto {@code network}'s veths.
     *
     * @param linuxHosts the hosts without a NIC of their own on the network
     * @throws NetnsException if an interface cannot be opened
     */
    public static VethPorts plug(Fabric fabric, VethNetwork network, Set<String> linuxHosts) {
        VethPorts v = new VethPorts();
        try {
            v.plugAll(fabric, network, linuxHosts);
            return v;
        } catch (RuntimeException e) {
            v.close();
            throw e;
        }
    }

    private void plugAll(Fabric fabric, VethNetwork network, Set<String> linuxHosts) {
        Topology t = fabric.topology();
        List<Runnable> wiring = new ArrayList<>();
        for (Link l : t.links()) {
            InProcessLink link = fabric.link(l.name());
            Attachment[] at = {l.a(), l.b()};
            LinkPort[] cable = {link.portA(), link.portB()};
            for (int i = 0; i < 2; i++) {
                Attachment a = at[i];
                LinkPort end = cable[i];
                if (t.node(a.node()) instanceof SwitchNode) {
                    RawEthernetPort raw = open(fabric, network, a, a.node());
                    SoftSwitch sw = fabric.softSwitch(a.node());
                    Attachment other = at[1 - i];
                    boolean nicBehind = t.node(other.node()) instanceof Host && !linuxHosts.contains(other.node());
                    RawEthernetPort host = nicBehind ? open(fabric, network, other, other.node()) : null;
                    wiring.add(() -> {
                        sw.attach(a.port(), raw);
                        if (host != null) {
                            // the NIC's cable now ends at the host's interface
                            end.setReceiver((p, frame) -> host.send(frame));
                            host.setReceiver((p, frame) -> end.send(frame));
                        } else {
                            end.setReceiver(null);
                        }
                    });
                } else if (!(t.node(at[1 - i].node()) instanceof SwitchNode)) {
                    throw new NetnsException("link " + l.name() + " joins two hosts: in netns mode every host is "
                        + "cabled to a switch");
                }
            }
        }
        String owner = t.hosts().isEmpty() ? t.switches().get(0).name() : t.hosts().get(0).name();
        fabric.onOwner(owner, () -> {
            wiring.forEach(Runnable::run);
            return null;
        });
    }

    private RawEthernetPort open(Fabric fabric, VethNetwork network, Attachment a, String node) {
        VethNetwork.End e = network.end(a);
        RawEthernetPort p = NamespaceThreads.call(e.namespace(),
            () -> RawEthernetPort.open(a.toString(), e.iface(), fabric.scheduler(node)));
        ports.add(p);
        return p;
    }

    /**
     * @return one line of the raw ports' totals: frames sent and received, and every drop (at the
     *         sockets, between the receive threads and the loop, errors)
     */
    public String summary() {
        long[] totals = new long[RawPortCounter.values().length];
        for (RawEthernetPort p : ports) {
            for (RawPortCounter c : RawPortCounter.values()) {
                totals[c.ordinal()] += p.counters().get(c);
            }
        }
        StringBuilder b = new StringBuilder("raw ports (" + ports.size() + "): " + totals[RawPortCounter.FRAMES_SENT
            .ordinal()] + " frames sent, " + totals[RawPortCounter.FRAMES_RECEIVED.ordinal()] + " received");
        for (RawPortCounter c : RawPortCounter.values()) {
            if (c.name().contains("DROPPED") || c.name().contains("ERRORS")) {
                if (totals[c.ordinal()] > 0) {
                    b.append(", ").append(c.name().toLowerCase(java.util.Locale.ROOT)).append(' ')
                        .append(totals[c.ordinal()]);
                }
            }
        }
        return b.toString();
    }

    /** @return the raw ports, for their counters */
    public List<RawEthernetPort> ports() {
        return List.copyOf(ports);
    }

    /** Closes every raw port (before the fabric's loop stops). */
    @Override
    public void close() {
        for (RawEthernetPort p : ports) {
            p.close();
        }
        ports.clear();
    }
}
