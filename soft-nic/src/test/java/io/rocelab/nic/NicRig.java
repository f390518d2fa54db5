package io.rocelab.nic;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

/**
 * Two soft NICs, a and b, cabled port to port by in-process links in virtual time: the test
 * fixture of most soft-nic tests. A test gets both NICs ({@link #a}, {@link #b}), a PD and a CQ on
 * each, the scheduler to run, the links, and, when {@linkplain Builder#tapped tapped}, every RoCE
 * frame either NIC sent, decoded ({@link #wire1}, {@link #wire2}); optionally a connected QP on
 * each ({@link #qpA}, {@link #qpB}), a second port per NIC (separate or bonded) and an attacker's
 * way onto b's receive path ({@link #attackPort}).
 *
 * <p>The common shapes have a factory each: {@link #pair} (one port each, one QP pair connected,
 * PSNs close to the wrap), {@link #dualPort} and {@link #bonded} (two ports each, QPs made by the
 * test); anything else comes from {@link #builder()}.
 */
public final class NicRig implements AutoCloseable {
    // the pair's addresses (one port each)
    public static final String MAC_A = "52:54:00:77:00:01";
    public static final String MAC_B = "52:54:00:77:00:00";
    public static final int IP_A = Ipv4.parse("10.77.0.11");
    public static final int IP_B = Ipv4.parse("10.77.0.10");
    /** a's first PSN, close to the wrap, so every test crosses it. */
    public static final int PSN_A = 0xFFFFF0;
    public static final int PSN_B = 0x000100;

    // the dual-port rig's addresses: unbonded, 10.1.0.x on port 1 and 10.2.0.x on port 2; bonded, port 1's on both
    public static final String IP_A1 = "10.1.0.1";
    public static final String IP_B1 = "10.1.0.2";
    public static final String IP_A2 = "10.2.0.1";
    public static final String IP_B2 = "10.2.0.2";
    public static final String IPV6_A = "fd00:78::1";
    public static final String IPV6_B = "fd00:78::2";

    public final VirtualTimeScheduler sched = new VirtualTimeScheduler();
    /** a's port 1 to b's port 1. */
    public final InProcessLink link1;
    /** a's port 2 to b's port 2, or null with one port each. */
    public final InProcessLink link2;
    /** The RoCE frames both NICs sent on link 1, when tapped (else always empty). */
    public final List<WireTap.Seen> wire1 = new ArrayList<>();
    /** The RoCE frames both NICs sent on link 2, when tapped (else always empty). */
    public final List<WireTap.Seen> wire2 = new ArrayList<>();
    /** The tap on a's port 1 (which a test can make lose or fail frames), or null when untapped. */
    public final WireTap tapA;
    /** a's port 2 transmitter, which a test can silence with its link up; null with one port each. */
    public final MutePort muteA2;
    /** b's port 1, on whose receive path a test puts frames by hand; null unless {@link Builder#hostileB}. */
    public final InjectingPort attackPort;
    public final SoftNic a;
    public final SoftNic b;
    public final ProtectionDomain pdA;
    public final ProtectionDomain pdB;
    public final CompletionQueue cqA;
    public final CompletionQueue cqB;
    /** a's QP connected to {@link #qpB}, or null unless {@link Builder#connected}. */
    public final QueuePair qpA;
    public final QueuePair qpB;

    /**
     * One port each at the pair's addresses, link "a-b" with {@code faults} and {@code seed}, both
     * tapped, and one QP of {@code type} on each connected to the other at {@code mtu} (RC: timeout
     * 14, retry 7, RNR retry 7, min RNR timer 12). With faults the neighbours are static entries
     * (ip neigh): a lost ARP would otherwise cost a whole second, as in Linux.
     */
    public static NicRig pair(QpType type, int mtu, FaultProfile faults, long seed) {
        return pairBuilder(faults, seed).connected(type, mtu).build();
    }

    /** {@link #pair(QpType, int, FaultProfile, long)} with {@code tune} applied to both NICs' builders. */
    public static NicRig pair(QpType type, int mtu, FaultProfile faults, long seed,
                              UnaryOperator<SoftNic.Builder> tune) {
        return pairBuilder(faults, seed).tune(tune).connected(type, mtu).build();
    }

    /** {@link #pair(QpType, int, FaultProfile, long)} with the RC timers given. */
    public static NicRig pair(QpType type, int mtu, FaultProfile faults, long seed, int timeout, int retry,
                              int rnrRetry, int minRnrTimer) {
        return pairBuilder(faults, seed).connected(type, mtu).timers(timeout, retry, rnrRetry, minRnrTimer).build();
    }

    private static Builder pairBuilder(FaultProfile faults, long seed) {
        return builder().nicA(MAC_A, Ipv4.toString(IP_A)).nicB(MAC_B, Ipv4.toString(IP_B)).activeMtu(4096)
                .cqDepth(4096).link("a-b", seed, faults).staticNeighbors(!faults.isNone());
    }

    /** Two ports each, unbonded: each port its own addresses ({@link #IP_A1}... {@link #IP_B2}). */
    public static NicRig dualPort() {
        return dualPortBuilder().secondPort("52:54:00:20:00:01", IP_A2, "52:54:00:20:00:02", IP_B2).build();
    }

    /** Two ports each, bonded with {@code mode} (LACP slow). */
    public static NicRig bonded(BondMode mode) {
        return bonded(mode, "slow");
    }

    /** Two ports each, bonded with {@code mode} and LACP at {@code lacpRate} ({@code fast} or {@code slow}). */
    public static NicRig bonded(BondMode mode, String lacpRate) {
        return dualPortBuilder().bond(mode, lacpRate).build();
    }

    /** Bonded with {@code mode}, each NIC with a global IPv6 address too ({@link #IPV6_A}, {@link #IPV6_B}). */
    public static NicRig bondedWithIpv6(BondMode mode) {
        return dualPortBuilder().bond(mode, "slow").ipv6(IPV6_A, IPV6_B).build();
    }

    private static Builder dualPortBuilder() {
        return builder().nicA("52:54:00:10:00:01", IP_A1).nicB("52:54:00:10:00:02", IP_B1).activeMtu(1024)
                .cqDepth(8192).link("l1", 1, FaultProfile.NONE);
    }

    public static Builder builder() {
        return new Builder();
    }

    private NicRig(Builder k) {
        link1 = link(k.linkName, k.linkSeed, k.faults);
        attackPort = k.hostileB ? new InjectingPort(link1.portB()) : null;
        FramePort a1 = link1.portA();
        FramePort b1 = attackPort != null ? attackPort : link1.portB();
        if (k.tapped) {
            a1 = tapA = new WireTap(a1, "a", wire1);
            b1 = new WireTap(b1, "b", wire1);
        } else {
            tapA = null;
        }
        SoftNic.Builder ba = SoftNic.builder().name("a").mac(k.macA).ipv4(k.ipA).activeMtu(k.activeMtu)
                .scheduler(sched).port(a1);
        SoftNic.Builder bb = SoftNic.builder().name("b").mac(k.macB).ipv4(k.ipB).activeMtu(k.activeMtu)
                .scheduler(sched).port(b1);
        if (k.ipv6A != null) {
            ba.ipv6(k.ipv6A);
            bb.ipv6(k.ipv6B);
        }
        if (k.twoPorts()) {
            link2 = link("l2", k.linkSeed + 1, FaultProfile.NONE);
            FramePort a2 = muteA2 = new MutePort(link2.portA());
            FramePort b2 = link2.portB();
            if (k.tapped) {
                a2 = new WireTap(a2, "a", wire2);
                b2 = new WireTap(b2, "b", wire2);
            }
            if (k.bondMode == null) {
                ba.port2(a2, k.macA2, k.ipA2);
                bb.port2(b2, k.macB2, k.ipB2);
            } else {
                ba.bond(a2, k.bondMode).lacpRate(k.lacpRate);
                bb.bond(b2, k.bondMode).lacpRate(k.lacpRate);
            }
        } else {
            link2 = null;
            muteA2 = null;
        }
        a = k.tune.apply(ba).build();
        b = k.tune.apply(bb).build();
        if (k.staticNeighbors) {
            a.addNeighbor(b.ipv4(), b.mac());
            b.addNeighbor(a.ipv4(), a.mac());
        }
        pdA = a.allocPd();
        pdB = b.allocPd();
        cqA = a.createCq(k.cqDepth);
        cqB = b.createCq(k.cqDepth);
        if (k.qpType == null) {
            qpA = null;
            qpB = null;
            return;
        }
        qpA = a.createQp(pdA, k.qpType, cqA, cqA, QpCaps.defaults());
        qpB = b.createQp(pdB, k.qpType, cqB, cqB, QpCaps.defaults());
        if (k.qpType == QpType.UD) {
            for (QueuePair qp : List.of(qpA, qpB)) {
                qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).qkey(0x11111111));
                qp.modify(new QpAttr().state(QpState.RTR));
                qp.modify(new QpAttr().state(QpState.RTS).sqPsn(qp == qpA ? PSN_A : PSN_B));
            }
            return;
        }
        connect(qpA, qpB, b.ipv4(), PSN_B, PSN_A, k.qpType, k.pathMtu, k.timeout, k.retry, k.rnrRetry,
                k.minRnrTimer);
        connect(qpB, qpA, a.ipv4(), PSN_A, PSN_B, k.qpType, k.pathMtu, k.timeout, k.retry, k.rnrRetry,
                k.minRnrTimer);
    }

    private InProcessLink link(String name, long seed, FaultProfile faults) {
        return InProcessLink.builder().name(name).rateGbps(100).propagationDelayNanos(500).seed(seed)
                .faults(faults).build(sched);
    }

    /** A new RC QP on a, in RESET, on {@link #pdA} and {@link #cqA}. */
    public QueuePair newQpA() {
        return a.createQp(pdA, QpType.RC, cqA, cqA, QpCaps.defaults());
    }

    /** A new RC QP on b, in RESET, on {@link #pdB} and {@link #cqB}. */
    public QueuePair newQpB() {
        return b.createQp(pdB, QpType.RC, cqB, cqB, QpCaps.defaults());
    }

    /**
     * Takes {@code qp} through INIT, RTR and RTS over port 1 to {@code peer} at {@code peerIp}: all
     * access rights, receiving from {@code rqPsn} and sending from {@code sqPsn}; for RC 16 RDMA
     * READ/atomic in flight each way and the timers given.
     */
    public static void connect(QueuePair qp, QueuePair peer, int peerIp, int rqPsn, int sqPsn, QpType type, int mtu,
                               int timeout, int retry, int rnrRetry, int minRnrTimer) {
        connect(qp, peer, 1, AddressHandle.ipv4(peerIp), rqPsn, sqPsn, type, mtu, timeout, retry, rnrRetry,
                minRnrTimer);
    }

    /** Connects RC {@code qp} to {@code peer} over {@code port} to {@code peerIp}: MTU 1024, PSNs 0x100. */
    public static void connect(QueuePair qp, QueuePair peer, int port, String peerIp, int timeout, int retry) {
        connect(qp, peer, port, AddressHandle.ipv4(Ipv4.parse(peerIp)), timeout, retry);
    }

    /** Connects RC {@code qp} to {@code peer} over {@code port} along {@code av}: MTU 1024, PSNs 0x100. */
    public static void connect(QueuePair qp, QueuePair peer, int port, AddressHandle av, int timeout, int retry) {
        connect(qp, peer, port, av, 0x100, 0x100, QpType.RC, 1024, timeout, retry, 7, 12);
    }

    private static void connect(QueuePair qp, QueuePair peer, int port, AddressHandle av, int rqPsn, int sqPsn,
                                QpType type, int mtu, int timeout, int retry, int rnrRetry, int minRnrTimer) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(port).accessFlags(AccessFlags.ALL));
        QpAttr rtr = new QpAttr().state(QpState.RTR).av(av).pathMtu(mtu).destQpn(peer.qpn()).rqPsn(rqPsn);
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
    public boolean runUntil(BooleanSupplier done, long maxNanos) {
        return sched.runUntil(done, maxNanos);
    }

    /** Runs virtual time for {@code nanos}. */
    public void runFor(long nanos) {
        sched.runFor(nanos);
    }

    /** Every completion waiting on {@code cq}. */
    public static List<WorkCompletion> drain(CompletionQueue cq) {
        List<WorkCompletion> out = new ArrayList<>();
        cq.poll(Integer.MAX_VALUE, out);
        return out;
    }

    /** The frames NIC {@code who} ("a" or "b") sent on link 1. */
    public List<WireTap.Seen> wireFrom(String who) {
        return from(wire1, who);
    }

    /** The frames in {@code wire} that NIC {@code who} ("a" or "b") sent. */
    public static List<WireTap.Seen> from(List<WireTap.Seen> wire, String who) {
        return wire.stream().filter(s -> s.from().equals(who)).toList();
    }

    /** Closes both NICs and lets their last timers run out. */
    @Override
    public void close() {
        a.close();
        b.close();
        sched.runFor(10_000_000_000L);
    }

    /** What the rig is made of; each setter returns this builder. */
    public static final class Builder {
        private String macA = MAC_A;
        private String ipA = Ipv4.toString(IP_A);
        private String macB = MAC_B;
        private String ipB = Ipv4.toString(IP_B);
        private String ipv6A;
        private String ipv6B;
        private int activeMtu = 4096;
        private int cqDepth = 4096;
        private String linkName = "a-b";
        private long linkSeed = 1;
        private FaultProfile faults = FaultProfile.NONE;
        private boolean tapped = true;
        private boolean staticNeighbors;
        private boolean hostileB;
        private String macA2;
        private String ipA2;
        private String macB2;
        private String ipB2;
        private BondMode bondMode;
        private String lacpRate = "slow";
        private UnaryOperator<SoftNic.Builder> tune = UnaryOperator.identity();
        private QpType qpType;
        private int pathMtu;
        private int timeout = 14;
        private int retry = 7;
        private int rnrRetry = 7;
        private int minRnrTimer = 12;

        private Builder() {
        }

        /** a's MAC and (port 1's) IPv4 address. */
        public Builder nicA(String mac, String ipv4) {
            macA = mac;
            ipA = ipv4;
            return this;
        }

        /** b's MAC and (port 1's) IPv4 address. */
        public Builder nicB(String mac, String ipv4) {
            macB = mac;
            ipB = ipv4;
            return this;
        }

        /** A global IPv6 address on each NIC. */
        public Builder ipv6(String onA, String onB) {
            ipv6A = Objects.requireNonNull(onA);
            ipv6B = Objects.requireNonNull(onB);
            return this;
        }

        /** Both NICs' active MTU (default 4096). */
        public Builder activeMtu(int bytes) {
            activeMtu = bytes;
            return this;
        }

        /** Entries of {@link #cqA} and {@link #cqB} (default 4096). */
        public Builder cqDepth(int entries) {
            cqDepth = entries;
            return this;
        }

        /**
         * Link 1's name, seed and faults (100 Gb/s, 500 ns each way). Link 2, when there is one,
         * is "l2", without faults, with the next seed.
         */
        public Builder link(String name, long seed, FaultProfile faults) {
            linkName = name;
            linkSeed = seed;
            this.faults = faults;
            return this;
        }

        /** Whether every port is tapped into {@link #wire1} / {@link #wire2} (default yes). */
        public Builder tapped(boolean on) {
            tapped = on;
            return this;
        }

        /** Whether each NIC knows the other's MAC from the start (ip neigh ... permanent), not by ARP. */
        public Builder staticNeighbors(boolean on) {
            staticNeighbors = on;
            return this;
        }

        /** Puts b's port 1 behind an {@link InjectingPort} ({@link #attackPort}). */
        public Builder hostileB() {
            hostileB = true;
            return this;
        }

        /** A second, separate port on each NIC with addresses of its own, on link 2. */
        public Builder secondPort(String macA2, String ipA2, String macB2, String ipB2) {
            this.macA2 = macA2;
            this.ipA2 = ipA2;
            this.macB2 = macB2;
            this.ipB2 = ipB2;
            return this;
        }

        /** A second port on each NIC, on link 2, bonded with port 1 in {@code mode}, LACP at {@code lacpRate}. */
        public Builder bond(BondMode mode, String lacpRate) {
            bondMode = Objects.requireNonNull(mode);
            this.lacpRate = lacpRate;
            return this;
        }

        /** Applied to both NICs' builders last, before they are built. */
        public Builder tune(UnaryOperator<SoftNic.Builder> tune) {
            this.tune = tune;
            return this;
        }

        /** One QP of {@code type} on each NIC, connected to the other at path MTU {@code mtu}. */
        public Builder connected(QpType type, int mtu) {
            qpType = type;
            pathMtu = mtu;
            return this;
        }

        /** The RC timers of the connected QPs (default timeout 14, retry 7, RNR retry 7, min RNR timer 12). */
        public Builder timers(int timeout, int retry, int rnrRetry, int minRnrTimer) {
            this.timeout = timeout;
            this.retry = retry;
            this.rnrRetry = rnrRetry;
            this.minRnrTimer = minRnrTimer;
            return this;
        }

        private boolean twoPorts() {
            return bondMode != null || macA2 != null;
        }

        public NicRig build() {
            return new NicRig(this);
        }
    }
}
