package io.rocelab.nic;

import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import java.util.function.UnaryOperator;

/**
 * Two soft NICs on one virtual-time scheduler over a 100 Gb/s in-process link of 500 ns, every frame
 * each sends kept by a {@link RawTap}, with a PD and a CQ each, and RC QPs connected by hand as an
 * application does over its own channel.
 */
final class TappedPair implements AutoCloseable {
    final VirtualTimeScheduler sched = new VirtualTimeScheduler();
    final InProcessLink link;
    final RawTap tapA;
    final RawTap tapB;
    final SoftNic a;
    final SoftNic b;
    final ProtectionDomain pdA;
    final ProtectionDomain pdB;
    final CompletionQueue cqA;
    final CompletionQueue cqB;
    private final int pathMtu;
    private final int timeout;

    /**
     * @param seed    the link's
     * @param mtu     both NICs' active MTU and the QPs' path MTU
     * @param timeout the QPs' local ACK timeout (IBA's exponent)
     * @param nicA    NIC a's name, addresses and options (scheduler, port and MTU are set here)
     * @param nicB    NIC b's
     */
    TappedPair(long seed, int mtu, int timeout, UnaryOperator<SoftNic.Builder> nicA,
               UnaryOperator<SoftNic.Builder> nicB) {
        this.pathMtu = mtu;
        this.timeout = timeout;
        link = InProcessLink.builder().name("a-b").rateGbps(100).propagationDelayNanos(500).seed(seed)
            .faults(FaultProfile.NONE).build(sched);
        tapA = new RawTap(link.portA());
        tapB = new RawTap(link.portB());
        a = nicA.apply(SoftNic.builder()).activeMtu(mtu).scheduler(sched).port(tapA).build();
        b = nicB.apply(SoftNic.builder()).activeMtu(mtu).scheduler(sched).port(tapB).build();
        pdA = a.allocPd();
        pdB = b.allocPd();
        cqA = a.createCq(256);
        cqB = b.createCq(256);
    }

    /** A connected RC pair, a's QP first, each sending over the given address handle and retry count. */
    QueuePair[] rc(AddressHandle toB, AddressHandle toA, int retry) {
        QueuePair qa = a.createQp(pdA, QpType.RC, cqA, cqA, QpCaps.defaults());
        QueuePair qb = b.createQp(pdB, QpType.RC, cqB, cqB, QpCaps.defaults());
        connect(qa, qb, toB, 0x100, 0x200, retry);
        connect(qb, qa, toA, 0x200, 0x100, retry);
        return new QueuePair[] {qa, qb};
    }

    private void connect(QueuePair qp, QueuePair peer, AddressHandle ah, int rqPsn, int sqPsn, int retry) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.ALL));
        qp.modify(new QpAttr().state(QpState.RTR).av(ah).pathMtu(pathMtu).destQpn(peer.qpn()).rqPsn(rqPsn)
            .maxDestRdAtomic(16).minRnrTimer(12));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(sqPsn).timeout(timeout).retryCnt(retry).rnrRetry(7)
            .maxRdAtomic(16));
    }

    @Override
    public void close() {
        a.close();
        b.close();
        sched.runFor(10_000_000_000L);
    }
}
