package io.rocelab.nic;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.ib.AethSyndrome;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Two soft NICs in virtual time, a sending to b through a {@link ReorderingPort}, each with one RC QP
 * connected to the other (MTU 1024, timeout 14, retry 7): the rig of the out-of-order receive
 * tests. b places out of order ({@link QpCreateFlag#OOO_DP}) or not, as the test asks; a is an
 * ordinary NIC. Every RoCE frame both sent is kept decoded ({@link #wire}).
 */
final class ReorderRig implements AutoCloseable {
    static final int MTU = 1024;

    final VirtualTimeScheduler sched = new VirtualTimeScheduler();
    final List<WireTap.Seen> wire = new ArrayList<>();
    final ReorderingPort reorder;
    /** b's transmit side: READ responses and ACKs to a, permuted as the test says. */
    final ReorderingPort reorderB;
    final SoftNic a;
    final SoftNic b;
    final ProtectionDomain pdA;
    final ProtectionDomain pdB;
    final CompletionQueue cqA;
    final CompletionQueue cqB;
    final QueuePair qpA;
    final QueuePair qpB;

    /** @param ooo b's QPs place out of order; {@code bWindow}: b's requester window, which is its reorder window */
    ReorderRig(boolean ooo, int bWindow) {
        this(false, ooo, bWindow);
    }

    /** a's and b's QPs place out of order or not as {@code oooA}, {@code oooB} say. */
    ReorderRig(boolean oooA, boolean ooo, int bWindow) {
        InProcessLink link = InProcessLink.builder().name("a-b").rateGbps(100).propagationDelayNanos(500).seed(1)
                .faults(FaultProfile.NONE).build(sched);
        reorder = new ReorderingPort(link.portA());
        a = SoftNic.builder().name("a").mac("52:54:00:77:00:01").ipv4("10.77.0.11").activeMtu(4096).scheduler(sched)
                .port(new WireTap(reorder, "a", wire)).oooDataPlacement(oooA).build();
        b = SoftNic.builder().name("b").mac("52:54:00:77:00:00").ipv4("10.77.0.10").activeMtu(4096).scheduler(sched)
                .port(new WireTap(reorderB = new ReorderingPort(link.portB()), "b", wire)).oooDataPlacement(ooo).maxUnackedPsns(bWindow).build();
        a.addNeighbor(b.ipv4(), b.mac());
        b.addNeighbor(a.ipv4(), a.mac());
        pdA = a.allocPd();
        pdB = b.allocPd();
        cqA = a.createCq(4096);
        cqB = b.createCq(4096);
        qpA = a.createQp(pdA, QpType.RC, cqA, cqA, QpCaps.defaults());
        qpB = b.createQp(pdB, QpType.RC, cqB, cqB, QpCaps.defaults());
        NicRig.connect(qpA, qpB, b.ipv4(), NicRig.PSN_B, NicRig.PSN_A, QpType.RC, MTU, 14, 7, 7, 12);
        NicRig.connect(qpB, qpA, a.ipv4(), NicRig.PSN_A, NicRig.PSN_B, QpType.RC, MTU, 14, 7, 7, 12);
    }

    ReorderRig(boolean ooo) {
        this(ooo, Requester.MAX_UNACKED_PSNS);
    }

    boolean runUntil(BooleanSupplier done, long maxNanos) {
        return sched.runUntil(done, maxNanos);
    }

    void runFor(long nanos) {
        sched.runFor(nanos);
    }

    /** The frames {@code who} ("a" or "b") sent. */
    List<WireTap.Seen> from(String who) {
        return NicRig.from(WireTap.copy(wire), who);
    }

    /** b's positive ACKs (RC ACKNOWLEDGE with an ACK syndrome; READ responses carry one too, not counted). */
    List<WireTap.Seen> acks() {
        return from("b").stream().filter(s -> s.opcode() == Opcode.RC_ACKNOWLEDGE
                && AethSyndrome.kind(s.syndrome()) == AethSyndrome.Kind.ACK).toList();
    }

    /** b's NAKs of any kind. */
    List<WireTap.Seen> naks() {
        return from("b").stream().filter(s -> s.opcode() == Opcode.RC_ACKNOWLEDGE
                && AethSyndrome.kind(s.syndrome()) != AethSyndrome.Kind.ACK).toList();
    }

    static int ip(String text) {
        return Ipv4.parse(text);
    }

    @Override
    public void close() {
        a.close();
        b.close();
        sched.runFor(10_000_000_000L);
    }
}
