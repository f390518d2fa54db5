package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.rocelab.codec.FrameKind;
import io.rocelab.codec.Icrc;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.nic.stats.NicCounter;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The VLAN option: on an 802.1Q VLAN every frame is tagged, RoCE frames with the RoCE priority
 * (PCP 3, as lossless RoCE setups with PFC on priority 3 use), ARP and neighbour discovery with
 * priority 0; frames of another VLAN, or untagged ones, are dropped and counted.
 */
class VlanTest {
    private static final long MS = 1_000_000L;

    /** Two NICs, configured by the caller, with an RC QP pair over IPv4 or IPv6. */
    private static final class Pair implements AutoCloseable {
        final VirtualTimeScheduler sched = new VirtualTimeScheduler();
        final InProcessLink link = InProcessLink.builder().name("a-b").rateGbps(100).propagationDelayNanos(500)
                .seed(71).faults(FaultProfile.NONE).build(sched);
        final RawTap tapA = new RawTap(link.portA());
        final RawTap tapB = new RawTap(link.portB());
        final SoftNic a;
        final SoftNic b;
        final CompletionQueue cqA;
        final CompletionQueue cqB;
        final QueuePair qa;
        final QueuePair qb;
        final ProtectionDomain pdA;
        final ProtectionDomain pdB;

        Pair(int vidA, int vidB, boolean ipv6) {
            SoftNic.Builder ba = SoftNic.builder().name("a").mac("52:54:00:77:00:01").ipv4(NicRig.IP_A)
                    .ipv6("fd00:77::11").activeMtu(1024).scheduler(sched).port(tapA);
            SoftNic.Builder bb = SoftNic.builder().name("b").mac("52:54:00:77:00:00").ipv4(NicRig.IP_B)
                    .ipv6("fd00:77::10").activeMtu(1024).scheduler(sched).port(tapB);
            a = (vidA > 0 ? ba.vlan(vidA, 3) : ba).build();
            b = (vidB > 0 ? bb.vlan(vidB, 3) : bb).build();
            pdA = a.allocPd();
            pdB = b.allocPd();
            cqA = a.createCq(64);
            cqB = b.createCq(64);
            qa = a.createQp(pdA, QpType.RC, cqA, cqA, QpCaps.defaults());
            qb = b.createQp(pdB, QpType.RC, cqB, cqB, QpCaps.defaults());
            AddressHandle toB = ipv6 ? AddressHandle.ipv6(b.gid(SoftNic.GID_INDEX_FIRST_IPV6), SoftNic.GID_INDEX_FIRST_IPV6)
                    : AddressHandle.ipv4(NicRig.IP_B);
            AddressHandle toA = ipv6 ? AddressHandle.ipv6(a.gid(SoftNic.GID_INDEX_FIRST_IPV6), SoftNic.GID_INDEX_FIRST_IPV6)
                    : AddressHandle.ipv4(NicRig.IP_A);
            connect(qa, qb, toB);
            connect(qb, qa, toA);
        }

        private static void connect(QueuePair qp, QueuePair peer, AddressHandle ah) {
            qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.ALL));
            qp.modify(new QpAttr().state(QpState.RTR).av(ah).pathMtu(1024).destQpn(peer.qpn()).rqPsn(0x10)
                    .maxDestRdAtomic(16).minRnrTimer(12));
            qp.modify(new QpAttr().state(QpState.RTS).sqPsn(0x10).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(16));
        }

        /** WRITE then READ back 3000 bytes; returns whether both completed successfully in 3 s. */
        boolean writeAndReadBack() {
            byte[] src = new byte[3000];
            new Random(71).nextBytes(src);
            byte[] back = new byte[3000];
            MemoryRegion mrSrc = pdA.registerMr(src, 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrBack = pdA.registerMr(back, 0x8000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = pdB.registerMr(new byte[3000], 0x90000, AccessFlags.ALL);
            qa.postSend(SendWr.write(1, Sge.of(mrSrc), 0x90000, mrB.rkey()).signaled(true),
                    SendWr.read(2, Sge.of(mrBack), 0x90000, mrB.rkey()).signaled(true));
            sched.runUntil(sched.nanoTime() + 3000 * MS);
            List<WorkCompletion> wcs = NicRig.drain(cqA);
            boolean ok = wcs.size() == 2 && wcs.stream().allMatch(WorkCompletion::isSuccess);
            if (ok) {
                assertArrayEquals(src, back);
            }
            return ok;
        }

        @Override
        public void close() {
            a.close();
            b.close();
            sched.runFor(10_000_000_000L);
        }
    }

    private static void assertTagged(List<byte[]> frames, int vid, boolean ipv6) {
        ParsedFrame f = new ParsedFrame();
        int roce = 0;
        int control = 0;
        for (byte[] bytes : frames) {
            assertEquals(null, f.parse(Unpooled.wrappedBuffer(bytes)));
            assertEquals(1, f.vlanCount(), "every frame is tagged");
            assertEquals(vid, io.rocelab.codec.header.Vlan.vid(f.buffer(), f.vlanOffset(0)));
            if (f.kind() == FrameKind.ROCEV2) {
                roce++;
                assertEquals(3, f.pcp(), "RoCE at the lossless priority");
                assertTrue(new Icrc().verify(f), "the ICRC does not cover the tag");
                assertEquals(ipv6 ? 6 : 4, f.ipVersion());
            } else {
                control++;
                assertEquals(0, f.pcp(), "ARP and ND at priority 0");
                assertEquals(ipv6 ? FrameKind.IPV6 : FrameKind.ARP, f.kind());
            }
        }
        assertTrue(roce > 0 && control > 0, roce + " RoCE, " + control + " resolution frames");
    }

    @Test
    void rcOverIpv4OnAVlanTagsRoceWithPcp3AndArpWithPcp0() {
        try (Pair p = new Pair(100, 100, false)) {
            assertEquals(100, p.a.vlanId());
            assertEquals(3, p.a.rocePcp());
            assertTrue(p.writeAndReadBack());
            assertTagged(p.tapA.sent, 100, false);
            assertTagged(p.tapB.sent, 100, false);
            assertEquals(0, p.b.counters().get(NicCounter.DROP_VLAN));
        }
    }

    @Test
    void rcOverIpv6OnAVlanTagsNeighbourDiscoveryToo() {
        try (Pair p = new Pair(100, 100, true)) {
            assertTrue(p.writeAndReadBack());
            assertTagged(p.tapA.sent, 100, true);
            assertTagged(p.tapB.sent, 100, true);
        }
    }

    @Test
    void anotherVlanOrNoVlanIsNotOurs() {
        try (Pair p = new Pair(100, 200, false)) {
            assertFalse(p.writeAndReadBack());
            assertTrue(p.b.counters().get(NicCounter.DROP_VLAN) > 0, "b on VLAN 200 drops VLAN 100");
        }
        try (Pair p = new Pair(0, 100, false)) {
            assertFalse(p.writeAndReadBack());
            assertTrue(p.b.counters().get(NicCounter.DROP_VLAN) > 0, "b on VLAN 100 drops untagged frames");
        }
    }

    @Test
    void vlanArgumentsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> SoftNic.builder().vlan(0, 3));
        assertThrows(IllegalArgumentException.class, () -> SoftNic.builder().vlan(4095, 3));
        assertThrows(IllegalArgumentException.class, () -> SoftNic.builder().vlan(100, 8));
    }
}
