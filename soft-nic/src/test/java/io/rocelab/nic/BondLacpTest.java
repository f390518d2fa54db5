package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.lag.LacpActor;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * 802.3ad on the host: two bonded NICs run LACP with each other on both cables. A transmitter that
 * dies with its link up (the failure a LAG without LACP cannot see) is left within LACP's timeout,
 * and the QPs on it move; without LACP the same failure exhausts their retries.
 */
class BondLacpTest {
    private static final long VA = 0x7000_0000L;
    private static final int SIZE = 4096;
    private static final int QPS = 8;
    private static final int WRITES = 40;
    /** 4.096 us * 2^18: a 1.07 s local ACK timeout; 7 retries outlast LACP's 3 s. */
    private static final int TIMEOUT = 18;
    private static final long SECOND = 1_000_000_000L;

    private record Run(NicRig r, List<QueuePair> as, List<QueuePair> bs, byte[] src, byte[] dst,
                       List<WorkCompletion> wcs) {
    }

    /** QPs connected and WRITEs posted; returns once every QP has completed a few. */
    private static Run start(NicRig r) {
        List<QueuePair> as = new ArrayList<>();
        List<QueuePair> bs = new ArrayList<>();
        for (int i = 0; i < QPS; i++) {
            QueuePair a = r.newQpA();
            QueuePair b = r.newQpB();
            NicRig.connect(a, b, 1, NicRig.IP_B1, TIMEOUT, 7);
            NicRig.connect(b, a, 1, NicRig.IP_A1, TIMEOUT, 7);
            as.add(a);
            bs.add(b);
        }
        byte[] src = new byte[QPS * WRITES * SIZE];
        byte[] dst = new byte[src.length];
        new Random(5).nextBytes(src);
        MemoryRegion s = r.pdA.registerMr(src, VA, AccessFlags.LOCAL_WRITE);
        MemoryRegion d = r.pdB.registerMr(dst, VA, AccessFlags.ALL);
        for (int q = 0; q < QPS; q++) {
            for (int i = 0; i < WRITES; i++) {
                long off = ((long) q * WRITES + i) * SIZE;
                as.get(q).postSend(SendWr.write(i, new Sge(s.addr() + off, SIZE, s.lkey()), d.addr() + off, d.rkey())
                        .signaled(true));
            }
        }
        List<WorkCompletion> wcs = new ArrayList<>();
        assertTrue(r.runUntil(() -> {
            wcs.addAll(NicRig.drain(r.cqA));
            return as.stream().allMatch(q -> wcs.stream().filter(w -> w.qpNum() == q.qpn()).count() >= 3);
        }, SECOND));
        assertTrue(wcs.size() < QPS * WRITES, "mid-transfer");
        return new Run(r, as, bs, src, dst, wcs);
    }

    private static Set<Integer> onPort(List<QueuePair> qps, int port) {
        return qps.stream().filter(q -> q.port().number() == port).map(QueuePair::qpn)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void lacpConvergesOnBothCablesAndSpreadsQps() {
        try (NicRig r = NicRig.bonded(BondMode.LACP, "fast")) {
            r.runFor(5 * SECOND);
            for (SoftNic nic : List.of(r.a, r.b)) {
                for (int p = 1; p <= 2; p++) {
                    LacpActor actor = nic.bond().lacp(p);
                    assertTrue(actor.distributing(), nic.name() + " port " + p + " distributing");
                    assertEquals(LacpActor.RxState.CURRENT, actor.rxState());
                    assertTrue(actor.lacpduTx() >= 5 && actor.lacpduRx() >= 5, "fast rate: one a second");
                    SoftNic other = nic == r.a ? r.b : r.a;
                    assertEquals(other.mac(), actor.partner().system(), "the partner is the other NIC's system");
                    assertEquals(nic.mac(), actor.actorInfo().system(), "one system id for both ports");
                }
            }
            Run run = start(r);
            assertFalse(onPort(run.as(), 1).isEmpty());
            assertFalse(onPort(run.as(), 2).isEmpty(), "distributing ports share the QPs");
        }
    }

    @Test
    void aSilentlyDeadTransmitterIsLeftWithinTheLacpTimeoutWithoutErrors() {
        try (NicRig r = NicRig.bonded(BondMode.LACP, "fast")) {
            r.runFor(5 * SECOND);
            Run run = start(r);
            Set<Integer> movedOff = onPort(run.as(), 2);
            assertFalse(movedOff.isEmpty());
            long cutAt = r.sched.nanoTime();
            r.muteA2.mute(true); // a's port 2 sends nothing more; its link stays up
            assertTrue(r.runUntil(() -> {
                run.wcs().addAll(NicRig.drain(r.cqA));
                return run.wcs().size() == QPS * WRITES;
            }, 60 * SECOND), "all WRITEs complete: " + run.wcs().size());
            assertTrue(run.wcs().stream().allMatch(w -> w.status() == WcStatus.SUCCESS), "zero error completions");
            assertArrayEquals(run.src(), run.dst(), "every byte written");
            assertTrue(r.a.port(2).isActive(), "the link never went down");
            LacpActor heard = r.b.bond().lacp(2);
            assertNotEquals(LacpActor.RxState.CURRENT, heard.rxState(), "b stopped hearing a on cable 2");
            assertFalse(r.a.bond().lacp(2).distributing());
            assertEquals(Set.of(), onPort(run.as(), 2), "a's QPs left port 2");
            assertEquals(Set.of(), onPort(run.bs(), 2), "and b's");
            long took = r.sched.nanoTime() - cutAt;
            // measured: 4.29 s, LACP's 3 s and one 1.07 s ACK timeout
            assertTrue(took < 3 * SECOND + 2 * 1_100_000_000L, "recovered within LACP's 3 s and an ACK timeout or two: "
                    + took / 1_000_000 + " ms");
            assertTrue(r.muteA2.lost() > 0);
        }
    }

    @Test
    void withoutLacpTheSameFailureExhaustsTheRetriesOfTheQpsOnThatPort() {
        try (NicRig r = NicRig.bonded(BondMode.BALANCE_XOR)) {
            Run run = start(r);
            Set<Integer> onTwo = onPort(run.as(), 2);
            assertFalse(onTwo.isEmpty());
            r.muteA2.mute(true);
            assertTrue(r.runUntil(() -> {
                run.wcs().addAll(NicRig.drain(r.cqA));
                return run.wcs().size() == QPS * WRITES;
            }, 60 * SECOND), "every WRITE completes, some with errors: " + run.wcs().size());
            Set<Integer> failed = run.wcs().stream().filter(w -> w.status() == WcStatus.RETRY_EXC_ERR)
                    .map(WorkCompletion::qpNum).collect(Collectors.toCollection(TreeSet::new));
            assertEquals(onTwo, failed, "exactly the QPs hashed to the silent port hit RETRY_EXC_ERR");
            assertEquals(onTwo, onPort(run.as(), 2), "nothing told the bond to move them");
        }
    }
}
