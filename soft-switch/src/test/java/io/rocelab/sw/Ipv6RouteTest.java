package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.testing.CapturingPort;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.sw.testkit.CapturingSwitch;
import io.rocelab.sw.testkit.ConfigBuilder;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * IPv6 L3 routes from STATIC_ROUTE: longest prefix over 128-bit addresses, ECMP over the IPv6
 * 5-tuple and the flow label (RFC 6438), hop limit decremented and MACs rewritten as for IPv4.
 *
 * <p>Port 0 is the source; routes: fd00:9::/32 via Ethernet4, fd00:9:1::/48 via Ethernet8,
 * fd00:9:1:2::/64 as an ECMP group over Ethernet12 and Ethernet16, ::/0 via Ethernet20,
 * fd00:9:1:2::7/128 via Ethernet4.
 */
class Ipv6RouteTest {
    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;
    private static final byte[] SRC = Ipv6.parse("fd00:1::1");
    private static final long HOST = 0x02_00_00_00_01_01L;
    private CapturingSwitch rig;

    private static CapturingSwitch rig(long seed) {
        ConfigBuilder b = new ConfigBuilder(6, 100).switchField("ecmp_hash_seed", String.valueOf(seed))
            .route("fd00:9::/32", "Ethernet4", "02:00:00:00:09:01")
            .route("fd00:9:1::/48", "Ethernet8", "02:00:00:00:09:02")
            .route("fd00:9:1:2::/64", "Ethernet12,Ethernet16", "02:00:00:00:09:03,02:00:00:00:09:04")
            .route("::/0", "Ethernet20", "02:00:00:00:09:05")
            .route("fd00:9:1:2::7/128", "Ethernet4", "02:00:00:00:09:01")
            .route("10.0.0.0/8", "Ethernet20", "02:00:00:00:09:05");
        return new CapturingSwitch(b.build());
    }

    private static ByteBuf frame(String dst, int sport, int flowLabel, int hopLimit) {
        return new RoceFrame().ethernet(MacAddress.parse(ConfigBuilder.ROUTER_MAC), HOST)
            .ipv6(SRC, Ipv6.parse(dst)).flowLabel(flowLabel).ttl(hopLimit).udp(sport, 4791).dscpEcn(26, 2)
            .opcode(Opcode.RC_RDMA_WRITE_ONLY).reth(0x1000, 0x42, 64).destQp(0x11).psn(7).payload(new byte[64])
            .encode(ALLOC);
    }

    /** Sends one frame and returns the port it left by (-1: none), releasing what came out. */
    private int route(String dst, int sport, int flowLabel) {
        rig.deliver(0, frame(dst, sport, flowLabel, 64));
        int port = -1;
        for (int p = 1; p < rig.ports.length; p++) {
            List<ByteBuf> out = rig.sent(p);
            if (!out.isEmpty()) {
                assertEquals(-1, port, "one copy only");
                assertEquals(1, out.size());
                port = p;
            }
            CapturingPort.releaseAll(out);
        }
        return port;
    }

    @AfterEach
    void close() {
        if (rig != null) {
            rig.close();
        }
    }

    @Test
    void longestPrefixWins() {
        rig = rig(1);
        assertEquals(1, route("fd00:9:ff::1", 0xC001, 0), "/32");
        assertEquals(2, route("fd00:9:1:ff::1", 0xC001, 0), "/48 beats /32");
        int ecmp = route("fd00:9:1:2::1", 0xC001, 0);
        assertTrue(ecmp == 3 || ecmp == 4, "/64 beats /48: " + ecmp);
        assertEquals(1, route("fd00:9:1:2::7", 0xC001, 0), "/128 beats /64");
        assertEquals(5, route("2001:db8::1", 0xC001, 0), "default route");
        assertEquals(0, rig.sw.counters(0).drops(DropReason.NO_ROUTE));
    }

    @Test
    void noRouteAndHopLimitOneAreDroppedAndCounted() {
        ConfigBuilder b = new ConfigBuilder(2, 100).route("fd00:9::/32", "Ethernet4", "02:00:00:00:09:01");
        rig = new CapturingSwitch(b.build());
        rig.deliver(0, frame("fd00:8::1", 0xC001, 0, 64));
        rig.deliver(0, frame("fd00:9::1", 0xC001, 0, 1));
        assertEquals(0, rig.sent(1).size());
        assertEquals(1, rig.sw.counters(0).drops(DropReason.NO_ROUTE));
        assertEquals(1, rig.sw.counters(0).drops(DropReason.TTL_EXPIRED));
    }

    @Test
    void aRoutedFrameHasItsHopLimitDecrementedAndItsMacsRewritten() {
        rig = rig(1);
        ByteBuf in = frame("fd00:9:ff::1", 0xC001, 0x12345, 64);
        ByteBuf expected = in.copy();
        rig.deliver(0, in);
        List<ByteBuf> out = rig.sent(1);
        try {
            assertEquals(1, out.size());
            ByteBuf f = out.get(0);
            assertEquals(0x02_00_00_00_09_01L, MacAddress.get(f, 0), "next hop's MAC");
            assertEquals(MacAddress.parse(ConfigBuilder.ROUTER_MAC), MacAddress.get(f, 6), "router's MAC");
            assertEquals(63, Ipv6.hopLimit(f, 14));
            expected.setByte(14 + Ipv6.HOP_LIMIT, 63);
            assertEquals(io.netty.buffer.ByteBufUtil.hexDump(expected, 12, expected.readableBytes() - 12),
                io.netty.buffer.ByteBufUtil.hexDump(f, 12, f.readableBytes() - 12), "nothing else changed");
        } finally {
            expected.release();
            CapturingPort.releaseAll(out);
        }
    }

    @Test
    void ecmpSpreadsFlowsStablyAndTheFlowLabelIsPartOfTheHash() {
        rig = rig(1);
        int flows = 2000;
        int[] first = new int[flows];
        int[] count = new int[6];
        for (int f = 0; f < flows; f++) {
            first[f] = route("fd00:9:1:2::1", 0xC000 + f, 0);
            count[first[f]]++;
        }
        System.out.printf("IPv6 ECMP %d flows over 2 members: %d %d%n", flows, count[3], count[4]);
        assertEquals(flows, count[3] + count[4]);
        assertEquals(flows / 2.0, count[3], flows * 0.05, "spread within 5 %");
        for (int f = 0; f < flows; f++) {
            assertEquals(first[f], route("fd00:9:1:2::1", 0xC000 + f, 0), "the same flow takes the same member");
        }
        // one 5-tuple, different flow labels: the label alone moves flows between members
        int moved = 0;
        for (int label = 1; label <= 200; label++) {
            moved += route("fd00:9:1:2::1", 0xC000, label) != first[0] ? 1 : 0;
        }
        System.out.printf("flow label alone moves %d of 200 labels off the unlabelled member%n", moved);
        assertTrue(moved > 60 && moved < 140, "about half: " + moved);
    }

    @Test
    void linkDownMovesIpv6FlowsToTheLiveMember() {
        rig = rig(1);
        rig.ports[3].setUp(false);
        for (int f = 0; f < 200; f++) {
            assertEquals(4, route("fd00:9:1:2::1", 0xC000 + f, f), "only Ethernet16 is up");
        }
        assertEquals(0, rig.sw.counters(0).totalDrops());
    }
}
