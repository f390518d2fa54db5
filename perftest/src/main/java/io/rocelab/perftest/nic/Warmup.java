package io.rocelab.perftest.nic;

import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.BusyPollScheduler;
import io.rocelab.fabric.time.RealTimeScheduler;
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
import io.rocelab.nic.WorkCompletion;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the soft NIC's code once, between two throwaway NICs in this process, before a tool's
 * NIC sends its first frame to a peer. Why: in a fresh JVM on a busy machine the first frames
 * take the class loader and the interpreter through the whole data path, which can take longer
 * than an RC retry budget (7 × 67 ms at perftest's timeout 14); a peer whose NIC is still cold
 * then makes the sender give up with IBV_WC_RETRY_EXC_ERR. Once per JVM, a fraction of a second.
 *
 * <p>A latency tool warms its path further ({@link #latencyOnce()}): a few thousand small WRITEs,
 * SENDs and READs one at a time, so that its run is not measured while the JIT still compiles
 * (perftest's {@code t_typical} is a median: a 20,000-iteration run of {@code ib_write_lat
 * --in-process --busy-poll} spent its first half in the interpreter and C1, and its median was
 * 5.4 us where a longer run's is 1.8).
 */
final class Warmup {
    private static final int MESSAGES = 64;
    private static final long LIMIT_NANOS = 10_000_000_000L;
    /** Small messages of each kind in the latency warm-up, and its limit. */
    private static final int LATENCY_MESSAGES = 15_000;
    private static final long LATENCY_LIMIT_NANOS = 1_500_000_000L;
    private static volatile boolean done;
    private static volatile boolean latencyDone;

    private Warmup() {
    }

    static synchronized void once() {
        if (done) {
            return;
        }
        done = true;
        try (RealTimeScheduler s = RealTimeScheduler.start("rocelab-warmup")) {
            onTwoNics(s, Warmup::run);
        } catch (RuntimeException | InterruptedException e) {
            // a warm-up that fails leaves the NIC as cold as it was; the run itself will say what is wrong
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The latency tools' path, once per JVM after {@link #once()}: {@value #LATENCY_MESSAGES} 8-byte
     * inline WRITEs, SENDs and READs, each waited for before the next, between two throwaway NICs on
     * a polling scheduler (at most {@value #LATENCY_LIMIT_NANOS} ns; well under a second here).
     */
    static synchronized void latencyOnce() {
        if (latencyDone) {
            return;
        }
        latencyDone = true;
        try (BusyPollScheduler s = BusyPollScheduler.start("rocelab-warmup-lat", BusyPollScheduler.idleStrategy("yield"))) {
            onTwoNics(s, Warmup::pingPong);
        } catch (RuntimeException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private interface Body {
        void run(SoftNic a, SoftNic b) throws InterruptedException;
    }

    private static void onTwoNics(Scheduler s, Body body) throws InterruptedException {
        InProcessLink link = InProcessLink.builder().name("warmup").rateGbps(100).build(s);
        SoftNic a = SoftNic.builder().name("warm-a").mac("02:00:00:00:00:0a").ipv4("192.0.2.10").activeMtu(4096)
                .scheduler(s).port(link.portA()).build();
        SoftNic b = SoftNic.builder().name("warm-b").mac("02:00:00:00:00:0b").ipv4("192.0.2.11").activeMtu(4096)
                .scheduler(s).port(link.portB()).build();
        try {
            body.run(a, b);
        } finally {
            a.close();
            b.close();
        }
    }

    private static void pingPong(SoftNic a, SoftNic b) {
        ProtectionDomain pa = a.allocPd();
        ProtectionDomain pb = b.allocPd();
        CompletionQueue ca = a.createCq(64);
        CompletionQueue cb = b.createCq(64);
        QueuePair qa = a.createQp(pa, QpType.RC, ca, ca, QpCaps.defaults());
        QueuePair qb = b.createQp(pb, QpType.RC, cb, cb, QpCaps.defaults());
        connect(qa, b.ipv4(), qb.qpn(), 100, 200);
        connect(qb, a.ipv4(), qa.qpn(), 200, 100);
        MemoryRegion ra = pa.registerMr(new byte[64], 0x100000, AccessFlags.ALL);
        MemoryRegion rb = pb.registerMr(new byte[64], 0x200000, AccessFlags.ALL);
        List<WorkCompletion> wcs = new ArrayList<>();
        long end = System.nanoTime() + LATENCY_LIMIT_NANOS;
        for (int i = 0; i < LATENCY_MESSAGES && System.nanoTime() < end; i++) {
            qa.postSend(SendWr.write(i, Sge.of(ra, 0, 8), rb.addr(), rb.rkey()).inline(true));
            awaitOne(ca, wcs, end);
            qb.postSend(SendWr.write(i, Sge.of(rb, 0, 8), ra.addr(), ra.rkey()).inline(true));
            awaitOne(cb, wcs, end);
        }
        for (int i = 0; i < LATENCY_MESSAGES && System.nanoTime() < end; i++) {
            qb.postRecv(new RecvWr(i, Sge.of(rb, 8, 8)));
            qa.postSend(SendWr.send(i, Sge.of(ra, 0, 8)).inline(true));
            awaitOne(ca, wcs, end);
            awaitOne(cb, wcs, end);
        }
        for (int i = 0; i < LATENCY_MESSAGES && System.nanoTime() < end; i++) {
            qa.postSend(SendWr.read(i, Sge.of(ra, 8, 8), rb.addr(), rb.rkey()));
            awaitOne(ca, wcs, end);
        }
    }

    private static void awaitOne(CompletionQueue cq, List<WorkCompletion> wcs, long end) {
        wcs.clear();
        while (cq.poll(1, wcs) == 0 && System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    private static void run(SoftNic a, SoftNic b) throws InterruptedException {
        ProtectionDomain pa = a.allocPd();
        ProtectionDomain pb = b.allocPd();
        CompletionQueue ca = a.createCq(4 * MESSAGES);
        CompletionQueue cb = b.createCq(4 * MESSAGES);
        QueuePair qa = a.createQp(pa, QpType.RC, ca, ca, QpCaps.defaults());
        QueuePair qb = b.createQp(pb, QpType.RC, cb, cb, QpCaps.defaults());
        connect(qa, b.ipv4(), qb.qpn(), 100, 200);
        connect(qb, a.ipv4(), qa.qpn(), 200, 100);
        byte[] ma = new byte[2 * 8192];
        byte[] mb = new byte[2 * 8192];
        MemoryRegion ra = pa.registerMr(ma, 0x100000, AccessFlags.ALL);
        MemoryRegion rb = pb.registerMr(mb, 0x200000, AccessFlags.ALL);
        for (int i = 0; i < MESSAGES; i++) {
            qb.postRecv(new RecvWr(i, Sge.of(rb, 8192, 8192)));
        }
        for (int i = 0; i < MESSAGES; i++) {
            qa.postSend(SendWr.write(4L * i, Sge.of(ra, 0, 8192), rb.addr(), rb.rkey()),
                    SendWr.read(4L * i + 1, Sge.of(ra, 8192, 4096), rb.addr(), rb.rkey()),
                    SendWr.send(4L * i + 2, Sge.of(ra, 0, 4096)),
                    SendWr.fetchAdd(4L * i + 3, Sge.of(ra, 0, 8), rb.addr(), rb.rkey(), 1));
        }
        List<WorkCompletion> got = new ArrayList<>();
        List<WorkCompletion> recvs = new ArrayList<>();
        long end = System.nanoTime() + LIMIT_NANOS;
        while ((got.size() < 4 * MESSAGES || recvs.size() < MESSAGES) && System.nanoTime() < end) {
            int n = ca.poll(64, got) + cb.poll(64, recvs);
            if (n == 0) {
                Thread.sleep(1);
            }
        }
    }

    private static void connect(QueuePair qp, int peerIp, int peerQpn, int myPsn, int peerPsn) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.ALL));
        qp.modify(new QpAttr().state(QpState.RTR).av(AddressHandle.ipv4(peerIp)).pathMtu(4096).destQpn(peerQpn)
                .rqPsn(peerPsn).maxDestRdAtomic(16).minRnrTimer(NicEngine.MIN_RNR_TIMER));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(myPsn).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(16));
    }
}
