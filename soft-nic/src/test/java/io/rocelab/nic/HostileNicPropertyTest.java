package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.testkit.HostileBudget;
import io.rocelab.nic.net.Neighbors;
import io.rocelab.nic.stats.NicCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * Hostile frames with valid ICRCs thrown at a live RC, UC and UD connection of soft NICs in
 * virtual time ({@link HostileRig}, {@link HostileTransport}; docs/hostile-input.md) while both
 * sides keep posting work to each other. After each run: nothing escaped and no NIC is in the fatal
 * state; every send WR has completed within a bounded virtual time, and with the QPs moved to ERR
 * every receive WR has been flushed, each exactly once and a send queue's in order; the QPs are
 * in the states IBA allows (a UC or UD QP never leaves RTS for a remote frame; an RC QP with an
 * error completion is in ERR, otherwise in RTS); no byte changed outside what a peer or a posted WR
 * may write, the canaries around every MR included; and, reconnected, the QPs carry ordinary
 * traffic byte-exact. Leaks fail the property ({@link HostileBudget}). Sizes: {@link HostileBudget}.
 */
@AddLifecycleHook(HostileBudget.class)
class HostileNicPropertyTest {
    private static final long MS = 1_000_000L;
    /** Long enough for RC's retries (4 x 1 ms) and RNR retries (4 x 655 ms at worst) to run out. */
    private static final long BOUND = 10_000 * MS;

    @Property(tries = 5, seed = "20201", shrinking = ShrinkingMode.OFF)
    void rcConnectionUnderAttack(@ForAll long seed) {
        transport(QpType.RC, seed);
    }

    /** The same at QPs with out-of-order data placement, whose reorder windows the attacker fills. */
    @Property(tries = 5, seed = "20205", shrinking = ShrinkingMode.OFF)
    void outOfOrderRcConnectionUnderAttack(@ForAll long seed) {
        try (HostileRig rig = new HostileRig(QpType.RC, seed, true)) {
            assertTrue(rig.b.qp.oooDataPlacement());
            HostileTransport attacker = new HostileTransport(rig, seed);
            attackAndCheck(rig, HostileBudget.frames(4_000), seed, () -> rig.attackPort.inject(attacker.next()));
        }
    }

    @Property(tries = 5, seed = "20202", shrinking = ShrinkingMode.OFF)
    void ucConnectionUnderAttack(@ForAll long seed) {
        transport(QpType.UC, seed);
    }

    @Property(tries = 5, seed = "20203", shrinking = ShrinkingMode.OFF)
    void udQpUnderAttack(@ForAll long seed) {
        transport(QpType.UD, seed);
    }

    /**
     * PFC, ARP, ICMPv6, runts, jumbos, VLAN stacks, IPv4 options and lying IP lengths at an RC
     * connection ({@link HostileLink}); each frame, on top of the rest, moves exactly the receive
     * path's counters {@link NicFrameOracle} works out from its bytes.
     */
    @Property(tries = 5, seed = "20204", shrinking = ShrinkingMode.OFF)
    void linkLevelFramesAtAnRcConnection(@ForAll long seed) {
        try (HostileRig rig = new HostileRig(QpType.RC, seed)) {
            HostileLink attacker = new HostileLink(rig, seed);
            SoftNic b = rig.b.nic;
            NicFrameOracle oracle = new NicFrameOracle(HostileRig.MAC_B, HostileRig.IP_B,
                    List.of(b.gid(SoftNic.GID_INDEX_LINK_LOCAL).toBytes(), b.gid(SoftNic.GID_INDEX_FIRST_IPV6).toBytes()));
            List<String> wrong = new ArrayList<>();
            attackAndCheck(rig, HostileBudget.frames(4_000), seed, () -> {
                byte[] frame = attacker.next();
                NicFrameOracle.Verdict v = oracle.judge(frame);
                long[] before = watched(b);
                rig.attackPort.inject(frame);
                long[] after = watched(b);
                for (int i = 0; i < WATCHED.length; i++) {
                    long want = v.counts().getOrDefault(WATCHED[i], 0);
                    if (after[i] - before[i] != want && wrong.size() < 8) {
                        wrong.add(v.fate() + ": " + WATCHED[i] + " moved by " + (after[i] - before[i]) + ", not "
                                + want + ", for " + java.util.HexFormat.of().formatHex(frame));
                    }
                }
            });
            assertEquals(List.of(), wrong, "each frame moves the counters of where it must end");
            assertTrue(b.call(b.neighbors::size) <= Neighbors.MAX_LEARNED + 1, "ARP table bounded");
            assertTrue(b.call(b.nd::size) <= Neighbors.MAX_LEARNED, "neighbour table bounded");
        }
    }

    private static final NicCounter[] WATCHED = watchedCounters();

    private static NicCounter[] watchedCounters() {
        List<NicCounter> c = new ArrayList<>(List.of(NicCounter.DROP_MALFORMED, NicCounter.DROP_NOT_FOR_US,
                NicCounter.DROP_VLAN, NicCounter.ARP_REPLIES_SENT, NicCounter.ND_ADVERTS_SENT, NicCounter.DROP_BAD_ICRC,
                NicCounter.RCVD_PKTS));
        for (int p = 0; p < 8; p++) {
            c.add(NicCounter.valueOf("RX_PRIO" + p + "_PAUSE"));
        }
        return c.toArray(NicCounter[]::new);
    }

    private static long[] watched(SoftNic nic) {
        long[] v = new long[WATCHED.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = nic.counters().get(WATCHED[i]);
        }
        return v;
    }

    private static void transport(QpType type, long seed) {
        try (HostileRig rig = new HostileRig(type, seed)) {
            HostileTransport attacker = new HostileTransport(rig, seed);
            attackAndCheck(rig, HostileBudget.frames(4_000), seed, () -> rig.attackPort.inject(attacker.next()));
        }
    }

    /**
     * {@code frames} times {@code throwOne}, a random 0 to 2 us of virtual time apart, with both
     * sides' work topped up as it goes; then every check of the class comment.
     */
    private static void attackAndCheck(HostileRig rig, int frames, long seed, Runnable throwOne) {
        Random pace = new Random(~seed);
        for (int i = 0; i < frames; i++) {
            if (i % 16 == 0) {
                rig.poll();
                if (rig.a.qp.state() == QpState.ERR || rig.b.qp.state() == QpState.ERR) {
                    // a hostile frame may end an RC connection (a NAK, a request it must refuse):
                    // check how it ended, then connect again so the attack goes on at a live one
                    settle(rig);
                    rig.a.qp.modify(new QpAttr().state(QpState.RESET));
                    rig.b.qp.modify(new QpAttr().state(QpState.RESET));
                    rig.connect(pace.nextInt(1 << 24), pace.nextInt(1 << 24));
                    HostileBudget.outcome("reconnections", 1);
                }
                topUp(rig);
            }
            throwOne.run();
            rig.sched.runFor(pace.nextInt(2_000));
        }
        HostileBudget.thrown(frames);
        rig.b.nic.counters().snapshot().forEach((c, n) -> HostileBudget.outcome(c.name().toLowerCase(), n));
        settle(rig);
        assertEquals(List.of(), rig.memoryViolations(), "no byte changed where nothing may write");
        legitimateTrafficAfterwards(rig, rig.type);
        assertEquals(List.of(), rig.deviceProblems());
    }

    /**
     * Every send WR completes within a bounded virtual time, the QPs are in states IBA allows, and
     * moved to ERR they flush the rest: each WR completes exactly once, a send queue's in order.
     */
    private static void settle(HostileRig rig) {
        boolean done = rig.runUntil(() -> {
            rig.poll();
            return rig.ledger.sendsDone();
        }, BOUND);
        assertEquals(List.of(), rig.deviceProblems(), "no remote frame makes a NIC fatal");
        assertTrue(done, "every send WR completes within a bounded virtual time: "
                + rig.ledger.problems(true) + " " + rig.b.nic.counters());
        checkStates(rig);
        rig.errorBoth();
        assertEquals(List.of(), rig.ledger.problems(true), "each WR completes or is flushed, once, in order");
    }

    /** Keeps a few WRs of each side outstanding and receives posted, while the QPs can send. */
    private static void topUp(HostileRig rig) {
        for (HostileRig.Side s : List.of(rig.a, rig.b)) {
            if (s.qp.state() != QpState.RTS) {
                continue;
            }
            while (rig.ledger.pending(s.qp, false) < 8) {
                rig.postRecv(s, HostileRig.SLOT * (rig.ledger.pending(s.qp, false) % 4));
            }
            if (rig.ledger.pending(s.qp, true) < 4) {
                rig.postLegitimate(s);
            }
        }
    }

    /**
     * IBA 10.3.1 and 11.6.2: a completion in error moves an RC QP to ERR; a remote frame never moves a
     * UC or UD QP out of RTS (their responders drop what is wrong), nor any QP anywhere but ERR.
     */
    private static void checkStates(HostileRig rig) {
        for (HostileRig.Side s : List.of(rig.a, rig.b)) {
            QpState state = s.qp.state();
            boolean failed = rig.ledger.of(s.qp).stream().filter(p -> p.wrId >= rig.connectedAt)
                    .anyMatch(p -> p.wc != null && p.wc.status() != WcStatus.SUCCESS);
            if (rig.type == QpType.RC) {
                assertTrue(state == QpState.RTS || state == QpState.ERR, s.nic.name() + ": " + state);
                if (failed) {
                    assertEquals(QpState.ERR, state, s.nic.name() + ": a completion in error, yet " + state);
                }
            } else {
                assertEquals(QpState.RTS, state, s.nic.name() + " " + rig.type + " QP: " + rig.ledger.of(s.qp)
                        .stream().filter(p -> p.wc != null && !p.wc.isSuccess()).limit(4).toList());
            }
        }
    }

    /** Both QPs reset and reconnected: SENDs, WRITEs, READs and atomics both ways, byte-exact. */
    private static void legitimateTrafficAfterwards(HostileRig rig, QpType type) {
        rig.a.qp.modify(new QpAttr().state(QpState.RESET));
        rig.b.qp.modify(new QpAttr().state(QpState.RESET));
        rig.connect(0x00_1000, 0xFF_FFF0);
        for (HostileRig.Side from : List.of(rig.a, rig.b)) {
            HostileRig.Side to = rig.peerOf(from);
            byte[] src = ScriptedPeer.pattern(3 * HostileRig.MTU, from == rig.a ? 1 : 2);
            byte[] dst = new byte[8 * HostileRig.MTU];
            byte[] recv = new byte[HostileRig.MTU + 64];
            MemoryRegion mrSrc = from.pd.registerMr(src, 0x70_0000_0000L, AccessFlags.ALL);
            MemoryRegion mrDst = to.pd.registerMr(dst, 0x71_0000_0000L, AccessFlags.ALL);
            MemoryRegion mrRecv = to.pd.registerMr(recv, 0x72_0000_0000L, AccessFlags.LOCAL_WRITE);
            List<SendWr> wrs = new ArrayList<>();
            int sendLen = type == QpType.UD ? HostileRig.MTU : 1000;
            to.qp.postRecv(new RecvWr(1, Sge.of(mrRecv)));
            SendWr send = SendWr.send(11, Sge.of(mrSrc, 0, sendLen));
            if (type == QpType.UD) {
                send.ud(AddressHandle.ipv4(to.nic.ipv4()), to.qp.qpn(), HostileRig.QKEY);
            }
            wrs.add(send);
            if (type != QpType.UD) {
                wrs.add(SendWr.write(12, Sge.of(mrSrc, 0, src.length), mrDst.addr(), mrDst.rkey()));
            }
            byte[] orig = src.clone();
            if (type == QpType.RC) {
                wrs.add(SendWr.read(13, Sge.of(mrSrc, 0, src.length), mrDst.addr(), mrDst.rkey()));
                wrs.add(SendWr.fetchAdd(14, Sge.of(mrSrc, 0, 8), mrDst.addr() + 4 * HostileRig.MTU, mrDst.rkey(), 5));
            }
            from.qp.postSend(wrs.toArray(SendWr[]::new));
            int want = wrs.size();
            List<WorkCompletion> sent = new ArrayList<>();
            List<WorkCompletion> got = new ArrayList<>();
            assertTrue(rig.runUntil(() -> {
                from.cq.poll(Integer.MAX_VALUE, sent);
                to.cq.poll(Integer.MAX_VALUE, got);
                return sent.size() >= want && !got.isEmpty();
            }, 100 * MS), from.nic.name() + " completes its WRs after the attack: " + sent + " " + got);
            rig.sched.runFor(MS);
            to.cq.poll(Integer.MAX_VALUE, got);
            for (WorkCompletion wc : sent) {
                assertEquals(WcStatus.SUCCESS, wc.status(), from.nic.name() + " after the attack: " + wc);
            }
            assertEquals(1, got.size(), "the SEND arrives: " + got);
            assertEquals(WcStatus.SUCCESS, got.get(0).status(), got.get(0).toString());
            int grh = type == QpType.UD ? 40 : 0;
            assertArrayEquals(java.util.Arrays.copyOf(orig, sendLen),
                    java.util.Arrays.copyOfRange(recv, grh, grh + sendLen), "SEND data");
            if (type != QpType.UD) {
                assertArrayEquals(orig, java.util.Arrays.copyOf(dst, orig.length), "WRITE data");
            }
            if (type == QpType.RC) {
                assertEquals(5, Memory.getLongLE(dst, 4 * HostileRig.MTU), "FETCH_ADD");
                assertEquals(0, Memory.getLongLE(src, 0), "FETCH_ADD returns the old value (0)");
                assertArrayEquals(java.util.Arrays.copyOfRange(orig, 8, orig.length),
                        java.util.Arrays.copyOfRange(src, 8, src.length), "READ data");
            }
        }
    }
}
