package io.rocelab.nic;

import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.header.Pfc;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.buffer.FramePoolAllocator;
import io.rocelab.fabric.pfc.PauseResponse;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.queue.MessageQueues;
import io.rocelab.fabric.stats.CounterSet;
import io.rocelab.fabric.time.Doorbell;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.fabric.tx.Transmitter;
import io.rocelab.nic.cc.CongestionControl;
import io.rocelab.nic.cc.DcqcnParam;
import io.rocelab.nic.cc.DcqcnParams;
import io.rocelab.nic.cc.NoCongestionControl;
import io.rocelab.nic.egress.NicEgress;
import io.rocelab.nic.net.Ecn;
import io.rocelab.nic.net.Gid;
import io.rocelab.nic.net.L2Framing;
import io.rocelab.nic.net.NeighborDiscovery;
import io.rocelab.nic.net.Neighbors;
import io.rocelab.nic.stats.NicCounter;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.agrona.collections.Int2ObjectHashMap;
import org.jctools.queues.MessagePassingQueue;

/**
 * A software RoCEv2 device with one port or two ({@link NicPort}: each its link, MAC, IPv4 and IPv6
 * addresses, GID table, neighbours and counters; optionally bonded, {@link Bond}), an optional VLAN,
 * and the verbs objects (PD, MR, CQ, SRQ, QP) that live on it (docs/design.md §13).
 *
 * <p>Threading (docs/design.md §3): all protocol state is owned by the thread of the injected
 * {@link Scheduler}; received frames and timers run there. User threads reach it through an MPSC
 * command queue: {@code postSend}/{@code postRecv} enqueue and return; object creation and
 * {@code modify} run on the owner thread and wait for it (or run at once when called on it, as in
 * virtual-time tests). Nothing here reads a wall clock.
 *
 * <p>Each port's GID table as Linux builds it for a RoCE netdev (RoCEv2 entries): index 0 the link-local GID
 * from the MAC, index 1 the IPv4-mapped GID of the address, then the global IPv6 addresses in the
 * order given ({@link #GID_INDEX_FIRST_IPV6} on). The port answers ARP for its IPv4 address and
 * neighbour solicitations for its IPv6 addresses (link-local included), since no kernel owns them
 * when it sits on raw frames (docs/design.md §4).
 */
public final class SoftNic {
    public static final int GID_INDEX_LINK_LOCAL = 0;
    public static final int GID_INDEX_IPV4 = 1;
    /** Index of the first global IPv6 address given to the builder. */
    public static final int GID_INDEX_FIRST_IPV6 = 2;
    /** rxe's first QPN (after QP0/QP1 and the reserved range), as the captures show. */
    public static final int FIRST_QPN = 0x11;
    /** QP1, the General Services Interface (IBA 13.5.1). */
    public static final int GSI_QPN = 1;

    private final String name;
    private final int activeMtu;
    private final int maxUnackedPsns;
    private final int ackReqInterval;
    /** New RC QPs get {@link QpCreateFlag#OOO_DP} unless created with flags of their own. */
    private final boolean oooDataPlacement;
    private final Scheduler scheduler;
    /** {@link #scheduler} for the NIC's own agents: what their tasks throw fails the device. */
    private final GuardedScheduler agents;
    /** The NIC's ports, port number - 1: one, or two (a dual-port NIC). */
    private final NicPort[] ports;
    /** Port 1's egress, writer and neighbour tables (the single-port NIC's). */
    final NicEgress egress;
    final PacketWriter writer;
    final Neighbors neighbors;
    final NeighborDiscovery nd;
    /** How the two ports of a bonded NIC share its QPs (RoCE LAG), or null. */
    final Bond bond;
    /** Where the ports' received frames go (owner thread). */
    final NicReceive receive;
    final CongestionControl.Factory congestionControl;
    /** Whether QPs with congestion control send ECN-capable (ECT(0)) packets, as mlx5 does. */
    final boolean markEct;
    final DcqcnParams dcqcn;
    private final long cnpMinGapNanos;
    private final int cnpTrafficClass;
    private final int cnpPriority;
    /** PFC or 802.3x PAUSE on every port ({@link Builder#flowControl}). */
    private final FlowControlMode flowControl;
    private final ByteBufAllocator alloc;
    private final AsyncEvents events = new AsyncEvents();
    /** The DCB settings and DCBX state of the ports (PFC priorities, trust, ETS, willing). */
    private final io.rocelab.nic.dcb.NicDcb dcb;
    /** The PCP of RoCE frames on a VLAN port as built, before DCBX's application priority. */
    private final int builtRocePcp;
    /** LLDP on the ports once {@link #startLldp} ran, else null. Owner thread. */
    private NicLldp lldp;
    /** QPs that migrated to their alternate path (written on the owner thread). */
    private volatile long pathMigrations;
    private final MessagePassingQueue<Runnable> commands = MessageQueues.mpscUnbounded(256);
    /** Rung after each command: a sleeping loop runs one drain per burst, a polling one looks every turn. */
    private final Doorbell commandBell;
    private final Int2ObjectHashMap<QueuePair> qps = new Int2ObjectHashMap<>();
    /** Each port's QP1 (IBA 13.5.1: one GSI QP per port), also in {@link #qps}; null until created. */
    private final QueuePair[] gsiQps = new QueuePair[2];
    private volatile MemoryRegion[] mrs = new MemoryRegion[64];
    final Memory memory = new Memory(this);
    private int nextQpn = FIRST_QPN;
    private int nextMrIndex = 1;
    private int nextHandle = 1;
    private int keyTag = 0x59;
    private volatile boolean closed;
    /** Set by the first internal error ({@link #deviceFatal}); owner thread. */
    private boolean fatal;

    private SoftNic(Builder b) {
        this.name = b.name;
        this.activeMtu = b.activeMtu;
        this.maxUnackedPsns = b.maxUnackedPsns;
        this.ackReqInterval = b.ackReqInterval;
        this.oooDataPlacement = b.oooDataPlacement;
        // a full window must hold an AckReq packet: at most max(interval, 64) packets go without one
        int minWindow = 2 * Math.max(ackReqInterval, Requester.MAX_PKT_PER_ACK);
        if (ackReqInterval != 0 && minWindow > maxUnackedPsns) {
            throw new IllegalArgumentException("ackReqInterval " + ackReqInterval + " needs maxUnackedPsns of at least "
                + minWindow + ", not " + maxUnackedPsns);
        }
        if (b.bondMode != null && b.port2 == null) {
            throw new IllegalArgumentException("bond " + b.bondMode.configName() + " needs a second port");
        }
        this.scheduler = Objects.requireNonNull(b.scheduler, "scheduler");
        this.agents = new GuardedScheduler(scheduler, this::deviceFatal);
        Objects.requireNonNull(b.port, "port");
        this.commandBell = scheduler.doorbell(this::drainCommands);
        this.alloc = b.alloc != null ? b.alloc : new FramePoolAllocator(frameSlotBytes(activeMtu), POOLED_FRAMES);
        this.congestionControl = b.congestionControl;
        this.markEct = b.markEct;
        this.dcqcn = b.dcqcn;
        this.cnpMinGapNanos = dcqcn.get(DcqcnParam.NP_MIN_TIME_BETWEEN_CNPS) * 1_000;
        this.cnpTrafficClass = (int) dcqcn.get(DcqcnParam.NP_CNP_DSCP) << 2 | Ecn.ECT_0;
        this.cnpPriority = (int) dcqcn.get(DcqcnParam.NP_CNP_PRIO);
        this.flowControl = b.flowControl;
        this.builtRocePcp = b.rocePcp;
        this.dcb = new io.rocelab.nic.dcb.NicDcb(b.dcb, b.port2 == null ? 1 : 2, this::dcbChanged);
        NicPort one = new NicPort(this, 1, b.port, b.mac, b.ipv4, b.ipv6, new L2Framing(b.mac, b.vid, b.rocePcp),
                alloc, b.firstIpId, b.fixedIpId, b.linkSpeed, b.pauseResponse, b.flowControl, b.roceV1);
        if (b.port2 == null) {
            this.ports = new NicPort[] {one};
        } else {
            // a bond puts both ports behind port 1's MAC and addresses, as a Linux bond does
            boolean bonded = b.bondMode != null;
            long mac2 = bonded ? b.mac : b.port2.mac();
            NicPort two = new NicPort(this, 2, b.port2.link(), mac2, bonded ? b.ipv4 : b.port2.ipv4(),
                    bonded ? b.ipv6 : b.port2.ipv6(), new L2Framing(mac2, b.vid, b.rocePcp), alloc, b.firstIpId,
                    b.fixedIpId, b.linkSpeed, b.pauseResponse, b.flowControl, b.roceV1);
            this.ports = new NicPort[] {one, two};
        }
        this.bond = b.bondMode != null ? new Bond(b.bondMode, ports, this, b.lacpFast, qps::values) : null;
        this.receive = new NicReceive(this, ports, bond);
        this.egress = one.egress;
        this.writer = one.writer;
        this.neighbors = one.neighbors;
        this.nd = one.nd;
        for (NicPort port : ports) {
            port.attach();
        }
        if (bond != null) {
            bond.start();
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The requester's window: unacknowledged PSNs a QP may have in flight. */
    public int maxUnackedPsns() {
        return maxUnackedPsns;
    }

    /**
     * Whether new RC QPs place data out of order ({@link QpCreateFlag#OOO_DP}) unless created with
     * flags of their own ({@link Builder#oooDataPlacement}).
     */
    public boolean oooDataPlacement() {
        return oooDataPlacement;
    }

    /**
     * PSNs an out-of-order QP's reorder window spans ({@link ReorderWindow}): the NIC's requester
     * window ({@link #maxUnackedPsns()}), which is what a peer of the same settings has in flight at
     * most; at least 2. A packet further ahead is a sequence error, NAKed as without the flag.
     */
    public int oooWindowPsns() {
        return Math.max(2, maxUnackedPsns);
    }

    /** Packets a requester sends at most between two AckReq bits; 0: AckReq on every message. */
    public int ackReqInterval() {
        return ackReqInterval;
    }

    public String name() {
        return name;
    }

    /** Port 1's MAC (the NIC's, for a single-port NIC or a bond). */
    public long mac() {
        return ports[0].mac();
    }

    /** Port 1's IPv4 address. */
    public int ipv4() {
        return ports[0].ipv4();
    }

    /** How many ports the NIC has ({@code ibv_device_attr.phys_port_cnt}): 1 or 2. */
    public int portCount() {
        return ports.length;
    }

    /**
     * Port {@code number} ({@code ibv_query_port}): 1, or 2 on a dual-port NIC.
     *
     * @throws IllegalArgumentException for a port the NIC does not have
     */
    public NicPort port(int number) {
        if (number < 1 || number > ports.length) {
            throw new IllegalArgumentException("port must be " + (ports.length == 1 ? "1" : "1.." + ports.length)
                    + " on " + name + ": " + number);
        }
        return ports[number - 1];
    }

    /**
     * How many times a QP of this NIC migrated to its alternate path (IBA 17.2.8), each with an
     * {@link AsyncEventType#PATH_MIG} event: on the consumer's request, on its retries running out
     * while armed, or on its peer's MigReq. Any thread.
     */
    public long pathMigrations() {
        return pathMigrations;
    }

    /** Owner thread: a QP migrated. */
    void countPathMigration() {
        pathMigrations++;
    }

    /** The bond of a NIC whose two ports are one (RoCE LAG), or null. */
    public Bond bond() {
        return bond;
    }

    /** The port's active MTU (the largest path MTU, and the UD message limit). */
    public int activeMtu() {
        return activeMtu;
    }

    /** Port 1's GID {@code index}. */
    public Gid gid(int index) {
        return ports[0].gid(index);
    }

    public int gidTableSize() {
        return ports[0].gidTableSize();
    }

    /** The index of {@code gid} in port 1's GID table ({@code ibv_query_gid} in reverse), its RoCEv2 entry. */
    public int gidIndex(Gid gid) {
        return ports[0].gidIndex(gid);
    }

    /** The type of port 1's GID {@code index} ({@code ibv_query_gid_type}). */
    public io.rocelab.nic.net.GidType gidType(int index) {
        return ports[0].gidType(index);
    }

    /** The 802.1Q VLAN of the port, or -1 when untagged. */
    public int vlanId() {
        return ports[0].l2.vid();
    }

    /**
     * The NIC's DCB settings and DCBX state (PFC priorities, trust, ETS, willing): what its LLDP
     * agent advertises and tells it of the link partner. Owner thread.
     */
    public io.rocelab.nic.dcb.NicDcb dcb() {
        return dcb;
    }

    /**
     * A port's operational DCB state changed (DCBX took its partner's, or gave it back): RoCE frames
     * on a VLAN port take the adopted application priority, the port's QPs leave at the priority the
     * new settings give them, and LLDP advertises the new state at once. Owner thread.
     */
    private void dcbChanged(int port, io.rocelab.nic.dcb.PortDcb state, boolean adopted) {
        if (ports == null) {
            return; // not yet built: nothing runs on the ports
        }
        NicPort p = ports[port - 1];
        if (adopted) {
            p.counters.increment(NicCounter.DCBX_ADOPTIONS);
        }
        p.l2.rocePcp(state.rocePriority() >= 0 ? state.rocePriority() : builtRocePcp);
        for (QueuePair qp : qps.values()) {
            if (qp.port() == p) {
                qp.reclassify();
            }
        }
        if (lldp != null) {
            // what the port advertises is its operational configuration: tell the partner now
            // (802.1AB's somethingChangedLocal), not at the next 30 s tick
            lldp.localChanged(port);
        }
    }

    /** The PCP of RoCE frames on a VLAN port. */
    public int rocePcp() {
        return ports[0].l2.rocePcp();
    }

    /** Port 1's counters ({@code rdma statistic show link DEV/1}); {@link NicPort#counters()} for port 2's. */
    public CounterSet<NicCounter> counters() {
        return ports[0].counters;
    }

    public Scheduler scheduler() {
        return scheduler;
    }

    /**
     * The same scheduler for the NIC's own agents (the connection manager, QP1's agent): a task of
     * theirs that throws is an internal error and puts the device in the fatal state, as one in a
     * command or a received frame does. Applications use {@link #scheduler()}.
     */
    public Scheduler agentScheduler() {
        return agents;
    }

    /** The next asynchronous event, or null ({@code ibv_get_async_event} without blocking). Any thread. */
    public AsyncEvent pollAsyncEvent() {
        return events.poll();
    }

    /** Calls {@code listener} on the NIC's thread for every asynchronous event as it is raised. */
    public void onAsyncEvent(java.util.function.Consumer<AsyncEvent> listener) {
        events.listener(listener);
    }

    /**
     * A CQ overran (owner thread): the CQ is in error ({@link AsyncEventType#CQ_ERR}) and every QP
     * completing to it goes to the error state with {@link AsyncEventType#QP_FATAL}, as rxe does
     * (its responder's RESPST_ERR_CQ_OVERFLOW); their flushes to other CQs still arrive.
     */
    private void cqOverflowed(CompletionQueue cq) {
        counters().increment(NicCounter.CQ_OVERFLOW);
        raise(AsyncEvent.ofCq(AsyncEventType.CQ_ERR, cq));
        for (QueuePair qp : new java.util.ArrayList<>(qps.values())) {
            if ((qp.sendCq() == cq || qp.recvCq() == cq) && qp.state() != QpState.ERR && qp.state() != QpState.RESET) {
                qp.enterError();
                raise(AsyncEvent.ofQp(AsyncEventType.QP_FATAL, qp));
            }
        }
    }

    /** Raises an asynchronous event (owner thread). */
    void raise(AsyncEvent e) {
        events.raise(e);
    }

    /** Adds a static neighbour entry (as {@code ip neigh add}) on every port; ARP resolves the others. */
    public void addNeighbor(int peerIpv4, long peerMac) {
        call(() -> {
            for (NicPort port : ports) {
                port.neighbors.add(peerIpv4, peerMac);
            }
            return null;
        });
    }

    /**
     * Sets a default IPv4 route on every port ({@code ip route add default via ROUTER} with the
     * router's MAC known): a peer with no entry of its own and not {@code onLink} is sent to
     * {@code gatewayMac}; the {@code onLink} peers are resolved by ARP.
     */
    public void setDefaultGateway(long gatewayMac, java.util.Collection<Integer> onLink) {
        call(() -> {
            for (NicPort port : ports) {
                onLink.forEach(port.neighbors::addOnLink);
                port.neighbors.setDefaultGateway(gatewayMac);
            }
            return null;
        });
    }

    /** Adds a static IPv6 neighbour entry; neighbour discovery resolves the others. */
    public void addNeighbor(Gid peerIpv6, long peerMac) {
        Objects.requireNonNull(peerIpv6, "peerIpv6");
        call(() -> {
            learn(peerIpv6, peerMac);
            return null;
        });
    }

    /** Records a known MAC for {@code peer} on every port (owner thread). */
    void learn(Gid peer, long peerMac) {
        for (NicPort port : ports) {
            port.learn(peer, peerMac);
        }
    }

    public ProtectionDomain allocPd() {
        return call(() -> new ProtectionDomain(this, nextHandle++));
    }

    /** A CQ holding at most {@code capacity} completions. */
    public CompletionQueue createCq(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be > 0: " + capacity);
        }
        return call(() -> {
            CompletionQueue cq = new CompletionQueue(nextHandle++, capacity);
            cq.onOverflow(this::cqOverflowed);
            return cq;
        });
    }

    /**
     * Creates a shared receive queue ({@code ibv_create_srq}) holding at most {@code maxWr} WQEs of
     * at most {@code maxSge} elements each.
     */
    public SharedReceiveQueue createSrq(ProtectionDomain pd, int maxWr, int maxSge) {
        Objects.requireNonNull(pd, "pd");
        if (pd.nic() != this) {
            throw new IllegalArgumentException("pd belongs to another NIC");
        }
        if (maxWr <= 0 || maxSge <= 0) {
            throw new IllegalArgumentException("maxWr and maxSge must be > 0: " + maxWr + ", " + maxSge);
        }
        return call(() -> new SharedReceiveQueue(this, pd, nextHandle++, maxWr, maxSge));
    }

    /** Creates a QP in RESET ({@code ibv_create_qp}); QPNs count up from {@value #FIRST_QPN} like rxe. */
    public QueuePair createQp(ProtectionDomain pd, QpType type, CompletionQueue sendCq, CompletionQueue recvCq,
                              QpCaps caps) {
        return createQp(pd, type, sendCq, recvCq, caps, null);
    }

    /**
     * Creates a QP whose receives come from {@code srq} ({@code ibv_qp_init_attr.srq}); RC and UD
     * only (IBA 10.2.9: UC QPs cannot use an SRQ in rxe either). {@code srq} may be null.
     */
    public QueuePair createQp(ProtectionDomain pd, QpType type, CompletionQueue sendCq, CompletionQueue recvCq,
                              QpCaps caps, SharedReceiveQueue srq) {
        Objects.requireNonNull(type, "type");
        return createQp(pd, type, sendCq, recvCq, caps, srq, oooDataPlacement && type == QpType.RC
                ? java.util.EnumSet.of(QpCreateFlag.OOO_DP) : java.util.EnumSet.noneOf(QpCreateFlag.class));
    }

    /**
     * Creates a QP with creation flags ({@code mlx5dv_create_qp}'s {@code create_flags}), which
     * replace the NIC's default ({@link Builder#oooDataPlacement}): an empty set makes an in-order
     * QP on a NIC whose QPs are out of order by default. {@link QpCreateFlag#OOO_DP} is for RC only.
     */
    public QueuePair createQp(ProtectionDomain pd, QpType type, CompletionQueue sendCq, CompletionQueue recvCq,
                              QpCaps caps, SharedReceiveQueue srq, java.util.Set<QpCreateFlag> flags) {
        Objects.requireNonNull(flags, "flags");
        if (flags.contains(QpCreateFlag.OOO_DP) && type != QpType.RC) {
            throw new IllegalArgumentException("OOO_DP: out-of-order data placement is for RC QPs, not " + type);
        }
        boolean ooo = flags.contains(QpCreateFlag.OOO_DP);
        Objects.requireNonNull(pd, "pd");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(sendCq, "sendCq");
        Objects.requireNonNull(recvCq, "recvCq");
        Objects.requireNonNull(caps, "caps");
        if (pd.nic() != this) {
            throw new IllegalArgumentException("pd belongs to another NIC");
        }
        if (srq != null && type == QpType.UC) {
            throw new IllegalArgumentException("srq: a UC QP cannot use a shared receive queue");
        }
        return call(() -> {
            QueuePair qp = new QueuePair(this, pd, type, nextQpn++, sendCq, recvCq, caps, srq);
            if (ooo) {
                qp.placeOutOfOrder();
            }
            qps.put(qp.qpn(), qp);
            return qp;
        });
    }

    /**
     * Creates port 1's QP1, the General Services Interface ({@code IB_QPT_GSI}, IBA 13.5.1): a UD QP
     * with the well-known number 1 through which management datagrams, the connection manager's
     * among them, come and go. Its Q_Key is set at INIT like any UD QP's (0x80010000 for QP1).
     *
     * @throws IllegalStateException if port 1 has one already
     */
    public QueuePair createGsiQp(ProtectionDomain pd, CompletionQueue sendCq, CompletionQueue recvCq, QpCaps caps) {
        return createGsiQp(1, pd, sendCq, recvCq, caps);
    }

    /**
     * Creates the QP1 of port {@code port}: IBA 13.5.1 gives each port its own GSI QP (Linux's
     * ib_mad opens one per port, {@code ib_mad_port_open}), so a MAD to QP1 that arrives on port 2
     * goes to port 2's. The QP is bound to its port here; its INIT names that port.
     *
     * @throws IllegalStateException    if the port has one already
     * @throws IllegalArgumentException for a port the NIC lacks
     */
    public QueuePair createGsiQp(int port, ProtectionDomain pd, CompletionQueue sendCq, CompletionQueue recvCq,
                                 QpCaps caps) {
        Objects.requireNonNull(pd, "pd");
        Objects.requireNonNull(sendCq, "sendCq");
        Objects.requireNonNull(recvCq, "recvCq");
        Objects.requireNonNull(caps, "caps");
        if (pd.nic() != this) {
            throw new IllegalArgumentException("pd belongs to another NIC");
        }
        NicPort on = port(port);
        return call(() -> {
            if (gsiQps[port - 1] != null) {
                throw new IllegalStateException(name + " already has QP1 on port " + port);
            }
            QueuePair qp = new QueuePair(this, pd, QpType.UD, GSI_QPN, sendCq, recvCq, caps, null);
            qp.moveTo(on);
            gsiQps[port - 1] = qp;
            qps.put(gsiKey(port), qp);
            return qp;
        });
    }

    /** The key of port {@code port}'s QP1 in {@link #qps}: QPN 1 for port 1, a key no 24-bit QPN reaches for port 2. */
    private static int gsiKey(int port) {
        return port == 1 ? GSI_QPN : 0x0100_0000 | port;
    }

    MemoryRegion registerMr(ProtectionDomain pd, MemoryRegion.Type type, byte[] memory, int offset, int length,
                            long addr, int access) {
        return registerMr(pd, type, memory, offset, length, addr, access, -1);
    }

    /**
     * Registers a region with a chosen key, for replaying captured traffic whose rkeys are fixed.
     * The key's index part ({@code key >>> 8}) must be free.
     */
    public MemoryRegion registerMrWithKey(ProtectionDomain pd, byte[] memory, long addr, int access, int key) {
        return registerMr(pd, MemoryRegion.Type.USER, memory, 0, memory.length, addr, access, key);
    }

    private MemoryRegion registerMr(ProtectionDomain pd, MemoryRegion.Type type, byte[] memory, int offset,
                                    int length, long addr, int access, int key) {
        Objects.requireNonNull(memory, "memory");
        Objects.checkFromIndexSize(offset, length, memory.length);
        AccessFlags.validateRegion(access);
        return call(() -> {
            int k = key;
            if (k < 0) {
                keyTag = (keyTag + 1) & 0xFF;
                k = (nextMrIndex++ << 8) | keyTag;
            }
            int index = k >>> 8;
            MemoryRegion[] table = mrs;
            if (index >= table.length) {
                table = java.util.Arrays.copyOf(table, Math.max(index + 1, table.length * 2));
            }
            if (table[index] != null) {
                throw new IllegalArgumentException("key index already in use: 0x" + Integer.toHexString(k));
            }
            MemoryRegion mr = new MemoryRegion(pd, type, memory, offset, length, addr, access, k);
            table[index] = mr;
            mrs = table;
            return mr;
        });
    }

    void deregisterMr(MemoryRegion mr) {
        call(() -> {
            mr.invalidate();
            MemoryRegion[] table = mrs.clone();
            table[mr.lkey() >>> 8] = null;
            mrs = table;
            return null;
        });
    }

    /** The region with this key (index and tag must both match), or null. Any thread. */
    MemoryRegion mrByKey(int key) {
        MemoryRegion[] table = mrs;
        int index = key >>> 8;
        if (index <= 0 || index >= table.length) {
            return null;
        }
        MemoryRegion mr = table[index];
        return mr != null && mr.lkey() == key ? mr : null;
    }

    /** Runs {@code command} on the owner thread, in submission order. Any thread. */
    void submit(Runnable command) {
        commands.offer(command);
        commandBell.ring();
    }

    private int drainCommands() {
        int n = 0;
        for (Runnable c; (c = commands.poll()) != null; ) {
            try {
                c.run();
            } catch (RuntimeException e) {
                deviceFatal(e);
            }
            n++;
        }
        return n;
    }

    /**
     * An internal error on the owner thread (a bug, never a peer's or a user's mistake: those are
     * counted, completed with an error or thrown to the caller): the device fails as hardware does on
     * a catastrophic error. It raises {@link AsyncEventType#DEVICE_FATAL} once, and every QP goes to
     * the error state, its outstanding work requests completing with {@code IBV_WC_WR_FLUSH_ERR}, as
     * mlx5 completes them in software after an internal error; so an application waiting on a CQ
     * ends with an error instead of waiting for good. The error and its stack go to the log.
     */
    void deviceFatal(RuntimeException e) {
        counters().increment(NicCounter.INTERNAL_ERRORS);
        if (fatal) {
            return;
        }
        fatal = true;
        System.getLogger(SoftNic.class.getName()).log(System.Logger.Level.ERROR,
                name + ": internal error, the device is now in the fatal state", e);
        raise(AsyncEvent.ofDevice(AsyncEventType.DEVICE_FATAL));
        for (QueuePair qp : new java.util.ArrayList<>(qps.values())) {
            if (qp.state() != QpState.RESET) {
                qp.enterError();
            }
        }
    }

    /**
     * {@code task} for the scheduler (a QP's timers): an internal error in it makes the device fatal
     * as in a command or a received frame, instead of ending in the scheduler's log.
     */
    Runnable guarded(Runnable task) {
        return agents.guard(task);
    }

    /**
     * Runs {@code action} on the owner thread and returns its result (at once if already there), for
     * the NIC's own agents (the connection manager) as for its verbs. Any thread.
     */
    public <T> T call(Supplier<T> action) {
        if (scheduler.inOwnerThread()) {
            drainCommands();
            return action.get();
        }
        CompletableFuture<T> f = new CompletableFuture<>();
        submit(() -> {
            try {
                f.complete(action.get());
            } catch (RuntimeException e) {
                f.completeExceptionally(e);
            }
        });
        try {
            return f.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    /**
     * The priority a QP's frames along {@code route} leave {@code port} at (see {@link NicPort#priorityOf}):
     * on a VLAN port the RoCE PCP; untagged, as the port's DCB trust says (the DSCP's priority, or 0
     * when it trusts PCP).
     */
    int priorityOf(NicPort port, Route route) {
        return port.l2.vid() != L2Framing.NO_VLAN ? port.l2.rocePcp()
            : dcb.priorityOfUntagged(port.number(), route.trafficClass >> 2);
    }

    /** The link speed the NIC's transmitter paces at (0: an unlimited port). */
    public long linkSpeedBitsPerSecond() {
        return ports[0].linkSpeedBitsPerSecond();
    }

    /** The NIC's transmitter (the line-rate pacer its egress feeds). */
    public Transmitter transmitter() {
        return ports[0].transmitter();
    }

    /** Whether a received PFC frame pauses priority {@code p} now. Any thread (a snapshot). */
    public boolean isPaused(int priority) {
        if (priority < 0 || priority >= Pfc.PRIORITIES) {
            throw new IllegalArgumentException("priority must be 0..7: " + priority);
        }
        return call(() -> ports[0].egress.isPaused(priority, scheduler.nanoTime()));
    }

    /** A CNP to the source QP of a CE-marked packet (notification point). Owner thread. */
    void sendCnp(QueuePair qp) {
        NicPort port = qp.port();
        port.writer.beginCnp(qp.route(), qp.destQpn(), cnpTrafficClass, port.l2.vid() == L2Framing.NO_VLAN ? 0 : cnpPriority);
        port.counters.increment(NicCounter.NP_CNP_SENT);
        port.sendControl(qp.route(), port.writer.finish());
    }

    /** {@code np_min_time_between_cnps}: at most one CNP per QP in this time. */
    long cnpMinGapNanos() {
        return cnpMinGapNanos;
    }

    /** @return the ports' link flow control: PFC or 802.3x PAUSE ({@code ethtool -a}) */
    public FlowControlMode flowControl() {
        return flowControl;
    }

    /**
     * Sends one PFC frame (IEEE 802.1Qbb) to the link partner: the priorities in
     * {@code classEnableVector} paused for their {@code quanta} (units of 512 bit times at the link
     * speed; 0 resumes). As a NIC whose receive buffer is full would; a lab uses it to make a host
     * pause its switch. A NIC in {@link FlowControlMode#PAUSE} sends one 802.3x PAUSE instead, with
     * the longest of those times. Any thread.
     */
    public void sendPfc(int classEnableVector, int[] quanta) {
        if ((classEnableVector & ~0xFF) != 0) {
            throw new IllegalArgumentException("classEnableVector must be 0..0xFF: " + classEnableVector);
        }
        Objects.requireNonNull(quanta, "quanta");
        if (quanta.length != Pfc.PRIORITIES) {
            throw new IllegalArgumentException("quanta must have 8 entries, not " + quanta.length);
        }
        for (int q : quanta) {
            if (q < 0 || q > 0xFFFF) {
                throw new IllegalArgumentException("a pause time must be 0..65535 quanta: " + q);
            }
        }
        int[] copy = quanta.clone();
        call(() -> {
            ports[0].flowControl.send(classEnableVector, copy);
            return null;
        });
    }

    /**
     * Starts a PFC storm (a fault a lab injects): the NIC pauses its link partner's priority
     * {@code priority} with the longest pause time (65535 quanta) and repeats it before it runs out,
     * until {@link #stopPfcStorm()}; a NIC in {@link FlowControlMode#PAUSE} storms with 802.3x PAUSE,
     * which stops the partner's whole port. Any thread.
     */
    public void startPfcStorm(int priority) {
        if (priority < 0 || priority >= Pfc.PRIORITIES) {
            throw new IllegalArgumentException("priority must be 0..7: " + priority);
        }
        call(() -> {
            ports[0].flowControl.startStorm(priority);
            return null;
        });
    }

    /** Stops a storm started by {@link #startPfcStorm}; the partner resumes when the last pause runs out. */
    public void stopPfcStorm() {
        call(() -> {
            ports[0].flowControl.stopStorm();
            return null;
        });
    }

    /** Stops the NIC: parked frames are released; later frames and posts are dropped. Owner thread. */
    public void close() {
        call(() -> {
            if (lldp != null) {
                lldp.stop();
            }
            closed = true;
            if (bond != null) {
                bond.stop();
            }
            for (NicPort port : ports) {
                port.close();
            }
            for (QueuePair qp : qps.values()) {
                qp.shutdown();
            }
            return null;
        });
    }

    /**
     * Starts LLDP on every port (off until called, so a fabric without LLDP sends not one frame
     * more): {@link NicLldp}. Any thread; runs on the owner.
     *
     * @param systemName the host's name, the LLDPDUs' system name
     */
    public NicLldp startLldp(String systemName) {
        return call(() -> {
            if (lldp == null) {
                lldp = new NicLldp(this, ports, systemName);
                lldp.start();
            }
            return lldp;
        });
    }

    /** @return LLDP on the ports, or null if not started (owner thread, or after the run) */
    public NicLldp lldp() {
        return lldp;
    }

    /** Whether {@link #close} ran. */
    boolean isClosed() {
        return closed;
    }

    ByteBufAllocator alloc() {
        return alloc;
    }

    /**
     * A port's link went down or came up (owner thread): {@code IBV_EVENT_PORT_ERR} or
     * {@code IBV_EVENT_PORT_ACTIVE}; a bond moves the QPs of a port that went down to the other.
     */
    void portChanged(NicPort port, boolean up) {
        try {
            raise(AsyncEvent.ofPort(up ? AsyncEventType.PORT_ACTIVE : AsyncEventType.PORT_ERR, port.number()));
            if (bond != null) {
                bond.linkChanged(port, up);
            }
            if (lldp != null) {
                lldp.linkChanged(port, up);
            }
        } catch (RuntimeException e) {
            deviceFatal(e);
        }
    }

    /** The QP with number {@code qpn}, or null (owner thread). */
    QueuePair qp(int qpn) {
        return qps.get(qpn);
    }

    /**
     * The QP a packet to {@code qpn} that arrived on {@code port} is for: QP1 is the port's own; a
     * bond is one port, and both its links' MADs go to port 1's QP1 (owner thread).
     */
    QueuePair qp(NicPort port, int qpn) {
        if (qpn != GSI_QPN) {
            return qps.get(qpn);
        }
        return gsiQps[bond != null ? 0 : port.number() - 1];
    }

    void destroyQp(QueuePair qp) {
        if (qp.qpn() == GSI_QPN) {
            for (int i = 0; i < gsiQps.length; i++) {
                if (gsiQps[i] == qp) {
                    gsiQps[i] = null;
                    qps.remove(gsiKey(i + 1));
                }
            }
            return;
        }
        qps.remove(qp.qpn());
    }

    @Override
    public String toString() {
        return "nic " + name + " " + MacAddress.toString(mac()) + " " + Ipv4.toString(ipv4());
    }

    /** Configures a NIC. */
    public static final class Builder {
        private String name = "nic";
        private long mac = 0x0252_5400_0001L;
        private int ipv4 = Ipv4.parse("10.0.0.1");
        private int activeMtu = 1024;
        private int maxUnackedPsns = Requester.MAX_UNACKED_PSNS;
        private int ackReqInterval;
        private boolean oooDataPlacement;
        private boolean roceV1;
        private int firstIpId = 1;
        private boolean fixedIpId;
        private Scheduler scheduler;
        private FramePort port;
        private ByteBufAllocator alloc;
        private final java.util.List<Gid> ipv6 = new java.util.ArrayList<>();
        private int vid = L2Framing.NO_VLAN;
        private int rocePcp;
        private long linkSpeed = -1;
        private PauseResponse pauseResponse = PauseResponse.IEEE;
        private FlowControlMode flowControl = FlowControlMode.PFC;
        private CongestionControl.Factory congestionControl = NoCongestionControl::new;
        private boolean markEct;
        private DcqcnParams dcqcn = DcqcnParams.defaults();
        private SecondPort port2;
        private BondMode bondMode;
        private boolean lacpFast;
        private io.rocelab.nic.dcb.DcbSettings dcb = io.rocelab.nic.dcb.DcbSettings.DEFAULTS;

        public Builder name(String n) {
            name = Objects.requireNonNull(n, "name");
            return this;
        }

        public Builder mac(long m) {
            if (MacAddress.isMulticast(m)) {
                throw new IllegalArgumentException("mac must be unicast: " + MacAddress.toString(m));
            }
            mac = m;
            return this;
        }

        public Builder mac(String m) {
            return mac(MacAddress.parse(m));
        }

        public Builder ipv4(String address) {
            ipv4 = Ipv4.parse(address);
            return this;
        }

        public Builder ipv4(int address) {
            ipv4 = address;
            return this;
        }

        /**
         * Adds a global IPv6 address (as {@code ip -6 addr add}); each becomes a GID, from
         * {@link #GID_INDEX_FIRST_IPV6} on, in the order added. The link-local address comes from
         * the MAC and is always there (GID index 0).
         */
        public Builder ipv6(String address) {
            ipv6.add(globalIpv6(address));
            return this;
        }

        private static Gid globalIpv6(String address) {
            Gid g = Gid.ipv6(address);
            if (g.isIpv4Mapped() || g.isMulticast() || g.isUnspecified() || g.isLinkLocal()) {
                throw new IllegalArgumentException("ipv6 must be a global unicast address: " + address);
            }
            return g;
        }

        /**
         * Puts the port on 802.1Q VLAN {@code vid}: every frame is tagged, RoCE frames with priority
         * {@code rocePcp} (3 in the usual lossless RoCE setup with PFC on priority 3), ARP and
         * neighbour discovery with priority 0; only frames tagged with {@code vid} are accepted.
         */
        public Builder vlan(int vlanId, int pcp) {
            if (vlanId < 1 || vlanId > 4094) {
                throw new IllegalArgumentException("vlanId must be 1..4094: " + vlanId);
            }
            if (pcp < 0 || pcp > 7) {
                throw new IllegalArgumentException("pcp must be 0..7: " + pcp);
            }
            vid = vlanId;
            rocePcp = pcp;
            return this;
        }

        /** 1024 by default: what rxe reports on a 1500-byte Ethernet MTU. */
        public Builder activeMtu(int bytes) {
            if (bytes != 256 && bytes != 512 && bytes != 1024 && bytes != 2048 && bytes != 4096) {
                throw new IllegalArgumentException("activeMtu must be 256..4096, a power of two: " + bytes);
            }
            activeMtu = bytes;
            return this;
        }

        /**
         * The requester's window: how many PSNs an RC QP may send beyond the last one acknowledged.
         * {@value Requester#MAX_UNACKED_PSNS} by default, rxe's RXE_MAX_UNACKED_PSNS; IBA allows up
         * to half the 24-bit PSN space (2^23 - 1), which go-back-N needs to tell old from new.
         */
        public Builder maxUnackedPsns(int psns) {
            if (psns < 1 || psns > (1 << 23) - 1) {
                throw new IllegalArgumentException("maxUnackedPsns must be 1..8388607: " + psns);
            }
            maxUnackedPsns = psns;
            return this;
        }

        /**
         * How often an RC requester asks for an ACK on a SEND/WRITE stream. 0 (the default): on the
         * last packet of every message, as rxe does. {@code n > 0}: on a message's last packet once
         * {@code n} packets have gone since the last request, and on the last packet of the last
         * message queued; one ACK then acknowledges several messages (IBA 9.7.5.1.1). A peer that
         * is only ever another rocelab NIC, over a path where every ACK costs system calls at both
         * ends (UDP endpoint mode), is the use. Needs a window of at least twice {@code n} (and
         * of twice the 64 packets after which a long message asks anyway), checked at build.
         */
        public Builder ackReqInterval(int packets) {
            if (packets < 0 || packets > (1 << 22)) {
                throw new IllegalArgumentException("ackReqInterval must be 0..4194304: " + packets);
            }
            ackReqInterval = packets;
            return this;
        }

        /**
         * RoCEv1 beside RoCEv2, as mlx5 sets up a ConnectX: each port lists two GIDs per address, its
         * RoCEv1 GID ({@code IB_GID_TYPE_ROCE}) then its RoCEv2 GID ({@code IB_GID_TYPE_ROCE_UDP_ENCAP}),
         * so port 1's table reads 0 link-local v1, 1 link-local v2, 2 IPv4-mapped v1, 3 IPv4-mapped v2,
         * then each global IPv6 address v1 and v2; a QP whose source GID is a v1 entry sends RoCEv1
         * frames (IBA Annex A16), and the port takes RoCEv1 frames to its v1 GIDs. Off by default:
         * Linux rxe's table, RoCEv2 only ({@link #GID_INDEX_IPV4} and the other constants hold for it).
         */
        public Builder roceV1(boolean on) {
            roceV1 = on;
            return this;
        }

        /**
         * Out-of-order data placement on every new RC QP ({@link QpCreateFlag#OOO_DP}, mlx5dv's
         * {@code MLX5DV_QP_CREATE_OOO_DP}, as perftest asks for it on a device that offers it); off by
         * default: the QPs behave as rxe's, a packet ahead of the expected PSN is a sequence error.
         * Only the receive side changes, so an out-of-order NIC talks to any RoCE peer.
         */
        public Builder oooDataPlacement(boolean on) {
            oooDataPlacement = on;
            return this;
        }

        /** The IPv4 identification of the first frame (then +1 per frame). */
        public Builder firstIpId(int id) {
            firstIpId = id & 0xFFFF;
            return this;
        }

        /**
         * Every IPv4 frame carries identification {@code id} instead of a per-frame counter. For a
         * port whose peer rebuilds the IP header from a UDP socket's datagram (UDP endpoint mode):
         * the ICRC covers the identification (IBA A17.4.1 masks only TOS, TTL and checksum), the
         * receiving socket cannot see it, so both ends must agree on it beforehand.
         */
        public Builder fixedIpId(int id) {
            firstIpId = id & 0xFFFF;
            fixedIpId = true;
            return this;
        }

        public Builder scheduler(Scheduler s) {
            scheduler = s;
            return this;
        }

        /** Port 1's link. */
        public Builder port(FramePort p) {
            port = p;
            return this;
        }

        /**
         * A second port (a dual-port NIC, {@code phys_port_cnt} 2): its own link, MAC, IPv4 address
         * and global IPv6 addresses, GID table (link-local from its MAC, IPv4-mapped, then the IPv6
         * ones, as port 1's), neighbour tables and counters. A QP uses it when bound to port 2
         * ({@code QpAttr.port(2)} in INIT). The VLAN, MTU, allocator and congestion control are
         * the NIC's, shared by both ports.
         */
        public Builder port2(FramePort link, String mac, String ipv4, String... ipv6) {
            Objects.requireNonNull(link, "link");
            long m = MacAddress.parse(mac);
            if (MacAddress.isMulticast(m)) {
                throw new IllegalArgumentException("port 2 mac must be unicast: " + mac);
            }
            java.util.List<Gid> six = new java.util.ArrayList<>();
            for (String a : ipv6) {
                six.add(globalIpv6(a));
            }
            port2 = new SecondPort(link, m, Ipv4.parse(ipv4), six);
            return this;
        }

        /**
         * Bonds two links into one port (RoCE LAG, what ConnectX does under a Linux bond): {@code link2}
         * is port 2, behind port 1's MAC, addresses and GIDs; {@code mode} decides which port a QP's
         * frames leave by, and a port whose link goes down hands its QPs to the other.
         */
        /**
         * LACP's rate in {@link BondMode#LACP} (Linux's {@code lacp_rate}): {@code fast} asks the
         * partner for an LACPDU every second and leaves a silent one after 3 s; {@code slow} (the
         * default) every 30 s, out after 90 s.
         */
        public Builder lacpRate(String rate) {
            if (!"fast".equals(rate) && !"slow".equals(rate)) {
                throw new IllegalArgumentException("lacp rate must be fast or slow: " + rate);
            }
            lacpFast = "fast".equals(rate);
            return this;
        }

        public Builder bond(FramePort link2, BondMode mode) {
            Objects.requireNonNull(link2, "link2");
            port2 = new SecondPort(link2, 0, 0, java.util.List.of());
            bondMode = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /**
         * Where the NIC gets the frames it builds. The default is a {@link FramePoolAllocator} of its
         * own (slots of {@link #frameSlotBytes(int) activeMtu + headers}, at most
         * {@value #POOLED_FRAMES} free frames kept): a frame the NIC's loop frees is reused by its
         * next packet with no lock, where Netty's general pool cost about a third of the loop's time.
         */
        public Builder allocator(ByteBufAllocator a) {
            alloc = Objects.requireNonNull(a, "allocator");
            return this;
        }

        /**
         * The link speed the NIC's transmitter sends at and PFC's pause quanta are counted at (512 bit
         * times each). By default the port's speed ({@link FramePort#speedBitsPerSecond()}, as a
         * NIC learns it from its PHY); 0 for an unlimited port (PFC then counts at 100 Gb/s).
         */
        public Builder linkSpeedBitsPerSecond(long bitsPerSecond) {
            if (bitsPerSecond < 0) {
                throw new IllegalArgumentException("linkSpeed must be >= 0: " + bitsPerSecond);
            }
            linkSpeed = bitsPerSecond;
            return this;
        }

        /**
         * How long the NIC takes to act on a received PFC XOFF: its frames of the paused priority
         * that start before then still go out. By default {@link PauseResponse#IEEE}, IEEE 802.3
         * 31B.3.7's bound for the port's speed (394 quanta, 2.018 µs at 100 Gb/s), the time a
         * switch's headroom must cover beside the cable; {@link PauseResponse#INSTANT} stops after
         * the frame on the wire.
         */
        public Builder pauseResponse(PauseResponse response) {
            pauseResponse = Objects.requireNonNull(response, "response");
            return this;
        }

        /**
         * The ports' link flow control ({@link FlowControlMode}): PFC (the default, {@code mlnx_qos
         * --pfc}) or 802.3x PAUSE ({@code ethtool -A DEV rx on tx on}): a received PAUSE stops the
         * whole port, and {@link SoftNic#sendPfc} and the storms send PAUSE instead of PFC.
         */
        public Builder flowControl(FlowControlMode mode) {
            flowControl = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /**
         * DCQCN on every RC and UC QP (mlx5's {@code roce_cc} enabled): the reaction point with
         * these parameters sets each QP's rate, the notification point answers CE-marked packets
         * with CNPs ({@code np_*} parameters), and the QPs' packets are ECN-capable (ECT(0)) so
         * that switches mark them instead of dropping them.
         */
        public Builder dcqcn(DcqcnParams params) {
            dcqcn = Objects.requireNonNull(params, "params");
            congestionControl = io.rocelab.nic.cc.DcqcnReactionPoint.factory(params);
            markEct = true;
            return this;
        }

        /**
         * Another congestion control for the QPs (a strategy of its own); the notification point's
         * parameters stay {@code np_*} of {@link #dcqcn}. {@code markEct}: whether the QPs'
         * packets are ECN-capable.
         */
        public Builder congestionControl(CongestionControl.Factory factory, boolean markEct) {
            congestionControl = Objects.requireNonNull(factory, "factory");
            this.markEct = markEct;
            return this;
        }

        /**
         * The NIC's DCB settings ({@code mlnx_qos}: trust, PFC enable vector, ETS, DSCP to priority;
         * DCBX willing or off); {@link io.rocelab.nic.dcb.DcbSettings#DEFAULTS} unless set: trust
         * DSCP, PFC acted on for every priority, willing.
         */
        public Builder dcb(io.rocelab.nic.dcb.DcbSettings settings) {
            dcb = Objects.requireNonNull(settings, "settings");
            return this;
        }

        public SoftNic build() {
            SoftNic nic = new SoftNic(this);
            return nic;
        }
    }

    /** Port 2 as the builder was given it. */
    private record SecondPort(FramePort link, long mac, int ipv4, java.util.List<Gid> ipv6) {
    }

    /** PFC's quanta on a port without a speed are counted at this speed. */
    static final long DEFAULT_PFC_SPEED = 100_000_000_000L;
    /** Free frames a NIC's own frame pool keeps at most (a window of 4 KB frames is 128). */
    public static final int POOLED_FRAMES = 1024;

    /**
     * The slot size of a NIC's own frame pool: the largest frame it builds for {@code activeMtu}
     * bytes of payload (Ethernet with a VLAN tag, IPv6, UDP, BTH and the longest extension headers,
     * pad and ICRC come to well under 256 bytes).
     */
    public static int frameSlotBytes(int activeMtu) {
        return activeMtu + 256;
    }

    static boolean isRequest(Opcode op) {
        return op.has(Opcode.REQUEST);
    }
}
