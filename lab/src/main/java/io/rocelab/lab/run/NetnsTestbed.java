package io.rocelab.lab.run;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.fabric.raw.NetdevMtu;
import io.rocelab.lab.labfile.LabFlow;
import io.rocelab.lab.labfile.RunSpec;
import io.rocelab.lab.netns.InteropDir;
import io.rocelab.lab.netns.LldpdHosts;
import io.rocelab.lab.netns.NetnsNames;
import io.rocelab.lab.netns.QemuVm;
import io.rocelab.lab.netns.RxeVmFlows;
import io.rocelab.lab.netns.TcpFlows;
import io.rocelab.lab.netns.TsharkCaptures;
import io.rocelab.lab.netns.VethNetwork;
import io.rocelab.lab.netns.VethPorts;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.fabric.FabricMode;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.SwitchNode;
import io.rocelab.topology.model.Topology;
import io.rocelab.topology.workload.Flow;
import io.rocelab.topology.workload.FlowProgress;
import io.rocelab.topology.workload.FlowResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * A lab's testbed on the Linux network ({@code --mode netns}): the topology laid out as
 * namespaces and veth pairs ({@link VethNetwork}), the live fabric (every NIC and switch on one
 * real-time event loop, as {@link RunClock.Live}, whose wall clock is the run's time) moved onto the
 * veths ({@link VethPorts}), the real programs the file's flows name (iperf3 for the tcp flows,
 * qemu VMs running perftest for the flows from rxe-vm hosts, with the NIC-side servers they talk
 * to), tshark where the file asks, and the notes a run leaves (what each port dropped, each NIC's
 * trouble). Whatever happens, what it made is removed: at the end, on a failure, and on Ctrl-C or
 * SIGTERM by a shutdown hook; after a kill -9 the next run or {@code rocelab lab clean} does it.
 */
final class NetnsTestbed implements RunClock {
    /** iperf3's first port; each tcp flow has its own. */
    private static final int IPERF3_PORT = 5201;
    /** perftest's port for the first flow from a VM (rdma_cm's, {@code -p}); each flow has its own. */
    private static final int PERFTEST_PORT = 18515;
    /** How long past the run's duration the VMs may take to end their flows and power off. */
    private static final long VM_SLACK_SECONDS = 150;

    private final RunSpec run;
    private final Path captureFile;
    private final Live live = new Live();
    private final NetnsNames names = NetnsNames.ofThisProcess();
    private final Thread hook = new Thread(this::teardown, "rocelab-netns-teardown");
    private final List<String> notes = new ArrayList<>();
    private VethNetwork network;
    private TsharkCaptures tshark;
    private LldpdHosts lldpd;
    private VethPorts plugged;
    private RxeVmFlows vmFlows;
    private boolean hooked;

    NetnsTestbed(RunSpec run, Path captureFile) {
        this.run = run;
        this.captureFile = captureFile;
    }

    @Override
    public Fabric start(Topology topology, long seed) {
        Runtime.getRuntime().addShutdownHook(hook);
        hooked = true;
        synchronized (this) {
            network = VethNetwork.create(topology, run.linuxHosts(), run.rxeVms(), names);
        }
        Fabric.Builder b = Fabric.builder(topology).mode(FabricMode.REAL_TIME).seed(seed).eventLoops(1);
        // a nic host's NIC is on a raw socket on its veth: as rxe, its active MTU is what the veth's
        // MTU leaves room for, so that a 1500-byte link carries 1024-byte packets instead of losing 4096
        network.hostMtus().forEach((host, mtu) -> {
            if (!run.linuxHosts().contains(host)) {
                b.linkMtu(host, mtu);
                int asked = topology.host(host).activeMtu();
                int active = Math.min(asked, NetdevMtu.ibMtuFor(mtu));
                if (active < asked) {
                    notes.add(host + ": active MTU " + active + " (eth0's MTU is " + mtu + ", less "
                        + NetdevMtu.RXE_MAX_HDR_LENGTH + " header bytes, down to an IB MTU, as rxe; the host asks for "
                        + asked + ")");
                }
            }
        });
        return b.start();
    }

    @Override
    public AutoCloseable attach(Fabric fabric) {
        VethPorts ports = VethPorts.plug(fabric, network, run.linuxHosts(), run.rxeVms(), vmServedHosts());
        plugged = ports;
        if (run.capture() != null && !run.capture().tshark().isEmpty()) {
            Map<String, String> hosts = new LinkedHashMap<>();
            for (String h : run.capture().tshark()) {
                hosts.put(h, network.namespaceOf(h));
            }
            Path dir = captureFile != null ? captureFile.toAbsolutePath().getParent() : Path.of(".");
            try {
                TsharkCaptures t = TsharkCaptures.start(hosts, dir);
                synchronized (this) {
                    tshark = t;
                }
            } catch (RuntimeException e) {
                ports.close();
                throw e;
            }
        }
        return () -> {
            stopCaptures();
            notes.add(ports.summary());
            notes.addAll(ports.vmSummary());
            notes.addAll(drops(fabric));
            notes.addAll(nicTrouble(fabric));
            ports.close();
        };
    }

    /** Every switch port's drops by reason, one line each port that dropped (what the report's totals hide). */
    private static List<String> drops(Fabric fabric) {
        List<String> out = new ArrayList<>();
        for (var node : fabric.topology().switches()) {
            var sw = fabric.softSwitch(node.name());
            fabric.onOwner(node.name(), () -> {
                for (var port : node.config().ports()) {
                    var c = sw.counters(sw.port(port.name()));
                    StringBuilder b = new StringBuilder();
                    for (io.rocelab.sw.pipeline.DropReason r : io.rocelab.sw.pipeline.DropReason.values()) {
                        if (c.drops(r) > 0) {
                            b.append(b.length() == 0 ? "" : ", ").append(r.name().toLowerCase(Locale.ROOT)).append(' ')
                                .append(c.drops(r));
                        }
                    }
                    if (b.length() > 0) {
                        out.add("drops at " + node.name() + ":" + port.name() + ": " + b);
                    }
                }
                return null;
            });
        }
        return out;
    }

    /** Per nic host, its counters of repair and loss that are not 0 (rxe's names), one line each. */
    private List<String> nicTrouble(Fabric fabric) {
        List<String> out = new ArrayList<>();
        for (String h : run.nicHosts()) {
            fabric.onOwner(h, () -> {
                var c = fabric.nic(h).counters();
                StringBuilder b = new StringBuilder();
                for (io.rocelab.nic.stats.NicCounter n : io.rocelab.nic.stats.NicCounter.values()) {
                    String name = n.rxeName();
                    boolean trouble = name.contains("err") || name.contains("retry") || name.contains("dup")
                        || name.contains("drop") || name.contains("rnr") || name.contains("seq");
                    if (trouble && c.get(n) > 0) {
                        b.append(' ').append(name).append(' ').append(c.get(n));
                    }
                }
                out.add("nic " + h + ": sent_pkts " + c.get(io.rocelab.nic.stats.NicCounter.SENT_PKTS) + " rcvd_pkts "
                    + c.get(io.rocelab.nic.stats.NicCounter.RCVD_PKTS) + b);
                return null;
            });
        }
        return out;
    }

    /** The nic hosts that serve a flow from a VM: a NIC of their own runs perftest's server. */
    private Set<String> vmServedHosts() {
        Set<String> out = new LinkedHashSet<>();
        for (LabFlow f : run.flows()) {
            if (run.rxeVms().contains(f.source()) && !run.rxeVms().contains(f.destination())) {
                out.add(f.destination());
            }
        }
        return out;
    }

    @Override
    public ProgramFlows programs(Fabric fabric, List<LabFlow> flows, long epochNanos) {
        List<Flow> fromVms = flows.stream().filter(f -> run.rxeVms().contains(f.source()))
            .map(f -> ((LabFlow.Rdma) f).flow()).toList();
        ProgramFlows tcp = tcpFlows(fabric, flows.stream().filter(f -> !run.rxeVms().contains(f.source()))
            .map(f -> (LabFlow.Tcp) f).toList(), epochNanos);
        if (run.rxeVms().isEmpty()) {
            return tcp;
        }
        RxeVmFlows vms;
        try {
            vms = vmFlows(fabric, fromVms, epochNanos);
        } catch (RuntimeException e) {
            tcp.close();
            throw e;
        }
        long waitMillis = VM_SLACK_SECONDS * 1000L;
        return new ProgramFlows() {
            @Override
            public FlowProgress progress(String flow) {
                FlowProgress p = tcp.progress(flow);
                return p != null ? p : vms.progress(flow);
            }

            @Override
            public List<FlowResult> results() {
                List<FlowResult> out = new ArrayList<>(tcp.results());
                out.addAll(vms.results(waitMillis));
                notes.addAll(vms.summary());
                return out;
            }

            @Override
            public void close() {
                tcp.close();
                vms.close();
            }
        };
    }

    /** Boots the VMs (each with its own script) after rocelab's servers for their flows to nic hosts listen. */
    private RxeVmFlows vmFlows(Fabric fabric, List<Flow> flows, long epochNanos) {
        Topology t = run.topology();
        List<RxeVmFlows.Spec> specs = new ArrayList<>();
        int port = PERFTEST_PORT;
        // the fabric's RoCE class, ECT(0) as the NICs send it (a WRED queue drops Not-ECT packets it would mark)
        int tos = t.qos() != null ? t.qos().roceDscp() << 2 | 2 : 0;
        for (Flow f : flows) {
            boolean toVm = run.rxeVms().contains(f.destination());
            specs.add(new RxeVmFlows.Spec(f.name(), f.source(), f.destination(),
                Ipv4.toString(t.host(f.destination()).ipv4()), toVm, f.verb().name().toLowerCase(Locale.ROOT),
                f.size().maxBytes(), f.messages(), port++, tos));
        }
        Map<String, RxeVmFlows.NicServer> servers = new LinkedHashMap<>();
        for (String h : vmServedHosts()) {
            Host host = t.host(h);
            Map<Integer, Long> neighbors = new LinkedHashMap<>();
            SwitchNode router = t.routerOf(host);
            if (router != null) {
                for (Host peer : t.hosts()) {
                    if (peer != host) {
                        neighbors.put(peer.ipv4(), router.routerMac());
                    }
                }
            }
            servers.put(h, new RxeVmFlows.NicServer(h, Ipv4.toString(host.ipv4()), MacAddress.toString(host.mac()),
                fabric.scheduler(h), plugged.ownPort(h), neighbors));
        }
        Map<String, QemuVm.Boot> boots = new LinkedHashMap<>();
        int number = 1;
        long timeout = run.durationNanos() / 1_000_000_000L + 2 * VM_SLACK_SECONDS;
        for (Host h : t.hosts()) {
            if (!run.rxeVms().contains(h.name())) {
                continue;
            }
            List<String> routes = new ArrayList<>();
            for (Host peer : t.hosts()) {
                if (peer != h) {
                    routes.add(Ipv4.toString(peer.ipv4()) + "/32");
                }
            }
            SwitchNode router = t.routerOf(h);
            String routerMac = router != null ? MacAddress.toString(router.routerMac()) : null;
            VethPorts.VmLink link = plugged.vmLink(h.name());
            boots.put(h.name(), new QemuVm.Boot(number++, Ipv4.toString(h.ipv4()) + "/32", MacAddress.toString(h.mac()),
                routes, routerMac, link.qemuUdpPort(), link.switchUdpPort(), timeout));
        }
        Path dir = (captureFile != null ? captureFile.toAbsolutePath().getParent() : Path.of("lab-out"))
            .resolve((run.variant().isEmpty() ? "" : run.variant() + "-") + "vms");
        var clock = fabric.scheduler(t.hosts().get(0).name());
        RxeVmFlows f = RxeVmFlows.start(specs, boots, servers, InteropDir.find(), dir, names.fabric(),
            clock::nanoTime, epochNanos);
        synchronized (this) {
            vmFlows = f;
        }
        return f;
    }

    private ProgramFlows tcpFlows(Fabric fabric, List<LabFlow.Tcp> flows, long epochNanos) {
        List<TcpFlows.Spec> specs = new ArrayList<>();
        int port = IPERF3_PORT;
        for (LabFlow.Tcp f : flows) {
            long end = Math.min(f.stopNanos(), run.durationNanos());
            long nanos = f.durationNanos() > 0 ? f.durationNanos() : Math.max(1, end - f.startNanos());
            long seconds = Math.max(1, (nanos + 999_999_999L) / 1_000_000_000L);
            specs.add(new TcpFlows.Spec(f.name(), f.source(), f.destination(), network.namespaceOf(f.source()),
                network.namespaceOf(f.destination()), Ipv4.toString(run.topology().host(f.destination()).ipv4()),
                port++, f.startNanos(), seconds, f.streams(), f.rateBitsPerSecond()));
        }
        if (specs.isEmpty()) {
            return ProgramFlows.NONE;
        }
        var clock = fabric.scheduler(fabric.topology().hosts().get(0).name());
        TcpFlows tcp = TcpFlows.start(specs, clock::nanoTime, epochNanos, run.probes().intervalNanos());
        return new ProgramFlows() {
            @Override
            public FlowProgress progress(String flow) {
                return tcp.progress(flow);
            }

            @Override
            public List<FlowResult> results() {
                return tcp.results();
            }

            @Override
            public void close() {
                tcp.close();
            }
        };
    }

    @Override
    public void runUntil(Fabric fabric, long atNanos) {
        live.runUntil(fabric, atNanos);
    }

    @Override
    public <T> T onFabric(Fabric fabric, Callable<T> what) {
        return live.onFabric(fabric, what);
    }

    @Override
    public long events(Fabric fabric) {
        return -1;
    }

    /**
     * {@code lldp: true}: the linux hosts run Debian's lldpd as Linux servers do, beside the switches'
     * LLDP, started once the switches listen (lldpd sends its first LLDPDU when it starts, the next 30 s
     * later); closing notes what each heard and stops them.
     */
    @Override
    public AutoCloseable lldpStarted(Fabric fabric) {
        if (run.linuxHosts().isEmpty()) {
            return () -> { };
        }
        Map<String, String> hosts = new LinkedHashMap<>();
        for (String h : run.linuxHosts()) {
            hosts.put(h, network.namespaceOf(h));
        }
        LldpdHosts l = LldpdHosts.start(hosts);
        synchronized (this) {
            lldpd = l;
        }
        return this::stopLldpd;
    }

    /** What each linux host's lldpd heard, a note each, then stops them. */
    private void stopLldpd() {
        LldpdHosts l;
        synchronized (this) {
            l = lldpd;
            lldpd = null;
        }
        if (l != null) {
            notes.addAll(l.neighbors());
            l.close();
        }
    }

    private void stopCaptures() {
        TsharkCaptures t;
        synchronized (this) {
            t = tshark;
            tshark = null;
        }
        if (t == null) {
            return;
        }
        t.close();
        for (Map.Entry<String, Path> f : t.files().entrySet()) {
            long[] n = TsharkCaptures.frameCounts(f.getValue());
            notes.add(String.format(Locale.ROOT, "tshark on %s's %s: %s, %d frames, %d PFC", f.getKey(),
                NetnsNames.HOST_IFACE, f.getValue().getFileName(), n[0], n[1]));
        }
    }

    @Override
    public List<String> notes() {
        return List.copyOf(notes);
    }

    /** Stops the captures and removes the namespaces, once; from {@link #close} or the shutdown hook. */
    private void teardown() {
        TsharkCaptures t;
        VethNetwork n;
        RxeVmFlows v;
        LldpdHosts l;
        synchronized (this) {
            l = lldpd;
            lldpd = null;
            v = vmFlows;
            vmFlows = null;
            t = tshark;
            tshark = null;
            n = network;
            network = null;
        }
        if (l != null) {
            l.close();
        }
        if (v != null) {
            v.close();
        }
        if (t != null) {
            t.close();
        }
        if (n != null) {
            n.close();
        }
        if (hooked) {
            // what a run stopped half-way through making is named after it too
            String mine = names.fabric();
            io.rocelab.lab.netns.NetnsCleaner.clean(ns -> ns.equals(mine) || ns.startsWith(mine + "-"));
        }
    }

    @Override
    public void close() {
        teardown();
        if (hooked) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // shutting down: the hook runs (and finds nothing left to do)
            }
        }
    }
}
