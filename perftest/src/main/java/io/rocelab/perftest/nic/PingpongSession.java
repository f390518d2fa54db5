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
import io.rocelab.nic.Sge;
import io.rocelab.nic.SoftNic;
import io.rocelab.nic.WorkCompletion;
import io.rocelab.perftest.cli.OptionException;
import io.rocelab.perftest.oob.Gid;
import io.rocelab.perftest.oob.OobChannel;
import io.rocelab.perftest.oob.OobServer;
import io.rocelab.perftest.oob.PingpongOob;
import io.rocelab.perftest.oob.PingpongRecord;
import io.rocelab.perftest.pingpong.PingpongKind;
import io.rocelab.perftest.pingpong.PingpongOptions;
import io.rocelab.perftest.report.PingpongReport;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * One side of rdma-core's {@code ibv_rc_pingpong}, {@code ibv_uc_pingpong} or
 * {@code ibv_ud_pingpong} on rocelab's soft NIC, doing what the C examples do so that either side
 * can be the real tool:
 *
 * <ul>
 * <li>one buffer of {@code size} bytes (UD: 40 more, the GRH area in front of each receive) filled
 *     with 0x7b, registered for local write only, used for both sends and receives;</li>
 * <li>one CQ of {@code rx_depth + 1} entries for both queues; {@code rx_depth} receives posted at
 *     once, topped up when one or none is left;</li>
 * <li>the 52-byte exchange ({@link PingpongOob}): the server connects its QP before it answers, the
 *     client after; RC with max_dest_rd_atomic 1, min_rnr_timer 12, timeout 14, retry 7, rnr_retry 7,
 *     hop limit 1; UD with Q_Key 0x11111111 and an address handle of hop limit 64;</li>
 * <li>the client sends first; each side sends again once its previous send and a receive have
 *     completed, until both counts reach {@code iters};</li>
 * <li>the time from after the first post to the last completion, printed as the C tools print it.</li>
 * </ul>
 */
public final class PingpongSession {
    private static final int RECV_WRID = 1;
    private static final int SEND_WRID = 2;
    private static final long BUFFER_ADDR = 0x7f50_0000_0000L;
    /** rdma-core fills the buffer with this before the run. */
    private static final byte FILL = 0x7b;
    private static final int PAGE = 4096;
    private static final int MIN_RNR_TIMER = 12;
    private static final int TIMEOUT = 14;
    private static final int RETRY = 7;

    private final PingpongOptions o;
    private final NicEngine.Config config;
    private final Supplier<NicAttachment> attach;
    private final PrintStream out;
    private final Duration ioTimeout;
    private OobServer listener;

    private NicAttachment attachment;
    private SoftNic nic;
    private CompletionQueue cq;
    private QueuePair qp;
    private MemoryRegion mr;
    private byte[] buf;
    private int gidIndex;
    private AddressHandle udPeer;
    private int udPeerQpn;
    private final Waiter waiter = new Waiter();

    /**
     * @param options   the command line
     * @param config    the NIC's addresses, port MTU and PSN seed
     * @param attach    opens what the NIC is plugged into
     * @param out       the tool's output
     * @param ioTimeout patience of each read in the exchange ({@link Duration#ZERO}: forever, as rdma-core)
     */
    public PingpongSession(PingpongOptions options, NicEngine.Config config, Supplier<NicAttachment> attach,
                           PrintStream out, Duration ioTimeout) {
        this.o = Objects.requireNonNull(options, "options");
        this.config = Objects.requireNonNull(config, "config");
        this.attach = Objects.requireNonNull(attach, "attach");
        this.out = Objects.requireNonNull(out, "out");
        this.ioTimeout = Objects.requireNonNull(ioTimeout, "ioTimeout");
    }

    /** A listener already bound (the in-process server, whose port the client must know first). */
    public PingpongSession listener(OobServer l) {
        this.listener = l;
        return this;
    }

    /**
     * Runs the tool's side.
     *
     * @return 0 when every iteration completed
     * @throws OptionException what the soft NIC cannot do, in one line
     * @throws Exception       a failed exchange or completion, with the tool's message
     */
    public int run() throws Exception {
        check();
        try {
            open();
            PingpongRecord mine = new PingpongRecord(0, qp.qpn(), firstPsn(), Gid.of(nic.port(o.ibPort()).gid(gidIndex).toBytes()));
            out.print(o.kind() == PingpongKind.UD ? PingpongReport.localAddressUd(mine)
                    : PingpongReport.localAddress(mine));
            PingpongRecord theirs = exchange(mine);
            out.print(PingpongReport.remoteAddress(theirs));
            if (!o.isServer()) {
                connect(mine, theirs);
            }
            return loop();
        } finally {
            close();
        }
    }

    private void check() {
        if (o.unsupported() != null) {
            throw new OptionException(o.kind().toolName() + ": " + o.unsupported());
        }
        if (o.device() != null && !NicEngine.DEVICE_NAME.equals(o.device())) {
            throw new OptionException("IB device " + o.device() + " not found (rocelab's soft NIC is "
                    + NicEngine.DEVICE_NAME + ")");
        }
        if (o.ibPort() > 2) {
            throw new OptionException("Couldn't get port info: " + NicEngine.DEVICE_NAME + " has two ports at most,"
                    + " not " + o.ibPort());
        }
        // each address twice (v1, v2) on a NIC with RoCEv1 GIDs: the IPv4-mapped RoCEv2 GID at 3, not 1
        int per = config.roceV1() ? 2 : 1;
        gidIndex = o.gidIndex() < 0 ? per * SoftNic.GID_INDEX_IPV4 + per - 1 : o.gidIndex();
        int tableSize = per * (SoftNic.GID_INDEX_FIRST_IPV6 + config.ipv6().size());
        if (gidIndex >= tableSize) {
            // rdma-core: "can't read sgid of index N" when ibv_query_gid fails
            throw new OptionException("can't read sgid of index " + gidIndex + ": "
                    + NicEngineFactory.describeGidTable(config.ipv6(), config.roceV1()));
        }
        if (o.kind() == PingpongKind.UD && o.size() > config.activeMtu()) {
            throw new OptionException("Requested size larger than port MTU (" + config.activeMtu() + ")");
        }
    }

    private int firstPsn() {
        // rdma-core draws lrand48() & 0xffffff; here the seed makes a run reproducible
        return (int) (new SplitMix64(config.psnSeed() ^ qp.qpn()).nextLong() & 0xffffff);
    }

    private void open() {
        Warmup.once();
        attachment = attach.get();
        nic = attachment.configure(config.nic().scheduler(attachment.scheduler()).port(attachment.port())).build();
        config.started(nic);
        if (o.ibPort() > nic.portCount()) {
            throw new OptionException("Couldn't get port info: " + NicEngine.DEVICE_NAME + " has one port here;"
                    + " -i " + o.ibPort() + " needs a second port (--in-process cables one; --udp-frame2, --raw2)");
        }
        ProtectionDomain pd = nic.allocPd();
        boolean ud = o.kind() == PingpongKind.UD;
        buf = new byte[o.size() + (ud ? PingpongKind.GRH_BYTES : 0)];
        Arrays.fill(buf, FILL);
        mr = pd.registerMr(buf, BUFFER_ADDR, AccessFlags.LOCAL_WRITE);
        cq = nic.createCq(o.rxDepth() + 1);
        QpType type = switch (o.kind()) {
            case RC -> QpType.RC;
            case UC -> QpType.UC;
            case UD -> QpType.UD;
        };
        qp = nic.createQp(pd, type, cq, cq, new QpCaps(1, o.rxDepth(), 1, 1, 0, false));
        QpAttr init = new QpAttr().state(QpState.INIT).pkeyIndex(0).port(o.ibPort());
        qp.modify(ud ? init.qkey(PingpongKind.UD_QKEY) : init.accessFlags(0));
        for (int i = 0; i < o.rxDepth(); i++) {
            postRecv();
        }
    }

    private void postRecv() {
        qp.postRecv(new RecvWr(RECV_WRID, Sge.of(mr)));
    }

    private PingpongRecord exchange(PingpongRecord mine) throws IOException {
        if (o.isServer()) {
            OobServer l = listener != null ? listener : OobServer.bind(o.port());
            try (OobChannel ch = l.accept(Duration.ZERO, ioTimeout)) {
                return PingpongOob.server(ch, theirs -> {
                    connect(mine, theirs);
                    return mine;
                });
            }
        }
        try (OobChannel ch = OobChannel.connect(o.server(), o.port(), ioTimeout.isZero() ? Duration.ofSeconds(60)
                : ioTimeout)) {
            return PingpongOob.client(ch, mine);
        }
    }

    /** RTR and RTS with the peer's record, as rdma-core's {@code pp_connect_ctx}. */
    private void connect(PingpongRecord mine, PingpongRecord theirs) {
        Gid g = theirs.gid();
        if (isZero(g)) {
            throw new IllegalStateException("Failed to modify QP to RTR: the peer's GID is empty (run the peer with"
                    + " -g <its GID index>; RoCE has no LIDs)");
        }
        if (g.isIpv4Mapped() != mine.gid().isIpv4Mapped()) {
            // a RoCEv2 packet is IPv4 or IPv6 from end to end: the source GID's version must be the peer's
            throw new IllegalStateException("Failed to modify QP to RTR: the peer's GID " + g.toIpv6Text() + " and"
                    + " this side's " + mine.gid().toIpv6Text() + " (-g " + gidIndex + ") are not of one IP version;"
                    + " give both sides GIDs of one version with -g");
        }
        io.rocelab.nic.net.Gid dgid = io.rocelab.nic.net.Gid.of(g.bytes());
        if (o.kind() == PingpongKind.UD) {
            qp.modify(new QpAttr().state(QpState.RTR));
            qp.modify(new QpAttr().state(QpState.RTS).sqPsn(mine.psn()));
            udPeer = new AddressHandle(dgid, gidIndex, 64, 0, -1);
            udPeerQpn = theirs.qpn();
            return;
        }
        // hop limit 1 as the C tools set it; on RoCEv2 the IP TTL is the route's (64), as in rxe
        AddressHandle ah = new AddressHandle(dgid, gidIndex, 1, 0, -1);
        QpAttr rtr = new QpAttr().state(QpState.RTR).av(ah).pathMtu(o.mtu()).destQpn(theirs.qpn())
                .rqPsn(theirs.psn());
        QpAttr rts = new QpAttr().state(QpState.RTS).sqPsn(mine.psn());
        if (o.kind() == PingpongKind.RC) {
            rtr.maxDestRdAtomic(1).minRnrTimer(MIN_RNR_TIMER);
            rts.timeout(TIMEOUT).retryCnt(RETRY).rnrRetry(RETRY).maxRdAtomic(1);
        }
        qp.modify(rtr);
        qp.modify(rts);
    }

    private static boolean isZero(Gid g) {
        for (int i = 0; i < Gid.LENGTH; i++) {
            if (g.byteAt(i) != 0) {
                return false;
            }
        }
        return true;
    }

    private void postSend() {
        SendWr wr;
        if (o.kind() == PingpongKind.UD) {
            wr = SendWr.send(SEND_WRID, Sge.of(mr, PingpongKind.GRH_BYTES, o.size()))
                    .ud(udPeer, udPeerQpn, PingpongKind.UD_QKEY);
        } else {
            wr = SendWr.send(SEND_WRID, Sge.of(mr, 0, o.size()));
        }
        qp.postSend(wr.signaled(true));
    }

    /** The C tools' loop and summary; returns the exit status. */
    private int loop() throws InterruptedException {
        int dataAt = o.kind() == PingpongKind.UD ? PingpongKind.GRH_BYTES : 0;
        int pending = RECV_WRID;
        if (!o.isServer()) {
            if (o.chk()) {
                // rdma-core writes i / page_size % sizeof(char), always 0, at each page's first byte
                for (int i = 0; i < o.size(); i += PAGE) {
                    buf[dataAt + i] = 0;
                }
            }
            postSend();
            pending |= SEND_WRID;
        }
        long start = System.nanoTime();
        int routs = o.rxDepth();
        int rcnt = 0;
        int scnt = 0;
        List<WorkCompletion> wcs = new ArrayList<>(2);
        waiter.reset();
        while (rcnt < o.iters() || scnt < o.iters()) {
            wcs.clear();
            if (waiter.poll(cq, 2, wcs) == 0) {
                continue;
            }
            for (WorkCompletion wc : wcs) {
                if (!wc.isSuccess()) {
                    throw new IllegalStateException("Failed status " + wc.status().verbsName() + " ("
                            + wc.status().ordinal() + ") for wr_id " + wc.wrId());
                }
                if (wc.wrId() == SEND_WRID) {
                    scnt++;
                } else if (wc.wrId() == RECV_WRID) {
                    if (--routs <= 1) {
                        for (int k = routs; k < o.rxDepth(); k++) {
                            postRecv();
                        }
                        routs = o.rxDepth();
                    }
                    rcnt++;
                } else {
                    throw new IllegalStateException("Completion for unknown wr_id " + wc.wrId());
                }
                pending &= ~(int) wc.wrId();
                if (scnt < o.iters() && pending == 0) {
                    postSend();
                    pending = RECV_WRID | SEND_WRID;
                }
            }
        }
        long micros = (System.nanoTime() - start) / 1000;
        out.print(PingpongReport.summary(o.size(), o.iters(), micros));
        if (o.isServer() && o.chk()) {
            for (int i = 0; i < o.size(); i += PAGE) {
                if (buf[dataAt + i] != 0) {
                    out.println("invalid data in page " + i / PAGE);
                }
            }
        }
        return 0;
    }

    /** The NIC (its counters stay readable after the run), or null before it opened. */
    public SoftNic nic() {
        return nic;
    }

    private void close() {
        try {
            if (nic != null) {
                nic.close();
            }
        } finally {
            if (attachment != null) {
                NicAttachment a = attachment;
                attachment = null;
                a.close();
            }
        }
    }
}
