package io.rocelab.perftest.nic;

import io.rocelab.fabric.random.SplitMix64;
import io.rocelab.nic.AccessFlags;
import io.rocelab.nic.AddressHandle;
import io.rocelab.nic.CompletionQueue;
import io.rocelab.nic.MemoryRegion;
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
import io.rocelab.perftest.RateLimit;
import io.rocelab.perftest.Verb;
import io.rocelab.perftest.cli.PerftestOptions;
import io.rocelab.perftest.oob.Gid;
import io.rocelab.perftest.oob.KeyRecord;
import io.rocelab.perftest.run.RunContext;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * The resources of one run on the soft NIC, made and connected as perftest makes them: the PD, the
 * buffer and its MR, the send and receive CQs, the SRQ of {@code --use-srq}, the QPs and the key
 * records that describe them to the peer; the work requests the traffic loops post, and the
 * receives they re-post.
 *
 * <p>Buffer layout (perftest's {@code create_mr}/{@code set_up_connection}): one buffer of
 * {@code 2 × numQps × B} bytes, {@code B = max(size, cycle buffer)} rounded up to the cycle buffer,
 * registered once. QP {@code i} sends from (and reads into) slot {@code i}; slot
 * {@code numQps + i} is what the peer writes to, reads from and sends into, and its address is
 * the {@code vaddr} of QP {@code i}'s key record.
 */
final class NicQueues {
    /** perftest's {@code DEF_QP_RETRY} style: retry and RNR retry 7 (RNR 7 = infinite). */
    static final int RETRY = 7;
    private static final long VADDR_BASE = 0x7f00_0000_0000L;
    /** perftest's {@code DEFF_QKEY}/{@code DEF_QKEY}: the Q_Key of its UD QPs and of the sends to them. */
    static final int UD_QKEY = 0x11111111;
    /** perftest's {@code UD_ADDITION}: the GRH (40 bytes) a UD receive buffer starts with (IBA 11.4.1.2). */
    static final int UD_GRH = 40;
    /** perftest's {@code cache_line_size}: UD receives start this far minus the GRH into their slot. */
    static final int CACHE_LINE = 64;
    /**
     * How far a rate-limited QP may catch up on a real clock: the pacer lets what its rate carries in
     * this time go ahead of its due time. A NIC thread that waits for a core (or for a Netty timer,
     * which waits whole milliseconds) is late for its packets' due times, and a pacer that may not
     * catch up loses that time for good: on two busy shared cores, 1 ms of catch-up held a 1 Gb/s
     * limit to about 0.5 Gb/s, 3 ms to 0.8, 10 ms to 0.97.
     */
    static final long RATE_LIMIT_CATCH_UP_NANOS = 10_000_000;
    static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
            java.nio.ByteOrder.LITTLE_ENDIAN);

    final SoftNic nic;
    final PerftestOptions options;
    final RunContext context;
    final ProtectionDomain pd;
    final CompletionQueue sendCq;
    final CompletionQueue recvCq;
    final QueuePair[] qps;
    /** {@code --use-srq}: the one receive queue all QPs take their receives from, else null. */
    final SharedReceiveQueue srq;
    final byte[] buffer;
    final MemoryRegion mr;
    private final long base;
    private final int slot;
    /** The key records of this side's QPs. */
    final List<KeyRecord> mine;
    private List<KeyRecord> remote = List.of();
    private final long[] recvPosted;
    /** Per QP, the address of the peer's QP, for UD sends (each UD send WR names its destination). */
    private AddressHandle[] udDestinations = new AddressHandle[0];

    /**
     * Makes the run's resources as perftest's {@code ctx_init} does.
     *
     * @param psnSeed seed of the buffer's address and contents and of the first PSNs
     */
    NicQueues(SoftNic nic, RunContext ctx, long psnSeed) {
        this.nic = nic;
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
        SplitMix64 rnd = new SplitMix64(psnSeed);
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
        // the GID of -x (or perftest's choice without it), which the peer's packets are addressed to: the
        // QP's port's (with -O, port 2's for the second half, perftest's gid_index2 of set_up_connection)
        qps = new QueuePair[n];
        recvPosted = new long[n];
        List<KeyRecord> keys = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            // --use_ooo: out-of-order data placement on the test's QPs (mlx5dv's MLX5DV_QP_CREATE_OOO_DP)
            QueuePair qp = o.useOoo() ? nic.createQp(pd, type, sendCq, recvCq, caps, srq,
                    java.util.EnumSet.of(io.rocelab.nic.QpCreateFlag.OOO_DP))
                    : nic.createQp(pd, type, sendCq, recvCq, caps, srq);
            int port = o.portOfQp(i);
            Gid gid = Gid.of(nic.port(port).gid(ctx.gidIndex()).toBytes());
            QpAttr init = new QpAttr().state(QpState.INIT).pkeyIndex(0).port(port);
            // perftest's ctx_modify_qp_to_init: a UD QP gets its Q_Key, the connected ones access flags
            qp.modify(type == QpType.UD ? init.qkey(UD_QKEY) : init.accessFlags(access));
            qps[i] = qp;
            int psn = (int) (rnd.nextLong() & 0xffffff);
            keys.add(new KeyRecord(0, ctx.outReads(), qp.qpn(), psn, mr.rkey() & 0xffffffffL, remoteSlotAddr(i),
                    gid, 0));
        }
        mine = List.copyOf(keys);
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

    /**
     * Connects the QPs to the peer's, as perftest's {@code ctx_connect}, and posts the receives a
     * send test needs before the peers start.
     *
     * @param tclass       the IP traffic class of the QPs' frames
     * @param qpTimeout    the local ACK timeout exponent of RC QPs
     * @param minRnrTimer  the RNR NAK timer of RC QPs
     */
    void connect(List<KeyRecord> peer, int tclass, int qpTimeout, int minRnrTimer) {
        if (peer.size() != qps.length) {
            throw new IllegalArgumentException("the peer sent " + peer.size() + " key records for " + qps.length + " QPs");
        }
        remote = List.copyOf(peer);
        boolean rc = qps.length > 0 && qps[0].type() == QpType.RC;
        boolean ud = qps.length > 0 && qps[0].type() == QpType.UD;
        udDestinations = new AddressHandle[qps.length];
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
                rtr.maxDestRdAtomic(Math.max(1, mine.get(i).outReads())).minRnrTimer(minRnrTimer);
                rts.timeout(qpTimeout).retryCnt(RETRY).rnrRetry(RETRY)
                        .maxRdAtomic(Math.max(1, r.outReads()));
            }
            qps[i].modify(rtr);
            qps[i].modify(rts);
        }
        // the rate of the QPs' address vector, on both sides as perftest's ctx_connect sets it: a side
        // that only answers (READ responses) is held to it too
        limitRates(options.size());
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

    /**
     * {@code --rate_limit_type HW} or {@code PP}: the NIC paces each QP's packets at the rate
     * (perftest's static rate of the QPs' address vector or {@code IBV_QP_RATE_LIMIT}, set as the
     * QPs are connected). The pacer lets {@code --burst_size} messages of {@code size} bytes go
     * ahead of their time (one packet of the path MTU without it), and on a real clock at least
     * what the rate carries in {@link #RATE_LIMIT_CATCH_UP_NANOS}.
     */
    void limitRates(long size) {
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

    private static void fill(byte[] b, SplitMix64 rnd) {
        int i = 0;
        for (; i + 8 <= b.length; i += 8) {
            LONGS.set(b, i, rnd.nextLong());
        }
        for (; i < b.length; i++) {
            b[i] = (byte) rnd.nextLong();
        }
    }

    /** Posts a receive into QP {@code qp}'s remote-visible slot (through the SRQ with {@code --use-srq}). */
    void postRecv(int qp) {
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

    private long remoteSlotAddr(int qp) {
        return base + (long) (qps.length + qp) * slot;
    }

    /** Index in {@link #buffer} of QP {@code qp}'s remote-visible slot (its key record's vaddr). */
    int remoteSlotOffset(int qp) {
        return (qps.length + qp) * slot;
    }

    /** Index in {@link #buffer} of QP {@code qp}'s local slot (what it sends from or reads into). */
    int localSlotOffset(int qp) {
        return qp * slot;
    }

    /** The WRs one post call of QP {@code qp} posts ({@code -l} of them), reused for every post. */
    SendWr[] batch(int qp, long size) {
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

    /** Every QP's WR batch for messages of {@code size} bytes. */
    SendWr[][] batches(long size) {
        SendWr[][] wrs = new SendWr[qps.length][];
        for (int i = 0; i < qps.length; i++) {
            wrs[i] = batch(i, size);
        }
        return wrs;
    }

    /** Throws on an error completion: the run fails with perftest's message. */
    void check(WorkCompletion wc, long scnt, long ccnt) {
        if (!wc.isSuccess()) {
            throw new IllegalStateException("Completion with error at " + side() + ": " + wc.status().verbsName()
                    + " (wr_id " + wc.wrId() + ", " + wc.opcode().verbsName() + ", scnt=" + scnt + ", ccnt=" + ccnt + ")");
        }
    }

    private String side() {
        return options.isServer() ? "server" : "client";
    }
}
