package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.header.Arp;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.testkit.HostileFrames;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.nic.net.Gid;
import io.rocelab.nic.net.NeighborDiscovery;
import io.rocelab.nic.net.Neighbors;
import io.rocelab.nic.stats.NicCounter;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * A NIC learns the neighbours that ask for it (RFC 826's merge rule; RFC 4861 7.2.3 for a
 * solicitation with a source link-layer address), but not without end: an attacker asking from
 * ever new addresses would grow the tables until the heap runs out. At most
 * {@value Neighbors#MAX_LEARNED} entries are learned unasked (Linux's gc_thresh3); the rest are
 * answered, not learned, and counted ({@code neigh_learn_refused}); an address the NIC resolves
 * itself is always learned, so connections still come up.
 */
class NeighborTableLimitTest {
    private static final long MS = 1_000_000L;
    private static final int IP_A = Ipv4.parse("10.77.4.11");
    private static final int IP_B = Ipv4.parse("10.77.4.10");
    private static final int FLOOD = 3 * Neighbors.MAX_LEARNED;

    private final VirtualTimeScheduler sched = new VirtualTimeScheduler();
    private final InjectingPort portB;
    private final SoftNic a;
    private final SoftNic b;

    NeighborTableLimitTest() {
        InProcessLink link = InProcessLink.builder().name("a-b").rateGbps(25).propagationDelayNanos(500).seed(4)
                .build(sched);
        portB = new InjectingPort(link.portB());
        a = SoftNic.builder().name("a").mac("52:54:00:7b:00:01").ipv4(IP_A).ipv6("fd7b::11").activeMtu(1024)
                .scheduler(sched).port(link.portA()).build();
        b = SoftNic.builder().name("b").mac("52:54:00:7b:00:00").ipv4(IP_B).ipv6("fd7b::10").activeMtu(1024)
                .scheduler(sched).port(portB).build();
    }

    @Test
    void arpRequestsFromEverNewAddressesAreAnsweredButFillTheTableOnlyToItsLimit() {
        for (int i = 0; i < FLOOD; i++) {
            long mac = 0x0200_0000_0000L + i;
            portB.inject(HostileFrames.arp(MacAddress.BROADCAST, mac, 1, EtherType.IPV4, 6, 4, Arp.REQUEST, mac,
                    Ipv4.parse("10.99.0.0") + i, 0, IP_B, 60));
        }
        sched.runFor(MS);
        assertEquals(FLOOD, b.counters().get(NicCounter.ARP_REPLIES_SENT), "every request answered");
        assertEquals(Neighbors.MAX_LEARNED, b.call(b.neighbors::size), "learned up to the limit");
        assertEquals(FLOOD - Neighbors.MAX_LEARNED, b.counters().get(NicCounter.NEIGH_LEARN_REFUSED));
        assertConnects();
    }

    @Test
    void neighbourSolicitationsFromEverNewAddressesFillTheTableOnlyToItsLimit() {
        Gid own = b.gid(SoftNic.GID_INDEX_FIRST_IPV6);
        byte[] target = own.toBytes();
        for (int i = 0; i < FLOOD; i++) {
            long mac = 0x0200_0000_0000L + i;
            byte[] src = target.clone();
            src[12] = (byte) 0x99;
            src[14] = (byte) (i >> 8);
            src[15] = (byte) i;
            byte[] icmp = new byte[32];
            icmp[0] = (byte) NeighborDiscovery.NS;
            System.arraycopy(target, 0, icmp, 8, 16);
            icmp[24] = 1; // source link-layer address, 8 bytes
            icmp[25] = 1;
            for (int k = 0; k < 6; k++) {
                icmp[26 + k] = (byte) (mac >>> (40 - 8 * k));
            }
            byte[] group = HostileFrames.solicitedNode(target);
            portB.inject(HostileFrames.icmpv6(HostileFrames.multicastMac(group), mac, src, group, 255, icmp,
                    icmp.length, true));
        }
        sched.runFor(MS);
        assertEquals(FLOOD, b.counters().get(NicCounter.ND_ADVERTS_SENT), "every solicitation answered");
        assertEquals(Neighbors.MAX_LEARNED, b.call(b.nd::size), "learned up to the limit");
        assertEquals(FLOOD - Neighbors.MAX_LEARNED, b.counters().get(NicCounter.NEIGH_LEARN_REFUSED));
        assertConnects();
    }

    /** a writes to b with no static entries: each resolves the other, b in spite of its full table. */
    private void assertConnects() {
        ProtectionDomain pdA = a.allocPd();
        ProtectionDomain pdB = b.allocPd();
        CompletionQueue cqA = a.createCq(16);
        CompletionQueue cqB = b.createCq(16);
        QueuePair qpA = a.createQp(pdA, QpType.RC, cqA, cqA, QpCaps.defaults());
        QueuePair qpB = b.createQp(pdB, QpType.RC, cqB, cqB, QpCaps.defaults());
        NicRig.connect(qpA, qpB, IP_B, 100, 200, QpType.RC, 1024, 14, 7, 7, 12);
        NicRig.connect(qpB, qpA, IP_A, 200, 100, QpType.RC, 1024, 14, 7, 7, 12);
        byte[] src = ScriptedPeer.pattern(3000, 4);
        byte[] dst = new byte[3000];
        MemoryRegion mrA = pdA.registerMr(src, 0x1000, AccessFlags.LOCAL_WRITE);
        MemoryRegion mrB = pdB.registerMr(dst, 0x9000, AccessFlags.ALL);
        qpA.postSend(SendWr.write(1, Sge.of(mrA), mrB.addr(), mrB.rkey()));
        assertTrue(runUntil(() -> cqA.size() > 0, 5_000 * MS), "the WRITE completes");
        List<WorkCompletion> wcs = NicRig.drain(cqA);
        assertEquals(WcStatus.SUCCESS, wcs.get(0).status(), wcs.toString());
        assertEquals(java.util.Arrays.toString(src), java.util.Arrays.toString(dst));
        assertEquals(0, b.counters().get(NicCounter.INTERNAL_ERRORS));
    }

    private boolean runUntil(BooleanSupplier done, long maxNanos) {
        long end = sched.nanoTime() + maxNanos;
        while (!done.getAsBoolean()) {
            if (sched.isIdle() || sched.nextEventTime() > end) {
                return done.getAsBoolean();
            }
            sched.runNext();
        }
        return true;
    }
}
