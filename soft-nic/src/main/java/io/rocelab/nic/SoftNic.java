package io.rocelab.nic;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.DecodeError;
import io.rocelab.codec.FrameKind;
import io.rocelab.codec.Icrc;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.header.Pfc;
import io.rocelab.codec.header.Vlan;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.buffer.FramePoolAllocator;
import io.rocelab.fabric.endpoint.UdpPayloadSink;
import io.rocelab.fabric.port.ForwardingFramePort;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.queue.MessageQueues;
import io.rocelab.fabric.stats.CounterSet;
import io.rocelab.fabric.time.Doorbell;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.fabric.tx.TransmitSource;
import io.rocelab.fabric.tx.Transmitter;
import io.rocelab.nic.cc.CongestionControl;
import io.rocelab.nic.cc.DcqcnParam;
import io.rocelab.nic.cc.DcqcnParams;
import io.rocelab.nic.cc.NoCongestionControl;
import io.rocelab.nic.egress.NicEgress;
import io.rocelab.nic.egress.PfcCounters;
import io.rocelab.nic.egress.PfcStorm;
import io.rocelab.nic.net.Ecn;
import io.rocelab.nic.net.Icmpv6;
import io.rocelab.nic.net.L2Framing;
import io.rocelab.nic.net.NeighborDiscovery;
import io.rocelab.nic.net.Neighbors;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.agrona.collections.Int2ObjectHashMap;
import org.jctools.queues.MessagePassingQueue;

/**
 * A software RoCEv2 device with one port: MAC, IPv4 and IPv6 addresses, GID table, optional VLAN,
 * and the verbs objects (PD, MR, CQ, SRQ, QP) that live on it.
 *
 * <p>Threading (docs/design.md §3): all protocol state is owned by the thread of the injected
 * {@link Scheduler}; received frames and timers run there. User threads reach it through an MPSC
 * command queue: {@code postSend}/{@code postRecv} enqueue and return; object creation and
 * {@code modify} run on the owner thread and wait for it (or run at once when called on it, as in
 * virtual-time tests). Nothing here reads a wall clock.
 *
 * <p>GID table as Linux builds it for a RoCE netdev (RoCEv2 entries): index 0 the link-local GID
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
    private final long mac;
    private final int ipv4;
    private final int activeMtu;
    private final int maxUnackedPsns;
    private final int ackReqInterval;
    private final Scheduler scheduler;
    /** {@link #scheduler} for the NIC's own agents: what their tasks throw fails the device. */
    private final GuardedScheduler agents;
    private final FramePort port;
    /** The link speed: the transmitter's line rate and PFC's quanta; 0 for an unlimited port. */
    private final long linkSpeed;
    /** The speed PFC's pause quanta are counted at ({@link #linkSpeed}, or 100 Gb/s if unlimited). */
    private final long pfcSpeed;
    /** What the transmitter pulls: MAC control, control frames, the QPs (see {@link NicEgress}). */
    final NicEgress egress;
    private final Transmitter transmitter;
    /** Where frames built on the NIC's thread go: the frame a pull emits, or the control queue. */
    private final FramePort out;
    /** The data frame {@link #emit} is handing over, and the frame the pull takes when it got out. */
    private ByteBuf emitting;
    private ByteBuf pulled;
    final CongestionControl.Factory congestionControl;
    /** Whether QPs with congestion control send ECN-capable (ECT(0)) packets, as mlx5 does. */
    final boolean markEct;
    final DcqcnParams dcqcn;
    private final long cnpMinGapNanos;
    private final int cnpTrafficClass;
    private final int cnpPriority;
    private PfcStorm storm;
    private final ByteBufAllocator alloc;
    private final Gid[] gids;
    private final L2Framing l2;
    private final CounterSet<NicCounter> counters = new CounterSet<>(NicCounter.class);
    private final AsyncEvents events = new AsyncEvents();
    private final MessagePassingQueue<Runnable> commands = MessageQueues.mpscUnbounded(256);
    /** Rung after each command: a sleeping loop runs one drain per burst, a polling one looks every turn. */
    private final Doorbell commandBell;
    private final Int2ObjectHashMap<QueuePair> qps = new Int2ObjectHashMap<>();
    private volatile MemoryRegion[] mrs = new MemoryRegion[64];
    private final ParsedFrame rxFrame = new ParsedFrame();
    private final RxPacket rxPacket = new RxPacket();
    private final Icrc icrc = new Icrc();
    final PacketWriter writer;
    final Memory memory = new Memory(this);
    final Neighbors neighbors;
    final NeighborDiscovery nd;
    private int nextQpn = FIRST_QPN;
    private int nextMrIndex = 1;
    private int nextHandle = 1;
    private int keyTag = 0x59;
    private volatile boolean closed;
    /** Set by the first internal error ({@link #deviceFatal}); owner thread. */
    private boolean fatal;

    private SoftNic(Builder b) {
        this.name = b.name;
        this.mac = b.mac;
        this.ipv4 = b.ipv4;
        this.activeMtu = b.activeMtu;
        this.maxUnackedPsns = b.maxUnackedPsns;
        this.ackReqInterval = b.ackReqInterval;
        // a full window must hold an AckReq packet: at most max(interval, 64) packets go without one
        int minWindow = 2 * Math.max(ackReqInterval, Requester.MAX_PKT_PER_ACK);
        if (ackReqInterval != 0 && minWindow > maxUnackedPsns) {
            throw new IllegalArgumentException("ackReqInterval " + ackReqInterval + " needs maxUnackedPsns of at least "
                + minWindow + ", not " + maxUnackedPsns);
        }
        this.scheduler = Objects.requireNonNull(b.scheduler, "scheduler");
        this.agents = new GuardedScheduler(scheduler, this::deviceFatal);
        this.port = Objects.requireNonNull(b.port, "port");
        this.commandBell = scheduler.doorbell(this::drainCommands);
        this.alloc = b.alloc != null ? b.alloc : new FramePoolAllocator(frameSlotBytes(activeMtu), POOLED_FRAMES);
        java.util.List<Gid> table = new java.util.ArrayList<>();
        table.add(Gid.linkLocal(mac));
        table.add(Gid.ipv4Mapped(ipv4));
        table.addAll(b.ipv6);
        this.gids = table.toArray(new Gid[0]);
        java.util.List<Gid> own6 = new java.util.ArrayList<>(b.ipv6);
        own6.add(0, gids[GID_INDEX_LINK_LOCAL]);
        this.l2 = new L2Framing(mac, b.vid, b.rocePcp);
        this.writer = new PacketWriter(alloc, l2, b.firstIpId, b.fixedIpId,
                port instanceof UdpPayloadSink sink ? sink : null);
        this.linkSpeed = b.linkSpeed >= 0 ? b.linkSpeed : port.speedBitsPerSecond();
        this.pfcSpeed = linkSpeed > 0 ? linkSpeed : DEFAULT_PFC_SPEED;
        this.congestionControl = b.congestionControl;
        this.markEct = b.markEct;
        this.dcqcn = b.dcqcn;
        this.cnpMinGapNanos = dcqcn.get(DcqcnParam.NP_MIN_TIME_BETWEEN_CNPS) * 1_000;
        this.cnpTrafficClass = (int) dcqcn.get(DcqcnParam.NP_CNP_DSCP) << 2 | Ecn.ECT_0;
        this.cnpPriority = (int) dcqcn.get(DcqcnParam.NP_CNP_PRIO);
        this.egress = new NicEgress(counters, pfcSpeed);
        this.transmitter = new Transmitter(agents, port, linkSpeed, egress);
        egress.attach(transmitter);
        this.out = new ForwardingFramePort(port) {
            @Override
            public void send(ByteBuf frame) {
                if (frame == emitting) {
                    pulled = frame;
                } else {
                    egress.sendControl(frame, priorityOf(frame));
                }
            }
        };
        this.neighbors = new Neighbors(mac, ipv4, agents, out, alloc, counters, l2);
        this.nd = new NeighborDiscovery(mac, gids[GID_INDEX_LINK_LOCAL], own6, agents, out, alloc, counters, l2);
        port.setReceiver((p, frame) -> onFrame(frame));
        port.addLinkStateListener((p, up) -> {
            if (!up) {
                counters.increment(NicCounter.LINK_DOWNED);
            }
        });
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The requester's window: unacknowledged PSNs a QP may have in flight. */
    public int maxUnackedPsns() {
        return maxUnackedPsns;
    }

    /** Packets a requester sends at most between two AckReq bits; 0: AckReq on every message. */
    public int ackReqInterval() {
        return ackReqInterval;
    }

    public String name() {
        return name;
    }

    public long mac() {
        return mac;
    }

    public int ipv4() {
        return ipv4;
    }

    /** The port's active MTU (the largest path MTU, and the UD message limit). */
    public int activeMtu() {
        return activeMtu;
    }

    public Gid gid(int index) {
        if (index < 0 || index >= gids.length) {
            throw new IllegalArgumentException("gid index must be 0.." + (gids.length - 1) + ": " + index);
        }
        return gids[index];
    }

    public int gidTableSize() {
        return gids.length;
    }

    /** The index of {@code gid} in the GID table ({@code ibv_query_gid} in reverse). */
    public int gidIndex(Gid gid) {
        for (int i = 0; i < gids.length; i++) {
            if (gids[i].equals(gid)) {
                return i;
            }
        }
        throw new IllegalArgumentException("gid not in the table of " + name + ": " + gid);
    }

    /** The 802.1Q VLAN of the port, or -1 when untagged. */
    public int vlanId() {
        return l2.vid();
    }

    /** The PCP of RoCE frames on a VLAN port. */
    public int rocePcp() {
        return l2.rocePcp();
    }

    public CounterSet<NicCounter> counters() {
        return counters;
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
        counters.increment(NicCounter.CQ_OVERFLOW);
        raise(AsyncEvent.ofCq(AsyncEventType.CQ_ERR, cq));
        for (QueuePair qp : new java.util.ArrayList<>(qps.values())) {
            if ((qp.sendCq == cq || qp.recvCq == cq) && qp.state() != QpState.ERR && qp.state() != QpState.RESET) {
                qp.enterError();
                raise(AsyncEvent.ofQp(AsyncEventType.QP_FATAL, qp));
            }
        }
    }

    /** Raises an asynchronous event (owner thread). */
    void raise(AsyncEvent e) {
        events.raise(e);
    }

    /** Adds a static neighbour entry (as {@code ip neigh add}); ARP resolves the others. */
    public void addNeighbor(int peerIpv4, long peerMac) {
        call(() -> {
            neighbors.add(peerIpv4, peerMac);
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

    /** Records a known MAC for {@code peer} (owner thread). */
    void learn(Gid peer, long peerMac) {
        if (peer.isIpv4Mapped()) {
            neighbors.add(peer.ipv4(), peerMac);
        } else {
            nd.add(peer, peerMac);
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
            qps.put(qp.qpn(), qp);
            return qp;
        });
    }

    /**
     * Creates QP1, the General Services Interface ({@code IB_QPT_GSI}, IBA 13.5.1): a UD QP with the
     * well-known number 1 through which management datagrams, the connection manager's among them,
     * come and go. Its Q_Key is set at INIT like any UD QP's (0x80010000 for QP1). One per NIC.
     *
     * @throws IllegalStateException if the NIC has one already
     */
    public QueuePair createGsiQp(ProtectionDomain pd, CompletionQueue sendCq, CompletionQueue recvCq, QpCaps caps) {
        Objects.requireNonNull(pd, "pd");
        Objects.requireNonNull(sendCq, "sendCq");
        Objects.requireNonNull(recvCq, "recvCq");
        Objects.requireNonNull(caps, "caps");
        if (pd.nic() != this) {
            throw new IllegalArgumentException("pd belongs to another NIC");
        }
        return call(() -> {
            if (qps.containsKey(GSI_QPN)) {
                throw new IllegalStateException(name + " already has QP1");
            }
            QueuePair qp = new QueuePair(this, pd, QpType.UD, GSI_QPN, sendCq, recvCq, caps, null);
            qps.put(GSI_QPN, qp);
            return qp;
        });
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
    private void deviceFatal(RuntimeException e) {
        counters.increment(NicCounter.INTERNAL_ERRORS);
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
     * Hands over the data packet of the QP the transmitter is pulling ({@link #takePulled}): a frame
     * whose next hop is known is what the pull returns; one waiting for ARP or neighbour discovery
     * is parked there and later goes out through the control queue, in order. Owner thread.
     */
    void emit(Route route, ByteBuf frame) {
        if (writer.takeClaim(frame)) {
            // written in place in the port's send buffer (UDP endpoint mode): no frame, no neighbour
            if (closed) {
                writer.sink().abort();
                return;
            }
            counters.increment(NicCounter.SENT_PKTS);
            writer.sink().commit();
            pulled = TransmitSource.WRITTEN_TO_PORT;
            return;
        }
        if (closed) {
            frame.release();
            return;
        }
        counters.increment(NicCounter.SENT_PKTS);
        emitting = frame;
        try {
            if (route.ipv6) {
                nd.send(route.dstGid, frame);
            } else {
                neighbors.send(route.dstIpv4, frame);
            }
        } finally {
            emitting = null;
        }
    }

    /** The packet {@link #emit} handed over since the last call, or null; forgets it. Owner thread. */
    ByteBuf takePulled() {
        ByteBuf f = pulled;
        pulled = null;
        return f;
    }

    /**
     * Sends a control frame (an ACK, NAK or ATOMIC ACK, a CNP) along {@code route}: it goes ahead
     * of the QPs' data, at its own priority, after ARP or neighbour discovery if needed. Owner thread.
     */
    void sendControl(Route route, ByteBuf frame) {
        if (writer.takeClaim(frame)) {
            if (closed) {
                writer.sink().abort();
                return;
            }
            counters.increment(NicCounter.SENT_PKTS);
            writer.sink().commit();
            return;
        }
        if (closed) {
            frame.release();
            return;
        }
        counters.increment(NicCounter.SENT_PKTS);
        if (route.ipv6) {
            nd.send(route.dstGid, frame);
        } else {
            neighbors.send(route.dstIpv4, frame);
        }
    }

    /**
     * The 802.1p priority a frame leaves at, read from its own header as a NIC's egress classifies
     * it: the PCP of its VLAN tag; untagged, its DSCP's priority (mlx5's default DSCP-to-priority
     * map, DSCP / 8: DSCP 26 is priority 3, DSCP 48 priority 6); anything else (ARP) priority 0.
     */
    int priorityOf(ByteBuf frame) {
        int type = frame.getUnsignedShort(Ethernet.ETHER_TYPE);
        if (type == EtherType.VLAN) {
            return Vlan.pcp(frame, Ethernet.ETHER_TYPE);
        }
        if (type == EtherType.IPV4) {
            return Ipv4.dscp(frame, Ethernet.LENGTH) >> 3;
        }
        if (type == EtherType.IPV6) {
            return Ipv6.dscp(frame, Ethernet.LENGTH) >> 3;
        }
        return 0;
    }

    /** The priority a QP's frames along {@code route} leave at (see {@link #priorityOf}). */
    int priorityOf(Route route) {
        return l2.vid() != L2Framing.NO_VLAN ? l2.rocePcp() : (route.trafficClass >> 2) >> 3;
    }

    /** The link speed the NIC's transmitter paces at (0: an unlimited port). */
    public long linkSpeedBitsPerSecond() {
        return linkSpeed;
    }

    /** The NIC's transmitter (the line-rate pacer its egress feeds). */
    public Transmitter transmitter() {
        return transmitter;
    }

    /** Whether a received PFC frame pauses priority {@code p} now. Any thread (a snapshot). */
    public boolean isPaused(int priority) {
        if (priority < 0 || priority >= Pfc.PRIORITIES) {
            throw new IllegalArgumentException("priority must be 0..7: " + priority);
        }
        return call(() -> egress.isPaused(priority, scheduler.nanoTime()));
    }

    /**
     * Whether frames along {@code route} are parked while ARP or neighbour discovery resolves the
     * next hop (owner thread): they have not left, so they cannot have been lost.
     */
    boolean resolving(Route route) {
        return route != null && (route.ipv6 ? nd.isResolving(route.dstGid) : neighbors.isResolving(route.dstIpv4));
    }

    /** The receive path (owner thread): parse, check, dispatch to a QP; bad frames are counted and dropped. */
    private void onFrame(ByteBuf frame) {
        try {
            if (closed) {
                return;
            }
            ParsedFrame f = rxFrame;
            DecodeError err = f.parse(frame);
            if (err != null) {
                counters.increment(NicCounter.DROP_MALFORMED);
                return;
            }
            if (f.kind() == FrameKind.PFC) {
                onPfc(frame, f);
                return;
            }
            if (!l2.accepts(f)) {
                counters.increment(NicCounter.DROP_VLAN);
                return;
            }
            if (f.kind() == FrameKind.ARP) {
                neighbors.onArp(frame, f.l3Offset());
                return;
            }
            long dst = f.dstMac();
            boolean ourMac = dst == mac || MacAddress.isMulticast(dst);
            if (f.kind() == FrameKind.IPV6 && f.l4Protocol() == Icmpv6.NEXT_HEADER) {
                if (ourMac) {
                    nd.onIcmpv6(frame, f.l3Offset(), f.srcMac());
                }
                return;
            }
            if (f.kind() != FrameKind.ROCEV2) {
                return;
            }
            boolean ourIp = f.ipVersion() == 4 ? Ipv4.dst(frame, f.l3Offset()) == ipv4
                    : nd.isOwn(frame, f.l3Offset() + Ipv6.DST);
            if (!ourMac || !ourIp) {
                counters.increment(NicCounter.DROP_NOT_FOR_US);
                return;
            }
            if (!icrc.verify(f)) {
                counters.increment(NicCounter.DROP_BAD_ICRC); // IBA C9-?? / A17.4.1: drop silently
                return;
            }
            counters.increment(NicCounter.RCVD_PKTS);
            RxPacket p = rxPacket;
            p.load(f);
            QueuePair qp = qps.get(p.destQp);
            if (f.opcode().code() == Opcode.CNP_CODE) {
                onCnp(qp);
                return;
            }
            if (qp == null || !qp.state().canReceive() && qp.state() != QpState.ERR) {
                counters.increment(NicCounter.DROP_UNKNOWN_QP);
                return;
            }
            if (!f.opcode().isKnown() || f.opcode().transport() == null
                    || !f.opcode().transport().name().equals(qp.type().name())) {
                counters.increment(NicCounter.DROP_BAD_OPCODE); // C9-?? opcode must match the QP's service
                return;
            }
            if (f.ecn() == Ecn.CE && qp.type() != QpType.UD && isCongestionSignal(f.opcode())) {
                counters.increment(NicCounter.NP_ECN_MARKED_ROCE_PACKETS);
                qp.notifyCongestion(scheduler.nanoTime());
            }
            qp.receive(p);
        } catch (RuntimeException e) {
            deviceFatal(e);
        } finally {
            frame.release();
        }
    }

    /** A PFC frame for us (to the MAC control group, or our MAC): the egress pauses its priorities. */
    private void onPfc(ByteBuf frame, ParsedFrame f) {
        long dst = f.dstMac();
        if (dst != MacAddress.PAUSE_MULTICAST && dst != mac) {
            counters.increment(NicCounter.DROP_NOT_FOR_US);
            return;
        }
        if (frame.readableBytes() < f.l3Offset() + Pfc.LENGTH) {
            counters.increment(NicCounter.DROP_MALFORMED);
            return;
        }
        egress.onPfc(frame, f.l3Offset(), scheduler.nanoTime());
    }

    /**
     * A CNP (the reaction point's input): handed to the QP's congestion control if it is an RC or
     * UC QP; a CNP for an unknown QP, or one that has no congestion control (UD), is counted and
     * dropped.
     */
    private void onCnp(QueuePair qp) {
        if (qp == null) {
            counters.increment(NicCounter.DROP_UNKNOWN_QP);
            return;
        }
        if (qp.type() == QpType.UD || !qp.state().canReceive()) {
            counters.increment(NicCounter.RP_CNP_IGNORED);
            return;
        }
        qp.onCnp(scheduler.nanoTime());
    }

    /**
     * Whether a CE mark on a packet with this opcode is congestion on the data path the CNP should
     * slow: requests and READ responses; not ACKs, whose sender has nothing to slow down.
     */
    private static boolean isCongestionSignal(Opcode op) {
        return op.has(Opcode.REQUEST) || op.has(Opcode.READ);
    }

    /** A CNP to the source QP of a CE-marked packet (notification point). Owner thread. */
    void sendCnp(QueuePair qp) {
        ByteBuf b = writer.beginCnp(qp.route, qp.destQpn, cnpTrafficClass, l2.vid() == L2Framing.NO_VLAN ? 0 : cnpPriority);
        counters.increment(NicCounter.NP_CNP_SENT);
        sendControl(qp.route, writer.finish());
    }

    /** {@code np_min_time_between_cnps}: at most one CNP per QP in this time. */
    long cnpMinGapNanos() {
        return cnpMinGapNanos;
    }

    /**
     * Sends one PFC frame (IEEE 802.1Qbb) to the link partner: the priorities in
     * {@code classEnableVector} paused for their {@code quanta} (units of 512 bit times at the link
     * speed; 0 resumes). As a NIC whose receive buffer is full would; a lab uses it to make a host
     * pause its switch. Any thread.
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
            transmitPfc(classEnableVector, copy);
            return null;
        });
    }

    private void transmitPfc(int cev, int[] quanta) {
        if (closed) {
            return;
        }
        ByteBuf b = alloc.buffer(Ethernet.LENGTH + Pfc.LENGTH + PFC_PADDING);
        b.writerIndex(Ethernet.LENGTH + Pfc.LENGTH + PFC_PADDING);
        b.setZero(0, b.writerIndex());
        Ethernet.write(b, 0, MacAddress.PAUSE_MULTICAST, mac, EtherType.MAC_CONTROL);
        Pfc.write(b, Ethernet.LENGTH, cev, quanta);
        for (int p = 0; p < Pfc.PRIORITIES; p++) {
            if ((cev & (1 << p)) != 0 && quanta[p] != 0) {
                counters.increment(PfcCounters.txPause(p));
            }
        }
        egress.sendMacControl(b);
    }

    /**
     * Starts a PFC storm (a fault a lab injects): the NIC pauses its link partner's priority
     * {@code priority} with the longest pause time (65535 quanta) and repeats it before it runs out,
     * until {@link #stopPfcStorm()}. Any thread.
     */
    public void startPfcStorm(int priority) {
        if (priority < 0 || priority >= Pfc.PRIORITIES) {
            throw new IllegalArgumentException("priority must be 0..7: " + priority);
        }
        int[] quanta = new int[Pfc.PRIORITIES];
        quanta[priority] = 0xFFFF;
        // repeat at half the pause time, as a stuck receiver's PFC generator refreshes its XOFF
        long period = Math.max(1, Pfc.quantaToNanos(0xFFFF, pfcSpeed) / 2);
        call(() -> {
            if (storm != null) {
                storm.stop();
            }
            storm = new PfcStorm(agents, () -> transmitPfc(1 << priority, quanta), period);
            return null;
        });
    }

    /** Stops a storm started by {@link #startPfcStorm}; the partner resumes when the last pause runs out. */
    public void stopPfcStorm() {
        call(() -> {
            if (storm != null) {
                storm.stop();
                storm = null;
            }
            return null;
        });
    }

    /** Stops the NIC: parked frames are released; later frames and posts are dropped. Owner thread. */
    public void close() {
        call(() -> {
            closed = true;
            if (storm != null) {
                storm.stop();
            }
            egress.close();
            neighbors.releaseAll();
            nd.releaseAll();
            for (QueuePair qp : qps.values()) {
                qp.shutdown();
            }
            return null;
        });
    }

    void destroyQp(QueuePair qp) {
        qps.remove(qp.qpn());
    }

    @Override
    public String toString() {
        return "nic " + name + " " + MacAddress.toString(mac) + " " + Ipv4.toString(ipv4);
    }

    /** Configures a NIC. */
    public static final class Builder {
        private String name = "nic";
        private long mac = 0x0252_5400_0001L;
        private int ipv4 = Ipv4.parse("10.0.0.1");
        private int activeMtu = 1024;
        private int maxUnackedPsns = Requester.MAX_UNACKED_PSNS;
        private int ackReqInterval;
        private int firstIpId = 1;
        private boolean fixedIpId;
        private Scheduler scheduler;
        private FramePort port;
        private ByteBufAllocator alloc;
        private final java.util.List<Gid> ipv6 = new java.util.ArrayList<>();
        private int vid = L2Framing.NO_VLAN;
        private int rocePcp;
        private long linkSpeed = -1;
        private CongestionControl.Factory congestionControl = NoCongestionControl::new;
        private boolean markEct;
        private DcqcnParams dcqcn = DcqcnParams.defaults();

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
            Gid g = Gid.ipv6(address);
            if (g.isIpv4Mapped() || g.isMulticast() || g.isUnspecified() || g.isLinkLocal()) {
                throw new IllegalArgumentException("ipv6 must be a global unicast address: " + address);
            }
            ipv6.add(g);
            return this;
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

        public Builder port(FramePort p) {
            port = p;
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

        public SoftNic build() {
            SoftNic nic = new SoftNic(this);
            return nic;
        }
    }

    /** PFC's quanta on a port without a speed are counted at this speed. */
    static final long DEFAULT_PFC_SPEED = 100_000_000_000L;
    /** A PFC frame is padded to the 60-byte minimum: 14 + 20 + 26. */
    private static final int PFC_PADDING = 26;

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
