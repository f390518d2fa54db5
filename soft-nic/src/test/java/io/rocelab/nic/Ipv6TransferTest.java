package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.FrameKind;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.nic.net.Gid;
import io.rocelab.nic.net.Icmpv6;
import io.rocelab.nic.stats.NicCounter;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * RoCEv2 over IPv6 between two NICs in virtual time: global and link-local GIDs, peers resolved by
 * neighbour discovery (no static entries), the IPv6 header fields rxe writes (traffic class from
 * the AH, flow label 0, hop limit 64), and the GRH area of UD receives holding the IPv6 header.
 */
class Ipv6TransferTest {
    private static final long MS = 1_000_000L;
    static final Gid GID_A = Gid.ipv6("fd00:77::11");
    static final Gid GID_B = Gid.ipv6("fd00:77::10");

    /** Two NICs with IPv4 and IPv6 addresses over an in-process link, every frame kept. */
    static TappedPair pair() {
        return new TappedPair(61, 4096, 14,
            a -> a.name("a").mac("52:54:00:77:00:01").ipv4(NicRig.IP_A).ipv6("fd00:77::11"),
            b -> b.name("b").mac("52:54:00:77:00:00").ipv4(NicRig.IP_B).ipv6("fd00:77::10"));
    }

    @Test
    void gidTableHoldsLinkLocalIpv4MappedAndGlobalIpv6() {
        try (TappedPair p = pair()) {
            assertEquals(Gid.ipv6("fe80::5054:ff:fe77:1"), p.a.gid(SoftNic.GID_INDEX_LINK_LOCAL));
            assertEquals(Gid.ipv4Mapped(NicRig.IP_A), p.a.gid(SoftNic.GID_INDEX_IPV4));
            assertEquals(GID_A, p.a.gid(SoftNic.GID_INDEX_FIRST_IPV6));
            assertEquals(3, p.a.gidTableSize());
            assertEquals(SoftNic.GID_INDEX_FIRST_IPV6, p.a.gidIndex(GID_A));
            assertThrows(IllegalArgumentException.class, () -> SoftNic.builder().ipv6("fe80::1"));
            QueuePair qp = p.a.createQp(p.pdA, QpType.RC, p.cqA, p.cqA, QpCaps.defaults());
            qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.ALL));
            assertThrows(IllegalArgumentException.class, () -> qp.modify(new QpAttr().state(QpState.RTR)
                    .av(AddressHandle.ipv6(GID_B, SoftNic.GID_INDEX_IPV4)).pathMtu(1024).destQpn(0x11).rqPsn(0)
                    .maxDestRdAtomic(1).minRnrTimer(1)), "an IPv6 destination needs an IPv6 source GID");
        }
    }

    @Test
    void rcWriteSendReadOverGlobalIpv6ResolvedByNeighbourDiscovery() {
        try (TappedPair p = pair()) {
            int tc = 26 << 2; // DSCP 26 (AF31), ECN 0
            QueuePair[] qps = p.rc(AddressHandle.ipv6(GID_B, SoftNic.GID_INDEX_FIRST_IPV6).withTrafficClass(tc),
                    AddressHandle.ipv6(GID_A, SoftNic.GID_INDEX_FIRST_IPV6).withTrafficClass(tc), 7);
            int size = 64 * 1024;
            byte[] src = new byte[size];
            new Random(61).nextBytes(src);
            byte[] remote = new byte[size];
            byte[] recv = new byte[size];
            byte[] back = new byte[size];
            MemoryRegion mrSrc = p.pdA.registerMr(src, 0x10000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrBack = p.pdA.registerMr(back, 0x40000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrRemote = p.pdB.registerMr(remote, 0x80000, AccessFlags.ALL);
            MemoryRegion mrRecv = p.pdB.registerMr(recv, 0xC0000, AccessFlags.LOCAL_WRITE);
            qps[1].postRecv(new RecvWr(9, Sge.of(mrRecv)));
            qps[0].postSend(SendWr.write(1, Sge.of(mrSrc), 0x80000, mrRemote.rkey()).signaled(true),
                    SendWr.send(2, Sge.of(mrSrc)).signaled(true),
                    SendWr.read(3, Sge.of(mrBack), 0x80000, mrRemote.rkey()).signaled(true));
            assertTrue(p.sched.runUntil(() -> p.cqA.size() == 3 && p.cqB.size() == 1, 1000 * MS));
            NicRig.drain(p.cqA).forEach(wc -> assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString()));
            assertEquals(size, p.cqB.poll().byteLen());
            assertArrayEquals(src, remote);
            assertArrayEquals(src, recv);
            assertArrayEquals(src, back);

            assertEquals(1, p.a.counters().get(NicCounter.ND_SOLICITS_SENT), "a solicits b once");
            assertEquals(1, p.b.counters().get(NicCounter.ND_ADVERTS_SENT), "b advertises once");
            // a's solicitation came from its link-local address, so b still solicits a's global one,
            // as the two Linux hosts of the rc_pingpong_ipv6 capture do
            assertEquals(1, p.b.counters().get(NicCounter.ND_SOLICITS_SENT));
            assertEquals(1, p.a.counters().get(NicCounter.ND_ADVERTS_SENT));
            assertEquals(0, p.a.counters().get(NicCounter.ARP_REQUESTS_SENT) + p.b.counters().get(NicCounter.DROP_BAD_ICRC));

            ParsedFrame f = new ParsedFrame();
            List<byte[]> roce = p.tapA.ofType(0x86DD).stream().filter(b -> b[20] == 17).toList();
            assertTrue(roce.size() >= 2 * size / 4096 + 1);
            for (byte[] frame : roce) {
                ByteBuf b = Unpooled.wrappedBuffer(frame);
                assertEquals(null, f.parse(b));
                assertEquals(FrameKind.ROCEV2, f.kind());
                assertEquals(6, f.ipVersion());
                assertEquals(tc, Ipv6.trafficClass(b, 14), "traffic class from the AH");
                assertEquals(0, Ipv6.flowLabel(b, 14), "flow label 0, as rxe");
                assertEquals(64, Ipv6.hopLimit(b, 14), "hop limit 64, as rxe");
                byte[] s = new byte[16];
                Ipv6.src(b, 14, s);
                assertEquals(GID_A, Gid.of(s));
                Ipv6.dst(b, 14, s);
                assertEquals(GID_B, Gid.of(s));
            }
        }
    }

    @Test
    void neighbourSolicitationAndAdvertisementOnTheWire() {
        try (TappedPair p = pair()) {
            QueuePair[] qps = p.rc(AddressHandle.ipv6(GID_B, SoftNic.GID_INDEX_FIRST_IPV6),
                    AddressHandle.ipv6(GID_A, SoftNic.GID_INDEX_FIRST_IPV6), 7);
            MemoryRegion mrA = p.pdA.registerMr(new byte[64], 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(new byte[64], 0x9000, AccessFlags.ALL);
            qps[0].postSend(SendWr.write(1, Sge.of(mrA), 0x9000, mrB.rkey()).signaled(true));
            assertTrue(p.sched.runUntil(() -> p.cqA.size() == 1, 100 * MS));
            byte[] ns = p.tapA.sent.get(0);
            ByteBuf b = Unpooled.wrappedBuffer(ns);
            assertEquals(0x3333_FF00_0010L, io.rocelab.codec.header.MacAddress.get(b, 0), "solicited-node MAC");
            assertEquals(86, ns.length);
            assertEquals(255, Ipv6.hopLimit(b, 14));
            byte[] addr = new byte[16];
            Ipv6.src(b, 14, addr);
            assertEquals(p.a.gid(SoftNic.GID_INDEX_LINK_LOCAL), Gid.of(addr), "solicitation from the link-local address");
            Ipv6.dst(b, 14, addr);
            assertEquals(Gid.ipv6("ff02::1:ff00:10"), Gid.of(addr));
            assertEquals(135, ns[54] & 0xFF);
            assertEquals(0, Icmpv6.checksum(b, 14, 54, 32), "ICMPv6 checksum");
            byte[] na = p.tapB.sent.get(0);
            ByteBuf nb = Unpooled.wrappedBuffer(na);
            assertEquals(136, na[54] & 0xFF);
            assertEquals(0x60, na[58] & 0xFF, "Solicited and Override");
            Ipv6.src(nb, 14, addr);
            assertEquals(GID_B, Gid.of(addr), "advertisement from the target address, as Linux");
            assertEquals(p.b.mac(), io.rocelab.codec.header.MacAddress.get(nb, 54 + 26), "target link-layer option");
            assertEquals(0, Icmpv6.checksum(nb, 14, 54, 32));
        }
    }

    @Test
    void rcSendOverLinkLocalGids() {
        try (TappedPair p = pair()) {
            QueuePair[] qps = p.rc(AddressHandle.ipv6(p.b.gid(0), SoftNic.GID_INDEX_LINK_LOCAL),
                    AddressHandle.ipv6(p.a.gid(0), SoftNic.GID_INDEX_LINK_LOCAL), 7);
            byte[] src = new byte[5000];
            new Random(62).nextBytes(src);
            byte[] dst = new byte[5000];
            MemoryRegion mrA = p.pdA.registerMr(src, 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(dst, 0x9000, AccessFlags.LOCAL_WRITE);
            qps[1].postRecv(new RecvWr(1, Sge.of(mrB)));
            qps[0].postSend(SendWr.send(1, Sge.of(mrA)).signaled(true));
            assertTrue(p.sched.runUntil(() -> p.cqA.size() == 1 && p.cqB.size() == 1, 100 * MS));
            assertEquals(WcStatus.SUCCESS, p.cqA.poll().status());
            assertArrayEquals(src, dst);
            byte[] first = p.tapA.ofType(0x86DD).stream().filter(b -> b[20] == 17).findFirst().orElseThrow();
            byte[] s = new byte[16];
            Ipv6.src(Unpooled.wrappedBuffer(first), 14, s);
            assertEquals(p.a.gid(0), Gid.of(s));
        }
    }

    @Test
    void udReceiveOverIpv6HoldsTheIpv6HeaderInTheGrhArea() {
        try (TappedPair p = pair()) {
            QueuePair ua = p.a.createQp(p.pdA, QpType.UD, p.cqA, p.cqA, QpCaps.defaults());
            QueuePair ub = p.b.createQp(p.pdB, QpType.UD, p.cqB, p.cqB, QpCaps.defaults());
            for (QueuePair qp : List.of(ua, ub)) {
                qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).qkey(0x2222));
                qp.modify(new QpAttr().state(QpState.RTR));
                qp.modify(new QpAttr().state(QpState.RTS).sqPsn(7));
            }
            byte[] src = new byte[500];
            new Random(63).nextBytes(src);
            byte[] dst = new byte[40 + 500];
            MemoryRegion mrA = p.pdA.registerMr(src, 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(dst, 0x9000, AccessFlags.LOCAL_WRITE);
            ub.postRecv(new RecvWr(3, Sge.of(mrB)));
            ua.postSend(SendWr.send(1, Sge.of(mrA)).signaled(true)
                    .ud(AddressHandle.ipv6(GID_B, SoftNic.GID_INDEX_FIRST_IPV6), ub.qpn(), 0x2222));
            assertTrue(p.sched.runUntil(() -> p.cqB.size() == 1, 100 * MS));
            WorkCompletion wc = p.cqB.poll();
            assertEquals(WcStatus.SUCCESS, wc.status());
            assertEquals(540, wc.byteLen());
            assertTrue((wc.flags() & WorkCompletion.WC_GRH) != 0);
            assertArrayEquals(src, Arrays.copyOfRange(dst, 40, 540));
            byte[] frame = p.tapA.ofType(0x86DD).stream().filter(b -> b[20] == 17).findFirst().orElseThrow();
            assertArrayEquals(Arrays.copyOfRange(frame, 14, 54), Arrays.copyOf(dst, 40),
                    "the GRH area is the IPv6 header as received");
        }
    }

    /** An RC QP from a to fd00:77::99, which nobody answers, with one signalled SEND from {@code mr} posted. */
    private static QueuePair[] sendToNobody(TappedPair p, MemoryRegion mr) {
        QueuePair[] qps = p.rc(AddressHandle.ipv6(Gid.ipv6("fd00:77::99"), SoftNic.GID_INDEX_FIRST_IPV6),
                AddressHandle.ipv6(GID_A, SoftNic.GID_INDEX_FIRST_IPV6), 7);
        qps[0].postSend(SendWr.send(1, Sge.of(mr)).signaled(true));
        return qps;
    }

    @Test
    void aSolicitationRetryThatFailsInsideTheNicPutsTheDeviceInTheFatalState() {
        try (TappedPair p = pair()) {
            sendToNobody(p, p.pdA.registerMr(new byte[64], 0x1000, AccessFlags.LOCAL_WRITE));
            p.sched.runUntil(() -> false, 10 * MS);
            assertEquals(1, p.a.counters().get(NicCounter.ND_SOLICITS_SENT), "the first solicitation, unanswered");
            // the retry, sent a second later by a timer's task, throws in the port
            p.tapA.fail(b -> RawTap.etherType(b) == 0x86DD && (b[20] & 0xFF) == 58 && (b[54] & 0xFF) == 135);
            assertTrue(p.sched.runUntil(() -> p.cqA.size() == 1, 2000 * MS), "the SEND completes");
            assertEquals(WcStatus.WR_FLUSH_ERR, p.cqA.poll().status());
            assertEquals(1, p.a.counters().get(NicCounter.INTERNAL_ERRORS));
            AsyncEvent event = p.a.pollAsyncEvent();
            assertEquals(AsyncEventType.DEVICE_FATAL, event == null ? null : event.type());
            assertTrue(p.sched.nanoTime() >= 1000 * MS, "at the retry, " + p.sched.nanoTime() / MS + " ms");
        }
    }

    @Test
    void solicitationsForOtherAddressesAndFramesForOthersAreNotOurs() {
        try (TappedPair p = pair()) {
            MemoryRegion mrA = p.pdA.registerMr(new byte[64], 0x1000, AccessFlags.LOCAL_WRITE);
            QueuePair[] qps = sendToNobody(p, mrA);
            // just past the third second: the QP's retry (after the parked frames went) solicits again
            p.sched.runUntil(() -> false, 3001 * MS);
            assertEquals(0, p.b.counters().get(NicCounter.ND_ADVERTS_SENT), "b does not answer for fd00:77::99");
            assertEquals(3, p.a.counters().get(NicCounter.ND_SOLICITS_SENT), "three attempts, one a second");
            assertTrue(p.a.counters().get(NicCounter.DROP_ND_PENDING) >= 1, "then the parked frames are dropped");
            // with the MAC forced, the frame reaches b, which is not fd00:77::99
            p.a.addNeighbor(Gid.ipv6("fd00:77::99"), p.b.mac());
            qps[0].modify(new QpAttr().state(QpState.ERR));
            QueuePair[] again = p.rc(AddressHandle.ipv6(Gid.ipv6("fd00:77::99"), SoftNic.GID_INDEX_FIRST_IPV6),
                    AddressHandle.ipv6(GID_A, SoftNic.GID_INDEX_FIRST_IPV6), 7);
            again[0].postSend(SendWr.send(2, Sge.of(mrA)));
            p.sched.runUntil(() -> p.b.counters().get(NicCounter.DROP_NOT_FOR_US) > 0, 10 * MS);
            assertTrue(p.b.counters().get(NicCounter.DROP_NOT_FOR_US) > 0);
        }
    }
}
