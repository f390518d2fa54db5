package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Udp;
import io.rocelab.nic.net.Gid;
import io.rocelab.nic.stats.NicCounter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * RoCE LAG: two NICs whose two ports are bonded, cabled port to port. A port's link going down
 * mid-transfer moves its QPs to the other port without an error completion.
 */
class BondTest {
    private static final long VA = 0x6000_0000L;
    private static final int SIZE = 4096;
    /** 4.096 us * 2^10: a 4.2 ms local ACK timeout. */
    private static final int TIMEOUT = 10;

    /** {@code qps} connected QP pairs writing {@code writes} messages each from a to b. */
    private static final class Transfer {
        final NicRig r;
        final List<QueuePair> as = new ArrayList<>();
        final List<QueuePair> bs = new ArrayList<>();
        final byte[] src;
        final byte[] dst;
        final MemoryRegion s;
        final MemoryRegion d;
        final int writes;

        Transfer(NicRig r, int qps, int writes) {
            this.r = r;
            this.writes = writes;
            for (int i = 0; i < qps; i++) {
                QueuePair a = r.newQpA();
                QueuePair b = r.newQpB();
                NicRig.connect(a, b, 1, NicRig.IP_B1, TIMEOUT, 7);
                NicRig.connect(b, a, 1, NicRig.IP_A1, TIMEOUT, 7);
                as.add(a);
                bs.add(b);
            }
            src = new byte[qps * writes * SIZE];
            dst = new byte[src.length];
            new Random(11).nextBytes(src);
            s = r.pdA.registerMr(src, VA, AccessFlags.LOCAL_WRITE);
            d = r.pdB.registerMr(dst, VA, AccessFlags.ALL);
        }

        void postAll() {
            for (int q = 0; q < as.size(); q++) {
                for (int i = 0; i < writes; i++) {
                    long off = ((long) q * writes + i) * SIZE;
                    as.get(q).postSend(SendWr.write(i, new Sge(s.addr() + off, SIZE, s.lkey()), d.addr() + off,
                            d.rkey()).signaled(true));
                }
            }
        }

        List<WorkCompletion> awaitAll(List<WorkCompletion> wcs) {
            int total = as.size() * writes;
            assertTrue(r.runUntil(() -> {
                wcs.addAll(NicRig.drain(r.cqA));
                return wcs.size() == total;
            }, 5_000_000_000L), "all WRITEs complete: " + wcs.size() + " of " + total);
            return wcs;
        }
    }

    @Test
    void activeBackupFailsOverWhenTheActivePortGoesDown() {
        try (NicRig r = NicRig.bonded(BondMode.ACTIVE_BACKUP)) {
            assertEquals(r.a.mac(), r.a.port(2).mac(), "both ports behind one MAC");
            assertEquals(r.a.gid(SoftNic.GID_INDEX_IPV4), r.a.port(2).gid(SoftNic.GID_INDEX_IPV4), "and one GID");
            Transfer t = new Transfer(r, 2, 150);
            assertEquals(1, r.a.bond().activePort());
            t.postAll();
            List<WorkCompletion> wcs = new ArrayList<>();
            assertTrue(r.runUntil(() -> {
                wcs.addAll(NicRig.drain(r.cqA));
                return wcs.size() >= 50;
            }, 1_000_000_000L));
            assertTrue(NicRig.from(r.wire2, "a").isEmpty(), "the backup port idle until then");
            r.link1.setUp(false);
            t.awaitAll(wcs);
            assertTrue(wcs.stream().allMatch(w -> w.status() == WcStatus.SUCCESS), "zero error completions");
            assertArrayEquals(t.src, t.dst, "every byte written");
            assertEquals(2, r.a.bond().activePort());
            assertEquals(2, r.b.bond().activePort());
            assertTrue(t.as.stream().allMatch(q -> q.port().number() == 2));
            assertEquals(2, r.a.bond().failovers(), "both QPs moved");
            assertTrue(r.a.port(1).counters().get(NicCounter.COMPLETER_RETRY_ERR)
                    + r.a.port(2).counters().get(NicCounter.COMPLETER_RETRY_ERR) > 0,
                    "what was in flight on the dead link was resent by the transport");
            assertEquals(0, r.a.counters().get(NicCounter.RETRY_EXCEEDED_ERR));
            assertTrue(!NicRig.from(r.wire2, "a").isEmpty(), "the rest on port 2");
            // the link comes back: active-backup stays on port 2
            r.link1.setUp(true);
            r.runFor(1_000_000);
            assertEquals(2, r.a.bond().activePort());
        }
    }

    /**
     * A bond is one interface with one neighbour cache for IPv6 too: what port 1's solicitation and
     * advertisement taught both NICs serves port 2 after the failover, which then solicits nothing.
     */
    @Test
    void aBondsPortsShareNeighbourDiscovery() {
        try (NicRig r = NicRig.bondedWithIpv6(BondMode.ACTIVE_BACKUP)) {
            Gid gidA = Gid.ipv6(NicRig.IPV6_A);
            Gid gidB = Gid.ipv6(NicRig.IPV6_B);
            QueuePair a = r.newQpA();
            QueuePair b = r.newQpB();
            NicRig.connect(a, b, 1, AddressHandle.ipv6(gidB, SoftNic.GID_INDEX_FIRST_IPV6), TIMEOUT, 7);
            NicRig.connect(b, a, 1, AddressHandle.ipv6(gidA, SoftNic.GID_INDEX_FIRST_IPV6), TIMEOUT, 7);
            int writes = 200;
            byte[] src = new byte[writes * SIZE];
            byte[] dst = new byte[src.length];
            new Random(12).nextBytes(src);
            MemoryRegion s = r.pdA.registerMr(src, VA, AccessFlags.LOCAL_WRITE);
            MemoryRegion d = r.pdB.registerMr(dst, VA, AccessFlags.ALL);
            for (int i = 0; i < writes; i++) {
                a.postSend(SendWr.write(i, new Sge(s.addr() + (long) i * SIZE, SIZE, s.lkey()),
                        d.addr() + (long) i * SIZE, d.rkey()).signaled(true));
            }
            List<WorkCompletion> wcs = new ArrayList<>();
            assertTrue(r.runUntil(() -> {
                wcs.addAll(NicRig.drain(r.cqA));
                return wcs.size() >= 50;
            }, 1_000_000_000L));
            assertEquals(1, r.a.port(1).counters().get(NicCounter.ND_SOLICITS_SENT), "a resolved b on port 1");
            assertEquals(1, r.b.port(1).counters().get(NicCounter.ND_ADVERTS_SENT), "b answered on port 1");
            r.link1.setUp(false);
            assertTrue(r.runUntil(() -> {
                wcs.addAll(NicRig.drain(r.cqA));
                return wcs.size() == writes;
            }, 5_000_000_000L), wcs.size() + " of " + writes);
            assertTrue(wcs.stream().allMatch(w -> w.status() == WcStatus.SUCCESS), "zero error completions");
            assertArrayEquals(src, dst, "every byte written over IPv6, the rest on port 2");
            assertEquals(2, a.port().number());
            assertEquals(2, b.port().number());
            assertTrue(!NicRig.from(r.wire2, "a").isEmpty() && !NicRig.from(r.wire2, "b").isEmpty());
            assertEquals(0, r.a.port(2).counters().get(NicCounter.ND_SOLICITS_SENT), "a's port 2 knew b already");
            assertEquals(0, r.b.port(2).counters().get(NicCounter.ND_SOLICITS_SENT),
                    "b's port 2 knew a from a's solicitation on port 1");
        }
    }

    @Test
    void balanceXorSpreadsQpsByUdpSourcePortAndMovesThemOffADownPort() {
        try (NicRig r = NicRig.bonded(BondMode.BALANCE_XOR)) {
            Transfer t = new Transfer(r, 8, 60);
            Set<Integer> used = new HashSet<>();
            int srcIp = Ipv4.parse(NicRig.IP_A1);
            int dstIp = Ipv4.parse(NicRig.IP_B1);
            for (QueuePair q : t.as) {
                int expected = Integer.remainderUnsigned(Bond.hash(srcIp, dstIp, q.udpSourcePort(), Udp.ROCEV2_PORT), 2)
                        + 1;
                assertEquals(expected, q.port().number(), "the layer3+4 hash of " + q + " picks its port");
                used.add(expected);
            }
            assertEquals(Set.of(1, 2), used, "eight QPs use both ports");
            t.postAll();
            List<WorkCompletion> wcs = new ArrayList<>();
            // until every QP has completed some WRITEs (the first QPs fill their windows first)
            assertTrue(r.runUntil(() -> {
                wcs.addAll(NicRig.drain(r.cqA));
                return t.as.stream().allMatch(q -> wcs.stream().filter(w -> w.qpNum() == q.qpn()).count() >= 5);
            }, 1_000_000_000L));
            assertTrue(wcs.size() < t.as.size() * t.writes, "the cut comes mid-transfer: " + wcs.size());
            for (QueuePair q : t.as) {
                List<WireTap.Seen> mine = q.port().number() == 1 ? r.wire1 : r.wire2;
                List<WireTap.Seen> other = q.port().number() == 1 ? r.wire2 : r.wire1;
                int peer = t.bs.get(t.as.indexOf(q)).qpn();
                assertTrue(NicRig.from(mine, "a").stream().anyMatch(f -> f.destQp() == peer), q.toString());
                assertTrue(NicRig.from(other, "a").stream().noneMatch(f -> f.destQp() == peer),
                        "one QP, one port");
            }
            List<Integer> before = t.as.stream().map(q -> q.port().number()).toList();
            r.link2.setUp(false);
            t.awaitAll(wcs);
            assertTrue(wcs.stream().allMatch(w -> w.status() == WcStatus.SUCCESS), "zero error completions");
            assertArrayEquals(t.src, t.dst, "every byte written");
            assertTrue(t.as.stream().allMatch(q -> q.port().number() == 1), "all on the port that is up");
            assertTrue(r.a.port(1).counters().get(NicCounter.COMPLETER_RETRY_ERR) > 0,
                    "what was in flight on link 2 was resent on port 1");
            assertEquals(0, r.a.port(1).counters().get(NicCounter.RETRY_EXCEEDED_ERR));
            assertEquals(before.stream().filter(p -> p == 2).count(), r.a.bond().failovers());
            r.link2.setUp(true);
            r.runFor(1_000_000);
            assertEquals(before, t.as.stream().map(q -> q.port().number()).toList(),
                    "back on their hashed ports when the link returns");
        }
    }

    @Test
    void aBondedNicTakesNoPortTwoAndNoAlternatePath() {
        try (NicRig r = NicRig.bonded(BondMode.ACTIVE_BACKUP)) {
            QueuePair q = r.newQpA();
            IllegalArgumentException two = assertThrows(IllegalArgumentException.class,
                    () -> q.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(2).accessFlags(0)));
            assertTrue(two.getMessage().contains("bonded"), two.getMessage());
            QueuePair b = r.newQpB();
            NicRig.connect(q, b, 1, NicRig.IP_B1, TIMEOUT, 7);
            IllegalArgumentException alt = assertThrows(IllegalArgumentException.class,
                    () -> q.modify(new QpAttr().altPath(AddressHandle.ipv4(Ipv4.parse(NicRig.IP_B1)), 2, 14, 0)));
            assertTrue(alt.getMessage().contains("bonded"), alt.getMessage());
        }
        assertEquals(BondMode.ACTIVE_BACKUP, BondMode.parse("active-backup"));
        assertEquals(BondMode.BALANCE_XOR, BondMode.parse("balance-xor"));
        assertEquals(BondMode.LACP, BondMode.parse("802.3ad"));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> BondMode.parse("broadcast"));
        assertTrue(bad.getMessage().contains("active-backup, balance-xor or 802.3ad"), bad.getMessage());
    }
}
