package io.rocelab.topology.collective;

import io.rocelab.fabric.random.SplitMix64;
import io.rocelab.fabric.time.Scheduler;
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
import io.rocelab.nic.WcStatus;
import io.rocelab.nic.WorkCompletion;
import io.rocelab.nic.WrOpcode;
import io.rocelab.topology.fabric.Fabric;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One collective at run time: a {@link Rank} per host, each living on its NIC's owner thread, and
 * the iteration barrier between them.
 *
 * <p>Transport, as NCCL's IB transport ({@code net_ib.cc}: RDMA WRITEs on RC QPs, the last of a
 * transfer with immediate data, {@code NCCL_IB_QPS_PER_CONNECTION} QPs per connection): each
 * ordered pair of ranks that exchange data has its own {@code qps} RC QPs, the sender's on its NIC
 * and the receiver's on its own; every work request is an RDMA WRITE with immediate of at most
 * {@code chunk} bytes into the receiver's scratch region, its immediate naming the step (and the
 * iteration's parity), so the receive completion it consumes tells the receiver how many bytes of
 * which step have landed. The receiver keeps receive work requests posted, reposting one for each
 * that completes. The data is not reduced and its bytes overlap in the scratch region: what the
 * network carries is the same.
 *
 * <p>Iterations: the first starts at the collective's start on every rank; a rank finishes when
 * every byte it receives has landed and every write it posted has completed; when the last rank
 * finishes, the next iteration starts on every rank at once (a barrier outside the network, as
 * after a synchronising collective), so each iteration's time is its job completion time.
 */
final class CollectiveRun {
    /** Each collective's scratch regions start here, 4 GiB apart per collective. */
    static final long SCRATCH_VA = 0x200_0000_0000L;
    static final int MAX_RD_ATOMIC = 16;
    /** NCCL's defaults ({@code net_ib.cc}: {@code NCCL_IB_TIMEOUT} 18, 4.096 us x 2^18 = 1.07 s; {@code NCCL_IB_RETRY_CNT} 7). */
    static final int ACK_TIMEOUT = 18;
    static final int RETRY_COUNT = 7;
    static final int RNR_RETRY = 7;
    static final int MIN_RNR_TIMER = 1;

    final Collective collective;
    final int index;
    private final Collectives engine;
    final Rank[] ranks;
    private final int trafficClass;
    private final long seed;

    // ---- the barrier: any rank's thread, under this
    private int iteration = -1;
    private int ranksDone;
    private long iterationStart;
    private long lastFinish;
    private int lastRank;
    private int slowestStep;
    private int slowestStepRank;
    private long slowestStepNanos;
    private long[] rankEnds;
    private final List<IterationResult> results = new ArrayList<>();
    private volatile boolean finished;
    private volatile boolean failed;
    private volatile boolean closed;

    CollectiveRun(Collective collective, int index, Collectives engine, Fabric fabric, int dscp, long seed) {
        this.collective = collective;
        this.index = index;
        this.engine = engine;
        this.trafficClass = dscp << 2;
        this.seed = SplitMix64.derive(seed, 0x436F_6C6CL + index);
        int n = collective.n();
        ranks = new Rank[n];
        for (int r = 0; r < n; r++) {
            String h = collective.ranks().get(r);
            ranks[r] = new Rank(r, h, fabric.nic(h), fabric.scheduler(h), Schedule.of(collective, r));
        }
    }

    // ================================================================ setup (the building thread)

    /** Creates every rank's memory and CQs, then each connection's QPs, connected, receives posted. */
    void setup(Fabric fabric) {
        for (Rank r : ranks) {
            fabric.onOwner(r.host, () -> {
                r.open();
                return null;
            });
        }
        for (Rank r : ranks) {
            for (int peer : r.sendPeers()) {
                Rank p = ranks[peer];
                int mtu = Math.min(r.nic.activeMtu(), p.nic.activeMtu());
                int q = collective.qps();
                QueuePair[] rx = fabric.onOwner(p.host, () -> p.openReceiver(r.rank));
                QueuePair[] tx = fabric.onOwner(r.host, () -> r.openSender(peer));
                int[] txQpn = Arrays.stream(tx).mapToInt(QueuePair::qpn).toArray();
                int[] rxQpn = Arrays.stream(rx).mapToInt(QueuePair::qpn).toArray();
                fabric.onOwner(r.host, () -> {
                    for (int i = 0; i < q; i++) {
                        connect(tx[i], rxQpn[i], p.nic.ipv4(), mtu, psn(peer, r.rank, i), psn(r.rank, peer, i));
                    }
                    return null;
                });
                fabric.onOwner(p.host, () -> {
                    for (int i = 0; i < q; i++) {
                        connect(rx[i], txQpn[i], r.nic.ipv4(), mtu, psn(r.rank, peer, i), psn(peer, r.rank, i));
                    }
                    return null;
                });
            }
        }
        for (Rank r : ranks) {
            fabric.onOwner(r.host, () -> {
                r.armCqs();
                return null;
            });
        }
    }

    /** The first PSN of the QP that rank {@code from} sends on to {@code to}, lane {@code lane}. */
    private int psn(int from, int to, int lane) {
        return (int) (SplitMix64.derive(seed, ((long) from << 32) ^ ((long) to << 8) ^ lane) & 0xFF_FFFF);
    }

    private void connect(QueuePair qp, int peerQpn, int peerIpv4, int mtu, int rqPsn, int sqPsn) {
        // the IPv4-mapped RoCEv2 GID, whichever table the NIC has (rxe's, or a ConnectX's with RoCEv1 too)
        int sgid = qp.port().ipv4GidIndex(io.rocelab.nic.net.GidType.ROCE_V2);
        qp.modify(new QpAttr().state(QpState.RTR).av(AddressHandle.ipv4(peerIpv4, sgid).withTrafficClass(trafficClass))
            .pathMtu(mtu).destQpn(peerQpn).rqPsn(rqPsn).maxDestRdAtomic(MAX_RD_ATOMIC).minRnrTimer(MIN_RNR_TIMER));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(sqPsn).timeout(ACK_TIMEOUT).retryCnt(RETRY_COUNT)
            .rnrRetry(RNR_RETRY).maxRdAtomic(MAX_RD_ATOMIC));
    }

    private static void init(QueuePair qp) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.ALL));
    }

    // ================================================================ the barrier

    /** Starts iteration 0 on every rank (the engine's timer, at the collective's start). */
    void start(long now) {
        synchronized (this) {
            if (iteration >= 0 || closed) {
                return;
            }
            beginIteration(0, now);
        }
    }

    /** Under this: every rank begins {@code it} now. */
    private void beginIteration(int it, long now) {
        iteration = it;
        ranksDone = 0;
        iterationStart = now;
        lastFinish = now;
        lastRank = 0;
        slowestStep = 0;
        slowestStepRank = 0;
        slowestStepNanos = -1;
        rankEnds = new long[ranks.length];
        for (Rank r : ranks) {
            r.owner.execute(() -> r.begin(it, now));
        }
    }

    /** A rank finished iteration {@code it} at {@code now}: its longest step was {@code step}, {@code stepNanos}. */
    private void rankFinished(Rank r, int it, long now, int step, long stepNanos) {
        IterationResult done = null;
        synchronized (this) {
            if (it != iteration || closed) {
                return;
            }
            ranksDone++;
            rankEnds[r.rank] = now - engine.epochNanos();
            if (now >= lastFinish) {
                lastFinish = now;
                lastRank = r.rank;
            }
            if (stepNanos > slowestStepNanos) {
                slowestStepNanos = stepNanos;
                slowestStep = step;
                slowestStepRank = r.rank;
            }
            if (ranksDone < ranks.length) {
                return;
            }
            long epoch = engine.epochNanos();
            done = new IterationResult(it, it < collective.warmup(), iterationStart - epoch, lastFinish - epoch,
                lastRank, slowestStep, slowestStepRank, slowestStepNanos,
                java.util.Arrays.stream(rankEnds).boxed().toList());
            results.add(done);
            if (it + 1 < collective.warmup() + collective.iterations()) {
                beginIteration(it + 1, now);
                return;
            }
            finished = true;
        }
        engine.collectiveFinished(this);
    }

    /** A work request completed in error: the collective stops (its QPs are in error and flush). */
    private void fail() {
        failed = true;
    }

    boolean finished() {
        return finished;
    }

    CollectiveResult result() {
        long errors = 0;
        for (Rank r : ranks) {
            errors += r.errors;
        }
        synchronized (this) {
            return new CollectiveResult(collective, results, errors);
        }
    }

    /** Destroys every rank's QPs (on their owner threads, waiting for each). */
    void close(Fabric fabric) {
        synchronized (this) {
            closed = true;
        }
        for (Rank r : ranks) {
            fabric.onOwner(r.host, () -> {
                r.close();
                return null;
            });
        }
    }

    /** One rank: its memory, CQs and QPs on its NIC, and its progress in the current iteration. Owner thread. */
    final class Rank {
        final int rank;
        final String host;
        final SoftNic nic;
        final Scheduler owner;
        final List<Schedule.Step> steps;
        private final long sendTotal;
        private final long[] recvTotal;
        private ProtectionDomain pd;
        private MemoryRegion scratch;
        private CompletionQueue sendCq;
        private CompletionQueue recvCq;
        /** Per peer it sends to: its QPs and what is outstanding on each. */
        private final Map<Integer, Out> outs = new LinkedHashMap<>();
        /** Every sending QP, by its number in wrIds. */
        private final List<Out> outByLane = new ArrayList<>();
        private final List<QueuePair> inQps = new ArrayList<>();
        private RecvWr recvWr;
        private int recvDepth;
        volatile long errors;

        // ---- the iteration
        private int iteration = -1;
        private boolean active;
        private long started;
        /** The lowest step not yet fully posted, and the bytes posted of each step's transfers. */
        private int cursor;
        private long[][] posted;
        private long sentCompleted;
        /** Bytes landed per step, per iteration parity (the next iteration's may come first). */
        private final long[][] received;
        private final long[] landed;

        Rank(int rank, String host, SoftNic nic, Scheduler owner, List<Schedule.Step> steps) {
            this.rank = rank;
            this.host = host;
            this.nic = nic;
            this.owner = owner;
            this.steps = steps;
            long s = 0;
            recvTotal = new long[steps.size()];
            posted = new long[steps.size()][];
            for (int k = 0; k < steps.size(); k++) {
                s += steps.get(k).sent();
                recvTotal[k] = steps.get(k).received();
                posted[k] = new long[steps.get(k).sendTo().length];
            }
            sendTotal = s;
            received = new long[2][steps.size()];
            landed = new long[steps.size()];
        }

        /** The ranks it sends to, in the order it first does. */
        List<Integer> sendPeers() {
            List<Integer> out = new ArrayList<>();
            for (Schedule.Step st : steps) {
                for (int p : st.sendTo()) {
                    if (!out.contains(p)) {
                        out.add(p);
                    }
                }
            }
            return out;
        }

        private int recvPeers() {
            List<Integer> in = new ArrayList<>();
            for (Schedule.Step st : steps) {
                for (int p : st.recvFrom()) {
                    if (!in.contains(p)) {
                        in.add(p);
                    }
                }
            }
            return in.size();
        }

        void open() {
            pd = nic.allocPd();
            scratch = pd.registerMr(new byte[collective.chunkBytes()], SCRATCH_VA + ((long) index << 32),
                AccessFlags.ALL);
            int q = collective.qps();
            int window = collective.window();
            recvDepth = Math.min(Collective.MAX_WINDOW * 2, 2 * window);
            sendCq = nic.createCq(sendPeers().size() * q * window + 16);
            recvCq = nic.createCq(recvPeers() * q * recvDepth + 16);
            recvWr = new RecvWr(0, Sge.of(scratch, 0, collective.chunkBytes()));
        }

        QueuePair[] openReceiver(int from) {
            QueuePair[] qps = new QueuePair[collective.qps()];
            QpCaps caps = new QpCaps(1, recvDepth, 1, 1, 0, false);
            for (int i = 0; i < qps.length; i++) {
                QueuePair qp = nic.createQp(pd, QpType.RC, recvCq, recvCq, caps);
                init(qp);
                RecvWr[] batch = new RecvWr[recvDepth];
                Arrays.fill(batch, new RecvWr(inQps.size(), Sge.of(scratch, 0, collective.chunkBytes())));
                qp.postRecv(batch);
                inQps.add(qp);
                qps[i] = qp;
            }
            return qps;
        }

        QueuePair[] openSender(int to) {
            QueuePair[] qps = new QueuePair[collective.qps()];
            QpCaps caps = new QpCaps(collective.window(), 1, 1, 1, 0, false);
            for (int i = 0; i < qps.length; i++) {
                qps[i] = nic.createQp(pd, QpType.RC, sendCq, sendCq, caps);
                init(qps[i]);
            }
            Out o = new Out(to, qps, outByLane.size());
            outs.put(to, o);
            outByLane.add(o);
            return qps;
        }

        void armCqs() {
            sendCq.onNotify(this::onSendCompletions);
            sendCq.requestNotify(false);
            recvCq.onNotify(this::onReceiveCompletions);
            recvCq.requestNotify(false);
        }

        /** Starts iteration {@code it}: nothing posted, nothing landed but what came early. */
        void begin(int it, long now) {
            if (closed || failed) {
                return;
            }
            iteration = it;
            active = true;
            started = now;
            cursor = 0;
            sentCompleted = 0;
            for (long[] p : posted) {
                Arrays.fill(p, 0);
            }
            Arrays.fill(landed, -1);
            long[] got = received[it & 1];
            for (int k = 0; k < steps.size(); k++) {
                if (got[k] >= recvTotal[k]) {
                    landed[k] = now;
                }
            }
            pump();
            checkDone();
        }

        /** The bytes step {@code k}'s transfer {@code i} may have posted by now: what its wait allows. */
        private long allowed(int k, int i) {
            Schedule.Step st = steps.get(k);
            long want = st.sendBytes()[i];
            if (st.waitsFor() == Schedule.Wait.NONE) {
                return want;
            }
            long got = received[iteration & 1][k - 1];
            long of = recvTotal[k - 1];
            if (st.waitsFor() == Schedule.Wait.STEP) {
                return got >= of ? want : 0;
            }
            return got >= of ? want : (long) ((double) got / of * want);
        }

        /**
         * Posts what may be posted: the steps in order (a step's writes after the step before's, on
         * the same QPs), each transfer's pieces as far as its wait allows and its QPs have room; the
         * transfers of one step a piece each in turn.
         */
        private void pump() {
            if (!active || failed || closed) {
                return;
            }
            int chunk = collective.chunkBytes();
            while (cursor < steps.size()) {
                Schedule.Step st = steps.get(cursor);
                long[] done = posted[cursor];
                boolean progress = true;
                while (progress) {
                    progress = false;
                    for (int i = 0; i < done.length; i++) {
                        long want = st.sendBytes()[i];
                        if (done[i] >= want) {
                            continue;
                        }
                        int len = (int) Math.min(chunk, want - done[i]);
                        if (done[i] + len > allowed(cursor, i)) {
                            continue;
                        }
                        Out o = outs.get(st.sendTo()[i]);
                        if (!o.post(cursor, len)) {
                            continue;
                        }
                        done[i] += len;
                        progress = true;
                    }
                }
                for (int i = 0; i < done.length; i++) {
                    if (done[i] < st.sendBytes()[i]) {
                        return;
                    }
                }
                cursor++;
            }
        }

        private void onSendCompletions() {
            for (WorkCompletion wc; (wc = sendCq.poll()) != null; ) {
                Out o = outByLane.get((int) (wc.wrId() >>> 40));
                o.outstanding[(int) ((wc.wrId() >>> 32) & 0xFF)]--;
                if (wc.status() != WcStatus.SUCCESS) {
                    errors++;
                    fail();
                    continue;
                }
                sentCompleted += wc.wrId() & 0xFFFF_FFFFL;
            }
            if (!closed) {
                sendCq.requestNotify(false);
            }
            pump();
            checkDone();
        }

        private void onReceiveCompletions() {
            long now = owner.nanoTime();
            for (WorkCompletion wc; (wc = recvCq.poll()) != null; ) {
                if (wc.status() != WcStatus.SUCCESS) {
                    continue; // flushed by an error or a teardown: nothing to repost
                }
                int imm = wc.immData();
                int parity = (imm >>> 16) & 1;
                int step = imm & 0xFFFF;
                received[parity][step] += wc.byteLen();
                if (active && parity == (iteration & 1) && landed[step] < 0 && received[parity][step] >= recvTotal[step]) {
                    landed[step] = now;
                }
                if (!closed) {
                    inQps.get((int) wc.wrId()).postRecv(new RecvWr(wc.wrId(), recvWr.sgl()));
                }
            }
            if (!closed) {
                recvCq.requestNotify(false);
            }
            pump();
            checkDone();
        }

        private void checkDone() {
            if (!active || failed || cursor < steps.size() || sentCompleted < sendTotal) {
                return;
            }
            long[] got = received[iteration & 1];
            for (int k = 0; k < steps.size(); k++) {
                if (got[k] < recvTotal[k]) {
                    return;
                }
            }
            active = false;
            long now = owner.nanoTime();
            // the next iteration's bytes come only after every rank finished this one: its counts start afresh
            Arrays.fill(received[(iteration + 1) & 1], 0);
            int worst = 0;
            long worstNanos = -1;
            long before = started;
            for (int k = 0; k < steps.size(); k++) {
                long d = Math.max(0, landed[k] - before);
                if (d > worstNanos) {
                    worstNanos = d;
                    worst = k;
                }
                before = Math.max(before, landed[k]);
            }
            rankFinished(this, iteration, now, worst, worstNanos);
        }

        void close() {
            for (Out o : outs.values()) {
                for (QueuePair qp : o.qps) {
                    qp.destroy();
                }
            }
            for (QueuePair qp : inQps) {
                qp.destroy();
            }
            active = false;
        }

        /** The QPs to one peer, used in turn, and the work requests outstanding on each. */
        private final class Out {
            final int peer;
            final QueuePair[] qps;
            final int[] outstanding;
            final int id;
            int next;

            Out(int peer, QueuePair[] qps, int id) {
                this.peer = peer;
                this.qps = qps;
                this.outstanding = new int[qps.length];
                this.id = id;
            }

            /** Posts one write of step {@code step} on the next QP with room; false if none has. */
            boolean post(int step, int len) {
                for (int t = 0; t < qps.length; t++) {
                    int lane = (next + t) % qps.length;
                    if (outstanding[lane] < collective.window()) {
                        Rank p = ranks[peer];
                        long wrId = ((long) id << 40) | ((long) lane << 32) | len;
                        SendWr wr = new SendWr(wrId, WrOpcode.RDMA_WRITE_WITH_IMM).sgl(Sge.of(scratch, 0, len))
                            .remote(p.scratchAddress(), p.scratchKey()).imm(((iteration & 1) << 16) | step)
                            .signaled(true);
                        qps[lane].postSend(wr);
                        outstanding[lane]++;
                        next = (lane + 1) % qps.length;
                        return true;
                    }
                }
                return false;
            }
        }

        long scratchAddress() {
            return scratch.addr();
        }

        int scratchKey() {
            return scratch.rkey();
        }
    }
}
