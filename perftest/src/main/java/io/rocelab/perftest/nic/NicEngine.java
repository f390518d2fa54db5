package io.rocelab.perftest.nic;

import io.rocelab.fabric.random.SplitMix64;
import io.rocelab.nic.stats.NicCounter;
import io.rocelab.nic.QpType;
import io.rocelab.nic.QueuePair;
import io.rocelab.nic.SoftNic;
import io.rocelab.perftest.ConnectionType;
import io.rocelab.perftest.Mtu;
import io.rocelab.perftest.Verb;
import io.rocelab.perftest.cli.PerftestOptions;
import io.rocelab.perftest.oob.Gid;
import io.rocelab.perftest.oob.KeyRecord;
import io.rocelab.perftest.report.BwMeasurement;
import io.rocelab.perftest.report.LatMeasurement;
import io.rocelab.perftest.run.BestGidIndex;
import io.rocelab.perftest.run.DeviceInfo;
import io.rocelab.perftest.run.LatDuration;
import io.rocelab.perftest.run.RunContext;
import io.rocelab.perftest.run.TestEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * perftest's data path on rocelab's soft NIC, the {@link TestEngine} a tool runs on: opens the
 * device (the NIC and what it is plugged into), connects through rdma_cm with {@code -R}, reads
 * the NIC's counters for {@code -W}, and hands the rest to its parts: {@link NicQueues} (the PD,
 * buffer and MR, CQs and QPs made and connected as perftest makes them), {@link BandwidthRun}
 * ({@code run_iter_bw}, {@code run_iter_bw_server}, ended by a {@link BwEnd}) and
 * {@link LatencyRun} ({@code run_iter_lat_write}, {@code run_iter_lat_send}, {@code run_iter_lat}).
 *
 * <p>Timestamps are {@link System#nanoTime()}: this is the application, on the user's thread,
 * not the NIC (which never reads a clock of its own).
 */
public final class NicEngine implements TestEngine {
    /** The device name the soft NIC presents (perftest's "Device"). */
    public static final String DEVICE_NAME = "rocelab0";
    /** Like rxe's {@code max_qp_rd_atom}. */
    public static final int MAX_OUTSTANDING_READS = 128;
    /** perftest's {@code MIN_RNR_TIMER}. */
    static final int MIN_RNR_TIMER = 12;

    /**
     * What the NIC is. Its GID table is rxe's: 0 the link-local IPv6 GID from the MAC, 1 the
     * IPv4-mapped GID of {@code ip}, then one per global IPv6 address.
     *
     * @param ip        IPv4 address
     * @param mac       MAC address
     * @param activeMtu port MTU in bytes
     * @param psnSeed   seed of the first PSNs
     * @param ipv6      global IPv6 addresses, GID index 2 on; empty for none
     * @param congestion its congestion control and PFC storm
     */
    public record Config(String ip, String mac, int activeMtu, long psnSeed, List<String> ipv6,
                         NicCongestion congestion, boolean roceV1) {
        public Config {
            Objects.requireNonNull(ip, "ip");
            Objects.requireNonNull(mac, "mac");
            Objects.requireNonNull(congestion, "congestion");
            if (Mtu.ofBytes(activeMtu) == null) {
                throw new IllegalArgumentException("activeMtu must be 256..4096, a power of two: " + activeMtu);
            }
            ipv6 = List.copyOf(ipv6);
        }

        /** With rxe's GID table (RoCEv2 only). */
        public Config(String ip, String mac, int activeMtu, long psnSeed, List<String> ipv6, NicCongestion congestion) {
            this(ip, mac, activeMtu, psnSeed, ipv6, congestion, false);
        }

        /** Without congestion control or a storm. */
        public Config(String ip, String mac, int activeMtu, long psnSeed, List<String> ipv6) {
            this(ip, mac, activeMtu, psnSeed, ipv6, NicCongestion.NONE);
        }

        /** Without global IPv6 addresses: GIDs 0 and 1 only. */
        public Config(String ip, String mac, int activeMtu, long psnSeed) {
            this(ip, mac, activeMtu, psnSeed, List.of());
        }

        /** The NIC's builder with these addresses, MTU and congestion control (scheduler and port still to set). */
        SoftNic.Builder nic() {
            SoftNic.Builder b = SoftNic.builder().name(DEVICE_NAME).mac(mac).ipv4(ip).activeMtu(activeMtu)
                    .roceV1(roceV1);
            ipv6.forEach(b::ipv6);
            return congestion.configure(b);
        }

        /** Starts what the NIC does on its own once built (a PFC storm). */
        void started(SoftNic nic) {
            congestion.start(nic);
        }
    }

    private final Config config;
    private final Supplier<NicAttachment> attach;
    private final Waiter waiter = new Waiter();
    /** How a bandwidth run's send loop checks each completion: an error completion ends the run with its message. */
    OwnerThreadSendLoop.Checker sendCheck = (wc, posted, completed) -> this.queues.check(wc, posted, completed);
    /** WRs the last send loop on the NIC's thread left posted and not completed (0 once it drained); -1 before one ran. */
    long lastLoopOutstanding = -1;

    private NicAttachment attachment;
    private SoftNic nic;
    private PerftestOptions options;
    private RunContext context;
    /** The run's PD, buffer, CQs and QPs, once {@link #createQps} made them. */
    private NicQueues queues;
    private BandwidthRun bandwidth;
    private LatencyRun latency;
    /** In-process: latency runs on the NICs' thread ({@link OwnerThreadLatency}). */
    private boolean latencyOnNicThread;
    private OwnerThreadLatency ownerThreadLatency;
    private boolean latencyNicThreadPolls;
    private boolean closed;
    private int defaultTrafficClass;
    /** {@code -R}: the connection manager and the connections it made, else null. */
    private RdmaCm rdmaCm;
    /** Opens once this engine, as an rdma_cm server, listens for connection requests. */
    private final java.util.concurrent.CountDownLatch cmListening = new java.util.concurrent.CountDownLatch(1);
    private int defaultQpTimeout = -1;
    /** The LLDP system name when the NIC runs LLDP on its ports, else null. */
    private String lldpSystemName;

    /**
     * @param config what the NIC is
     * @param attach opens what the NIC is plugged into, when the device is opened
     */
    public NicEngine(Config config, Supplier<NicAttachment> attach) {
        this.config = Objects.requireNonNull(config, "config");
        this.attach = Objects.requireNonNull(attach, "attach");
    }

    /**
     * The IP traffic class (DSCP &lt;&lt; 2 | ECN) of the QPs' frames when the command line sets none
     * ({@code -T}), like a NIC's per-port default RoCE traffic class (mlx5's {@code traffic_class});
     * 0 unless set. Call before the QPs are connected.
     *
     * @param trafficClass 0..255, e.g. 106 for DSCP 26 with ECT(0)
     * @return this engine
     */
    public NicEngine defaultTrafficClass(int trafficClass) {
        if (trafficClass < 0 || trafficClass > 255) {
            throw new IllegalArgumentException("trafficClass must be 0..255: " + trafficClass);
        }
        this.defaultTrafficClass = trafficClass;
        return this;
    }

    /**
     * The local ACK timeout exponent (4.096 µs × 2^n) of the RC QPs when the command line sets none
     * ({@code -u}); perftest's 14 (67 ms) unless set. {@code -u} always wins. Call before the QPs are
     * connected.
     *
     * @param exponent 0..31
     * @return this engine
     */
    public NicEngine defaultQpTimeout(int exponent) {
        if (exponent < 0 || exponent > 31) {
            throw new IllegalArgumentException("exponent must be 0..31: " + exponent);
        }
        this.defaultQpTimeout = exponent;
        return this;
    }

    /**
     * Latency runs on the NIC's own thread ({@link OwnerThreadLatency}): in-process, where one thread
     * owns both NICs. Call before the QPs are created.
     *
     * @param polls whether that thread's scheduler polls drains on every turn ({@code --busy-poll})
     * @return this engine
     */
    NicEngine latencyOnNicThread(boolean polls) {
        this.latencyOnNicThread = true;
        this.latencyNicThreadPolls = polls;
        return this;
    }

    /** The default set by {@link #defaultQpTimeout(int)}, or -1 for perftest's. */
    int defaultQpTimeout() {
        return defaultQpTimeout;
    }

    /**
     * The local ACK timeout exponent the QPs get: {@code -u} if given, else {@code engineDefault}
     * if set (not negative), else perftest's default.
     */
    static int qpTimeout(PerftestOptions o, int engineDefault) {
        return o.qpTimeoutRequested() || engineDefault < 0 ? o.qpTimeout() : engineDefault;
    }

    /**
     * Runs LLDP on the NIC's ports once it is opened ({@code SoftNic.startLldp}), as lldpd on a
     * host's interfaces: its neighbours are printed with the counters ({@code -Drocelab.counters=true}).
     *
     * @param systemName the host's name, the LLDPDUs' system name
     * @return this engine
     */
    public NicEngine lldp(String systemName) {
        this.lldpSystemName = systemName;
        return this;
    }

    // ---- setup ----

    @Override
    public DeviceInfo open(PerftestOptions o) {
        this.options = o;
        Warmup.once();
        if (o.kind().isLatency()) {
            Warmup.latencyOnce();
        }
        attachment = attach.get();
        nic = attachment.configure(config.nic().scheduler(attachment.scheduler()).port(attachment.port())).build();
        config.started(nic);
        if (o.dualPort() && nic.portCount() < 2) {
            // perftest's set_link_layer when ibv_query_port(ib_port2) fails
            throw new io.rocelab.perftest.cli.OptionException(" Unable to query port 2 attributes: " + DEVICE_NAME
                    + " has one port here (--in-process cables two; --udp-frame2, --raw2)");
        }
        if (lldpSystemName != null) {
            nic.startLldp(lldpSystemName);
        }
        if (o.ibPort() > nic.portCount()) {
            throw new io.rocelab.perftest.cli.OptionException(" " + DEVICE_NAME + " has " + nic.portCount()
                    + " port here; -i " + o.ibPort() + " needs a second port (--in-process cables one; --udp-frame2, --raw2)");
        }
        return new DeviceInfo(DEVICE_NAME, "IB", "Ethernet", Mtu.ofBytes(config.activeMtu()), MAX_OUTSTANDING_READS,
                BestGidIndex.of(gidTable(), gidTypes(), o.ipv6()));
    }

    /** Whether each GID of the table is RoCEv2 ({@code ibv_query_gid_type}), index 0 first. */
    private List<Boolean> gidTypes() {
        io.rocelab.nic.NicPort port = nic.port(options.ibPort());
        List<Boolean> v2 = new ArrayList<>(port.gidTableSize());
        for (int i = 0; i < port.gidTableSize(); i++) {
            v2.add(port.gidType(i) == io.rocelab.nic.net.GidType.ROCE_V2);
        }
        return v2;
    }

    /** The NIC's GID table, as perftest reads it with {@code ibv_query_gid}. */
    private List<Gid> gidTable() {
        io.rocelab.nic.NicPort port = nic.port(options.ibPort());
        List<Gid> table = new ArrayList<>(port.gidTableSize());
        for (int i = 0; i < port.gidTableSize(); i++) {
            table.add(Gid.of(port.gid(i).toBytes()));
        }
        return table;
    }

    @Override
    public List<KeyRecord> createQps(RunContext ctx) {
        this.context = ctx;
        this.options = ctx.options();
        queues = new NicQueues(nic, ctx, config.psnSeed());
        bandwidth = new BandwidthRun(this, queues, waiter);
        if (latencyOnNicThread && ownerThreadLatency == null) {
            ownerThreadLatency = new OwnerThreadLatency(nic.scheduler(), latencyNicThreadPolls);
        }
        latency = new LatencyRun(queues, waiter, latencyOnNicThread ? ownerThreadLatency : null);
        return queues.mine;
    }


    @Override
    public io.rocelab.perftest.oob.OobLink connectRdmaCm(PerftestOptions o, java.time.Duration timeout,
                                                         Runnable listening) throws Exception {
        if (o.connection() == ConnectionType.UD) {
            throw new io.rocelab.perftest.cli.OptionException(" rocelab's rdma_cm connects RC QPs only; UD over"
                    + " rdma_cm (SIDR) is not supported yet: run -c UD without -R");
        }
        rdmaCm = RdmaCm.start(nic, SplitMix64.mix(config.psnSeed() ^ 0x72646d615f636dL), o.peer(), timeout,
                o.ibPort());
        if (o.isServer()) {
            listening.run(); // RdmaCm.start registered the listener
            cmListening.countDown();
        }
        return rdmaCm.connectExchange();
    }

    /**
     * Waits until this engine, as the server of an rdma_cm run ({@code -R}), listens for connection
     * requests, or {@code nanos} have passed: a client started before that would be rejected, as
     * rdma_cm rejects a REQ nobody listens for.
     *
     * @return whether it listens
     */
    boolean awaitRdmaCmListening(long nanos) throws InterruptedException {
        return cmListening.await(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    @Override
    public void connectQpsRdmaCm() throws Exception {
        if (rdmaCm == null) {
            throw new IllegalStateException("connectRdmaCm has not run");
        }
        Verb verb = options.kind().verb();
        int tclass = options.tos() >= 0 ? options.tos() : defaultTrafficClass;
        rdmaCm.connectData(queues.qps, context.outReads(), verb == Verb.READ || verb == Verb.ATOMIC, context.mtu().bytes(),
                tclass);
    }

    @Override
    public void disconnectRdmaCm() throws Exception {
        if (rdmaCm != null) {
            rdmaCm.teardown();
        }
    }


    @Override
    public void connect(List<KeyRecord> peer) {
        int tclass = options.tos() >= 0 ? options.tos() : defaultTrafficClass;
        queues.connect(peer, tclass, qpTimeout(options, defaultQpTimeout), MIN_RNR_TIMER);
    }

    // ---- traffic ----

    @Override
    public BwMeasurement runBandwidth(long size) throws Exception {
        queues.limitRates(size);
        if (receivesOnly()) {
            return bandwidth.receive(size);
        }
        return bandwidth.send(size, options.durationMode() ? BwEnd.duration(size, options, null)
                : BwEnd.iterations(size, options, queues.qps.length));
    }

    @Override
    public void runInfinitely(long size, Consumer<BwMeasurement> eachPeriod) throws Exception {
        if (receivesOnly()) {
            while (true) {
                eachPeriod.accept(bandwidth.receive(size));
            }
        }
        bandwidth.send(size, BwEnd.duration(size, options, eachPeriod));
    }

    /** The server of a one-way send test only receives ({@code run_iter_bw_server}). */
    private boolean receivesOnly() {
        return options.kind().verb() == Verb.SEND && options.isServer() && !options.bidirectional();
    }

    @Override
    public LatMeasurement runLatency(long size) throws Exception {
        queues.limitRates(size);
        return latency.iterations(size);
    }

    @Override
    public LatDuration runLatencyForDuration(long size) throws Exception {
        queues.limitRates(size);
        return latency.duration(size);
    }


    /** {@code -W}'s directory of the soft NIC's counters, as rxe's are in {@code ports/1/hw_counters/}. */
    static final String HW_COUNTERS = "hw_counters/";

    /**
     * {@code -W hw_counters/NAME}: the soft NIC's counter of that name ({@link NicCounter#rxeName()}:
     * rxe's {@code sent_pkts}, {@code rcvd_pkts}, {@code duplicate_request}, ..., and the soft NIC's
     * own drop counters). The NIC has no IB port counters ({@code counters/}), as rxe has none.
     */
    @Override
    public OptionalLong portCounter(String name) {
        if (nic == null || !name.startsWith(HW_COUNTERS)) {
            return OptionalLong.empty();
        }
        String leaf = name.substring(HW_COUNTERS.length());
        for (NicCounter c : NicCounter.values()) {
            if (c.rxeName().equals(leaf)) {
                // perftest reads ports/<ib_port>/hw_counters: the counters of the port of -i; a bond's
                // port 1 is both links, as the bonded device counts them
                if (nic.bond() != null) {
                    return OptionalLong.of(nic.port(1).counters().get(c) + nic.port(2).counters().get(c));
                }
                return OptionalLong.of(nic.port(options.ibPort()).counters().get(c));
            }
        }
        return OptionalLong.empty();
    }

    // ---- what tests look at ----

    /** The NIC, once opened (still readable after {@link #close()}, for its counters). */
    public SoftNic nic() {
        return nic;
    }

    /** QP {@code i}, once the QPs exist. */
    public QueuePair qp(int i) {
        return queues.qps[i];
    }

    /** The registered buffer (both halves), once the QPs exist. */
    public byte[] buffer() {
        return queues.buffer;
    }

    /**
     * Index in {@link #buffer()} where QP {@code qp}'s received messages start: its remote-visible
     * slot, or on UD the byte after the GRH that precedes the message.
     */
    public int receivedMessageOffset(int qp) {
        return remoteSlotOffset(qp) + (queues.qps[qp].type() == QpType.UD ? NicQueues.CACHE_LINE : 0);
    }

    /** Index in {@link #buffer()} of QP {@code qp}'s remote-visible slot (its key record's vaddr). */
    public int remoteSlotOffset(int qp) {
        return queues.remoteSlotOffset(qp);
    }

    /** Index in {@link #buffer()} of QP {@code qp}'s local slot (what it sends from or reads into). */
    public int localSlotOffset(int qp) {
        return queues.localSlotOffset(qp);
    }

    /** The 64-bit little-endian word at a buffer index, as the NIC's atomics see it. */
    public long wordAt(int index) {
        return (long) NicQueues.LONGS.getVolatile(queues.buffer, index);
    }

    /** The key records of this side's QPs. */
    public List<KeyRecord> keys() {
        return queues == null ? List.of() : queues.mine;
    }


    @Override
    public void close() {
        String lldpLines = null;
        try {
            if (nic != null && !closed) {
                closed = true;
                if (nic.lldp() != null && Boolean.getBoolean(NicAttachment.COUNTERS_PROPERTY)) {
                    lldpLines = nic.call(() -> LldpLines.of(DEVICE_NAME, nic.lldp()));
                }
                nic.close();
            }
        } finally {
            if (nic != null && Boolean.getBoolean(NicAttachment.COUNTERS_PROPERTY)) {
                System.err.println(" " + DEVICE_NAME + " counters: " + nic.counters());
                if (lldpLines != null) {
                    System.err.print(lldpLines);
                }
            }
            if (attachment != null) {
                NicAttachment a = attachment;
                attachment = null;
                a.close();
            }
        }
    }
}
