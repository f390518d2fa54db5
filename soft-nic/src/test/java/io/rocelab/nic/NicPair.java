package io.rocelab.nic;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

/**
 * Two NICs joined by an in-process link in virtual time, each with a PD, a CQ and one QP connected
 * to the other's, and a tap recording every RoCE frame both send. The test fixture of most tests.
 */
final class NicPair implements AutoCloseable {
    static final int IP_A = Ipv4.parse("10.77.0.11");
    static final int IP_B = Ipv4.parse("10.77.0.10");
    static final int PSN_A = 0xFFFFF0; // close to the wrap, so every test crosses it
    static final int PSN_B = 0x000100;

    final VirtualTimeScheduler sched = new VirtualTimeScheduler();
    final InProcessLink link;
    final List<WireTap.Seen> wire = new ArrayList<>();
    final SoftNic a;
    final SoftNic b;
    final ProtectionDomain pdA;
    final ProtectionDomain pdB;
    final CompletionQueue cqA;
    final CompletionQueue cqB;
    final QueuePair qpA;
    final QueuePair qpB;
    final WireTap tapA;

    NicPair(QpType type, int mtu, FaultProfile faults, long seed) {
        this(type, mtu, faults, seed, 14, 7, 7, 12);
    }

    /** With {@code tune} applied to both NICs' builders. */
    NicPair(QpType type, int mtu, FaultProfile faults, long seed, UnaryOperator<SoftNic.Builder> tune) {
        this(type, mtu, faults, seed, 14, 7, 7, 12, tune);
    }

    NicPair(QpType type, int mtu, FaultProfile faults, long seed, int timeout, int retry, int rnrRetry,
            int minRnrTimer) {
        this(type, mtu, faults, seed, timeout, retry, rnrRetry, minRnrTimer, UnaryOperator.identity());
    }

    private NicPair(QpType type, int mtu, FaultProfile faults, long seed, int timeout, int retry, int rnrRetry,
                    int minRnrTimer, UnaryOperator<SoftNic.Builder> tune) {
        link = InProcessLink.builder().name("a-b").rateGbps(100).propagationDelayNanos(500).seed(seed)
                .faults(faults).build(sched);
        a = tune.apply(SoftNic.builder().name("a").mac("52:54:00:77:00:01").ipv4(IP_A).activeMtu(4096)
                .scheduler(sched).port(tapA = new WireTap(link.portA(), "a", wire))).build();
        b = tune.apply(SoftNic.builder().name("b").mac("52:54:00:77:00:00").ipv4(IP_B).activeMtu(4096)
                .scheduler(sched).port(new WireTap(link.portB(), "b", wire))).build();
        if (!faults.isNone()) {
            // static entries (ip neigh): a lost ARP would otherwise cost a whole second, as in Linux
            a.addNeighbor(IP_B, b.mac());
            b.addNeighbor(IP_A, a.mac());
        }
        pdA = a.allocPd();
        pdB = b.allocPd();
        cqA = a.createCq(4096);
        cqB = b.createCq(4096);
        qpA = a.createQp(pdA, type, cqA, cqA, QpCaps.defaults());
        qpB = b.createQp(pdB, type, cqB, cqB, QpCaps.defaults());
        if (type == QpType.UD) {
            for (QueuePair qp : List.of(qpA, qpB)) {
                qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).qkey(0x11111111));
                qp.modify(new QpAttr().state(QpState.RTR));
                qp.modify(new QpAttr().state(QpState.RTS).sqPsn(qp == qpA ? PSN_A : PSN_B));
            }
            return;
        }
        connect(qpA, qpB, IP_B, PSN_B, PSN_A, type, mtu, timeout, retry, rnrRetry, minRnrTimer);
        connect(qpB, qpA, IP_A, PSN_A, PSN_B, type, mtu, timeout, retry, rnrRetry, minRnrTimer);
    }

    static void connect(QueuePair qp, QueuePair peer, int peerIp, int rqPsn, int sqPsn, QpType type, int mtu,
                        int timeout, int retry, int rnrRetry, int minRnrTimer) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.ALL));
        QpAttr rtr = new QpAttr().state(QpState.RTR).av(AddressHandle.ipv4(peerIp)).pathMtu(mtu)
                .destQpn(peer.qpn()).rqPsn(rqPsn);
        if (type == QpType.RC) {
            rtr.maxDestRdAtomic(16).minRnrTimer(minRnrTimer);
        }
        qp.modify(rtr);
        QpAttr rts = new QpAttr().state(QpState.RTS).sqPsn(sqPsn);
        if (type == QpType.RC) {
            rts.timeout(timeout).retryCnt(retry).rnrRetry(rnrRetry).maxRdAtomic(16);
        }
        qp.modify(rts);
    }

    /** Runs virtual time until {@code done} or {@code maxNanos} pass; returns whether done. */
    boolean runUntil(BooleanSupplier done, long maxNanos) {
        return sched.runUntil(done, maxNanos);
    }

    static List<WorkCompletion> drain(CompletionQueue cq) {
        List<WorkCompletion> out = new ArrayList<>();
        cq.poll(Integer.MAX_VALUE, out);
        return out;
    }

    List<WireTap.Seen> wireFrom(String who) {
        return wire.stream().filter(s -> s.from().equals(who)).toList();
    }

    @Override
    public void close() {
        a.close();
        b.close();
        sched.runFor(10_000_000_000L);
    }
}
