package io.rocelab.perftest.nic;

import io.rocelab.fabric.random.SplitMix64;
import io.rocelab.nic.AccessFlags;
import io.rocelab.nic.AddressHandle;
import io.rocelab.nic.CompletionQueue;
import io.rocelab.nic.MemoryRegion;
import io.rocelab.nic.stats.NicCounter;
import io.rocelab.nic.ProtectionDomain;
import io.rocelab.nic.QpAttr;
import io.rocelab.nic.QpCaps;
import io.rocelab.nic.QpState;
import io.rocelab.nic.QpType;
import io.rocelab.nic.QueuePair;
import io.rocelab.nic.RecvWr;
import io.rocelab.nic.SendWr;
import io.rocelab.nic.SharedReceiveQueue;
import io.rocelab.nic.Sge;
import io.rocelab.nic.SoftNic;
import io.rocelab.nic.WorkCompletion;
import io.rocelab.perftest.AtomicType;
import io.rocelab.perftest.ConnectionType;
import io.rocelab.perftest.Mtu;
import io.rocelab.perftest.RateLimit;
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
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * perftest's data path on rocelab's soft NIC: the device, PD, buffer and MR, CQs and QPs made as
 * perftest makes them, the QPs connected with perftest's attributes, and perftest's traffic loops
 * ({@code run_iter_bw}, {@code run_iter_bw_server}, {@code run_iter_lat_write},
 * {@code run_iter_lat_send}, {@code run_iter_lat}).
 *
 * <p>Buffer layout (perftest's {@code create_mr}/{@code set_up_connection}): one buffer of
 * {@code 2 × numQps × B} bytes, {@code B = max(size, cycle buffer)} rounded up to the cycle buffer,
 * registered once. QP {@code i} sends from (and reads into) slot {@code i}; slot
 * {@code numQps + i} is what the peer writes to, reads from and sends into, and its address is
 * the {@code vaddr} of QP {@code i}'s key record.
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
    /** perftest's {@code DEF_QP_RETRY} style: retry and RNR retry 7 (RNR 7 = infinite). */
    static final int RETRY = 7;
    static final double NS_PER_SECOND = 1e9;
    static final double NS_PER_MICRO = 1000;
    private static final long VADDR_BASE = 0x7f00_0000_0000L;
    private static final int POLL_BATCH = 16;
    /** perftest's {@code DEFF_QKEY}/{@code DEF_QKEY}: the Q_Key of its UD QPs and of the sends to them. */
    static final int UD_QKEY = 0x11111111;
    /** perftest's {@code UD_ADDITION}: the GRH (40 bytes) a UD receive buffer starts with (IBA 11.4.1.2). */
    static final int UD_GRH = 40;
    /** perftest's {@code cache_line_size}: UD receives start this far minus the GRH into their slot. */
    static final int CACHE_LINE = 64;
    private static final VarHandle BYTES = MethodHandles.arrayElementVarHandle(byte[].class);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
            java.nio.ByteOrder.LITTLE_ENDIAN);

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
                         NicCongestion congestion) {
        public Config {
            Objects.requireNonNull(ip, "ip");
            Objects.requireNonNull(mac, "mac");
            Objects.requireNonNull(congestion, "congestion");
            if (Mtu.ofBytes(activeMtu) == null) {
                throw new IllegalArgumentException("activeMtu must be 256..4096, a power of two: " + activeMtu);
            }
            ipv6 = List.copyOf(ipv6);
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
            SoftNic.Builder b = SoftNic.builder().name(DEVICE_NAME).mac(mac).ipv4(ip).activeMtu(activeMtu);
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
    OwnerThreadSendLoop.Checker sendCheck = (wc, posted, completed) -> check(wc, side(), posted, completed);
    /** WRs the last send loop on the NIC's thread left posted and not completed (0 once it drained); -1 before one ran. */
    long lastLoopOutstanding = -1;
    private final List<WorkCompletion> wcs = new ArrayList<>(POLL_BATCH);

    private NicAttachment attachment;
    private SoftNic nic;
    private PerftestOptions options;
    private RunContext context;
    private ProtectionDomain pd;
    private CompletionQueue sendCq;
    private CompletionQueue recvCq;
    private QueuePair[] qps = new QueuePair[0];
    /** {@code --use-srq}: the one receive queue all QPs take their receives from, else null. */
    private SharedReceiveQueue srq;
    private byte[] buffer;
    private MemoryRegion mr;
    private long base;
    private int slot;
    private List<KeyRecord> mine = List.of();
    private List<KeyRecord> remote = List.of();
    private long[] recvPosted = new long[0];
    /** Per QP, the address of the peer's QP, for UD sends (each UD send WR names its destination). */
    private AddressHandle[] udDestinations = new AddressHandle[0];
    private boolean closed;
    private int defaultTrafficClass;
    /** {@code -R}: the connection manager and the connections it made, else null. */
    private RdmaCm rdmaCm;
    private int defaultQpTimeout = -1;

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

    // ---- setup ----

    @Override
    public DeviceInfo open(PerftestOptions o) {
        this.options = o;
        Warmup.once();
        attachment = attach.get();
        nic = attachment.configure(config.nic().scheduler(attachment.scheduler()).port(attachment.port())).build();
        config.started(nic);
        if (o.ibPort() > nic.portCount()) {
            throw new io.rocelab.perftest.cli.OptionException(" " + DEVICE_NAME + " has " + nic.portCount()
                    + " port here; -i " + o.ibPort() + " needs a second port (--in-process cables one; --udp-frame2, --raw2)");
        }
        return new DeviceInfo(DEVICE_NAME, "IB", "Ethernet", Mtu.ofBytes(config.activeMtu()), MAX_OUTSTANDING_READS,
                BestGidIndex.of(gidTable(), o.ipv6()));
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
        PerftestOptions o = options;
        int n = o.numQps();
        long maxSize = o.runAll() ? o.sizes(ctx.mtu()).get(o.sizes(ctx.mtu()).size() - 1) : o.size();
        int cycle = Math.max(64, ctx.negotiated().systemData().cycleBuffer());
        long b = Math.max(maxSize, cycle);
        b = (b + cycle - 1) / cycle * cycle;
        long total = 2L * n * b;
        if (total > Integer.MAX_VALUE - 64) {
            throw new IllegalArgumentException("buffers of " + total + " bytes do not fit one Java array");
        }
        slot = (int) b;
        boolean ud = o.connection() == ConnectionType.UD;
        // perftest adds a cache line for UD: the last receive (GRH + message) starts 24 bytes into its slot
        buffer = new byte[(int) total + (ud ? CACHE_LINE : 0)];
        SplitMix64 rnd = new SplitMix64(config.psnSeed());
        base = VADDR_BASE + ((rnd.nextLong() & 0xffffL) << 24);
        if (!(o.kind().verb() == Verb.WRITE && o.kind().isLatency())) {
            // perftest fills its buffers with random bytes, except write_lat's, which polls them for changes
            fill(buffer, rnd);
        }
        pd = nic.allocPd();
        mr = pd.registerMr(buffer, base, AccessFlags.ALL);
        int txDepth = o.txDepth();
        int rxDepth = o.rxDepth();
        sendCq = nic.createCq(Math.max(1024, 2 * n * (txDepth + o.postList())));
        recvCq = nic.createCq(Math.max(1024, 2 * n * rxDepth + 64));
        QpCaps caps = new QpCaps(Math.max(txDepth, o.postList()) + 16, rxDepth + 16, 1, 1, o.inlineSize(), false);
        // perftest's --use-srq: one SRQ of rx_depth receives for all QPs (ctx_init's ibv_create_srq)
        srq = o.srq() ? nic.createSrq(pd, rxDepth + 16, 1) : null;
        QpType type = qpType(o.connection());
        int access = type == QpType.RC ? AccessFlags.ALL : AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;
        // the GID of -x (or perftest's choice without it), which the peer's packets are addressed to
        Gid gid = Gid.of(nic.port(o.ibPort()).gid(ctx.gidIndex()).toBytes());
        qps = new QueuePair[n];
        recvPosted = new long[n];
        List<KeyRecord> keys = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            QueuePair qp = nic.createQp(pd, type, sendCq, recvCq, caps, srq);
            QpAttr init = new QpAttr().state(QpState.INIT).pkeyIndex(0).port(o.ibPort());
            // perftest's ctx_modify_qp_to_init: a UD QP gets its Q_Key, the connected ones access flags
            qp.modify(type == QpType.UD ? init.qkey(UD_QKEY) : init.accessFlags(access));
            qps[i] = qp;
            int psn = (int) (rnd.nextLong() & 0xffffff);
            keys.add(new KeyRecord(0, ctx.outReads(), qp.qpn(), psn, mr.rkey() & 0xffffffffL, remoteSlotAddr(i),
                    gid, 0));
        }
        mine = List.copyOf(keys);
        return mine;
    }

    @Override
    public io.rocelab.perftest.oob.OobLink connectRdmaCm(PerftestOptions o, java.time.Duration timeout,
                                                         Runnable listening) throws Exception {
        if (o.connection() == ConnectionType.UD) {
            throw new io.rocelab.perftest.cli.OptionException(" rocelab's rdma_cm connects RC QPs only; UD over"
                    + " rdma_cm (SIDR) is not supported yet: run -c UD without -R");
        }
        rdmaCm = RdmaCm.start(nic, SplitMix64.mix(config.psnSeed() ^ 0x72646d615f636dL), o, timeout);
        if (o.isServer()) {
            listening.run(); // RdmaCm.start registered the listener
        }
        return rdmaCm.connectExchange();
    }

    @Override
    public void connectQpsRdmaCm() throws Exception {
        if (rdmaCm == null) {
            throw new IllegalStateException("connectRdmaCm has not run");
        }
        Verb verb = options.kind().verb();
        int tclass = options.tos() >= 0 ? options.tos() : defaultTrafficClass;
        rdmaCm.connectData(qps, context.outReads(), verb == Verb.READ || verb == Verb.ATOMIC, context.mtu().bytes(),
                tclass);
    }

    @Override
    public void disconnectRdmaCm() throws Exception {
        if (rdmaCm != null) {
            rdmaCm.teardown();
        }
    }

    private static QpType qpType(ConnectionType c) {
        switch (c) {
            case UC:
                return QpType.UC;
            case UD:
                return QpType.UD;
            default:
                return QpType.RC;
        }
    }

    @Override
    public void connect(List<KeyRecord> peer) {
        if (peer.size() != qps.length) {
            throw new IllegalArgumentException("the peer sent " + peer.size() + " key records for " + qps.length + " QPs");
        }
        remote = List.copyOf(peer);
        boolean rc = qps.length > 0 && qps[0].type() == QpType.RC;
        boolean ud = qps.length > 0 && qps[0].type() == QpType.UD;
        udDestinations = new AddressHandle[qps.length];
        int tclass = options.tos() >= 0 ? options.tos() : defaultTrafficClass;
        for (int i = 0; i < qps.length; i++) {
            KeyRecord r = peer.get(i);
            if (qps[i].state() == QpState.RTS) {
                continue; // rdma_cm connected it: only the peer's keys were needed
            }
            if (r.gid() == null || r.gid().isIpv4Mapped() != mine.get(i).gid().isIpv4Mapped()) {
                throw new IllegalArgumentException("the peer's GID " + r.gid() + " and this side's "
                        + mine.get(i).gid() + " (GID index " + context.gidIndex() + ") are not of one IP version");
            }
            // from the GID of -x to the peer's, as perftest's ctx_modify_qp_to_rtr (sgid_index = gid_index)
            AddressHandle ah = new AddressHandle(io.rocelab.nic.net.Gid.of(r.gid().bytes()), context.gidIndex(), 64,
                    tclass, -1);
            QpAttr rts = new QpAttr().state(QpState.RTS).sqPsn(mine.get(i).psn());
            if (ud) {
                // a UD QP is not connected (IBA 10.3.1 table 91: RTR takes no address); each send names
                // the peer (perftest's ibv_create_ah from the key record, wr.ud.ah/remote_qpn/remote_qkey)
                udDestinations[i] = ah;
                qps[i].modify(new QpAttr().state(QpState.RTR));
                qps[i].modify(rts);
                continue;
            }
            QpAttr rtr = new QpAttr().state(QpState.RTR).av(ah).pathMtu(context.mtu().bytes()).destQpn(r.qpn())
                    .rqPsn(r.psn());
            if (rc) {
                rtr.maxDestRdAtomic(Math.max(1, mine.get(i).outReads())).minRnrTimer(MIN_RNR_TIMER);
                rts.timeout(qpTimeout(options, defaultQpTimeout)).retryCnt(RETRY).rnrRetry(RETRY)
                        .maxRdAtomic(Math.max(1, r.outReads()));
            }
            qps[i].modify(rtr);
            qps[i].modify(rts);
        }
        // the rate of the QPs' address vector, on both sides as perftest's ctx_connect sets it: a side
        // that only answers (READ responses) is held to it too
        limitQpRates(options.size());
        if (options.kind().verb() == Verb.SEND) {
            // perftest posts its receives before the barrier that lets the sender start; with an SRQ,
            // rx_depth / num_qps for each QP's buffer (ctx_set_recv_wqes' size_per_qp)
            int perQp = srq == null ? options.rxDepth() : options.rxDepth() / qps.length;
            for (int i = 0; i < qps.length; i++) {
                for (int k = 0; k < perQp; k++) {
                    postRecv(i);
                }
            }
        }
    }

    private static void fill(byte[] b, SplitMix64 rnd) {
        int i = 0;
        for (; i + 8 <= b.length; i += 8) {
            LONGS.set(b, i, rnd.nextLong());
        }
        for (; i < b.length; i++) {
            b[i] = (byte) rnd.nextLong();
        }
    }

    private void postRecv(int qp) {
        int at = (qps.length + qp) * slot;
        int length = slot;
        if (qps[qp].type() == QpType.UD) {
            // perftest's ctx_set_recv_wqes: the 40-byte GRH lands just before a cache line, the message on it
            at += CACHE_LINE - UD_GRH;
            length += UD_GRH;
        }
        RecvWr wr = new RecvWr(qp, Sge.of(mr, at, length));
        if (srq != null) {
            // the WR id still names the QP whose buffer it is, so a completion re-posts the same slot
            srq.postRecv(wr);
        } else {
            qps[qp].postRecv(wr);
        }
        recvPosted[qp]++;
    }

    private long localSlotAddr(int qp) {
        return base + (long) qp * slot;
    }

    private long remoteSlotAddr(int qp) {
        return base + (long) (qps.length + qp) * slot;
    }

    // ---- work requests ----

    /** The WRs one post call of QP {@code qp} posts ({@code -l} of them), reused for every post. */
    private SendWr[] batch(int qp, long size) {
        Verb verb = options.kind().verb();
        int n = Math.max(1, options.postList());
        SendWr[] wrs = new SendWr[n];
        KeyRecord r = remote.get(qp);
        int rkey = (int) r.rkey();
        boolean inline = (verb == Verb.WRITE || verb == Verb.SEND) && size <= options.inlineSize();
        for (int k = 0; k < n; k++) {
            SendWr wr;
            switch (verb) {
                case WRITE:
                    wr = SendWr.write(qp, Sge.of(mr, qp * slot, (int) size), r.vaddr(), rkey);
                    break;
                case READ:
                    wr = SendWr.read(qp, Sge.of(mr, qp * slot, (int) size), r.vaddr(), rkey);
                    break;
                case SEND:
                    wr = SendWr.send(qp, Sge.of(mr, qp * slot, (int) size));
                    if (udDestinations.length > qp && udDestinations[qp] != null) {
                        wr.ud(udDestinations[qp], r.qpn(), UD_QKEY);
                    }
                    break;
                case ATOMIC:
                    Sge eight = Sge.of(mr, qp * slot, 8);
                    wr = options.atomicType() == AtomicType.CMP_AND_SWAP
                            ? SendWr.compareSwap(qp, eight, r.vaddr(), rkey, 0, 0)
                            : SendWr.fetchAdd(qp, eight, r.vaddr(), rkey, 1);
                    break;
                default:
                    throw new AssertionError(verb);
            }
            wrs[k] = wr.inline(inline);
        }
        return wrs;
    }

    private static void check(WorkCompletion wc, String side, long scnt, long ccnt) {
        if (!wc.isSuccess()) {
            throw new IllegalStateException("Completion with error at " + side + ": " + wc.status().verbsName()
                    + " (wr_id " + wc.wrId() + ", " + wc.opcode().verbsName() + ", scnt=" + scnt + ", ccnt=" + ccnt + ")");
        }
    }

    private String side() {
        return options.isServer() ? "server" : "client";
    }

    // ---- bandwidth ----

    /**
     * perftest's SW rate limiter ({@code --rate_limit_type SW}) on a send loop: bursts of
     * {@code --burst_size} posts at the rate for this message size. perftest refuses it where
     * the send loop is not {@link OwnerThreadSendLoop}'s (bidirectional send, latency tests).
     */
    private OwnerThreadSendLoop swRateLimited(OwnerThreadSendLoop loop, long size) {
        RateLimit limit = options.rateLimit();
        if (limit == null || limit.type().onNic()) {
            return loop;
        }
        return loop.rateLimited(new SwRateLimiter(limit, size), nic.scheduler());
    }

    /**
     * How far a rate-limited QP may catch up on a real clock: the pacer lets what its rate carries in
     * this time go ahead of its due time. A NIC thread that waits for a core (or for a Netty timer,
     * which waits whole milliseconds) is late for its packets' due times, and a pacer that may not
     * catch up loses that time for good: on two busy shared cores, 1 ms of catch-up held a 1 Gb/s
     * limit to about 0.5 Gb/s, 3 ms to 0.8, 10 ms to 0.97.
     */
    static final long RATE_LIMIT_CATCH_UP_NANOS = 10_000_000;

    /**
     * {@code --rate_limit_type HW} or {@code PP}: the NIC paces each QP's packets at the rate
     * (perftest's static rate of the QPs' address vector or {@code IBV_QP_RATE_LIMIT}, set as the
     * QPs are connected). The pacer lets {@code --burst_size} messages of {@code size} bytes go
     * ahead of their time (one packet of the path MTU without it), and on a real clock at least
     * what the rate carries in {@link #RATE_LIMIT_CATCH_UP_NANOS}.
     */
    private void limitQpRates(long size) {
        RateLimit limit = options.rateLimit();
        if (limit == null || !limit.type().onNic()) {
            return;
        }
        long bits = Math.round(limit.nicBitsPerSecond());
        long burst = limit.burstSizeRequested() ? limit.burstSize() * Math.max(1, size) : context.mtu().bytes();
        if (nic.scheduler().timerSlackNanos() > 0) {
            burst = Math.max(burst, (long) Math.ceil(bits / 8.0 * RATE_LIMIT_CATCH_UP_NANOS / 1e9));
        }
        for (QueuePair qp : qps) {
            qp.setRateLimit(bits, (int) Math.min(Integer.MAX_VALUE, burst));
        }
    }

    @Override
    public BwMeasurement runBandwidth(long size) throws Exception {
        limitQpRates(size);
        if (options.kind().verb() == Verb.SEND && options.isServer() && !options.bidirectional()) {
            return receiveBandwidth(size);
        }
        if (options.durationMode()) {
            return timedBandwidth(size, null);
        }
        return iterationsBandwidth(size);
    }

    /** {@code run_iter_bw}: post up to the TX depth per QP, one signalled WR per {@code -Q}, poll. */
    private BwMeasurement iterationsBandwidth(long size) throws Exception {
        PerftestOptions o = options;
        int n = qps.length;
        long iters = o.iterations();
        long total = iters * n;
        boolean noPeak = o.noPeak();
        int cqMod = Math.max(1, o.cqModeration());
        int postList = Math.max(1, o.postList());
        int txDepth = o.txDepth();
        boolean bidiSend = o.bidirectional() && o.kind().verb() == Verb.SEND;
        long[] posted = new long[noPeak ? 1 : (int) total];
        long[] completed = new long[noPeak ? 1 : (int) total];
        long[] scnt = new long[n];
        long[] ccnt = new long[n];
        long[] rcnt = new long[n];
        long totS = 0;
        long totC = 0;
        long totR = bidiSend ? 0 : total;
        SendWr[][] wrs = new SendWr[n][];
        for (int i = 0; i < n; i++) {
            wrs[i] = batch(i, size);
        }
        if (!bidiSend) {
            // the send loop on the NIC's thread: no wake-ups of this one (OwnerThreadSendLoop)
            OwnerThreadSendLoop loop = swRateLimited(new OwnerThreadSendLoop(qps, sendCq, wrs, txDepth, postList,
                    cqMod, sendCheck, iters, posted, completed, noPeak), size);
            runOnNicThread(loop);
            awaitEnd(loop, false);
            return new BwMeasurement(size, iters, n, postList, cqMod, noPeak, false, 1, posted, completed,
                    NS_PER_SECOND);
        }
        waiter.reset();
        while (totS < total || totC < total || totR < total) {
            boolean progress = false;
            for (int i = 0; i < n; i++) {
                while (scnt[i] < iters && scnt[i] - ccnt[i] + postList <= txDepth) {
                    SendWr[] b = wrs[i];
                    for (int k = 0; k < b.length; k++) {
                        long s = scnt[i] + k;
                        b[k].signaled(s % cqMod == cqMod - 1 || s == iters - 1);
                    }
                    long now = System.nanoTime();
                    if (!noPeak) {
                        posted[(int) totS] = now;
                    } else if (totS == 0) {
                        posted[0] = now;
                    }
                    qps[i].postSend(b);
                    scnt[i] += postList;
                    totS += postList;
                    progress = true;
                }
            }
            if (totC < total) {
                wcs.clear();
                int got = sendCq.poll(POLL_BATCH, wcs);
                if (got > 0) {
                    long now = System.nanoTime();
                    for (WorkCompletion wc : wcs) {
                        check(wc, side(), totS, totC);
                        int qi = (int) wc.wrId();
                        // one signalled WR per -Q, and the last one, which may close a shorter group
                        long add = Math.min(cqMod, iters - ccnt[qi]);
                        ccnt[qi] += add;
                        if (!noPeak) {
                            // a signalled completion also completes the unsignalled WRs before it
                            java.util.Arrays.fill(completed, (int) totC, (int) (totC + add), now);
                        }
                        totC += add;
                        if (noPeak && totC == total) {
                            completed[0] = now;
                        }
                    }
                    progress = true;
                }
            }
            if (totR < total) {
                wcs.clear();
                if (recvCq.poll(POLL_BATCH, wcs) > 0) {
                    for (WorkCompletion wc : wcs) {
                        check(wc, side(), totS, totC);
                        int qi = (int) wc.wrId();
                        rcnt[qi]++;
                        totR++;
                        postRecv(qi);
                    }
                    progress = true;
                }
            }
            if (progress) {
                waiter.reset();
            } else if (totC < total) {
                waiter.awaitSends(sendCq, signalledPending(scnt, ccnt, cqMod));
            } else {
                waiter.idle();
            }
        }
        return new BwMeasurement(size, iters, n, postList, cqMod, noPeak, false, 1, posted, completed,
                NS_PER_SECOND);
    }

    /**
     * {@code -D} and {@code --run_infinitely}: posts without an iteration limit; after the
     * {@code --margin} warm-up, counts completions over each {@code -D} window.
     *
     * @param eachPeriod null for one {@code -D} window; else called once per window, forever
     */
    private BwMeasurement timedBandwidth(long size, Consumer<BwMeasurement> eachPeriod) throws Exception {
        PerftestOptions o = options;
        int n = qps.length;
        int cqMod = Math.max(1, o.cqModeration());
        int postList = Math.max(1, o.postList());
        int txDepth = o.txDepth();
        boolean bidiSend = o.bidirectional() && o.kind().verb() == Verb.SEND;
        long window = o.durationSeconds() * 1_000_000_000L;
        long[] scnt = new long[n];
        long[] ccnt = new long[n];
        long totC = 0;
        SendWr[][] wrs = new SendWr[n][];
        for (int i = 0; i < n; i++) {
            wrs[i] = batch(i, size);
        }
        if (!bidiSend) {
            // the send loop on the NIC's thread: no wake-ups of this one (OwnerThreadSendLoop)
            return timedOnOwnerThread(size, eachPeriod, swRateLimited(new OwnerThreadSendLoop(qps, sendCq, wrs,
                    txDepth, postList, cqMod, sendCheck), size));
        }
        long start = System.nanoTime();
        long sampleStart = start + (eachPeriod == null ? o.marginSeconds() * 1_000_000_000L : 0);
        long sampleEnd = sampleStart + window;
        boolean sampling = false;
        long c0 = 0;
        long t0 = 0;
        boolean stopping = false;
        BwMeasurement result = null;
        waiter.reset();
        while (true) {
            long now = System.nanoTime();
            if (!sampling && now >= sampleStart) {
                sampling = true;
                c0 = totC;
                t0 = now;
            }
            if (sampling && now >= sampleEnd && !stopping) {
                BwMeasurement m = BwMeasurement.total(size, totC - c0, t0, now, NS_PER_SECOND);
                if (eachPeriod != null) {
                    eachPeriod.accept(m);
                    c0 = totC;
                    t0 = now;
                    sampleEnd = now + window;
                } else {
                    result = m;
                    stopping = true;
                }
            }
            boolean progress = false;
            for (int i = 0; i < n; i++) {
                // when stopping, post only up to the next signalled WR, so every posted WR completes
                while (scnt[i] - ccnt[i] + postList <= txDepth && (!stopping || scnt[i] % cqMod != 0)) {
                    SendWr[] b = wrs[i];
                    for (int k = 0; k < b.length; k++) {
                        b[k].signaled((scnt[i] + k) % cqMod == cqMod - 1);
                    }
                    qps[i].postSend(b);
                    scnt[i] += postList;
                    progress = true;
                }
            }
            wcs.clear();
            if (sendCq.poll(POLL_BATCH, wcs) > 0) {
                for (WorkCompletion wc : wcs) {
                    check(wc, side(), scnt[(int) wc.wrId()], totC);
                    ccnt[(int) wc.wrId()] += cqMod;
                    totC += cqMod;
                }
                progress = true;
            }
            if (bidiSend) {
                wcs.clear();
                if (recvCq.poll(POLL_BATCH, wcs) > 0) {
                    for (WorkCompletion wc : wcs) {
                        check(wc, side(), 0, totC);
                        postRecv((int) wc.wrId());
                    }
                    progress = true;
                }
            }
            if (stopping) {
                boolean drained = true;
                for (int i = 0; i < n; i++) {
                    drained &= ccnt[i] >= scnt[i];
                }
                if (drained) {
                    return result;
                }
            }
            if (progress) {
                waiter.reset();
            } else if (bidiSend) {
                waiter.idle();
            } else {
                // sleep on the send CQ's notification (at most a millisecond, so the -D deadline is
                // still seen) instead of waking every 20 µs: on a machine with fewer cores than busy
                // threads, a poller that never sleeps takes the core the NIC's own thread needs
                waiter.awaitSends(sendCq, signalledPending(scnt, ccnt, cqMod));
            }
        }
    }

    /**
     * {@link #timedBandwidth} with the send loop on the NIC's thread ({@link OwnerThreadSendLoop}):
     * this thread sleeps to the edges of the sampling windows and reads the completion count there.
     */
    private BwMeasurement timedOnOwnerThread(long size, Consumer<BwMeasurement> eachPeriod, OwnerThreadSendLoop loop)
            throws Exception {
        long window = options.durationSeconds() * 1_000_000_000L;
        long start = System.nanoTime();
        long sampleStart = start + (eachPeriod == null ? options.marginSeconds() * 1_000_000_000L : 0);
        runOnNicThread(loop);
        boolean ended = false;
        try {
            sleepUntil(loop, sampleStart);
            long t0 = System.nanoTime();
            long c0 = loop.completed();
            while (true) {
                sleepUntil(loop, t0 + window);
                long now = System.nanoTime();
                long c = loop.completed();
                BwMeasurement m = BwMeasurement.total(size, c - c0, t0, now, NS_PER_SECOND);
                if (eachPeriod == null) {
                    // everything posted completes before the QPs are torn down
                    ended = true;
                    awaitEnd(loop, true);
                    return m;
                }
                eachPeriod.accept(m);
                t0 = now;
                c0 = c;
            }
        } finally {
            if (!ended) {
                awaitEnd(loop, true);
            }
        }
    }

    /**
     * Runs the send loop once on the NIC's thread; the first run hands it over: from then on only
     * that thread polls the send CQ and posts.
     */
    private void runOnNicThread(OwnerThreadSendLoop loop) {
        nic.call(() -> {
            loop.run();
            return null;
        });
    }

    /**
     * Waits until the loop has ended; with {@code stopNow} (or on an interrupt) it first stops
     * posting, and what was posted still completes. Rethrows what ended it.
     */
    private void awaitEnd(OwnerThreadSendLoop loop, boolean stopNow) throws InterruptedException {
        try {
            while (!stopNow && !loop.done()) {
                LockSupport.parkNanos(1_000_000_000L); // the loop unparks this thread when it ends
                Waiter.checkInterrupt();
            }
        } finally {
            if (!loop.done()) {
                loop.stop();
                runOnNicThread(loop);
                while (!loop.done()) {
                    LockSupport.parkNanos(1_000_000);
                }
            }
            lastLoopOutstanding = loop.outstanding();
        }
        if (loop.failure() != null) {
            throwFailure(loop.failure());
        }
    }

    /** Sleeps until {@code deadline} (nanoTime), or until the loop ends; rethrows what ended it. */
    private static void sleepUntil(OwnerThreadSendLoop loop, long deadline) throws InterruptedException {
        long left;
        while (!loop.done() && (left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
            Waiter.checkInterrupt();
        }
        if (loop.failure() != null) {
            throwFailure(loop.failure());
        }
    }

    private static void throwFailure(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        throw (Error) t;
    }

    /** Signalled send WRs posted and not yet completed, over all QPs (each completion stands for {@code cqMod} WRs). */
    private static long signalledPending(long[] scnt, long[] ccnt, int cqMod) {
        long pending = 0;
        for (int i = 0; i < scnt.length; i++) {
            pending += (scnt[i] - ccnt[i]) / cqMod;
        }
        return pending;
    }

    /**
     * {@code run_iter_bw_server}: the receiving side of ib_send_bw counts its receives, re-posting
     * each, and measures from the first to the last.
     */
    private BwMeasurement receiveBandwidth(long size) throws Exception {
        PerftestOptions o = options;
        int n = qps.length;
        boolean timed = o.durationMode();
        long total = timed ? Long.MAX_VALUE : o.iterations() * n;
        long rcnt = 0;
        long first = 0;
        long last = 0;
        long sampleStart = Long.MAX_VALUE;
        long sampleEnd = Long.MAX_VALUE;
        long c0 = -1;
        waiter.reset();
        while (rcnt < total) {
            wcs.clear();
            int got = waiter.poll(recvCq, POLL_BATCH, wcs);
            long now = System.nanoTime();
            for (int k = 0; k < got; k++) {
                WorkCompletion wc = wcs.get(k);
                check(wc, side(), 0, rcnt);
                if (rcnt == 0) {
                    first = now;
                    sampleStart = now + o.marginSeconds() * 1_000_000_000L;
                    sampleEnd = sampleStart + o.durationSeconds() * 1_000_000_000L;
                }
                rcnt++;
                postRecv((int) wc.wrId());
            }
            if (got > 0) {
                last = now;
            }
            if (timed) {
                if (c0 < 0 && now >= sampleStart) {
                    c0 = rcnt;
                    first = now;
                }
                if (now >= sampleEnd) {
                    return BwMeasurement.total(size, rcnt - c0, first, now, NS_PER_SECOND);
                }
            }
        }
        return new BwMeasurement(size, o.iterations(), n, 1, 1, true, false, 1, new long[] {first},
                new long[] {last}, NS_PER_SECOND);
    }

    @Override
    public void runInfinitely(long size, Consumer<BwMeasurement> eachPeriod) throws Exception {
        if (options.kind().verb() == Verb.SEND && options.isServer() && !options.bidirectional()) {
            while (true) {
                eachPeriod.accept(receiveBandwidth(size));
            }
        }
        timedBandwidth(size, eachPeriod);
    }

    // ---- latency ----

    @Override
    public LatMeasurement runLatency(long size) throws Exception {
        limitQpRates(size);
        long iters = options.iterations();
        long[] posted = new long[(int) iters];
        long done = latency(size, iters, Long.MAX_VALUE, posted);
        if (done < iters) {
            throw new IllegalStateException("latency run stopped after " + done + " of " + iters + " iterations");
        }
        return new LatMeasurement(size, iters, options.kind().verb(), posted, NS_PER_MICRO);
    }

    @Override
    public LatDuration runLatencyForDuration(long size) throws Exception {
        limitQpRates(size);
        long start = System.nanoTime();
        long deadline = start + options.durationSeconds() * 1_000_000_000L;
        long done = latency(size, Long.MAX_VALUE, deadline, null);
        return new LatDuration(done, System.nanoTime() - start, NS_PER_MICRO);
    }

    /**
     * One latency run on QP 0.
     *
     * @param posted post tick of each iteration, or null
     * @return iterations completed
     */
    private long latency(long size, long iters, long deadline, long[] posted) throws Exception {
        switch (options.kind().verb()) {
            case WRITE:
                return writePingPong(size, iters, deadline, posted);
            case SEND:
                return sendPingPong(size, iters, deadline, posted);
            default:
                return requestResponse(size, iters, deadline, posted);
        }
    }

    /**
     * {@code run_iter_lat_write}: each side writes its iteration number into the last byte of the
     * message, which lands in the last byte of the peer's slot (the key record's {@code vaddr} plus
     * {@code size - 1}), and waits for the peer's count to show in the same byte of its own slot;
     * the server starts. Unlike {@code run_iter_lat_send}, where the client sends first, perftest's
     * write ping-pong skips the first wait on the server ({@code !(scnt < 1 && machine == SERVER)}):
     * a client that wrote first would wait forever for a perftest client, and overrun a perftest
     * server (its second write replaces the 1 the server is about to look for).
     */
    private long writePingPong(long size, long iters, long deadline, long[] posted) throws Exception {
        boolean server = options.isServer();
        int postIdx = (int) size - 1;
        int pollIdx = remoteSlotOffset(0) + (int) size - 1;
        SendWr wr = batch(0, size)[0].signaled(true);
        long scnt = 0;
        long rcnt = 0;
        long ccnt = 0;
        while (scnt < iters || rcnt < iters || ccnt < iters) {
            if (rcnt < iters && !(scnt < 1 && server)) {
                rcnt++;
                byte want = (byte) rcnt;
                waiter.reset();
                while ((byte) BYTES.getAcquire(buffer, pollIdx) != want) {
                    if (System.nanoTime() >= deadline) {
                        return scnt;
                    }
                    waiter.idle();
                }
            }
            if (scnt < iters) {
                long now = System.nanoTime();
                if (now >= deadline) {
                    return scnt;
                }
                if (posted != null) {
                    posted[(int) scnt] = now;
                }
                BYTES.setRelease(buffer, postIdx, (byte) (scnt + 1));
                qps[0].postSend(wr);
                scnt++;
            }
            if (ccnt < iters) {
                awaitSend(deadline, scnt, ccnt);
                ccnt++;
            }
        }
        return scnt;
    }

    /** {@code run_iter_lat_send}: send, wait for the peer's send, and again; the client starts. */
    private long sendPingPong(long size, long iters, long deadline, long[] posted) throws Exception {
        boolean client = options.isClient();
        SendWr wr = batch(0, size)[0].signaled(true);
        long scnt = 0;
        long rcnt = 0;
        while (scnt < iters || rcnt < iters) {
            if (rcnt < iters && !(scnt < 1 && client)) {
                WorkCompletion wc = await(recvCq, deadline);
                if (wc == null) {
                    return scnt;
                }
                check(wc, side(), scnt, rcnt);
                rcnt++;
                postRecv(0);
            }
            if (scnt < iters) {
                long now = System.nanoTime();
                if (now >= deadline) {
                    return scnt;
                }
                if (posted != null) {
                    posted[(int) scnt] = now;
                }
                qps[0].postSend(wr);
                scnt++;
                if (!awaitSend(deadline, scnt, rcnt)) {
                    return scnt;
                }
            }
        }
        return scnt;
    }

    /** {@code run_iter_lat} for read and atomic: one request, its response, the next. */
    private long requestResponse(long size, long iters, long deadline, long[] posted) throws Exception {
        SendWr wr = batch(0, size)[0].signaled(true);
        long scnt = 0;
        while (scnt < iters) {
            long now = System.nanoTime();
            if (now >= deadline) {
                return scnt;
            }
            if (posted != null) {
                posted[(int) scnt] = now;
            }
            qps[0].postSend(wr);
            scnt++;
            if (!awaitSend(deadline, scnt, scnt - 1)) {
                return scnt - 1;
            }
        }
        return scnt;
    }

    private boolean awaitSend(long deadline, long scnt, long ccnt) throws InterruptedException {
        WorkCompletion wc = await(sendCq, deadline);
        if (wc == null) {
            return false;
        }
        check(wc, side(), scnt, ccnt);
        return true;
    }

    /** The next completion of {@code cq}, or null at the deadline. */
    private WorkCompletion await(CompletionQueue cq, long deadline) throws InterruptedException {
        waiter.reset();
        while (true) {
            wcs.clear();
            if (waiter.poll(cq, 1, wcs) > 0) {
                return wcs.get(0);
            }
            if (deadline != Long.MAX_VALUE && System.nanoTime() >= deadline) {
                return null;
            }
        }
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
        return qps[i];
    }

    /** The registered buffer (both halves), once the QPs exist. */
    public byte[] buffer() {
        return buffer;
    }

    /**
     * Index in {@link #buffer()} where QP {@code qp}'s received messages start: its remote-visible
     * slot, or on UD the byte after the GRH that precedes the message.
     */
    public int receivedMessageOffset(int qp) {
        return remoteSlotOffset(qp) + (qps[qp].type() == QpType.UD ? CACHE_LINE : 0);
    }

    /** Index in {@link #buffer()} of QP {@code qp}'s remote-visible slot (its key record's vaddr). */
    public int remoteSlotOffset(int qp) {
        return (qps.length + qp) * slot;
    }

    /** Index in {@link #buffer()} of QP {@code qp}'s local slot (what it sends from or reads into). */
    public int localSlotOffset(int qp) {
        return qp * slot;
    }

    /** The 64-bit little-endian word at a buffer index, as the NIC's atomics see it. */
    public long wordAt(int index) {
        return (long) LONGS.getVolatile(buffer, index);
    }

    /** The key records of this side's QPs. */
    public List<KeyRecord> keys() {
        return mine;
    }

    @Override
    public void close() {
        try {
            if (nic != null && !closed) {
                closed = true;
                nic.close();
            }
        } finally {
            if (nic != null && Boolean.getBoolean(NicAttachment.COUNTERS_PROPERTY)) {
                System.err.println(" " + DEVICE_NAME + " counters: " + nic.counters());
            }
            if (attachment != null) {
                NicAttachment a = attachment;
                attachment = null;
                a.close();
            }
        }
    }
}
