package io.rocelab.nic;

import io.rocelab.codec.header.Bth;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.time.Cancellable;
import io.rocelab.fabric.wire.EthernetFraming;
import io.rocelab.nic.cc.CongestionControl;
import io.rocelab.nic.egress.EgressFlow;
import io.rocelab.nic.egress.Pacer;
import io.rocelab.nic.egress.SendStep;
import io.rocelab.nic.stats.NicCounter;
import java.util.ArrayDeque;
import java.util.Objects;

/**
 * A queue pair: the verbs object ({@code ibv_qp}). As in Linux rxe the transport is split in three:
 * the {@link Requester} turns send WQEs into request packets, the {@link Responder} executes
 * incoming requests and answers them, the {@link Completer} processes ACKs and responses and
 * completes send WQEs in order.
 *
 * <p>The QP holds what is the QP's: its identity and attributes (the primary and alternate paths,
 * path MTU, P_Key and Q_Key, remote QPN, access rights, retry counts, timeouts), its state machine
 * ({@link QpTransitions}), its queues (SQ, RQ or SRQ, CQs), its place in the egress with its
 * congestion control, and the wiring of its three engines.
 * Each engine keeps its own transport state ({@link RequesterInfo}, {@link ResponderInfo},
 * {@link CompleterInfo}, as rxe's {@code struct rxe_qp} has {@code req}, {@code resp} and
 * {@code comp}); the engines read the QP through its methods and ask each other through theirs.
 *
 * <p>All fields are private and owned by the NIC's thread; the public methods may be called from
 * any thread.
 */
public final class QueuePair {
    private final SoftNic nic;
    private final ProtectionDomain pd;
    private final QpType type;
    private final int qpn;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final QpCaps caps;
    /** Where receive WQEs come from when the QP uses a shared receive queue, else null. */
    private final SharedReceiveQueue srq;

    private volatile QpState state = QpState.RESET;
    /**
     * The port the QP's frames leave by and arrive on: port 1 until {@link QpAttr#port} binds it,
     * the alternate path's after a migration, the bond's pick on a bonded NIC.
     */
    private volatile NicPort port;
    private int accessFlags;
    private int pkey = Bth.DEFAULT_PKEY;
    private int qkey;
    private AddressHandle av;
    /** Where this QP's frames go, from the AV (RTR); null before. */
    private Route route;
    private int pathMtu = 1024;
    private int timeout;
    private int retryCnt;
    private int rnrRetry;
    private int maxRdAtomic;
    private int maxDestRdAtomic;
    private int minRnrTimer;
    private int destQpn;
    private int srcPort;
    /** The path migration state (IBA 17.2.8) and the alternate path, when one is loaded. */
    private MigState migState = MigState.MIGRATED;
    private AddressHandle altAv;
    /** Whether the QP ever had an alternate path: until then it sends MigReq 0 as rxe, after it IBA's bit. */
    private boolean apmUsed;
    private Route altRoute;
    private NicPort altPort;
    private int altTimeout;
    /** In SQD until every WQE started before the transition is complete (IBA 10.3.1.5). */
    private boolean sqDraining;
    private boolean sqdNotify;

    /** Posted, not yet completed send WQEs, oldest first, with the cursor of the next to transmit. */
    private final SendQueue sq = new SendQueue();
    /** The QP's own receive queue, or the SRQ's WQEs (then taken only through {@link #takeRecv()}). */
    private final ArrayDeque<RecvWqe> rq;

    /** The three engines; RESET replaces them, so that nothing of a connection outlives it (IBA 10.3.1.1). */
    private Requester requester;
    private Responder responder;
    private Completer completer;

    /** The QP's place in the NIC's egress: its send side as the transmitter sees it. */
    private final EgressFlow egressFlow = new Flow();
    /** The 802.1p priority of the QP's frames (what PFC pauses), from its route. */
    private int priority;
    /** The reaction point of its congestion control (RC and UC; UD QPs have none). */
    private CongestionControl cc;
    /** When {@link #cc}'s next timer event is due, as armed; {@link CongestionControl#NEVER} if none. */
    private long ccTimerAt = CongestionControl.NEVER;
    private Cancellable ccTimer;
    private final Pacer pacer = new Pacer();
    /** The QP's own rate limit in bit/s ({@code ibv_qp_attr.rate_limit}, packet pacing); 0: none. */
    private long rateLimit;
    /** When the notification point last sent a CNP for this QP. */
    private long lastCnpAt = Long.MIN_VALUE;
    /** Frame bytes the QP's send side has put on the wire (requests, retransmissions, READ responses). */
    private long bytesSent;
    /** Created with {@link QpCreateFlag#OOO_DP}; fixed for the QP's life (RESET keeps it). */
    private boolean oooDataPlacement;

    QueuePair(SoftNic nic, ProtectionDomain pd, QpType type, int qpn, CompletionQueue sendCq,
              CompletionQueue recvCq, QpCaps caps, SharedReceiveQueue srq) {
        this.nic = nic;
        this.srq = srq;
        this.rq = srq != null ? srq.wqes : new ArrayDeque<>();
        this.pd = pd;
        this.type = type;
        this.qpn = qpn;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
        this.caps = caps;
        this.srcPort = udpSourcePort(qpn, 0);
        this.port = nic.port(1);
        newEngines();
    }

    /**
     * The QP was created with {@link QpCreateFlag#OOO_DP} (before it leaves RESET; creation only):
     * its responder takes packets ahead of the expected PSN into a reorder window.
     */
    void placeOutOfOrder() {
        oooDataPlacement = true;
        newEngines();
    }

    /** Whether the QP was created with {@link QpCreateFlag#OOO_DP} (out-of-order data placement). */
    public boolean oooDataPlacement() {
        return oooDataPlacement;
    }

    private void newEngines() {
        this.requester = new Requester(this, nic.maxUnackedPsns(), nic.ackReqInterval());
        this.responder = new Responder(this);
        this.completer = new Completer(this);
    }

    public int qpn() {
        return qpn;
    }

    /** The path migration state ({@code ibv_query_qp}'s {@code path_mig_state}). */
    public MigState pathMigState() {
        return nic.call(() -> migState);
    }

    /** The alternate path's port number, or 0 when none is loaded ({@code alt_port_num}). */
    public int altPortNumber() {
        return nic.call(() -> altPort == null ? 0 : altPort.number());
    }

    /** The local ACK timeout exponent in use (after a migration, the alternate path's). */
    public int timeoutExponent() {
        return nic.call(() -> timeout);
    }

    /** The port the QP sends and receives on now ({@code ibv_query_qp}'s {@code port_num}). */
    public NicPort port() {
        return port;
    }

    public QpType type() {
        return type;
    }

    public QpState state() {
        return state;
    }

    public ProtectionDomain pd() {
        return pd;
    }

    /** The shared receive queue this QP takes its receive WQEs from, or null. */
    public SharedReceiveQueue srq() {
        return srq;
    }

    /** The UDP source port of this QP's frames: constant for its life once connected. */
    public int udpSourcePort() {
        return srcPort;
    }

    // What the engines read of the QP: its device, its queues, its attributes and its path. The
    // attributes change only in modify (and a migration) on the owner thread, where the engines
    // read them too.

    SoftNic nic() {
        return nic;
    }

    QpCaps caps() {
        return caps;
    }

    /** Posted, not yet completed send WQEs (the requester sends them, the completer completes them). */
    SendQueue sq() {
        return sq;
    }

    /**
     * The QP's own receive queue, or the SRQ's WQEs; the responder looks at its head and takes
     * WQEs only through {@link #takeRecv()}.
     */
    ArrayDeque<RecvWqe> rq() {
        return rq;
    }

    CompletionQueue sendCq() {
        return sendCq;
    }

    CompletionQueue recvCq() {
        return recvCq;
    }

    /** Where the QP's frames go (the primary path), from the AV at RTR; null before. */
    Route route() {
        return route;
    }

    /** The primary path's address vector ({@code ibv_qp_attr.ah_attr}); null before RTR. */
    AddressHandle av() {
        return av;
    }

    /** The P_Key of the QP's packets (IBA 9.2: BTH P_Key; rocelab has the default partition). */
    int pkey() {
        return pkey;
    }

    /**
     * Puts the QP in another partition. The NIC's P_Key table has one entry (the default P_Key,
     * {@link QpAttr#pkeyIndex}), so only a test of the responder's P_Key check (IBA 9.6.1.1) sets
     * one. Owner thread.
     */
    void setPkey(int pkey) {
        this.pkey = pkey;
    }

    /** The QP's Q_Key ({@code ibv_qp_attr.qkey}, IBA 10.2.5), UD. */
    int qkey() {
        return qkey;
    }

    /** The remote QP ({@code ibv_qp_attr.dest_qp_num}), RC and UC. */
    int destQpn() {
        return destQpn;
    }

    /** The path MTU in bytes ({@code ibv_qp_attr.path_mtu}, at most the port's active MTU). */
    int pathMtu() {
        return pathMtu;
    }

    /** The remote access the QP grants ({@code ibv_qp_attr.qp_access_flags}, IBA 10.2.4). */
    int accessFlags() {
        return accessFlags;
    }

    /** The RNR NAK timer code the responder sends ({@code ibv_qp_attr.min_rnr_timer}, IBA Table 45). */
    int minRnrTimer() {
        return minRnrTimer;
    }

    /** READ/ATOMIC requests the requester may have outstanding ({@code ibv_qp_attr.max_rd_atomic}). */
    int maxRdAtomic() {
        return maxRdAtomic;
    }

    /** Retries after an ACK timeout or a sequence error NAK ({@code ibv_qp_attr.retry_cnt}). */
    int retryCnt() {
        return retryCnt;
    }

    /** Retries after RNR NAKs, 7 for ever ({@code ibv_qp_attr.rnr_retry}). */
    int rnrRetry() {
        return rnrRetry;
    }

    /**
     * The local ACK timeout exponent ({@code ibv_qp_attr.timeout}: 4.096 µs × 2^timeout, IBA
     * 9.7.6.1.3), after a migration the alternate path's. Owner thread; {@link #timeoutExponent()}
     * from any.
     */
    int localAckTimeout() {
        return timeout;
    }

    Requester requester() {
        return requester;
    }

    Responder responder() {
        return responder;
    }

    Completer completer() {
        return completer;
    }

    /** The QP's send side as the port's egress sees it. */
    EgressFlow egressFlow() {
        return egressFlow;
    }

    /**
     * Whether the QP is in SQD and still finishing the WQEs it had started ({@code ibv_query_qp}'s
     * {@code sq_draining}).
     */
    public boolean isSqDraining() {
        return nic.call(() -> sqDraining);
    }

    /** The next PSN the requester will use (after the QP is in RTS). */
    public int sendPsn() {
        return nic.call(() -> requester.nextPsn());
    }

    /** The PSN the responder expects next. */
    public int expectedPsn() {
        return nic.call(() -> responder.expectedPsn());
    }

    /**
     * Modifies the QP ({@code ibv_modify_qp}): checks the transition and its attributes against
     * {@link QpTransitions}, then applies them.
     *
     * @throws IllegalArgumentException for an illegal transition or a missing or unexpected attribute
     */
    public void modify(QpAttr attr) {
        Objects.requireNonNull(attr, "attr");
        nic.call(() -> {
            applyModify(attr);
            return null;
        });
    }

    private void applyModify(QpAttr a) {
        if (a.mask.contains(QpAttrMask.CUR_STATE) && a.curState != state) {
            throw new IllegalArgumentException("curState " + a.curState + " is not the QP's state " + state);
        }
        QpState to = QpTransitions.check(type, state, a.mask, a.state);
        if (a.mask.contains(QpAttrMask.PORT)) {
            nic.port(a.port); // a port the NIC has
            if (nic.bond != null && a.port != 1) {
                throw new IllegalArgumentException("port: a bonded NIC's QPs use port 1, the bond: " + a.port);
            }
        }
        // the path migration part, checked whole before anything changes
        MigState mig = migState;
        Route newAlt = null;
        boolean migrateNow = false;
        if (a.mask.contains(QpAttrMask.ALT_PATH)) {
            if (nic.bond != null) {
                throw new IllegalArgumentException("altPath: a bonded NIC has one port, the bond; its links fail over"
                        + " by themselves");
            }
            NicPort alt = nic.port(a.altPort);
            NicPort primary = a.mask.contains(QpAttrMask.PORT) ? nic.port(a.port) : port;
            newAlt = Route.of(alt, a.altAv, type != QpType.UD && nic.markEct);
            Route primaryRoute = a.mask.contains(QpAttrMask.AV) ? Route.of(primary, a.av) : route;
            if (alt == primary && primaryRoute != null && newAlt.dstGid.equals(primaryRoute.dstGid)
                    && newAlt.srcGid.equals(primaryRoute.srcGid)) {
                // IBA 17.2.8 lets the alternate path use the same port; the same port and addresses are
                // the primary path itself (a CM refuses such a LAP)
                throw new IllegalArgumentException("altPath: the alternate path is the primary path (port "
                        + a.altPort + ", " + newAlt.srcGid + " to " + newAlt.dstGid + ")");
            }
            mig = PathMigration.request(mig, PathMigration.Event.LOAD_ALT).to();
        }
        if (a.mask.contains(QpAttrMask.PATH_MIG_STATE)) {
            PathMigration.Step step = PathMigration.request(mig, switch (a.pathMigState) {
                case REARM -> PathMigration.Event.SET_REARM;
                case ARMED -> PathMigration.Event.SET_ARMED;
                case MIGRATED -> PathMigration.Event.SET_MIGRATED;
            });
            if (a.pathMigState == MigState.REARM && newAlt == null && altRoute == null) {
                throw new IllegalArgumentException("path migration: REARM needs an alternate path (altPath)");
            }
            if (a.pathMigState == MigState.MIGRATED && (state != QpState.RTS || to != QpState.RTS)) {
                throw new IllegalArgumentException("path migration: MIGRATED is asked for in RTS, not " + state);
            }
            mig = step.to();
            migrateNow = step.migrate();
        }
        if (state == QpState.SQD && sqDraining && (to == QpState.RTS || to == QpState.SQD)) {
            // IBA 10.3.1.5: SQD to RTS, and attribute changes in SQD, only once the SQ has drained
            throw new IllegalArgumentException("QP 0x" + Integer.toHexString(qpn) + " is still draining its send queue");
        }
        for (QpAttrMask m : a.mask) {
            switch (m) {
                case ACCESS_FLAGS -> accessFlags = a.accessFlags;
                case PORT -> moveTo(nic.port(a.port));
                case QKEY -> qkey = a.qkey;
                case AV -> {
                    route = Route.of(port, a.av, type != QpType.UD && nic.markEct);
                    priority = nic.priorityOf(port, route);
                    av = a.av;
                    if (a.av.destMac() >= 0) {
                        nic.learn(a.av.destGid(), a.av.destMac());
                    }
                }
                case PATH_MTU -> pathMtu = Math.min(a.pathMtu, nic.activeMtu());
                case TIMEOUT -> timeout = a.timeout;
                case RETRY_CNT -> retryCnt = a.retryCnt;
                case RNR_RETRY -> rnrRetry = a.rnrRetry;
                case RQ_PSN -> responder.startAt(a.rqPsn);
                case SQ_PSN -> requester.setInitialPsn(a.sqPsn);
                case MAX_QP_RD_ATOMIC -> maxRdAtomic = a.maxRdAtomic;
                case MAX_DEST_RD_ATOMIC -> responder.setMaxDestRdAtomic(a.maxDestRdAtomic);
                case MIN_RNR_TIMER -> minRnrTimer = a.minRnrTimer;
                case DEST_QPN -> {
                    destQpn = a.destQpn;
                    srcPort = udpSourcePort(qpn, destQpn);
                }
                default -> {
                }
            }
        }
        if (av != null && av.flowLabel() != 0 && type != QpType.UD) {
            // the path's flow label, when it has one (rdma_cm's), decides the port (rxe_prepare)
            srcPort = flowLabelToUdpSourcePort(av.flowLabel());
        }
        if (newAlt != null) {
            apmUsed = true;
            altAv = a.altAv;
            altRoute = newAlt;
            altPort = nic.port(a.altPort);
            altTimeout = a.altTimeout;
            if (a.altAv.destMac() >= 0) {
                altPort.learn(a.altAv.destGid(), a.altAv.destMac());
            }
        }
        migState = mig;
        if (migrateNow) {
            migrate();
        }
        markMigReq();
        if (nic.bond != null && route != null) {
            moveTo(nic.bond.portFor(this));
        }
        if (to == state) {
            return;
        }
        QpState from = state;
        state = to;
        switch (to) {
            case RESET -> reset();
            case ERR -> flush();
            case RTS -> {
                completer.resetRetryCounters();
                if (cc == null && type != QpType.UD) {
                    cc = nic.congestionControl.newInstance(lineRate());
                }
                requester.kick();
            }
            default -> {
            }
        }
        if (from == QpState.SQD && to == QpState.RTS) {
            requester.kick();
        }
        if (from == QpState.RTS && to == QpState.SQD) {
            sqDraining = true;
            sqdNotify = a.mask.contains(QpAttrMask.EN_SQD_ASYNC_NOTIFY) && a.enSqdAsyncNotify;
            checkDrained();
        }
        if (to != QpState.SQD) {
            sqDraining = false;
        }
    }

    /**
     * The UDP source port Linux 6.1 rxe uses: ib_core's flow label of the QP pair
     * ({@code rdma_calc_flow_label(lqpn, rqpn)}) folded into 14 bits and put in 0xC000-0xFFFF
     * ({@code rdma_flow_label_to_udp_sport}). QPN 0x11 talking to QPN 0x11 gives 0xC121 = 49441,
     * the port in every reference capture. Fixed when the QP is connected, so it never changes
     * during traffic (docs/design.md §5).
     */
    static int udpSourcePort(int localQpn, int remoteQpn) {
        long v = (long) localQpn * (remoteQpn == 0 ? localQpn : remoteQpn);
        v ^= v >>> 20;
        v ^= v >>> 40;
        return flowLabelToUdpSourcePort((int) (v & 0xFFFFF));
    }

    /**
     * ib_core's {@code rdma_flow_label_to_udp_sport}: the 20-bit flow label folded into 14 bits,
     * in 0xC000-0xFFFF. rdma_cm's flow label 0x487BE gives 0xC7AC = 51116, the port of the RC QPs
     * of vectors/rxe/write_bw_rdmacm.pcap.
     */
    public static int flowLabelToUdpSourcePort(int flowLabel) {
        int low = (flowLabel & 0x3FFF) ^ ((flowLabel & 0xFC000) >>> 14);
        return low | 0xC000;
    }

    /**
     * The UDP source port of a UD QP's (and QP1's) packets in Linux 6.1 rxe: the QP's own
     * {@code src_port}, {@code 0xC000 + hash_32(qpn, 14)}, because an address handle made by
     * {@code ibv_create_ah} carries no flow label for rxe to derive a port from. QPN 0x11 gives
     * 0xDF94 = 57236 (vectors/rxe/ud_pingpong.pcap) and QP1 0xD872 = 55410 (rdma_cm's MADs in
     * write_bw_rdmacm.pcap and rping.pcap).
     */
    static int udSourcePort(int qpn) {
        // hash_32_generic: multiply by the 32-bit golden ratio, keep the top 14 bits
        return 0xC000 + ((qpn * 0x61C88647) >>> (32 - 14));
    }

    /**
     * Posts send WRs ({@code ibv_post_send}). Argument errors throw at once; transport errors come
     * back as completions.
     *
     * @throws IllegalArgumentException naming the bad field
     * @throws IllegalStateException if the QP is not in RTS/SQD/ERR
     */
    public void postSend(SendWr... wrs) {
        QpState s = state;
        if (!s.canSend() && s != QpState.ERR && s != QpState.SQE) {
            throw new IllegalStateException("postSend needs RTS (QP 0x" + Integer.toHexString(qpn) + " is " + s + ")");
        }
        if (wrs.length == 1) {
            nic.submit(prepare(Objects.requireNonNull(wrs[0], "wr"))); // the WQE is its own command
            return;
        }
        SendWqe[] wqes = new SendWqe[wrs.length];
        for (int i = 0; i < wrs.length; i++) {
            wqes[i] = prepare(Objects.requireNonNull(wrs[i], "wr"));
        }
        nic.submit(() -> requester.postAll(wqes));
    }

    private SendWqe prepare(SendWr wr) {
        if (!wr.opcode.allowedOn(type)) {
            throw new IllegalArgumentException("opcode " + wr.opcode.verbsName() + " is not valid on a " + type + " QP");
        }
        if (wr.sgl.length > caps.maxSendSge()) {
            throw new IllegalArgumentException("sgl has " + wr.sgl.length + " elements, max " + caps.maxSendSge());
        }
        long len = wr.totalLength();
        if (len > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("message longer than 2^31-1 bytes: " + len);
        }
        if (wr.opcode.isAtomic() && (wr.sgl.length != 1 || len != 8)) {
            throw new IllegalArgumentException("atomic needs one 8-byte SGE, got " + len + " bytes");
        }
        if (wr.opcode == WrOpcode.ATOMIC_WRITE && len != MemoryPlacement.ATOMIC_WRITE_LENGTH) {
            throw new IllegalArgumentException("atomic write needs 8 bytes, got " + len);
        }
        if (wr.opcode == WrOpcode.FLUSH && wr.sgl.length != 0) {
            throw new IllegalArgumentException("flush takes no local memory: sgl must be empty");
        }
        if (type == QpType.UD) {
            if (wr.ah == null) {
                throw new IllegalArgumentException("UD send needs an address handle (SendWr.ud)");
            }
            if (len > nic.activeMtu()) {
                throw new IllegalArgumentException("UD message " + len + " bytes exceeds the MTU " + nic.activeMtu());
            }
        }
        byte[] inline = null;
        if (wr.inline && wr.opcode != WrOpcode.RDMA_READ && !wr.opcode.isAtomic()) {
            if (len > caps.maxInlineData()) {
                throw new IllegalArgumentException("inline data " + len + " bytes exceeds maxInlineData " + caps.maxInlineData());
            }
            inline = new byte[(int) len];
            int at = 0;
            for (Sge s : wr.sgl) {
                MemoryRegion mr = nic.mrByKey(s.lkey());
                // inline data is read from the address itself; we find it through any region covering it
                if (mr == null || !mr.covers(s.addr(), s.length())) {
                    throw new IllegalArgumentException("inline SGE not inside a registered region: " + s);
                }
                System.arraycopy(mr.buffer(), mr.index(s.addr()), inline, at, s.length());
                at += s.length();
            }
        }
        return new SendWqe(requester, wr, inline, (int) len, type == QpType.UD ? Route.of(port, wr.ah) : null);
    }

    /** Posts receive WRs ({@code ibv_post_recv}); they are usable from RESET on (IBA 10.8.2.1 allows INIT+). */
    public void postRecv(RecvWr... wrs) {
        if (srq != null) {
            throw new IllegalStateException("QP 0x" + Integer.toHexString(qpn) + " uses " + srq
                    + ": post receives to the SRQ");
        }
        if (state == QpState.RESET) {
            throw new IllegalStateException("postRecv on a QP in RESET");
        }
        RecvWqe[] wqes = new RecvWqe[wrs.length];
        for (int i = 0; i < wrs.length; i++) {
            RecvWr wr = Objects.requireNonNull(wrs[i], "wr");
            if (wr.sgl().length > caps.maxRecvSge()) {
                throw new IllegalArgumentException("sgl has " + wr.sgl().length + " elements, max " + caps.maxRecvSge());
            }
            wqes[i] = new RecvWqe(wr);
        }
        nic.submit(() -> {
            for (RecvWqe w : wqes) {
                if (state == QpState.ERR) {
                    completeRecv(w.wrId, WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, 0, 0, 0, 0, false);
                } else if (rq.size() >= caps.maxRecvWr()) {
                    completeRecv(w.wrId, WcStatus.LOC_QP_OP_ERR, WcOpcode.RECV, 0, 0, 0, 0, 0, false);
                } else {
                    rq.add(w);
                }
            }
        });
    }

    /** Destroys the QP ({@code ibv_destroy_qp}): no more completions, packets to it are dropped. */
    public void destroy() {
        nic.call(() -> {
            shutdown();
            nic.destroyQp(this);
            return null;
        });
    }

    void receive(NicPort from, RxPacket p) {
        // rxe check_addr: on the QP's port, from its peer; or (IBA 17.2.8) MigReq on the armed alternate path
        boolean primary = (from == port || nic.bond != null)
                && (route == null || type == QpType.UD || route.isReverseOf(p));
        if (!primary && !migratesOn(from, p)) {
            from.counters.increment(NicCounter.DROP_NOT_FROM_PEER);
            return;
        }
        if (primary && migState == MigState.REARM && Bth.migReq(p.buf, p.bth) == 0) {
            // the peer has the alternate path too (it sends MigReq 0 in REARM and ARMED): armed
            migState = PathMigration.step(MigState.REARM, PathMigration.Event.MIGREQ_0).to();
        }
        if (p.opcode.has(Opcode.REQUEST)) {
            if (state == QpState.ERR) {
                port.counters.increment(NicCounter.DROP_QP_STATE); // IBA 10.3.1.7: an errored QP drops requests
                return;
            }
            responder.receive(p);
        } else {
            completer.receive(p);
        }
    }

    /**
     * Whether {@code p}, on port {@code from} that is not the QP's, makes the responder migrate
     * (IBA 17.2.8): ARMED, MigReq = 1, along the alternate path from its far end. If so the QP has
     * migrated and takes the packet.
     */
    private boolean migratesOn(NicPort from, RxPacket p) {
        if (from != altPort || type == QpType.UD || !state.canReceive() || Bth.migReq(p.buf, p.bth) == 0
                || !altRoute.isReverseOf(p)) {
            return false;
        }
        PathMigration.Step s = PathMigration.step(migState, PathMigration.Event.MIGREQ_1_ON_ALT);
        if (s == null || !s.migrate()) {
            return false;
        }
        migrate();
        return true;
    }

    /**
     * Ends the drain once no started WQE is left unfinished (IBA 10.3.1.5): the requester starts no
     * new WQE in SQD, so this happens when the last outstanding one is acknowledged (RC) or sent
     * (UC, UD). Raises {@link AsyncEventType#SQ_DRAINED} if asked to. Owner thread.
     */
    void checkDrained() {
        if (!sqDraining || state != QpState.SQD) {
            return;
        }
        for (int i = 0; i < sq.size(); i++) {
            SendWqe w = sq.get(i);
            if (w.started && !w.done) {
                return;
            }
        }
        sqDraining = false;
        if (sqdNotify) {
            nic.raise(AsyncEvent.ofQp(AsyncEventType.SQ_DRAINED, this));
        }
    }

    /** The oldest receive WQE (from the SRQ if the QP has one), or null. Owner thread. */
    RecvWqe takeRecv() {
        return srq != null ? srq.take() : rq.poll();
    }

    /** Moves to ERR from inside the transport (IBA 10.3.1.7) and flushes both queues. */
    void enterError() {
        if (state != QpState.ERR) {
            state = QpState.ERR;
            flush();
        }
    }

    private void flush() {
        sqDraining = false; // ERR ends a drain without the SQ_DRAINED event
        requester.stop();
        completer.stop();
        stopEgress();
        for (int i = 0; i < sq.size(); i++) {
            SendWqe w = sq.get(i);
            if (!w.done) {
                w.done = true;
                w.status = WcStatus.WR_FLUSH_ERR;
            }
        }
        completer.completeReady();
        RecvWqe inProgress = responder.abortMessage();
        if (inProgress != null) {
            // a WQE already taken for a message that will never end is flushed too (IBA 10.3.1.7)
            completeRecv(inProgress.wrId, WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, 0, 0, 0, 0, false);
        }
        if (srq != null) {
            // the SRQ's WQEs belong to the other QPs too: none is flushed; the QP says it took its last
            nic.raise(AsyncEvent.ofQp(AsyncEventType.QP_LAST_WQE_REACHED, this));
            return;
        }
        RecvWqe r;
        while ((r = rq.poll()) != null) {
            completeRecv(r.wrId, WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, 0, 0, 0, 0, false);
        }
    }

    /**
     * IBA 10.3.1.1: a QP in RESET keeps nothing of its past: no WQE, and fresh transport state (PSNs,
     * MSN, the NAK-sent flag, responder resources, retry counters, timers), as rxe's
     * {@code rxe_qp_reset} clears its requester, completer and responder. The attributes of the
     * connection (path, PSNs, MTU, rights, timers) are given again on the way back to RTS.
     */
    private void reset() {
        requester.stop();
        completer.stop();
        stopEgress();
        cc = null;
        pacer.reset();
        lastCnpAt = Long.MIN_VALUE;
        sq.clear();
        if (srq == null) {
            rq.clear();
        }
        responder.abortMessage();
        newEngines();
        av = null;
        route = null;
        altAv = null;
        altRoute = null;
        altPort = null;
        migState = MigState.MIGRATED;
        apmUsed = false;
        srcPort = udpSourcePort(qpn, 0);
        sqDraining = false;
        sqdNotify = false;
    }

    void shutdown() {
        requester.stop();
        completer.stop();
        stopEgress();
        state = QpState.ERR;
    }

    /** A send completion, in order; {@code always} for errors (IBA 10.8.3: errors are always reported). */
    void completeSend(SendWqe w) {
        if (w.signaled || caps.sqSigAll() || w.status != WcStatus.SUCCESS) {
            // rxe reports the message length as byte_len of every successful send completion
            sendCq.push(new WorkCompletion(w.wrId, w.status, w.opcode.completionOpcode(),
                    w.status == WcStatus.SUCCESS ? w.length : 0, 0, 0, qpn, 0, 0), false);
        }
    }

    void completeRecv(long wrId, WcStatus status, WcOpcode op, int byteLen, int imm, int invRkey, int srcQp,
                      int flags, boolean solicited) {
        recvCq.push(new WorkCompletion(wrId, status, op, byteLen, imm, invRkey, qpn, srcQp, flags), solicited);
    }

    /**
     * Migrates to the alternate path (IBA 17.2.8): it becomes the primary path (port, addresses,
     * ACK timeout), the QP's packets carry MigReq = 1 from now on, no alternate path is left, the
     * state is MIGRATED and {@link AsyncEventType#PATH_MIG} is raised. Owner thread.
     */
    private void migrate() {
        moveTo(altPort);
        route = altRoute.withMigReq(true); // MIGRATED: MigReq 1, which migrates the peer
        av = altAv;
        timeout = altTimeout;
        priority = nic.priorityOf(port, route);
        altAv = null;
        altRoute = null;
        altPort = null;
        migState = MigState.MIGRATED;
        nic.countPathMigration();
        nic.raise(AsyncEvent.ofQp(AsyncEventType.PATH_MIG, this));
    }

    /**
     * Sets the MigReq bit of the QP's packets (IBA 9.2, 17.2.8): 1 in MIGRATED, 0 in REARM and
     * ARMED; a QP that never had an alternate path sends 0 as rxe does.
     */
    private void markMigReq() {
        if (route != null && type != QpType.UD) {
            route = route.withMigReq(apmUsed && migState == MigState.MIGRATED);
        }
    }

    /**
     * The requester's retries on the primary path are spent (IBA 9.7.7): with an armed alternate
     * path the QP migrates to it and returns true (the caller resends there); else false, and the
     * exhaustion is the usual error. Owner thread.
     */
    boolean migrateOnPathFailure() {
        PathMigration.Step s = PathMigration.step(migState, PathMigration.Event.PATH_FAILED);
        if (s == null || !s.migrate()) {
            return false;
        }
        migrate();
        return true;
    }

    /**
     * Binds the QP to {@code to}: its send side leaves the old port's egress and joins the new one's,
     * keeping its queued READ responses and its place in the send queue; what was in flight on the
     * old port is the transport's to repair (its retries). Owner thread.
     */
    void moveTo(NicPort to) {
        NicPort from = port;
        if (to == from) {
            return;
        }
        from.egress.forget(egressFlow);
        port = to;
        if (route != null) {
            priority = nic.priorityOf(to, route); // the new port's DCB settings may differ (DCBX per port)
        }
        if (state.canSend() || responder.hasReadResponses()) {
            to.egress.wake(egressFlow);
        }
    }

    /** The QP leaves the egress: nothing more of it is pulled, its READ responses and CC timer go. */
    private void stopEgress() {
        port.egress.forget(egressFlow);
        responder.dropReadResponses();
        if (ccTimer != null) {
            ccTimer.cancel();
            ccTimer = null;
        }
        ccTimerAt = CongestionControl.NEVER;
    }

    /** The speed the QP's rates are counted against: the NIC's link speed, or 100 Gb/s if unlimited. */
    private double lineRate() {
        long speed = port.linkSpeedBitsPerSecond();
        return speed > 0 ? speed : SoftNic.DEFAULT_PFC_SPEED;
    }

    /**
     * Limits the QP's send rate ({@code ibv_modify_qp_rate_limit}: mlx5's packet pacing, what
     * perftest's {@code --rate_limit_type HW} asks for), {@code burstBytes} allowed back to back.
     * 0 removes the limit. Any thread.
     */
    public void setRateLimit(long bitsPerSecond, int burstBytes) {
        if (bitsPerSecond < 0 || burstBytes < 0) {
            throw new IllegalArgumentException("rate limit and burst must be >= 0: " + bitsPerSecond + ", " + burstBytes);
        }
        nic.call(() -> {
            rateLimit = bitsPerSecond;
            pacer.burst(burstBytes);
            return null;
        });
    }

    /** The rate the QP sends at now, in bit/s: its congestion control's, below its own limit. */
    public double currentRateBitsPerSecond() {
        return nic.call(this::rate);
    }

    /**
     * The bytes of the frames the QP has handed to its port so far: its requests, retransmissions
     * and READ responses, Ethernet header to FCS (what {@code tx_bytes} counts, per QP), whatever the
     * outcome. A reading for probes: the rate a QP puts on the wire is its difference over time.
     * Frames written in place in a UDP endpoint's send buffer (live mode) are not counted. Any thread (on the owner thread at once).
     */
    public long bytesSent() {
        return nic.call(() -> bytesSent);
    }

    /**
     * The rate the QP's congestion control allows now, in bit/s (DCQCN's current rate Rc), or NaN
     * when none runs (the NIC's {@code cc} is {@code none}, a UD QP, or before RTS). Unlike
     * {@link #currentRateBitsPerSecond()} the QP's own rate limit does not enter. Any thread.
     */
    public double congestionRateBitsPerSecond() {
        return nic.call(() -> cc == null || cc instanceof io.rocelab.nic.cc.NoCongestionControl
            ? Double.NaN : cc.rateBitsPerSecond());
    }

    /** The QP's congestion control (owner thread), or null before RTS and for UD QPs. */
    CongestionControl congestionControl() {
        return cc;
    }

    /**
     * The port's DCB settings changed (DCBX adopted the link partner's, or gave them back): the QP's
     * frames leave at the priority they give now. It leaves the egress's lists under its old priority
     * and is woken under the new one. Owner thread.
     */
    void reclassify() {
        if (route == null) {
            return;
        }
        int p = nic.priorityOf(port, route);
        if (p == priority) {
            return;
        }
        port.egress.forget(egressFlow);
        priority = p;
        port.egress.wake(egressFlow);
    }

    /** The 802.1p priority the QP's frames leave at. */
    public int priority() {
        return priority;
    }

    private double rate() {
        double r = cc != null ? cc.rateBitsPerSecond() : lineRate();
        return rateLimit > 0 ? Math.min(r, rateLimit) : r;
    }

    /**
     * A CE-marked packet for this QP arrived (notification point): a CNP goes to the peer QP,
     * unless one went less than {@code np_min_time_between_cnps} ago.
     */
    void notifyCongestion(long now) {
        if (route == null || lastCnpAt != Long.MIN_VALUE && now - lastCnpAt < nic.cnpMinGapNanos()) {
            return;
        }
        lastCnpAt = now;
        nic.sendCnp(this);
    }

    /** A CNP for this QP (reaction point). */
    void onCnp(long now) {
        double before = rate();
        if (cc == null || !cc.onCnp(now)) {
            port.counters.increment(NicCounter.RP_CNP_IGNORED);
            return;
        }
        port.counters.increment(NicCounter.RP_CNP_HANDLED);
        rateMayHaveChanged(now, before);
        armCcTimer();
    }

    /** The congestion control's rate may have moved: the wait for the next packet follows it. */
    private void rateMayHaveChanged(long now, double before) {
        double after = rate();
        if (after != before) {
            pacer.rateChanged(now, before, after);
            port.egress.repace(egressFlow);
        }
    }

    /** Keeps one timer at the congestion control's next deadline, re-armed only when it moves earlier. */
    private void armCcTimer() {
        long at = cc.nextTimerNanos();
        if (at >= ccTimerAt) {
            return;
        }
        if (ccTimer != null) {
            ccTimer.cancel();
        }
        ccTimerAt = at;
        ccTimer = at == CongestionControl.NEVER ? null : nic.scheduler().scheduleAt(at, nic.guarded(this::onCcTimer));
    }

    private void onCcTimer() {
        ccTimer = null;
        ccTimerAt = CongestionControl.NEVER;
        if (cc != null) {
            long now = nic.scheduler().nanoTime();
            double before = rate();
            cc.onTimer(now);
            rateMayHaveChanged(now, before);
            armCcTimer();
        }
    }

    /** What the egress sees of this QP: READ responses first, then the requester's packets. */
    private final class Flow extends EgressFlow {
        @Override
        protected int priority() {
            return priority;
        }

        @Override
        protected long nextSendAtNanos() {
            return pacer.readyAtNanos();
        }

        @Override
        protected SendStep nextPacket(long now) {
            if (!state.canSend() && !responder.hasReadResponses()) {
                return SendStep.NOTHING;
            }
            SendStep step = responder.hasReadResponses() ? responder.sendNextReadResponse() : SendStep.NOTHING;
            while (!step.isPacket() && (step = requester.sendOne()) != SendStep.NOTHING) {
                // parked for ARP, or a local operation: go on
            }
            if (step instanceof SendStep.Frame f) {
                sent(now, f.frame().readableBytes());
            }
            return step;
        }

        private void sent(long now, int frameBytes) {
            bytesSent += frameBytes;
            if (cc != null) {
                cc.onBytesSent(now, frameBytes);
                if (cc.nextTimerNanos() < ccTimerAt) {
                    armCcTimer();
                }
            }
            // paced only below the line (an unlimited port's nominal 100 Gb/s): at the line rate the
            // NIC's transmitter is the pacer
            double r = rate();
            double line = lineRate();
            if (r < line) {
                pacer.sent(now, (int) EthernetFraming.wireBytes(frameBytes, EthernetFraming.MIN_FRAME_BYTES,
                    EthernetFraming.DEFAULT_OVERHEAD_BYTES), r, line);
            }
        }
    }

    @Override
    public String toString() {
        return type + " qp 0x" + Integer.toHexString(qpn) + " " + state;
    }
}
