package io.rocelab.perftest.nic;

import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.RealTimeScheduler;
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
 */
final class Warmup {
    private static final int MESSAGES = 64;
    private static final long LIMIT_NANOS = 10_000_000_000L;
    private static volatile boolean done;

    private Warmup() {
    }

    static synchronized void once() {
        if (done) {
            return;
        }
        done = true;
        try (RealTimeScheduler s = RealTimeScheduler.start("rocelab-warmup")) {
            InProcessLink link = InProcessLink.builder().name("warmup").rateGbps(100).build(s);
            SoftNic a = SoftNic.builder().name("warm-a").mac("02:00:00:00:00:0a").ipv4("192.0.2.10").activeMtu(4096)
                    .scheduler(s).port(link.portA()).build();
            SoftNic b = SoftNic.builder().name("warm-b").mac("02:00:00:00:00:0b").ipv4("192.0.2.11").activeMtu(4096)
                    .scheduler(s).port(link.portB()).build();
            try {
                run(a, b);
            } finally {
                a.close();
                b.close();
            }
        } catch (RuntimeException | InterruptedException e) {
            // a warm-up that fails leaves the NIC as cold as it was; the run itself will say what is wrong
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
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
