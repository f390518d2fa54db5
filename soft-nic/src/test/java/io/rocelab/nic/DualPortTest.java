package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.nic.net.Gid;
import io.rocelab.nic.stats.NicCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A NIC with two ports: each its own addresses, GIDs, neighbours and counters; QPs bound by port number. */
class DualPortTest {
    private static final long VA = 0x4000_0000L;

    @Test
    void eachPortHasItsOwnAddressesGidsAndCounters() {
        try (NicRig r = NicRig.dualPort()) {
            assertEquals(2, r.a.portCount(), "phys_port_cnt");
            NicPort one = r.a.port(1);
            NicPort two = r.a.port(2);
            assertEquals(1, one.number());
            assertEquals(2, two.number());
            assertNotEquals(one.mac(), two.mac());
            assertEquals(Ipv4.parse(NicRig.IP_A2), two.ipv4());
            assertEquals(Gid.ipv4Mapped(Ipv4.parse(NicRig.IP_A2)), two.gid(SoftNic.GID_INDEX_IPV4));
            assertEquals(Gid.linkLocal(two.mac()), two.gid(SoftNic.GID_INDEX_LINK_LOCAL));
            assertEquals(Gid.ipv4Mapped(Ipv4.parse(NicRig.IP_A1)), r.a.gid(SoftNic.GID_INDEX_IPV4), "port 1's");
            assertEquals(one.counters(), r.a.counters(), "the NIC's counters are port 1's");
            assertNotEquals(one.counters(), two.counters());
            assertThrows(IllegalArgumentException.class, () -> r.a.port(3));
            assertThrows(IllegalArgumentException.class, () -> r.a.port(0));
            assertTrue(two.isActive());
        }
    }

    @Test
    void qpsOnEachPortSendOnTheirOwnLinkAndCountThere() {
        try (NicRig r = NicRig.dualPort()) {
            QueuePair a1 = r.newQpA();
            QueuePair b1 = r.newQpB();
            QueuePair a2 = r.newQpA();
            QueuePair b2 = r.newQpB();
            NicRig.connect(a1, b1, 1, NicRig.IP_B1, 14, 7);
            NicRig.connect(b1, a1, 1, NicRig.IP_A1, 14, 7);
            NicRig.connect(a2, b2, 2, NicRig.IP_B2, 14, 7);
            NicRig.connect(b2, a2, 2, NicRig.IP_A2, 14, 7);
            assertEquals(2, a2.port().number(), "bound to port 2 in INIT");
            byte[] src1 = pattern(20_000, 1);
            byte[] src2 = pattern(30_000, 2);
            byte[] dst1 = new byte[src1.length];
            byte[] dst2 = new byte[src2.length];
            MemoryRegion s1 = r.pdA.registerMr(src1, VA, AccessFlags.LOCAL_WRITE);
            MemoryRegion s2 = r.pdA.registerMr(src2, VA + 0x100_0000, AccessFlags.LOCAL_WRITE);
            MemoryRegion d1 = r.pdB.registerMr(dst1, VA, AccessFlags.ALL);
            MemoryRegion d2 = r.pdB.registerMr(dst2, VA + 0x100_0000, AccessFlags.ALL);
            a1.postSend(SendWr.write(1, Sge.of(s1), d1.addr(), d1.rkey()).signaled(true));
            a2.postSend(SendWr.write(2, Sge.of(s2), d2.addr(), d2.rkey()).signaled(true));
            assertTrue(r.runUntil(() -> r.cqA.size() == 2, 1_000_000_000L));
            for (WorkCompletion wc : NicRig.drain(r.cqA)) {
                assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
            }
            assertArrayEquals(src1, dst1);
            assertArrayEquals(src2, dst2);
            assertTrue(NicRig.from(r.wire1, "a").stream().allMatch(s -> s.destQp() == b1.qpn()),
                    "link 1 carries port 1's QP only");
            assertTrue(NicRig.from(r.wire2, "a").stream().allMatch(s -> s.destQp() == b2.qpn()),
                    "link 2 carries port 2's QP only");
            assertEquals(20, NicRig.from(r.wire1, "a").size(), "20 KB in 1 KB packets on link 1");
            assertEquals(30, NicRig.from(r.wire2, "a").size(), "30 KB in 1 KB packets on link 2");
            assertEquals(20, r.a.port(1).counters().get(NicCounter.SENT_PKTS), "port 1 counts its own");
            assertEquals(30, r.a.port(2).counters().get(NicCounter.SENT_PKTS), "port 2 counts its own");
            assertEquals(30, r.b.port(2).counters().get(NicCounter.RCVD_PKTS));
        }
    }

    @Test
    void aPacketOnTheOtherPortIsNotTheQpsPeer() {
        try (NicRig r = NicRig.dualPort()) {
            QueuePair a2 = r.newQpA();
            QueuePair b1 = r.newQpB();
            // a's QP on port 2 names b's port-1 address: its frames reach b on port 2, where b1 is not
            NicRig.connect(a2, b1, 2, NicRig.IP_B1, 14, 1);
            NicRig.connect(b1, a2, 1, NicRig.IP_A2, 14, 1);
            r.a.addNeighbor(Ipv4.parse(NicRig.IP_B1), r.b.port(2).mac());
            byte[] dst = new byte[64];
            MemoryRegion d = r.pdB.registerMr(dst, VA, AccessFlags.ALL);
            MemoryRegion s = r.pdA.registerMr(pattern(64, 3), VA, AccessFlags.LOCAL_WRITE);
            a2.postSend(SendWr.write(1, Sge.of(s), d.addr(), d.rkey()).signaled(true));
            r.runFor(200_000_000L);
            assertTrue(r.b.port(2).counters().get(NicCounter.DROP_NOT_FOR_US)
                    + r.b.port(2).counters().get(NicCounter.DROP_NOT_FROM_PEER) > 0, "dropped on b's port 2");
            assertArrayEquals(new byte[64], dst, "nothing written");
        }
    }

    @Test
    void portTwoOnASinglePortNicIsRefused() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 1)) {
            QueuePair qp = p.a.createQp(p.pdA, QpType.RC, p.cqA, p.cqA, QpCaps.defaults());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(2).accessFlags(0)));
            assertTrue(e.getMessage().contains("port must be 1 on a"), e.getMessage());
            assertEquals(QpState.RESET, qp.state());
            assertEquals(1, p.a.portCount());
            assertThrows(IllegalArgumentException.class, () -> new QpAttr().port(3));
        }
    }

    @Test
    void aPortLinkGoingDownRaisesPortErrAndComingBackPortActive() {
        try (NicRig r = NicRig.dualPort()) {
            List<AsyncEvent> events = new ArrayList<>();
            r.a.onAsyncEvent(events::add);
            r.link2.setUp(false);
            r.runFor(1_000);
            assertEquals(false, r.a.port(2).isActive());
            assertEquals(true, r.a.port(1).isActive());
            assertEquals(1, r.a.port(2).counters().get(NicCounter.LINK_DOWNED));
            assertEquals(0, r.a.port(1).counters().get(NicCounter.LINK_DOWNED));
            r.link2.setUp(true);
            r.runFor(1_000);
            assertEquals(List.of(AsyncEventType.PORT_ERR, AsyncEventType.PORT_ACTIVE),
                    events.stream().map(AsyncEvent::type).toList());
            assertTrue(events.stream().allMatch(e -> e.port() == 2), events.toString());
        }
    }

    private static byte[] pattern(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }
}
