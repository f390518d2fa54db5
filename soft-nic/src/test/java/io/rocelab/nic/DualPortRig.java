package io.rocelab.nic;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Two dual-port NICs in virtual time, port 1 cabled to port 1 ({@link #link1}) and port 2 to port
 * 2 ({@link #link2}), each cable tapped. Unbonded, each port has addresses of its own (10.1.0.x on
 * port 1, 10.2.0.x on port 2); bonded, both ports carry port 1's.
 */
final class DualPortRig implements AutoCloseable {
    static final String IP_A1 = "10.1.0.1";
    static final String IP_B1 = "10.1.0.2";
    static final String IP_A2 = "10.2.0.1";
    static final String IP_B2 = "10.2.0.2";
    static final String IPV6_A = "fd00:78::1";
    static final String IPV6_B = "fd00:78::2";

    final VirtualTimeScheduler sched = new VirtualTimeScheduler();
    final InProcessLink link1;
    final InProcessLink link2;
    final List<WireTap.Seen> wire1 = new ArrayList<>();
    final List<WireTap.Seen> wire2 = new ArrayList<>();
    final SoftNic a;
    final SoftNic b;
    final ProtectionDomain pdA;
    final ProtectionDomain pdB;
    final CompletionQueue cqA;
    final CompletionQueue cqB;
    /** a's port 2 transmitter, which a test can silence with its link up. */
    final MutePort muteA2;

    /** Unbonded: each port its own addresses. */
    DualPortRig() {
        this(null);
    }

    /** Bonded with {@code mode}, or unbonded when null. */
    DualPortRig(BondMode mode) {
        this(mode, "slow");
    }

    /** Bonded with {@code mode} and LACP at {@code lacpRate} ({@code fast} or {@code slow}). */
    DualPortRig(BondMode mode, String lacpRate) {
        this(mode, lacpRate, false);
    }

    /** Bonded with {@code mode}, each NIC with a global IPv6 address too ({@link #IPV6_A}, {@link #IPV6_B}). */
    static DualPortRig bondedWithIpv6(BondMode mode) {
        return new DualPortRig(mode, "slow", true);
    }

    private DualPortRig(BondMode mode, String lacpRate, boolean ipv6) {
        link1 = InProcessLink.builder().name("l1").rateGbps(100).propagationDelayNanos(500).seed(1).build(sched);
        link2 = InProcessLink.builder().name("l2").rateGbps(100).propagationDelayNanos(500).seed(2).build(sched);
        SoftNic.Builder ba = SoftNic.builder().name("a").mac("52:54:00:10:00:01").ipv4(IP_A1).activeMtu(1024)
                .scheduler(sched).port(new WireTap(link1.portA(), "a", wire1));
        SoftNic.Builder bb = SoftNic.builder().name("b").mac("52:54:00:10:00:02").ipv4(IP_B1).activeMtu(1024)
                .scheduler(sched).port(new WireTap(link1.portB(), "b", wire1));
        if (ipv6) {
            ba.ipv6(IPV6_A);
            bb.ipv6(IPV6_B);
        }
        if (mode == null) {
            ba.port2(new WireTap(muteA2 = new MutePort(link2.portA()), "a", wire2), "52:54:00:20:00:01", IP_A2);
            bb.port2(new WireTap(link2.portB(), "b", wire2), "52:54:00:20:00:02", IP_B2);
        } else {
            ba.bond(new WireTap(muteA2 = new MutePort(link2.portA()), "a", wire2), mode).lacpRate(lacpRate);
            bb.bond(new WireTap(link2.portB(), "b", wire2), mode).lacpRate(lacpRate);
        }
        a = ba.build();
        b = bb.build();
        pdA = a.allocPd();
        pdB = b.allocPd();
        cqA = a.createCq(8192);
        cqB = b.createCq(8192);
    }

    QueuePair qpA() {
        return a.createQp(pdA, QpType.RC, cqA, cqA, QpCaps.defaults());
    }

    QueuePair qpB() {
        return b.createQp(pdB, QpType.RC, cqB, cqB, QpCaps.defaults());
    }

    /** Connects {@code qp} to {@code peer} over {@code port} to {@code peerIp} (INIT, RTR, RTS). */
    static void connect(QueuePair qp, QueuePair peer, int port, String peerIp, int timeout, int retry) {
        connect(qp, peer, port, AddressHandle.ipv4(Ipv4.parse(peerIp)), timeout, retry);
    }

    /** Connects {@code qp} to {@code peer} over {@code port} along {@code av} (INIT, RTR, RTS). */
    static void connect(QueuePair qp, QueuePair peer, int port, AddressHandle av, int timeout, int retry) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(port).accessFlags(AccessFlags.ALL));
        qp.modify(new QpAttr().state(QpState.RTR).av(av).pathMtu(1024)
                .destQpn(peer.qpn()).rqPsn(0x100).maxDestRdAtomic(16).minRnrTimer(12));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(0x100).timeout(timeout).retryCnt(retry).rnrRetry(7)
                .maxRdAtomic(16));
    }

    /** Runs virtual time until {@code done} or {@code maxNanos} pass; returns whether done. */
    boolean runUntil(BooleanSupplier done, long maxNanos) {
        return sched.runUntil(done, maxNanos);
    }

    /** Runs virtual time for {@code nanos}. */
    void runFor(long nanos) {
        sched.runFor(nanos);
    }

    static List<WorkCompletion> drain(CompletionQueue cq) {
        List<WorkCompletion> out = new ArrayList<>();
        cq.poll(Integer.MAX_VALUE, out);
        return out;
    }

    static List<WireTap.Seen> from(List<WireTap.Seen> wire, String who) {
        return wire.stream().filter(s -> s.from().equals(who)).toList();
    }

    @Override
    public void close() {
        a.close();
        b.close();
        sched.runFor(10_000_000_000L);
    }
}
