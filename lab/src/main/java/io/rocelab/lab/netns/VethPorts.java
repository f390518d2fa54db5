package io.rocelab.lab.netns;

import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.link.LinkPort;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.raw.RawEthernetPort;
import io.rocelab.fabric.raw.RawPortCounter;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.fabric.udp.UdpFramePort;
import io.rocelab.sw.SoftSwitch;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.model.Attachment;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.model.SwitchNode;
import io.rocelab.topology.model.Topology;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
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
    /** The rate at which a switch port sends to a qemu VM: qemu's UDP socket drops bursts (interop/README.md). */
    public static final double VM_PACE_GBPS = 0.1;
    /** The burst allowed at that rate. */
    public static final int VM_PACE_BURST_BYTES = 16384;

    /**
     * An rxe-vm host's link: its switch port on a frame-over-UDP socket on 127.0.0.1.
     *
     * @param switchPort    the switch port, {@code sw0:Ethernet0}
     * @param switchUdpPort where qemu sends the VM's frames (the switch port's socket)
     * @param qemuUdpPort   where the switch port sends the VM's frames (qemu's socket)
     */
    public record VmLink(String switchPort, int switchUdpPort, int qemuUdpPort) {
    }

    private final List<RawEthernetPort> ports = new ArrayList<>();
    /** A VM's switch port: its socket, and the check of what the VM sent on it. */
    private record VmPort(UdpFramePort udp, IcrcCheckingPort checked) {
    }

    private final List<VmPort> vmPorts = new ArrayList<>();
    private final Map<String, VmLink> vmLinks = new LinkedHashMap<>();
    private final Map<String, RawEthernetPort> ownPorts = new LinkedHashMap<>();

    private VethPorts() {
    }

    /**
     * Moves every link of {@code fabric} onto {@code network}'s veths.
     *
     * @param linuxHosts the hosts without a NIC of their own on the network
     * @param rxeVms     the hosts that are qemu VMs: their switch port goes on a frame-over-UDP socket
     *                   towards qemu, paced at {@link #VM_PACE_GBPS}
     * @param ownNic     nic hosts whose interface is left to a NIC of their own ({@link #ownPort}), not
     *                   the fabric's
     * @throws NetnsException if an interface cannot be opened
     */
    public static VethPorts plug(Fabric fabric, VethNetwork network, Set<String> linuxHosts, Set<String> rxeVms,
                                 Set<String> ownNic) {
        VethPorts v = new VethPorts();
        try {
            v.plugAll(fabric, network, linuxHosts, rxeVms, ownNic);
            return v;
        } catch (RuntimeException e) {
            v.close();
            throw e;
        }
    }

    private void plugAll(Fabric fabric, VethNetwork network, Set<String> linuxHosts, Set<String> rxeVms,
                         Set<String> ownNic) {
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
                    Attachment other = at[1 - i];
                    boolean vm = rxeVms.contains(other.node());
                    FramePort raw = vm ? openVmPort(fabric, a, other.node())
                        : open(fabric, network, a, a.node());
                    SoftSwitch sw = fabric.softSwitch(a.node());
                    boolean nicBehind = t.node(other.node()) instanceof Host && !linuxHosts.contains(other.node())
                        && !vm;
                    RawEthernetPort host = nicBehind ? open(fabric, network, other, other.node()) : null;
                    boolean own = host != null && ownNic.contains(other.node());
                    if (own) {
                        ownPorts.put(other.node(), host);
                    }
                    wiring.add(() -> {
                        sw.attach(a.port(), raw);
                        if (host != null && !own) {
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

    /**
     * The switch port {@code a} of VM {@code vm}: a UDP socket towards a port qemu will receive on,
     * checking what the VM sends. virtio-net sends frames shorter than Ethernet's 60 bytes (ARP: 42),
     * which the switch drops as undersize: the port pads them, as a NIC on a wire does.
     */
    private IcrcCheckingPort openVmPort(Fabric fabric, Attachment a, String vm) {
        if (!(fabric.scheduler(a.node()) instanceof RealTimeScheduler loop)) {
            throw new NetnsException("an rxe-vm host needs the real-time fabric");
        }
        int qemuPort = freeUdpPort();
        UdpFramePort p = UdpFramePort.builder().name(a.toString()).localPort(0).remotePort(qemuPort)
            .transmitRate(VM_PACE_GBPS, VM_PACE_BURST_BYTES).padShortFrames(true).open(loop);
        IcrcCheckingPort checked = new IcrcCheckingPort(p);
        vmPorts.add(new VmPort(p, checked));
        vmLinks.put(vm, new VmLink(a.toString(), p.localAddress().getPort(), qemuPort));
        return checked;
    }

    /** @return per VM port, its socket's counters and what it received from the VM, one line each */
    public List<String> vmSummary() {
        List<String> out = new ArrayList<>();
        for (VmPort v : vmPorts) {
            out.add("vm port " + v.udp().name() + ": " + v.checked().summary() + "; socket " + v.udp().counters());
        }
        return out;
    }

    private static int freeUdpPort() {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new NetnsException("no free UDP port on 127.0.0.1 for a VM: " + e.getMessage(), e);
        }
    }

    /** @return VM {@code host}'s link */
    public VmLink vmLink(String host) {
        VmLink l = vmLinks.get(host);
        if (l == null) {
            throw new IllegalArgumentException(host + " is not an rxe-vm host");
        }
        return l;
    }

    /** @return the raw port on nic host {@code host}'s eth0 that a NIC of its own sends and receives on */
    public RawEthernetPort ownPort(String host) {
        RawEthernetPort p = ownPorts.get(host);
        if (p == null) {
            throw new IllegalArgumentException(host + " has no interface of its own here");
        }
        return p;
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
        for (VmPort v : vmPorts) {
            v.udp().close();
        }
        vmPorts.clear();
    }
}
