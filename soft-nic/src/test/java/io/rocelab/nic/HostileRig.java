package io.rocelab.nic;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.nic.stats.NicCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;

/**
 * A live connection under attack, in virtual time: the workload and the checks of the hostile
 * tests, on a {@link NicRig} whose b port is an {@link InjectingPort}. One RC, UC or UD QP on each
 * NIC connected to the other, both sides posting a mix of work requests to each other while an
 * attacker puts frames on b's receive path ({@link #attackPort}). Every MR sits between canaries
 * ({@link GuardedMemory}): on each NIC one a peer may write (all rights), one it may only read, and
 * one with local rights only (receive buffers and the local SGEs of the WRs posted here); every WR
 * goes through a {@link WrLedger}. The RC timers are short (timeout 8: 1 ms, retry 3, RNR retry 3)
 * so every outcome, a retry exhausted included, comes within a bounded virtual time.
 */
final class HostileRig implements AutoCloseable {
    static final int IP_A = Ipv4.parse("10.77.3.11");
    static final int IP_B = Ipv4.parse("10.77.3.10");
    static final long MAC_A = MacAddress.parse("52:54:00:7a:00:01");
    static final long MAC_B = MacAddress.parse("52:54:00:7a:00:00");
    static final int QKEY = 0x1111_1111;
    static final int MTU = 1024;
    static final int REGION = 16 * 1024;
    /** Receive buffers take the first half of the local region, local SGEs of sends the second. */
    static final int SLOT = 2048;
    private static final long MS = 1_000_000L;

    /** One side: its NIC, QP and guarded regions. */
    static final class Side {
        final SoftNic nic;
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final QueuePair qp;
        final GuardedMemory rw;
        final GuardedMemory ro;
        final GuardedMemory local;
        int psnBase;

        Side(SoftNic nic, ProtectionDomain pd, CompletionQueue cq, QpType type, long vaBase, long seed) {
            this.nic = nic;
            this.pd = pd;
            this.cq = cq;
            qp = nic.createQp(pd, type, cq, cq, QpCaps.defaults());
            rw = new GuardedMemory(nic.name() + ".rw", pd, REGION, vaBase, AccessFlags.ALL, seed);
            ro = new GuardedMemory(nic.name() + ".ro", pd, REGION, vaBase + 0x10_0000L,
                    AccessFlags.REMOTE_READ, seed + 1);
            local = new GuardedMemory(nic.name() + ".local", pd, REGION, vaBase + 0x20_0000L,
                    AccessFlags.LOCAL_WRITE, seed + 2);
            rw.allowRegion();
        }

        List<GuardedMemory> regions() {
            return List.of(rw, ro, local);
        }
    }

    /** The NICs, untapped, b's port behind the attacker's {@link InjectingPort}. */
    final NicRig rig;
    final VirtualTimeScheduler sched;
    final QpType type;
    final InjectingPort attackPort;
    final Side a;
    final Side b;
    final WrLedger ledger = new WrLedger();
    private final Random random;
    private int nextSlot;
    /** The first WR id of the current connection (since the last {@link #connect}). */
    long connectedAt;

    HostileRig(QpType type, long seed) {
        this(type, seed, false);
    }

    /** With {@code ooo}, both NICs' RC QPs place data out of order ({@link QpCreateFlag#OOO_DP}). */
    HostileRig(QpType type, long seed, boolean ooo) {
        this.type = type;
        this.random = new Random(seed);
        // static neighbour entries (ip neigh ... permanent): ARP spoofing of the peer is out of scope
        rig = NicRig.builder().nicA(MacAddress.toString(MAC_A), Ipv4.toString(IP_A))
                .nicB(MacAddress.toString(MAC_B), Ipv4.toString(IP_B)).ipv6("fd7a::11", "fd7a::10").activeMtu(4096)
                .cqDepth(65536).link("a-b", seed, FaultProfile.NONE).tapped(false).staticNeighbors(true).hostileB()
                .tune(nic -> nic.oooDataPlacement(ooo)).build();
        sched = rig.sched;
        attackPort = rig.attackPort;
        a = new Side(rig.a, rig.pdA, rig.cqA, type, 0x10_0000_0000L, seed * 7 + 1);
        b = new Side(rig.b, rig.pdB, rig.cqB, type, 0x20_0000_0000L, seed * 7 + 4);
        connect(random.nextInt(1 << 24), random.nextInt(1 << 24));
    }

    /** Both QPs from RESET (or new) to RTS, a sending from {@code psnA} and b from {@code psnB}. */
    void connect(int psnA, int psnB) {
        connectedAt = ledger.mark();
        a.psnBase = psnA;
        b.psnBase = psnB;
        if (type == QpType.UD) {
            for (Side s : List.of(a, b)) {
                s.qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).qkey(QKEY));
                s.qp.modify(new QpAttr().state(QpState.RTR));
                s.qp.modify(new QpAttr().state(QpState.RTS).sqPsn(s.psnBase));
            }
            return;
        }
        NicRig.connect(a.qp, b.qp, IP_B, psnB, psnA, type, MTU, 8, 3, 3, 1);
        NicRig.connect(b.qp, a.qp, IP_A, psnA, psnB, type, MTU, 8, 3, 3, 1);
    }

    Side peerOf(Side s) {
        return s == a ? b : a;
    }

    /**
     * Posts one ordinary work request from {@code from} to its peer, of a kind the QP type has, with
     * a receive WR at the peer for a SEND or an immediate; its local SGE may change, and so may the
     * receive buffer.
     */
    void postLegitimate(Side from) {
        Side to = peerOf(from);
        int slot = nextSlot++ % (REGION / SLOT / 2);
        int recvOff = slot * SLOT;
        int sendOff = REGION / 2 + slot * SLOT;
        int kinds = switch (type) {
            case RC -> 6;
            case UC -> 3;
            default -> 1;
        };
        int kind = random.nextInt(kinds);
        int len = 1 + random.nextInt(type == QpType.UD ? MTU : SLOT - 8);
        long id = ledger.nextId();
        Sge local = from.local.sge(sendOff, len);
        SendWr wr = switch (kind) {
            case 0 -> SendWr.send(id, local);
            case 1 -> SendWr.write(id, local, to.rw.va(random.nextInt(REGION - len)), to.rw.mr.rkey());
            case 2 -> new SendWr(id, WrOpcode.RDMA_WRITE_WITH_IMM).sgl(local)
                    .remote(to.rw.va(random.nextInt(REGION - len)), to.rw.mr.rkey()).imm(random.nextInt());
            case 3 -> {
                GuardedMemory source = random.nextBoolean() ? to.ro : to.rw;
                yield SendWr.read(id, local, source.va(random.nextInt(REGION - len)), source.mr.rkey());
            }
            case 4 -> SendWr.fetchAdd(id, from.local.sge(sendOff, 8), to.rw.va(8 * random.nextInt(REGION / 8)),
                    to.rw.mr.rkey(), random.nextLong());
            default -> SendWr.compareSwap(id, from.local.sge(sendOff, 8), to.rw.va(8 * random.nextInt(REGION / 8)),
                    to.rw.mr.rkey(), random.nextLong(), random.nextLong());
        };
        if (type == QpType.UD) {
            wr.ud(AddressHandle.ipv4(to.nic.ipv4()), to.qp.qpn(), QKEY);
        }
        if (kind == 3) {
            from.local.allow(local);
        } else if (kind >= 4) {
            from.local.allow(from.local.sge(sendOff, 8));
        }
        if (kind == 0 || kind == 2) {
            postRecv(to, recvOff);
        }
        ledger.send(from.qp, wr, wr.opcode().toString());
    }

    /** A receive WR at {@code s} for a buffer at {@code off} in its local region. */
    void postRecv(Side s, int off) {
        Sge buf = s.local.sge(off, SLOT);
        s.local.allow(buf);
        ledger.recv(s.qp, new RecvWr(ledger.nextId(), buf), "RECV");
    }

    /** Takes every completion waiting on either side. */
    void poll() {
        ledger.poll(a.cq);
        ledger.poll(b.cq);
    }

    /** Runs virtual time until {@code done} or {@code maxNanos} pass; returns whether done. */
    boolean runUntil(BooleanSupplier done, long maxNanos) {
        long end = sched.nanoTime() + maxNanos;
        while (!done.getAsBoolean()) {
            if (sched.isIdle() || sched.nextEventTime() > end) {
                sched.runUntil(Math.max(end, sched.nanoTime()));
                return done.getAsBoolean();
            }
            sched.runNext();
        }
        return true;
    }

    /** Internal errors and fatal events on either NIC (none may ever come from a remote frame). */
    List<String> deviceProblems() {
        List<String> out = new ArrayList<>();
        for (Side s : List.of(a, b)) {
            long internal = s.nic.counters().get(NicCounter.INTERNAL_ERRORS);
            if (internal != 0) {
                out.add(s.nic.name() + ": " + internal + " internal error(s)");
            }
            for (AsyncEvent e; (e = s.nic.pollAsyncEvent()) != null; ) {
                if (e.type() == AsyncEventType.DEVICE_FATAL) {
                    out.add(s.nic.name() + ": " + e);
                }
            }
        }
        return out;
    }

    /** Bytes changed where nothing may write, in every region of both NICs. */
    List<String> memoryViolations() {
        List<String> out = new ArrayList<>();
        for (Side s : List.of(a, b)) {
            for (GuardedMemory g : s.regions()) {
                out.addAll(g.violations());
            }
        }
        return out;
    }

    /** Both QPs to ERR, and long enough for the flush completions to come. */
    void errorBoth() {
        a.qp.modify(new QpAttr().state(QpState.ERR));
        b.qp.modify(new QpAttr().state(QpState.ERR));
        sched.runFor(MS);
        poll();
    }

    @Override
    public void close() {
        rig.close();
    }
}
