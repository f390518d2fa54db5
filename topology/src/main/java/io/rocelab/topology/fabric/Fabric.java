package io.rocelab.topology.fabric;

import io.rocelab.fabric.buffer.FramePoolAllocator;
import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.link.LinkPort;
import io.rocelab.fabric.random.SplitMix64;
import io.rocelab.fabric.raw.NetdevMtu;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.nic.net.Gid;
import io.rocelab.nic.SoftNic;
import io.rocelab.sw.SoftSwitch;
import io.rocelab.topology.model.Attachment;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.model.SwitchNode;
import io.rocelab.topology.model.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;

/**
 * A topology brought to life: a {@link SoftNic} per host, a {@link SoftSwitch} per switch and an
 * {@link InProcessLink} per link (its rate, propagation delay, faults and state from the topology),
 * attached to each other.
 *
 * <p>Time: in {@link FabricMode#VIRTUAL} one {@link VirtualTimeScheduler} owns everything and the
 * caller drives it ({@link #runFor}, {@link #runUntil}); with {@link Builder#threads} the fabric is
 * split into {@link LogicalProcesses}, one scheduler each, run in windows on that many threads with
 * the same result on any number of them ({@link #partition()}; the caller drives the global
 * scheduler, {@link #virtualTime()}); in {@link FabricMode#REAL_TIME} each NIC and
 * each switch has its own event loop, or the nodes share a few ({@link Builder#eventLoops}).
 *
 * <p>Bare hosts ({@link Builder#bareHosts}): the fabric cables a host's port and gives it an owner
 * thread but opens no NIC on it; an application opens its own there ({@link #hostPort}), as each
 * perftest run opens the device, and closes it. Randomness: every link's faults and every switch's WRED draw
 * from generators derived from the one seed given here, so a virtual run is the same on every run of
 * that seed.
 *
 * <p>Addresses: a host cabled to a switch that routes gets a static neighbour entry (as
 * {@code ip neigh add}) for every other host's addresses, all to that switch's router MAC: the soft
 * NIC has no routing table, and this is what a host's default route through its leaf resolves to.
 * Hosts behind a bridging switch, or cabled to each other, find each other with ARP and neighbour
 * discovery.
 *
 * <p>Threading: build and close from one thread; in virtual time, that thread is the fabric's owner.
 */
public final class Fabric implements AutoCloseable {
    /** Virtual time run after closing the NICs, for frames in flight to land (and be released). */
    static final long DRAIN_NANOS = 1_000_000_000L;
    private static final long SWITCH_SEED_STREAM = 1L << 32;
    /** Free frames a switch's own pool keeps (it builds few: PFC pauses, flood copies). */
    private static final int SWITCH_POOLED_FRAMES = 256;
    /** The smallest frame slot of a switch's pool: a 4096-byte RoCE MTU's frame. */
    private static final int SWITCH_FRAME_MTU = 4096;

    private final Topology topology;
    private final FabricMode mode;
    private final long seed;
    private final Owners owners;
    private final Map<String, SoftNic> nics = new LinkedHashMap<>();
    private final Map<String, SoftSwitch> switches = new LinkedHashMap<>();
    private final Map<String, InProcessLink> links = new LinkedHashMap<>();
    private final Map<String, LinkPort> hostPorts = new LinkedHashMap<>();
    /** Dual-port hosts' ends of their second port's link. */
    private final Map<String, LinkPort> secondPorts = new LinkedHashMap<>();
    private final boolean bareHosts;
    private final Map<String, Integer> linkMtus;
    private boolean closed;

    private Fabric(Topology topology, FabricMode mode, long seed) {
        this(topology, mode, seed, 0, false, false, Map.of(), 0);
    }

    private Fabric(Topology topology, FabricMode mode, long seed, int eventLoops, boolean busyPoll, boolean bareHosts,
                   Map<String, Integer> linkMtus, int threads) {
        this.linkMtus = Map.copyOf(linkMtus);
        this.topology = Objects.requireNonNull(topology, "topology");
        this.mode = Objects.requireNonNull(mode, "mode");
        this.seed = seed;
        this.bareHosts = bareHosts;
        this.owners = threads > 0 && mode == FabricMode.VIRTUAL
            ? new Owners(mode, eventLoops, busyPoll, LogicalProcesses.of(topology), threads)
            : new Owners(mode, eventLoops, busyPoll);
        try {
            build();
        } catch (RuntimeException e) {
            owners.close();
            throw e;
        }
    }

    /** @return {@code topology} on one virtual-time scheduler, its randomness from {@code seed} */
    public static Fabric virtualTime(Topology topology, long seed) {
        return new Fabric(topology, FabricMode.VIRTUAL, seed);
    }

    /** @return {@code topology} with an event loop per NIC and per switch */
    public static Fabric realTime(Topology topology, long seed) {
        return new Fabric(topology, FabricMode.REAL_TIME, seed);
    }

    /** @return the fabric in {@code mode} */
    public static Fabric start(Topology topology, FabricMode mode, long seed) {
        return new Fabric(topology, mode, seed);
    }

    /** @return a builder for a fabric of {@code topology} with more choices than the factories above */
    public static Builder builder(Topology topology) {
        return new Builder(topology);
    }

    private void build() {
        topology.hosts().forEach(h -> owners.add(h.name()));
        topology.switches().forEach(s -> owners.add(s.name()));
        Map<Attachment, LinkPort> ends = new HashMap<>();
        int i = 0;
        for (Link l : topology.links()) {
            InProcessLink link = InProcessLink.builder().name(l.name()).portNames(l.a().toString(), l.b().toString())
                .rateBitsPerSecond(l.speedBitsPerSecond()).propagationDelayNanos(l.propagationDelayNanos())
                .faults(l.faults()).up(l.up()).seed(SplitMix64.derive(seed, i++))
                .build(owners.of(l.a().node()), owners.of(l.b().node()));
            links.put(l.name(), link);
            ends.put(l.a(), link.portA());
            ends.put(l.b(), link.portB());
        }
        int s = 0;
        for (SwitchNode node : topology.switches()) {
            Scheduler owner = owners.of(node.name());
            long switchSeed = SplitMix64.derive(seed, SWITCH_SEED_STREAM + s++);
            switches.put(node.name(), Owners.on(owner, () -> {
                SoftSwitch sw = new SoftSwitch(node.config(), owner, switchFrames(node), switchSeed);
                for (var port : node.config().ports()) {
                    LinkPort end = ends.get(new Attachment(node.name(), port.name()));
                    if (end != null) {
                        sw.attach(port.name(), end);
                    }
                }
                return sw;
            }));
        }
        for (Host h : topology.hosts()) {
            hostPorts.put(h.name(), ends.get(h.port()));
            if (h.portCount() == 2) {
                secondPorts.put(h.name(), ends.get(h.port(Host.PORT2)));
            }
        }
        if (bareHosts) {
            return;
        }
        for (Host h : topology.hosts()) {
            Scheduler owner = owners.of(h.name());
            Link l = topology.linkAt(h.port());
            LinkPort end = ends.get(h.port());
            LinkPort end2 = secondPorts.get(h.name());
            int mtu = activeMtu(h);
            nics.put(h.name(), Owners.on(owner, () -> HostNics.build(h, mtu, l.speedBitsPerSecond(), owner, end, end2)));
        }
        for (Host h : topology.hosts()) {
            gateway(h);
        }
    }

    /**
     * The frames a switch builds itself (PFC pauses, flood copies) come from a pool of its own, sized
     * for its largest port MTU, not from Netty's shared pool, whose first chunk makes the JDK set up
     * the Flight Recorder on the allocating thread (a 130-500 ms stall of a real-time switch).
     */
    private static FramePoolAllocator switchFrames(SwitchNode node) {
        int mtu = node.config().ports().stream().mapToInt(p -> p.mtu()).max().orElse(SWITCH_FRAME_MTU);
        return new FramePoolAllocator(SoftNic.frameSlotBytes(Math.max(mtu, SWITCH_FRAME_MTU)), SWITCH_POOLED_FRAMES);
    }

    /**
     * A default route to the router MAC of the routing switch {@code h} is cabled to (the peers on its
     * own link resolved by ARP), and static IPv6 neighbours for every other host to the same MAC.
     */
    private void gateway(Host h) {
        if (h.portCount() == 2) {
            gateways(h);
            return;
        }
        SwitchNode sw = topology.routerOf(h);
        if (sw == null || topology.vniOf(h) >= 0) {
            // no router, or a tenant's VXLAN segment (one L2 domain across the VTEPs): the NIC resolves its peers by ARP
            return;
        }
        SoftNic nic = nics.get(h.name());
        long mac = sw.routerMac();
        Owners.on(owners.of(h.name()), () -> {
            List<Integer> onLink = new ArrayList<>();
            for (Host peer : topology.hosts()) {
                if (peer == h) {
                    continue;
                }
                if (onLink(h, peer)) {
                    onLink.add(peer.ipv4());
                    continue;
                }
                for (String a : peer.ipv6()) {
                    nic.addNeighbor(Gid.ipv6(a), mac);
                }
            }
            nic.setDefaultGateway(mac, onLink);
            return null;
        });
    }

    /**
     * Whether {@code peer} is on {@code h}'s link as a host sees it: both cabled to ports of the same
     * switch in one VLAN (SONiC's {@code VLAN_MEMBER}: untagged, or tagged with the host's own VLAN). Such a peer is in the
     * host's L2 domain: the NIC resolves it by ARP or neighbour discovery and reaches it bridged, not
     * through the router MAC (a RoCEv1 flow needs that: it cannot be routed). No shipped lab puts
     * hosts in a VLAN, so every other peer keeps its static entry to the router MAC.
     */
    private boolean onLink(Host h, Host peer) {
        if (h.portCount() != 1 || peer.portCount() != 1) {
            return false;
        }
        Attachment a = topology.peerOf(h.port());
        Attachment b = topology.peerOf(peer.port());
        if (a == null || b == null || !a.node().equals(b.node())
            || !(topology.node(a.node()) instanceof SwitchNode sw)) {
            return false;
        }
        int vlanA = vlanOf(sw, a.port(), h.vlanId());
        return vlanA != io.rocelab.sw.config.VlanMembership.NONE && vlanA == vlanOf(sw, b.port(), peer.vlanId());
    }

    /**
     * The VLAN a host's frames belong to at switch port {@code port}: its own tag's ({@code vid} above 0)
     * if the port is a member of it, else the port's untagged VLAN; {@code VlanMembership.NONE} if neither.
     */
    private static int vlanOf(SwitchNode sw, String port, int vid) {
        for (io.rocelab.sw.config.PortConfig p : sw.config().ports()) {
            if (p.name().equals(port) && p.vlans() != null) {
                return vid > 0 ? (p.vlans().isMember(vid) ? vid : io.rocelab.sw.config.VlanMembership.NONE)
                    : p.vlans().pvid();
            }
        }
        return io.rocelab.sw.config.VlanMembership.NONE;
    }

    /**
     * A dual-port host's: on each port cabled to a routing switch, static neighbours for every other
     * host's every address, to that switch's router MAC (each port its own router, as two
     * {@code ip neigh add ... dev PORT}); a bond's ports too, each to the switch it is cabled to.
     */
    private void gateways(Host h) {
        SoftNic nic = nics.get(h.name());
        Owners.on(owners.of(h.name()), () -> {
            gatewaysOnOwner(h, nic);
            return null;
        });
    }

    private void gatewaysOnOwner(Host h, SoftNic nic) {
        for (String port : h.portNames()) {
            Attachment peer = topology.peerOf(h.port(port));
            if (!(topology.node(peer.node()) instanceof SwitchNode sw) || !sw.routes()) {
                continue;
            }
            long mac = sw.routerMac();
            io.rocelab.nic.NicPort nicPort = nic.port(h.portNumber(port));
            for (Host peerHost : topology.hosts()) {
                if (peerHost == h) {
                    continue;
                }
                for (String p : peerHost.portNames()) {
                    nicPort.addNeighbor(Gid.ipv4Mapped(peerHost.ipv4Of(p)), mac);
                    for (String a : peerHost.ipv6Of(p)) {
                        nicPort.addNeighbor(Gid.ipv6(a), mac);
                    }
                }
            }
        }
    }

    public Topology topology() {
        return topology;
    }

    public FabricMode mode() {
        return mode;
    }

    /** @return the seed every random decision of the fabric derives from */
    public long seed() {
        return seed;
    }

    /**
     * @return the parallel run of a virtual-time fabric split into logical processes
     *         ({@link Builder#threads}), or null (one scheduler, or real time)
     */
    public io.rocelab.fabric.time.PartitionedVirtualTime partition() {
        return owners.partition();
    }

    /**
     * @return the one scheduler of a virtual-time fabric; split into logical processes, the global
     *         scheduler, whose {@code run} methods drive every LP and whose tasks run with every LP stopped
     * @throws IllegalStateException in real time
     */
    public VirtualTimeScheduler virtualTime() {
        if (owners.virtual() == null) {
            throw new IllegalStateException("a real-time fabric has no virtual clock");
        }
        return owners.virtual();
    }

    /**
     * @return the soft NIC of host {@code name}
     * @throws IllegalArgumentException for an unknown host, or any host of a fabric of bare hosts
     */
    public SoftNic nic(String host) {
        if (bareHosts && hostPorts.containsKey(host)) {
            throw new IllegalArgumentException("host '" + host + "' is bare: the fabric opened no NIC on it");
        }
        return find(nics, host, "host");
    }

    /**
     * @return host {@code name}'s end of its link, where the fabric's NIC is plugged in or, for a bare
     *         host, where an application plugs its own (on the host's {@link #scheduler owner thread})
     */
    public LinkPort hostPort(String host) {
        return find(hostPorts, host, "host");
    }

    /** @return a dual-port host's end of its second port's link ({@value Host#PORT2}) */
    public LinkPort hostPort2(String host) {
        return find(secondPorts, host, "dual-port host");
    }

    /** @return the soft switch called {@code name} */
    public SoftSwitch softSwitch(String name) {
        return find(switches, name, "switch");
    }

    /** @return the link called {@code name} (its counters per direction: {@code aToB().counters()}) */
    public InProcessLink link(String name) {
        return find(links, name, "link");
    }

    /** @return the link plugged into {@code end} ({@code leaf0:Ethernet8}, a host's name) */
    public InProcessLink linkAt(String end) {
        Link l = topology.linkAt(Attachment.parse(end));
        if (l == null) {
            throw new IllegalArgumentException("nothing is cabled to " + end);
        }
        return links.get(l.name());
    }

    /** @return the owner thread's scheduler of a host's NIC or of a switch */
    public Scheduler scheduler(String node) {
        Scheduler s = owners.of(node);
        if (s == null) {
            throw new IllegalArgumentException("no node '" + node + "' in the fabric");
        }
        return s;
    }

    /** Runs {@code what} on the owner thread of {@code node} (a switch, say, to read its counters) and waits. */
    public <T> T onOwner(String node, Callable<T> what) {
        return Owners.on(scheduler(node), what);
    }

    /** Like {@link #onOwner(String, Callable)}, for work that may take up to {@code waitSeconds}. */
    public <T> T onOwner(String node, Callable<T> what, long waitSeconds) {
        return Owners.on(scheduler(node), what, waitSeconds);
    }

    /**
     * Pulls or replugs a link's cable (frames in flight are dropped and counted). Any thread.
     *
     * <p>With static routes (the default): a switch whose route over the link has other ECMP members
     * re-hashes onto them at once (and back when the link returns); one whose only route crosses
     * the link drops what it would send there. Nothing withdraws routes elsewhere, so cutting a leaf's
     * uplink alone black-holes the traffic other leaves send through that spine; losing a whole spine
     * (all its cables) is routed around everywhere. With eBGP ({@code Routing.bgp()}) the two ends'
     * sessions go down with the carrier and the withdrawal reaches the other leaves, which route
     * around the cut within a few processing times.
     */
    public void setLinkUp(String name, boolean up) {
        link(name).setUp(up);
    }

    /** Changes the faults of both directions of a link for frames sent from now on. Any thread. */
    public void setFaults(String name, FaultProfile faults) {
        setFaults(name, faults, faults);
    }

    /** Changes the faults of each direction ({@code a} to {@code b} and back) of a link. Any thread. */
    public void setFaults(String name, FaultProfile aToB, FaultProfile bToA) {
        InProcessLink l = link(name);
        l.aToB().setFaults(aToB);
        l.bToA().setFaults(bToA);
    }

    /**
     * Virtual time: runs until the switches' eBGP speakers have converged: each has settled (sessions
     * Established, BFD Up, nothing being processed or waiting to be sent) and no route changed for 1 ms
     * (UPDATEs may be on a wire while every speaker is idle). A fabric of static routes is converged at
     * once.
     *
     * @return how long it took, or -1 if it had not converged within {@code maxNanos}
     */
    public long awaitRouting(long maxNanos) {
        long start = virtualTime().nanoTime();
        while (virtualTime().nanoTime() - start < maxNanos) {
            long left = maxNanos - (virtualTime().nanoTime() - start);
            if (!runUntil(this::routingSettled, left)) {
                return -1;
            }
            long before = routeChanges();
            runFor(1_000_000L);
            if (routeChanges() == before && routingSettled()) {
                return virtualTime().nanoTime() - start;
            }
        }
        return -1;
    }

    private boolean routingSettled() {
        for (SoftSwitch sw : switches.values()) {
            if (sw.bgp() != null && !sw.bgp().converged()) {
                return false;
            }
        }
        return true;
    }

    private long routeChanges() {
        long n = 0;
        for (SoftSwitch sw : switches.values()) {
            n += sw.bgp() == null ? 0 : sw.bgp().changes().size();
        }
        return n;
    }

    /** Virtual time: runs {@code nanos} of it. */
    public void runFor(long nanos) {
        virtualTime().runFor(nanos);
    }

    /**
     * Virtual time: runs until {@code done} holds (checked after every event) or {@code maxNanos} have passed.
     *
     * @return whether {@code done} holds
     */
    public boolean runUntil(BooleanSupplier done, long maxNanos) {
        return virtualTime().runUntil(done, maxNanos);
    }

    /**
     * Closes every NIC; in virtual time then runs on until what was in flight has landed, so every
     * frame is released; stops the event loops.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            for (SoftNic nic : nics.values()) {
                nic.close();
            }
            if (owners.virtual() != null) {
                owners.virtual().runFor(DRAIN_NANOS);
            }
        } finally {
            owners.close();
        }
    }

    private static <T> T find(Map<String, T> map, String name, String what) {
        T t = map.get(name);
        if (t == null) {
            throw new IllegalArgumentException("no " + what + " '" + name + "' in the fabric");
        }
        return t;
    }

    /**
     * The active MTU of a host's NIC: the host's own, or less where its port is a Linux interface whose
     * MTU leaves no room for it ({@link Builder#linkMtu}), as rxe derives it from its netdev.
     */
    public int activeMtu(Host h) {
        Integer link = linkMtus.get(h.name());
        return link == null ? h.activeMtu() : Math.min(h.activeMtu(), NetdevMtu.ibMtuFor(link));
    }

    @Override
    public String toString() {
        return "Fabric[" + mode + ", seed " + seed + ", " + topology + "]";
    }

    /** A fabric's choices beyond its topology. */
    public static final class Builder {
        private final Topology topology;
        private FabricMode mode = FabricMode.VIRTUAL;
        private long seed;
        private int eventLoops;
        private boolean busyPoll;
        private boolean bareHosts;
        private int threads;
        private final Map<String, Integer> linkMtus = new LinkedHashMap<>();

        private Builder(Topology topology) {
            this.topology = Objects.requireNonNull(topology, "topology");
        }

        /** Virtual time (the default) or real time. */
        public Builder mode(FabricMode mode) {
            this.mode = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /** The seed every random decision derives from (0 unless set). */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /**
         * Real time: the nodes share at most {@code n} event loops, round robin, instead of one loop
         * each (0, the default).
         */
        public Builder eventLoops(int n) {
            if (n < 0) {
                throw new IllegalArgumentException("eventLoops must be 0 (one per node) or more: " + n);
            }
            this.eventLoops = n;
            return this;
        }

        /**
         * Real time: the nodes' loops poll without sleeping (a core each), for the lowest latency;
         * with {@link #eventLoops} 1, all nodes on one polling thread.
         */
        public Builder busyPoll() {
            this.busyPoll = true;
            return this;
        }

        /**
         * Virtual time: splits the fabric into logical processes ({@link LogicalProcesses}: a leaf and
         * its hosts, a spine alone) run by {@code n} threads ({@code >= 1}); the result is the same on
         * any {@code n}. Unset (0), one scheduler runs everything, as before. A topology that makes one
         * LP runs on one scheduler either way.
         */
        public Builder threads(int n) {
            if (n < 0) {
                throw new IllegalArgumentException("threads must be >= 1 (0: one scheduler): " + n);
            }
            this.threads = n;
            return this;
        }

        /** Opens no NIC on the hosts: an application opens its own on each {@link Fabric#hostPort}. */
        public Builder bareHosts() {
            this.bareHosts = true;
            return this;
        }

        /**
         * Host {@code host}'s port is a Linux interface of MTU {@code mtu} (a netns lab's veth): its
         * NIC's active MTU is at most what rxe would take from that interface ({@link NetdevMtu}).
         */
        public Builder linkMtu(String host, int mtu) {
            topology.host(host);
            linkMtus.put(host, mtu);
            return this;
        }

        /** Builds the fabric and starts its loops. */
        public Fabric start() {
            if (busyPoll && mode != FabricMode.REAL_TIME) {
                throw new IllegalStateException("busy-polling loops are for real time, not " + mode);
            }
            return new Fabric(topology, mode, seed, eventLoops, busyPoll, bareHosts, linkMtus, threads);
        }
    }
}
