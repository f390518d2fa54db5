package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.FrameKind;
import io.rocelab.codec.Icrc;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Grh;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.nic.net.Gid;
import io.rocelab.nic.net.GidType;
import io.rocelab.nic.stats.NicCounter;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * RoCEv1 (IBA Annex A16) between two soft NICs that list RoCEv1 GIDs beside RoCEv2 ones, as mlx5
 * does on a ConnectX: the GID table's order and types, a QP whose source GID is a v1 entry sending
 * EtherType 0x8915 frames (GRH, BTH, Annex A16's ICRC; its priority in the VLAN tag's PCP), RC
 * WRITE/SEND/READ completing over them, and what a port does with a RoCEv1 frame it should not take.
 */
class RoceV1TransferTest {
    private static final long MS = 1_000_000L;
    /** ConnectX's order: per address v1 then v2 (0/1 link-local, 2/3 IPv4-mapped, 4/5 the global IPv6). */
    static final int V1_IPV4 = 2;
    static final int V2_IPV4 = 3;
    static final int V1_IPV6 = 4;

    /** a and b on a link, both with IPv4 and IPv6 addresses, a listing RoCEv1 GIDs, b if {@code v1OnB}. */
    static TappedPair pair(boolean v1OnB, int vid) {
        return new TappedPair(71, 1024, 8,
            a -> tagged(a.name("a").mac("52:54:00:78:00:01").ipv4(NicRig.IP_A).ipv6("fd00:78::1").roceV1(true), vid),
            b -> tagged(b.name("b").mac("52:54:00:78:00:00").ipv4(NicRig.IP_B).ipv6("fd00:78::2").roceV1(v1OnB), vid));
    }

    private static SoftNic.Builder tagged(SoftNic.Builder nic, int vid) {
        return vid >= 0 ? nic.vlan(vid, 3) : nic;
    }

    @Test
    void theGidTableListsEachAddressAsV1ThenV2AsAConnectXDoes() {
        try (TappedPair p = pair(true, -1)) {
            NicPort port = p.a.port(1);
            assertEquals(6, port.gidTableSize());
            Gid[] addresses = {Gid.linkLocal(p.a.mac()), Gid.ipv4Mapped(NicRig.IP_A), Gid.ipv6("fd00:78::1")};
            for (int i = 0; i < 6; i++) {
                assertEquals(addresses[i / 2], port.gid(i), "index " + i);
                assertEquals(i % 2 == 0 ? GidType.ROCE_V1 : GidType.ROCE_V2, port.gidType(i), "index " + i);
            }
            assertEquals(V2_IPV4, port.ipv4GidIndex(GidType.ROCE_V2));
            assertEquals(V1_IPV4, port.ipv4GidIndex(GidType.ROCE_V1));
            assertEquals(V2_IPV4, p.a.gidIndex(Gid.ipv4Mapped(NicRig.IP_A)), "gidIndex(gid) finds the RoCEv2 entry");
            assertTrue(port.hasRoceV1());
        }
        try (TappedPair p = pair(false, -1)) {
            NicPort rxeLike = p.b.port(1);
            assertEquals(3, rxeLike.gidTableSize(), "by default rxe's table: RoCEv2 only");
            assertFalse(rxeLike.hasRoceV1());
            assertEquals(SoftNic.GID_INDEX_IPV4, rxeLike.ipv4GidIndex(GidType.ROCE_V2));
            for (int i = 0; i < 3; i++) {
                assertEquals(GidType.ROCE_V2, rxeLike.gidType(i));
            }
        }
    }

    @Test
    void rcWriteSendReadOverRoceV1OnAVlanWithItsPriorityInThePcp() {
        try (TappedPair p = pair(true, 100)) {
            Gid gidA = Gid.ipv4Mapped(NicRig.IP_A);
            Gid gidB = Gid.ipv4Mapped(NicRig.IP_B);
            QueuePair[] qps = p.rc(new AddressHandle(gidB, V1_IPV4, 64, 0, -1),
                    new AddressHandle(gidA, V1_IPV4, 64, 0, -1), 7);
            int size = 10_000;
            byte[] src = new byte[size];
            new Random(71).nextBytes(src);
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
            assertArrayEquals(src, remote);
            assertArrayEquals(src, recv);
            assertArrayEquals(src, back);

            // every RoCE frame both ways is RoCEv1 on the wire: the v2 encapsulation never appears
            List<byte[]> v1 = p.tapA.ofType(EtherType.ROCE);
            List<byte[]> v1Back = p.tapB.ofType(EtherType.ROCE);
            assertTrue(v1.size() >= 2 * (size / 1024) + 1, "requests: " + v1.size());
            assertFalse(v1Back.isEmpty(), "ACKs and READ responses");
            assertTrue(p.tapA.ofType(EtherType.IPV4).isEmpty() && p.tapB.ofType(EtherType.IPV4).isEmpty());
            assertEquals(1, p.a.counters().get(NicCounter.ARP_REQUESTS_SENT), "the MAC of a v1 GID's address by ARP");
            ParsedFrame f = new ParsedFrame();
            Icrc icrc = new Icrc();
            for (byte[] frame : concat(v1, v1Back)) {
                ByteBuf b = Unpooled.wrappedBuffer(frame);
                assertNull(f.parse(b));
                assertEquals(FrameKind.ROCEV1, f.kind());
                assertEquals(3, f.pcp(), "the RoCE priority travels in the 802.1Q PCP");
                assertEquals(100, io.rocelab.codec.header.Vlan.vid(b, f.vlanOffset(0)));
                int grh = f.grhOffset();
                assertEquals(Grh.NEXT_HEADER_IBA, Ipv6.nextHeader(b, grh));
                assertEquals(64, Ipv6.hopLimit(b, grh));
                assertEquals(f.end() - f.bthOffset(), Ipv6.payloadLength(b, grh));
                assertTrue(icrc.verify(f), "Annex A16 ICRC");
            }
            ByteBuf first = Unpooled.wrappedBuffer(v1.get(0));
            assertNull(f.parse(first));
            assertTrue(gidA.matches(first, f.grhOffset() + Grh.SGID));
            assertTrue(gidB.matches(first, f.grhOffset() + Grh.DGID));
            assertEquals(0, p.b.counters().get(NicCounter.DROP_NOT_FOR_US) + p.b.counters().get(NicCounter.DROP_BAD_ICRC));
        }
    }

    @Test
    void rcSendOverRoceV1GlobalIpv6Gids() {
        try (TappedPair p = pair(true, -1)) {
            QueuePair[] qps = p.rc(new AddressHandle(Gid.ipv6("fd00:78::2"), V1_IPV6, 64, 0, -1),
                    new AddressHandle(Gid.ipv6("fd00:78::1"), V1_IPV6, 64, 0, -1), 7);
            byte[] src = new byte[3000];
            new Random(72).nextBytes(src);
            byte[] dst = new byte[3000];
            MemoryRegion mrA = p.pdA.registerMr(src, 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(dst, 0x9000, AccessFlags.LOCAL_WRITE);
            qps[1].postRecv(new RecvWr(1, Sge.of(mrB)));
            qps[0].postSend(SendWr.send(2, Sge.of(mrA)).signaled(true));
            assertTrue(p.sched.runUntil(() -> p.cqA.size() == 1 && p.cqB.size() == 1, 1000 * MS));
            assertEquals(WcStatus.SUCCESS, p.cqA.poll().status());
            assertArrayEquals(src, dst);
            assertFalse(p.tapA.ofType(EtherType.ROCE).isEmpty());
            assertTrue(p.tapA.ofType(EtherType.IPV6).stream().noneMatch(b -> b[20] == 17), "no RoCEv2 over IPv6");
        }
    }

    @Test
    void aRoceV1PeerOfARxeLikeNicIsNeverAnsweredAndItsWritesRunOutOfRetries() {
        try (TappedPair p = pair(false, -1)) {
            // a sends RoCEv1; b, RoCEv2 only, has no v1 GID to take it on: dropped, counted, never ACKed
            QueuePair[] qps = p.rc(new AddressHandle(Gid.ipv4Mapped(NicRig.IP_B), V1_IPV4, 64, 0, -1),
                    AddressHandle.ipv4(NicRig.IP_A), 1);
            MemoryRegion mrA = p.pdA.registerMr(new byte[64], 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(new byte[64], 0x9000, AccessFlags.ALL);
            qps[0].postSend(SendWr.write(1, Sge.of(mrA), 0x9000, mrB.rkey()).signaled(true));
            assertTrue(p.sched.runUntil(() -> p.cqA.size() == 1, 10_000 * MS));
            assertEquals(WcStatus.RETRY_EXC_ERR, p.cqA.poll().status());
            assertTrue(p.b.counters().get(NicCounter.DROP_NOT_FOR_US) >= 2, "the first try and its retry");
            assertEquals(0, p.b.counters().get(NicCounter.RCVD_PKTS));
        }
    }

    @Test
    void aRoceV1PacketToAQpWhosePathIsRoceV2IsNotFromItsPeer() {
        try (TappedPair p = pair(true, -1)) {
            // a's QP sends RoCEv1, b's QP is connected over RoCEv2: the encapsulation is part of the path
            QueuePair[] qps = p.rc(new AddressHandle(Gid.ipv4Mapped(NicRig.IP_B), V1_IPV4, 64, 0, -1),
                    new AddressHandle(Gid.ipv4Mapped(NicRig.IP_A), V2_IPV4, 64, 0, -1), 1);
            MemoryRegion mrA = p.pdA.registerMr(new byte[64], 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(new byte[64], 0x9000, AccessFlags.ALL);
            qps[0].postSend(SendWr.write(1, Sge.of(mrA), 0x9000, mrB.rkey()).signaled(true));
            assertTrue(p.sched.runUntil(() -> p.cqA.size() == 1, 10_000 * MS));
            assertEquals(WcStatus.RETRY_EXC_ERR, p.cqA.poll().status());
            assertTrue(p.b.counters().get(NicCounter.DROP_NOT_FROM_PEER) >= 2);
        }
    }

    private static List<byte[]> concat(List<byte[]> x, List<byte[]> y) {
        java.util.ArrayList<byte[]> all = new java.util.ArrayList<>(x);
        all.addAll(y);
        return all;
    }
}
