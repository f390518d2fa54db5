package io.rocelab.topology.workload;

import io.rocelab.fabric.random.SplitMix64;
import io.rocelab.fabric.time.Cancellable;
import io.rocelab.nic.AccessFlags;
import io.rocelab.nic.AddressHandle;
import io.rocelab.nic.CompletionQueue;
import io.rocelab.nic.MemoryRegion;
import io.rocelab.nic.MigState;
import io.rocelab.nic.QpAttr;
import io.rocelab.nic.QpCaps;
import io.rocelab.nic.QpState;
import io.rocelab.nic.QpType;
import io.rocelab.nic.QueuePair;
import io.rocelab.nic.RecvWr;
import io.rocelab.nic.SendWr;
import io.rocelab.nic.Sge;
import io.rocelab.nic.WcStatus;
import io.rocelab.nic.WorkCompletion;
import io.rocelab.nic.cm.CmConnectParams;
import io.rocelab.nic.cm.CmEvent;
import io.rocelab.nic.cm.CmEventType;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One flow at run time. Its send side (QPs, send CQ, posting, counting) lives on the source NIC's
 * owner thread, its receive side (peer QPs, receive CQ, receive work requests) on the destination's;
 * the setup goes back and forth between them as tasks on their schedulers (never waiting for each
 * other), as connecting two hosts' QPs over an out-of-band channel does:
 * destination (CQ, QPs to INIT, receives posted) -> source (CQ, QPs to RTS) -> destination (RTR,
 * RTS) -> source (ready; posting begins once the flow has been started).
 *
 * <p>A flow that reconnects ({@link Flow#reconnects()}) is connected through rdma_cm instead: the
 * destination listens on its CM port and makes a QP for each REQ, the source connects a QP per
 * lane; after an error completion the source moves every QP to the error state (the rest flush),
 * waits the flow's reconnect delay, and connects new QPs, then posts the messages that had not
 * completed.
 *
 * <p>Progress figures read by other threads are volatile, written by one thread each.
 */
final class FlowRun implements FlowProgress {
    /** UD receive buffers start with the 40-byte GRH area (IBV_WC_GRH). */
    static final int GRH_BYTES = 40;
    static final int QKEY = 0x1111_1111;
    /** IBA RNR timer code of the receivers: 1 = 0.01 ms, so a receiver that drains again is found soon. */
    static final int MIN_RNR_TIMER = 1;
    /** After a UD flow's last send, how long its receiver stays for datagrams still on the way. */
    static final long UD_LINGER_NANOS = 1_000_000;
    static final int MAX_RD_ATOMIC = 16;
    /** A reconnecting flow's destination listens on this rdma_cm port plus the flow's index. */
    static final int CM_PORT = 20_000;
    /** A lane connects from this port plus its number: the destination knows the lane by it. */
    static final int CM_LANE_PORT = 40_000;
    /** A verified flow's own regions start here, 4 GiB apart per flow (on both of its NICs). */
    static final long VERIFY_VA = 0x100_0000_0000L;

    final Flow flow;
    final int index;
    final Workload workload;
    final HostEnd src;
    final HostEnd dst;
    /** Bytes of a full work request (a message is posted in pieces of at most this). */
    final int wrBytes;
    private final SplitMix64 sizes;
    private final int trafficClass;
    private final int recvDepth;
    /** Verified flows: the seed of the data patterns, and the slots per QP in each side's region. */
    private final long patternSeed;
    private final int slots;

    // ---- send side: source owner thread
    private CompletionQueue sendCq;
    private Lane[] lanes;
    private boolean ready;
    private boolean startRequested;
    private boolean running;
    private boolean stopping;
    private boolean failed;
    /** Reconnecting flows: an error completion came; the QPs are being flushed or reconnected. */
    private boolean recovering;
    private boolean reconnectScheduled;
    private volatile long reconnects;
    private boolean done;
    private long messagesPosted;
    private long startedAt = -1;
    private long endedAt = -1;
    private long lastCompletion = -1;
    /** The longest time between the start or a successful completion and the next one. */
    private long maxGap = -1;
    private Cancellable stopTimer;
    private final Map<String, Long> errorsByStatus = new LinkedHashMap<>();
    private final LatencySummary latency = new LatencySummary();
    private FlowResult.Outcome outcome = FlowResult.Outcome.NOT_STARTED;
    private boolean tornDown;

    // ---- receive side: destination owner thread
    private CompletionQueue recvCq;
    /** The destination's scratch region's rkey, for WRITE and READ. */
    private int remoteKey;
    private QueuePair[] peers;
    private RecvWr[] recvWrs;
    private int[] heldBack;
    /** Verified SEND: the slots whose receives are held back, per QP, in the order they completed. */
    private final Map<Integer, ArrayDeque<Integer>> heldSlots = new HashMap<>();
    private boolean receiverGone;

    // ---- progress, read by any thread
    private volatile long bytes;
    /** What the flow's replaced sending QPs had put on the wire ({@link #bytesSent()}). */
    private volatile long retiredBytesSent;
    private volatile long messages;
    private volatile long errors;
    private volatile boolean started;
    private volatile boolean finished;
    private volatile long bytesDelivered;
    /** Verified flows: bytes compared and found as sent, and bytes that differed (one writer thread). */
    private volatile long verifiedBytes;
    private volatile long corruptBytes;
    /** IBV_EVENT_PATH_MIG events on the source's QPs (source owner thread). */
    private volatile long migrations;
    // ---- verified flows: each side's own region, a slot per outstanding work request per QP
    private MemoryRegion srcData;
    private MemoryRegion dstData;
    /** SEND: per QP, the sequence number of the next message its receiver takes (destination thread). */
    private long[] received;
    /** Set when the flow is torn down: setup steps still queued do nothing. */
    private volatile boolean closed;

    FlowRun(Flow flow, int index, Workload workload, HostEnd src, HostEnd dst, long seed, int trafficClass) {
        this.flow = flow;
        this.index = index;
        this.workload = workload;
        this.src = src;
        this.dst = dst;
        this.wrBytes = wrBytes(flow, src, dst);
        this.sizes = new SplitMix64(SplitMix64.derive(seed, index));
        this.trafficClass = trafficClass;
        this.recvDepth = Math.min(Flow.MAX_WINDOW, 2 * flow.window());
        this.patternSeed = SplitMix64.derive(sizes.seed(), 0x7665_7269_6679L);
        this.slots = recvDepth;
    }

    /** The offset of QP {@code lane}'s slot {@code slot} in a verified flow's regions. */
    private int slotOffset(int lane, int slot) {
        return (lane * slots + slot) * wrBytes;
    }

    /** A verified flow's region on {@code end}: every QP's slots, at the flow's own address. */
    private MemoryRegion dataRegion(HostEnd end) {
        return end.pd().registerMr(new byte[flow.qps() * slots * wrBytes], VERIFY_VA + ((long) index << 32),
            AccessFlags.ALL);
    }

    /** READ's source data: the key of the destination's slot, which holds it for the whole run. */
    private long slotKey(int lane, int slot) {
        return DataPattern.key(patternSeed, lane, -1L - slot);
    }

    /** The largest work request a flow posts: the scratch region's limit, or the path MTU for UD. */
    static int wrBytes(Flow flow, HostEnd src, HostEnd dst) {
        long max = flow.verb() == Verb.UD_SEND ? Math.min(src.activeMtu, dst.activeMtu) : Workload.MAX_WR_BYTES;
        return (int) Math.max(1, Math.min(max, flow.size().maxBytes()));
    }

    /** The scratch bytes the flow needs on its destination (UD receives hold the GRH too). */
    int destinationScratch() {
        return flow.verb() == Verb.UD_SEND ? wrBytes + GRH_BYTES : wrBytes;
    }

    private QpType qpType() {
        return flow.verb() == Verb.UD_SEND ? QpType.UD : QpType.RC;
    }

    private int psn(int side, int lane) {
        return (int) (SplitMix64.derive(sizes.seed(), 1 + 2L * lane + side) & 0xFF_FFFF);
    }

    // ================================================================ setup

    /** Begins the setup (any thread): the destination's side first. */
    void setup() {
        dst.owner.execute(this::setupDestination);
    }

    private void setupDestination() {
        if (closed) {
            return;
        }
        int n = flow.qps();
        remoteKey = dst.scratch().rkey();
        if (flow.verify()) {
            dstData = dataRegion(dst);
            remoteKey = dstData.rkey();
            received = new long[n];
            if (flow.verb() == Verb.READ) {
                for (int l = 0; l < n; l++) {
                    for (int slot = 0; slot < slots; slot++) {
                        DataPattern.fill(dstData.buffer(), dstData.bufferOffset() + slotOffset(l, slot), wrBytes,
                            slotKey(l, slot));
                    }
                }
            }
        }
        recvCq = dst.nic.createCq(flow.verb().needsReceives() ? n * recvDepth + 16 : 16);
        peers = new QueuePair[n];
        if (flow.reconnects()) {
            // the peers come with the REQs
            if (flow.verb().needsReceives()) {
                recvWrs = new RecvWr[n];
                heldBack = new int[n];
                recvCq.onNotify(this::onReceiveCompletions);
                recvCq.requestNotify(false);
                dst.receivers.add(this);
            }
            dst.cm().listen(CM_PORT + index, this::onConnectRequest);
            src.owner.execute(this::setupSource);
            return;
        }
        QpCaps caps = new QpCaps(1, Math.max(1, recvDepth), 1, 1, 0, false);
        for (int i = 0; i < n; i++) {
            QueuePair qp = dst.nic.createQp(dst.pd(), qpType(), recvCq, recvCq, caps);
            init(qp);
            peers[i] = qp;
        }
        if (flow.verb().needsReceives()) {
            MemoryRegion mr = dst.scratch();
            int len = destinationScratch();
            recvWrs = new RecvWr[n];
            heldBack = new int[n];
            recvCq.onNotify(this::onReceiveCompletions);
            recvCq.requestNotify(false);
            for (int i = 0; i < n; i++) {
                recvWrs[i] = new RecvWr(i, Sge.of(mr, 0, len));
                if (flow.verify()) {
                    RecvWr[] batch = new RecvWr[recvDepth];
                    for (int slot = 0; slot < recvDepth; slot++) {
                        batch[slot] = slotRecv(i, slot);
                    }
                    peers[i].postRecv(batch);
                    continue;
                }
                RecvWr[] batch = new RecvWr[recvDepth];
                Arrays.fill(batch, recvWrs[i]);
                peers[i].postRecv(batch);
            }
            dst.receivers.add(this);
        }
        if (qpType() == QpType.UD) {
            peers[0].modify(new QpAttr().state(QpState.RTR));
            peers[0].modify(new QpAttr().state(QpState.RTS).sqPsn(psn(1, 0)));
        }
        src.owner.execute(this::setupSource);
    }

    /** A verified SEND flow's receive into QP {@code lane}'s slot {@code slot}: its wr_id says which. */
    private RecvWr slotRecv(int lane, int slot) {
        return new RecvWr((long) lane * slots + slot, Sge.of(dstData, slotOffset(lane, slot), wrBytes));
    }

    private void init(QueuePair qp) {
        QpAttr a = new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1);
        if (qp.type() == QpType.UD) {
            a.qkey(QKEY);
        } else {
            a.accessFlags(AccessFlags.ALL);
        }
        qp.modify(a);
    }

    private void setupSource() {
        if (closed) {
            return;
        }
        int n = flow.qps();
        sendCq = src.nic.createCq(n * flow.window() + 16);
        QpCaps caps = new QpCaps(flow.window(), 1, 1, 1, 0, false);
        MemoryRegion local = src.scratch();
        if (flow.verify()) {
            srcData = dataRegion(src);
        }
        lanes = new Lane[n];
        long perQp = flow.rateBitsPerSecond() / n;
        for (int i = 0; i < n; i++) {
            QueuePair qp = src.nic.createQp(src.pd(), qpType(), sendCq, sendCq, caps);
            init(qp);
            if (qp.type() == QpType.UD) {
                qp.modify(new QpAttr().state(QpState.RTR));
                qp.modify(new QpAttr().state(QpState.RTS).sqPsn(psn(0, i)));
            } else if (!flow.reconnects()) {
                connect(qp, peers[i].qpn(), dst.nic.ipv4(), psn(1, i), psn(0, i), true);
            }
            if (perQp > 0 && qp.type() == QpType.RC) {
                qp.setRateLimit(Math.max(1, perQp), 0);
            }
            lanes[i] = new Lane(i, qp, local);
        }
        sendCq.onNotify(this::onSendCompletions);
        if (flow.reconnects()) {
            for (Lane l : lanes) {
                cmConnect(l);
            }
        } else if (qpType() == QpType.UD) {
            onReady();
        } else {
            dst.owner.execute(this::connectDestination);
        }
    }

    private void connect(QueuePair qp, int peerQpn, int peerIpv4, int rqPsn, int sqPsn, boolean sourceSide) {
        qp.modify(new QpAttr().state(QpState.RTR).av(pathTo(qp.port(), peerIpv4))
            .pathMtu(Math.min(src.activeMtu, dst.activeMtu)).destQpn(peerQpn).rqPsn(rqPsn)
            .maxDestRdAtomic(MAX_RD_ATOMIC).minRnrTimer(MIN_RNR_TIMER));
        QpAttr rts = new QpAttr().state(QpState.RTS).sqPsn(sqPsn).timeout(flow.ackTimeout())
            .retryCnt(flow.retryCount()).rnrRetry(flow.rnrRetry()).maxRdAtomic(MAX_RD_ATOMIC);
        AltPath alt = flow.altPath();
        if (alt != null) {
            // the alternate path, loaded and armed as a CM's LAP or an application does (REARM: armed
            // on the peer's first packet); each side's from its own port to the other's
            int localPort = sourceSide ? alt.port() : alt.remotePort();
            HostEnd peer = sourceSide ? dst : src;
            int peerAddress = peer.nic.port(sourceSide ? alt.remotePort() : alt.port()).ipv4();
            HostEnd self = sourceSide ? src : dst;
            rts.altPath(pathTo(self.nic.port(localPort), peerAddress), localPort,
                alt.timeoutOr(flow.ackTimeout()), 0).pathMigState(MigState.REARM);
        }
        qp.modify(rts);
        if (alt != null && sourceSide) {
            src.onPathMigration(qp, this::onPathMigration);
        }
    }

    /**
     * The path to {@code peerIpv4} from {@code port}'s IPv4-mapped GID of the flow's type: RoCEv2
     * (index 1 on rxe's table, 3 on a ConnectX's) or, for a RoCEv1 flow, RoCEv1 (2 on a ConnectX's).
     */
    private AddressHandle pathTo(io.rocelab.nic.NicPort port, int peerIpv4) {
        io.rocelab.nic.net.GidType type = flow.roceV1() ? io.rocelab.nic.net.GidType.ROCE_V1
            : io.rocelab.nic.net.GidType.ROCE_V2;
        return AddressHandle.ipv4(peerIpv4, port.ipv4GidIndex(type)).withTrafficClass(trafficClass);
    }

    /** Source owner thread: IBV_EVENT_PATH_MIG on one of the flow's QPs. */
    private void onPathMigration() {
        migrations++;
    }

    private void connectDestination() {
        if (receiverGone) {
            return;
        }
        for (int i = 0; i < peers.length; i++) {
            connect(peers[i], lanes[i].qp.qpn(), src.nic.ipv4(), psn(0, i), psn(1, i), false);
        }
        src.owner.execute(this::onReady);
    }

    // ================================================================ through rdma_cm (reconnecting flows)

    private CmConnectParams cmParams() {
        return new CmConnectParams(MAX_RD_ATOMIC, MAX_RD_ATOMIC, flow.retryCount(), flow.rnrRetry(),
            Math.min(src.activeMtu, dst.activeMtu), trafficClass, flow.ackTimeout());
    }

    /** Source owner thread: connects {@code lane}'s QP (in INIT) to the destination's listener. */
    private void cmConnect(Lane lane) {
        if (closed) {
            return;
        }
        lane.connected = false;
        src.cm().connect(lane.qp, dst.nic.ipv4(), CM_PORT + index, CM_LANE_PORT + lane.id, cmParams(),
            e -> onCmEvent(lane, e));
    }

    /** Source owner thread: a lane's connection is made, or could not be (try again after the delay). */
    private void onCmEvent(Lane lane, CmEvent e) {
        if (closed || e.id().qp() != lane.qp) {
            return; // about a QP this lane no longer has
        }
        if (e.type() == CmEventType.ESTABLISHED) {
            lane.connected = true;
            for (Lane l : lanes) {
                if (!l.connected) {
                    return;
                }
            }
            if (!ready) {
                onReady();
            } else {
                resume();
            }
        } else if (e.type() != CmEventType.DISCONNECTED) {
            // REJECTED, UNREACHABLE, CONNECT_ERROR: a new QP, and again after the delay
            src.owner.schedule(flow.reconnectNanos(), () -> {
                if (!closed) {
                    lane.replaceQp();
                    cmConnect(lane);
                }
            });
        }
    }

    /** Destination owner thread: a lane's REQ; its old QP (if any) goes, a new one takes the connection. */
    private void onConnectRequest(CmEvent e) {
        if (e.type() != CmEventType.CONNECT_REQUEST || receiverGone) {
            return;
        }
        int lane = e.ipHeader().sourcePort() - CM_LANE_PORT;
        if (lane < 0 || lane >= peers.length) {
            dst.cm().reject(e.id());
            return;
        }
        if (peers[lane] != null) {
            if (flow.verb() == Verb.READ) {
                retiredBytesSent += peers[lane].bytesSent();
            }
            peers[lane].destroy();
        }
        QueuePair qp = dst.nic.createQp(dst.pd(), QpType.RC, recvCq, recvCq,
            new QpCaps(1, Math.max(1, recvDepth), 1, 1, 0, false));
        init(qp);
        peers[lane] = qp;
        if (flow.verb().needsReceives()) {
            recvWrs[lane] = new RecvWr(lane, Sge.of(dst.scratch(), 0, destinationScratch()));
            heldBack[lane] = 0;
            RecvWr[] batch = new RecvWr[recvDepth];
            Arrays.fill(batch, recvWrs[lane]);
            qp.postRecv(batch);
        }
        dst.cm().accept(e.id(), qp, cmParams());
    }

    /** Source owner thread: an error completion came; every QP goes to the error state so the rest flush. */
    private void startRecovery() {
        recovering = true;
        for (Lane l : lanes) {
            if (l.qp.state() != QpState.ERR) {
                l.qp.modify(new QpAttr().state(QpState.ERR));
            }
        }
    }

    /** Source owner thread: once nothing is outstanding, reconnect after the flow's delay. */
    private void maybeReconnect() {
        if (!recovering || reconnectScheduled || stopping || done) {
            return;
        }
        for (Lane l : lanes) {
            if (l.outstanding > 0) {
                return;
            }
        }
        reconnectScheduled = true;
        src.owner.schedule(flow.reconnectNanos(), this::reconnect);
    }

    /** Source owner thread: new QPs, connected through rdma_cm; what had not completed is posted again. */
    private void reconnect() {
        reconnectScheduled = false;
        if (closed || done || stopping) {
            return;
        }
        reconnects++;
        messagesPosted = messages;
        for (Lane l : lanes) {
            l.remaining = 0;
            l.replaceQp();
        }
        for (Lane l : lanes) {
            cmConnect(l);
        }
    }

    /** Source owner thread: every lane is connected again. */
    private void resume() {
        recovering = false;
        sendCq.requestNotify(false);
        for (Lane l : lanes) {
            fill(l);
        }
        checkDone();
    }

    /** @return how many times the flow connected new QPs after an error */
    long reconnects() {
        return reconnects;
    }

    private void onReady() {
        if (closed) {
            return;
        }
        ready = true;
        if (startRequested && !done) {
            begin(); // not after a stop that came while the QPs were being readied: it never started
        }
    }

    // ================================================================ running (source owner thread)

    /** The flow's start time has come, or {@link Workload#startFlow}. Source owner thread. */
    void requestStart() {
        if (startRequested || done) {
            return;
        }
        startRequested = true;
        if (flow.onDemand()) {
            setup();
        } else if (ready) {
            begin();
        }
    }

    private void begin() {
        long now = src.owner.nanoTime();
        running = true;
        startedAt = now;
        outcome = FlowResult.Outcome.RUNNING;
        started = true;
        long end = Long.MAX_VALUE;
        if (flow.durationNanos() > 0) {
            end = now + flow.durationNanos();
        }
        if (flow.stopNanos() != Long.MAX_VALUE) {
            end = Math.min(end, workload.epochNanos() + flow.stopNanos());
        }
        if (end != Long.MAX_VALUE) {
            stopTimer = src.owner.scheduleAt(end, this::stop);
        }
        sendCq.requestNotify(false);
        for (Lane l : lanes) {
            fill(l);
        }
        checkDone();
    }

    /** Stops posting; outstanding work requests still complete. Source owner thread. */
    void stop() {
        if (done) {
            return;
        }
        if (!running) {
            // never started: it never will
            finish(FlowResult.Outcome.NOT_STARTED);
            return;
        }
        stopping = true;
        checkDone();
    }

    private boolean mayPost() {
        return running && !stopping && !failed && !recovering;
    }

    /** Posts work requests on {@code lane} until its window is full or the flow has no more. */
    private void fill(Lane lane) {
        while (lane.outstanding < flow.window() && mayPost()) {
            if (lane.remaining == 0) {
                if (flow.messages() > 0 && messagesPosted >= flow.messages()) {
                    return;
                }
                messagesPosted++;
                lane.remaining = flow.size().sample(sizes);
                lane.messageStart = src.owner.nanoTime();
            }
            int len = (int) Math.min(wrBytes, lane.remaining);
            lane.remaining -= len;
            int slot = lane.push(len, lane.remaining == 0 ? lane.messageStart : -1);
            lane.qp.postSend(flow.verify() ? lane.verifiedWr(slot, len) : lane.wr(len));
        }
    }

    /** The send CQ's notification (source owner thread): count, post more, arm again. */
    private void onSendCompletions() {
        long now = src.owner.nanoTime();
        for (WorkCompletion wc; (wc = sendCq.poll()) != null; ) {
            Lane lane = lanes[(int) wc.wrId()];
            int len = lane.headBytes();
            long messageStart = lane.headMessageStart();
            int slot = lane.head;
            long sequence = lane.headSequence();
            lane.pop();
            if (wc.status() == WcStatus.SUCCESS) {
                if (flow.verify()) {
                    verifyCompleted(lane.id, slot, sequence, len);
                }
                bytes += len;
                maxGap = Math.max(maxGap, now - (lastCompletion >= 0 ? lastCompletion : startedAt));
                lastCompletion = now;
                if (messageStart >= 0) {
                    messages++;
                    latency.record(now - messageStart);
                }
            } else {
                errors++;
                errorsByStatus.merge(wc.status().verbsName(), 1L, Long::sum);
                if (flow.reconnects()) {
                    if (!recovering) {
                        startRecovery();
                    }
                } else {
                    failed = true;
                }
            }
            fill(lane);
        }
        maybeReconnect();
        checkDone();
        if (!done) {
            sendCq.requestNotify(false);
        }
    }

    /**
     * Source owner thread: a verified WRITE or READ work request completed; the bytes it moved are
     * compared with what was sent. A WRITE's completion means its data is placed in the destination's
     * memory (the ACK follows the placement), and its slot there is not written again before the
     * next work request into it is posted, after this; a READ's data is in the source's slot, which
     * held bytes that differ everywhere before it was posted. (SEND is checked at its receiver.)
     */
    private void verifyCompleted(int lane, int slot, long sequence, int len) {
        int bad;
        if (flow.verb() == Verb.WRITE) {
            bad = DataPattern.mismatches(dstData.buffer(), dstData.bufferOffset() + slotOffset(lane, slot), len,
                DataPattern.key(patternSeed, lane, sequence));
        } else if (flow.verb() == Verb.READ) {
            bad = DataPattern.mismatches(srcData.buffer(), srcData.bufferOffset() + slotOffset(lane, slot), len,
                slotKey(lane, slot));
        } else {
            return;
        }
        record(len, bad);
    }

    /** One work request's bytes compared: {@code bad} of its {@code len} differed. */
    private void record(int len, int bad) {
        if (bad == 0) {
            verifiedBytes += len;
        } else {
            corruptBytes += bad;
            verifiedBytes += len - bad;
        }
    }

    private void checkDone() {
        if (done || !running || recovering && !stopping) {
            return;
        }
        boolean more = mayPost();
        if (more && flow.messages() > 0 && messagesPosted >= flow.messages()) {
            more = false;
            for (Lane l : lanes) {
                more |= l.remaining > 0;
            }
        }
        if (more) {
            return;
        }
        for (Lane l : lanes) {
            if (l.outstanding > 0) {
                return;
            }
        }
        finish(failed ? FlowResult.Outcome.FAILED
            : flow.messages() > 0 && messages >= flow.messages() ? FlowResult.Outcome.COMPLETED
            : FlowResult.Outcome.STOPPED);
    }

    private void finish(FlowResult.Outcome how) {
        endedAt = src.owner.nanoTime();
        done = true;
        running = false;
        outcome = how;
        if (stopTimer != null) {
            stopTimer.cancel();
            stopTimer = null;
        }
        finished = true;
        workload.flowFinished(this);
        if (flow.onDemand()) {
            tearDownSource();
        }
    }

    // ================================================================ receive side (destination owner thread)

    private void onReceiveCompletions() {
        long delivered = 0;
        for (WorkCompletion wc; (wc = recvCq.poll()) != null; ) {
            if (wc.status() != WcStatus.SUCCESS) {
                continue; // flushed by an error or a teardown: nothing to repost
            }
            delivered += wc.byteLen() - (qpType() == QpType.UD ? GRH_BYTES : 0);
            if (flow.verify()) {
                onVerifiedReceive(wc);
                continue;
            }
            int i = (int) wc.wrId();
            if (dst.draining && !receiverGone) {
                peers[i].postRecv(recvWrs[i]);
            } else {
                heldBack[i]++;
            }
        }
        if (delivered != 0) {
            bytesDelivered += delivered;
        }
        if (!receiverGone) {
            recvCq.requestNotify(false);
        }
    }

    /**
     * Destination owner thread: a verified SEND arrived in a QP's slot: its bytes are those of the
     * QP's next message (an RC QP's receives complete in the order its peer sent), then the slot
     * takes another receive. Held back while the host does not drain, reposted by
     * {@link #resumeReceives}.
     */
    private void onVerifiedReceive(WorkCompletion wc) {
        int lane = (int) (wc.wrId() / slots);
        int slot = (int) (wc.wrId() % slots);
        int len = wc.byteLen();
        record(len, DataPattern.mismatches(dstData.buffer(), dstData.bufferOffset() + slotOffset(lane, slot), len,
            DataPattern.key(patternSeed, lane, received[lane]++)));
        if (dst.draining && !receiverGone) {
            peers[lane].postRecv(slotRecv(lane, slot));
        } else {
            heldBack[lane]++;
            heldSlots.computeIfAbsent(lane, k -> new ArrayDeque<>()).add(slot);
        }
    }

    /** Posts the receives held back while the host did not drain. Destination owner thread. */
    void resumeReceives() {
        if (receiverGone || recvWrs == null) {
            return;
        }
        for (int i = 0; i < peers.length; i++) {
            if (heldBack[i] > 0 && flow.verify()) {
                ArrayDeque<Integer> held = heldSlots.remove(i);
                RecvWr[] batch = new RecvWr[held.size()];
                for (int k = 0; k < batch.length; k++) {
                    batch[k] = slotRecv(i, held.poll());
                }
                heldBack[i] = 0;
                peers[i].postRecv(batch);
            } else if (heldBack[i] > 0) {
                RecvWr[] batch = new RecvWr[heldBack[i]];
                Arrays.fill(batch, recvWrs[i]);
                heldBack[i] = 0;
                peers[i].postRecv(batch);
            }
        }
    }

    // ================================================================ teardown

    /** Destroys the source's QPs (source owner thread), then the destination's. */
    void tearDownSource() {
        if (tornDown) {
            return;
        }
        tornDown = true;
        closed = true;
        if (!done) {
            done = true;
            running = false;
            if (stopTimer != null) {
                stopTimer.cancel();
                stopTimer = null;
            }
        }
        if (lanes != null) {
            for (Lane l : lanes) {
                src.forgetPathMigration(l.qp);
                l.qp.destroy();
            }
        }
        if (flow.verb() == Verb.UD_SEND && workload.running()) {
            dst.owner.schedule(UD_LINGER_NANOS, this::tearDownDestination);
        } else {
            dst.owner.execute(this::tearDownDestination);
        }
    }

    /** Destination owner thread. */
    void tearDownDestination() {
        if (receiverGone) {
            return;
        }
        receiverGone = true;
        if (peers != null) {
            for (QueuePair qp : peers) {
                if (qp != null) {
                    qp.destroy();
                }
            }
        }
        dst.receivers.remove(this);
    }

    // ================================================================ results

    /** Source owner thread (or after the run). */
    FlowResult result() {
        long fct = outcome == FlowResult.Outcome.COMPLETED ? lastCompletion - startedAt : -1;
        long epoch = workload.epochNanos();
        long b = bytes;
        double goodput = lastCompletion > startedAt && startedAt >= 0 ? b * 8e9 / (lastCompletion - startedAt) : 0;
        FlowResult.Outcome o = outcome;
        return new FlowResult(flow.name(), flow.source(), flow.destination(), flow.verb(), o, messages, b,
            flow.verb().needsReceives() ? bytesDelivered : b, startedAt < 0 ? -1 : startedAt - epoch,
            lastCompletion < 0 ? -1 : lastCompletion - epoch, fct, goodput, errorsByStatus, latency.quantile(0.5),
            latency.quantile(0.99), latency.max(), maxGap(o), reconnects, migrations, verifiedBytes, corruptBytes);
    }

    /** The longest gap, counting the one still open at the end of a flow that did not complete. */
    private long maxGap(FlowResult.Outcome o) {
        if (startedAt < 0) {
            return -1;
        }
        if (o == FlowResult.Outcome.COMPLETED || o == FlowResult.Outcome.STOPPED) {
            return Math.max(maxGap, 0);
        }
        long open = (o == FlowResult.Outcome.RUNNING ? src.owner.nanoTime() : endedAt)
            - (lastCompletion >= 0 ? lastCompletion : startedAt);
        return Math.max(maxGap, open);
    }

    @Override
    public long bytesCompleted() {
        return bytes;
    }

    /** The frames of its sending QPs: the requesters', or for READ the responders' at the destination. */
    @Override
    public long bytesSent() {
        long sum = retiredBytesSent;
        if (flow.verb() == Verb.READ) {
            QueuePair[] p = peers;
            if (p != null) {
                for (QueuePair qp : p) {
                    sum += qp == null ? 0 : qp.bytesSent();
                }
            }
            return sum;
        }
        Lane[] l = lanes;
        if (l != null) {
            for (Lane lane : l) {
                sum += lane == null ? 0 : lane.qp.bytesSent();
            }
        }
        return sum;
    }

    /** The sum of its sending QPs' congestion control rates; NaN if none runs on them. */
    @Override
    public double congestionRateBitsPerSecond() {
        QueuePair[] senders;
        if (flow.verb() == Verb.READ) {
            senders = peers;
        } else {
            Lane[] l = lanes;
            senders = l == null ? null : new QueuePair[l.length];
            for (int i = 0; senders != null && i < l.length; i++) {
                senders[i] = l[i] == null ? null : l[i].qp;
            }
        }
        double sum = Double.NaN;
        if (senders != null) {
            for (QueuePair qp : senders) {
                double r = qp == null ? Double.NaN : qp.congestionRateBitsPerSecond();
                if (!Double.isNaN(r)) {
                    sum = Double.isNaN(sum) ? r : sum + r;
                }
            }
        }
        return sum;
    }

    @Override
    public long messagesCompleted() {
        return messages;
    }

    @Override
    public long errorCompletions() {
        return errors;
    }

    @Override
    public boolean started() {
        return started;
    }

    @Override
    public boolean finished() {
        return finished;
    }

    /** One QP of the flow's send side, and the work requests outstanding on it, oldest first. */
    private final class Lane {
        final int id;
        QueuePair qp;
        /** Through rdma_cm: whether its QP's connection is established. */
        boolean connected;
        final MemoryRegion local;
        /** The work request of a full piece, reused (the NIC copies a work request when it is posted). */
        private final SendWr full;
        int outstanding;
        /** Bytes of the current message not yet posted. */
        long remaining;
        long messageStart;
        private final int[] ringBytes;
        /** The message's first post time for a message's last piece, -1 for the others. */
        private final long[] ringMessageStart;
        /** Each outstanding work request's sequence number on this QP (verified flows' pattern). */
        private final long[] ringSequence;
        /** Work requests posted on this lane so far. */
        private long sequence;
        int head;

        Lane(int id, QueuePair qp, MemoryRegion local) {
            this.id = id;
            this.qp = qp;
            this.local = local;
            this.ringBytes = new int[flow.window()];
            this.ringMessageStart = new long[flow.window()];
            this.ringSequence = new long[flow.window()];
            this.full = build(wrBytes);
        }

        SendWr wr(int len) {
            return len == wrBytes ? full : build(len);
        }

        /** A new QP in INIT in place of the old one, which is destroyed. Source owner thread. */
        void replaceQp() {
            QueuePair old = qp;
            qp = src.nic.createQp(src.pd(), QpType.RC, sendCq, sendCq, new QpCaps(flow.window(), 1, 1, 1, 0, false));
            init(qp);
            long perQp = flow.rateBitsPerSecond() / flow.qps();
            if (perQp > 0) {
                qp.setRateLimit(Math.max(1, perQp), 0);
            }
            if (flow.verb() != Verb.READ) {
                retiredBytesSent += old.bytesSent();
            }
            old.destroy();
            head = 0;
            outstanding = 0;
        }

        private SendWr build(int len) {
            Sge sge = Sge.of(local, 0, len);
            return switch (flow.verb()) {
                case WRITE -> SendWr.write(id, sge, HostEnd.SCRATCH_VA, remoteKey).signaled(true);
                case READ -> SendWr.read(id, sge, HostEnd.SCRATCH_VA, remoteKey).signaled(true);
                case SEND -> SendWr.send(id, sge).signaled(true);
                case UD_SEND -> SendWr.send(id, sge).signaled(true)
                    .ud(pathTo(qp.port(), dst.nic.ipv4()), peers[0].qpn(), QKEY);
            };
        }

        /** @return its place in the ring: the slot of a verified flow's regions it uses */
        int push(int len, long messageStartNanos) {
            int at = (head + outstanding) % ringBytes.length;
            ringBytes[at] = len;
            ringMessageStart[at] = messageStartNanos;
            ringSequence[at] = sequence++;
            outstanding++;
            return at;
        }

        long headSequence() {
            return ringSequence[head];
        }

        /**
         * A verified flow's work request in ring slot {@code slot} (just pushed): a WRITE or SEND
         * from the source's slot, which now holds the pattern of its sequence number, to the
         * destination's slot; a READ from the destination's slot (its fixed pattern) into the
         * source's, which now holds bytes that differ from it everywhere.
         */
        SendWr verifiedWr(int slot, int len) {
            long seq = ringSequence[slot];
            int off = slotOffset(id, slot);
            byte[] buf = srcData.buffer();
            int base = srcData.bufferOffset() + off;
            Sge sge = Sge.of(srcData, off, len);
            long remote = dstData.addr() + off;
            return switch (flow.verb()) {
                case WRITE -> {
                    DataPattern.fill(buf, base, len, DataPattern.key(patternSeed, id, seq));
                    yield SendWr.write(id, sge, remote, remoteKey).signaled(true);
                }
                case READ -> {
                    DataPattern.poison(buf, base, len, slotKey(id, slot));
                    yield SendWr.read(id, sge, remote, remoteKey).signaled(true);
                }
                case SEND -> {
                    DataPattern.fill(buf, base, len, DataPattern.key(patternSeed, id, seq));
                    yield SendWr.send(id, sge).signaled(true);
                }
                case UD_SEND -> throw new IllegalStateException("UD flows are not verified");
            };
        }

        int headBytes() {
            return ringBytes[head];
        }

        long headMessageStart() {
            return ringMessageStart[head];
        }

        void pop() {
            head = (head + 1) % ringBytes.length;
            outstanding--;
        }
    }
}
