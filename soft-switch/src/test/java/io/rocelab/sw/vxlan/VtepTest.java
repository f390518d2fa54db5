package io.rocelab.sw.vxlan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.rocelab.codec.Icrc;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.VxlanFrame;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.header.Udp;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.testing.CapturingPort;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.config.SwitchConfigBuilder;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.sw.testkit.CapturingSwitch;
import io.rocelab.sw.testkit.ConfigBuilder;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The switch as a VTEP, configured by config_db: Ethernet0 an access port of Vlan100 (VNI 10100,
 * tenant A), Ethernet4 of Vlan200 (VNI 10200, tenant B, the same overlay addresses as A),
 * Ethernet8 the underlay uplink with a static route to the remote VTEP 10.1.0.2. Frames in,
 * frames out: encapsulation and head-end replication, decapsulation into the right tenant,
 * learning behind the remote VTEP, the DSCP and ECN modes (SAI, RFC 6040), counters.
 */
class VtepTest {
    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;
    static final long ROUTER = MacAddress.parse(ConfigBuilder.ROUTER_MAC);
    static final long NEXT_HOP = 0x02_00_00_00_99_01L;
    static final long HOST_A = 0x02_00_00_00_0a_01L;
    static final long HOST_B = 0x02_00_00_00_0b_01L;
    static final long REMOTE_HOST = 0x02_00_00_00_0c_01L;
    static final int LOCAL_VTEP = Ipv4.parse("10.1.0.1");
    static final int REMOTE_VTEP = Ipv4.parse("10.1.0.2");
    private CapturingSwitch rig;

    static SwitchConfig config(String dscpMode, String ecnMode) {
        ConfigBuilder b = new ConfigBuilder(3, 100);
        b.route("10.1.0.2/32", "Ethernet8", MacAddress.toString(NEXT_HOP));
        SwitchConfigBuilder t = b.tables();
        t.vlan("Vlan100", 100).vlan("Vlan200", 200);
        t.vlanMember("Vlan100", "Ethernet0", false).vlanMember("Vlan200", "Ethernet4", false);
        ObjectNode root = b.root();
        ObjectNode tunnel = root.putObject("VXLAN_TUNNEL").putObject("vtep").put("src_ip", "10.1.0.1");
        if (dscpMode != null) {
            tunnel.put("dscp_mode", dscpMode);
        }
        if (ecnMode != null) {
            tunnel.put("ecn_mode", ecnMode);
        }
        ObjectNode maps = root.putObject("VXLAN_TUNNEL_MAP");
        maps.putObject("vtep|map_10100_Vlan100").put("vni", "10100").put("vlan", "Vlan100");
        maps.putObject("vtep|map_10200_Vlan200").put("vni", "10200").put("vlan", "Vlan200");
        root.putObject("VXLAN_EVPN_NVO").putObject("nvo").put("source_vtep", "vtep");
        ObjectNode remote = root.putObject("VXLAN_REMOTE_VNI");
        remote.putObject("Vlan100|10.1.0.2").put("vni", "10100");
        remote.putObject("Vlan200|10.1.0.2");
        return b.build();
    }

    /** A RoCEv2 WRITE between the tenants' overlay addresses, the same in both tenants. */
    static ByteBuf inner(long dst, long src, int dscp, int ecn) {
        return new RoceFrame().ethernet(dst, src).ipv4(Ipv4.parse("192.168.0.1"), Ipv4.parse("192.168.0.2"))
            .dscpEcn(dscp, ecn).udp(0xC012, 4791).opcode(Opcode.RC_RDMA_WRITE_ONLY).reth(0x1000, 0x42, 64)
            .destQp(0x11).psn(7).payload(new byte[64]).encode(ALLOC);
    }

    /** The VXLAN packet the remote VTEP sends to this one. */
    static ByteBuf fromRemote(ByteBuf inner, int vni, int outerDscp, int outerEcn) {
        ByteBuf out = VxlanFrame.encapsulate(ALLOC, inner, new VxlanFrame.Outer(ROUTER, NEXT_HOP, REMOTE_VTEP,
            LOCAL_VTEP, outerDscp, outerEcn, 63, 50000, vni));
        inner.release();
        return out;
    }

    @AfterEach
    void close() {
        if (rig != null) {
            rig.close();
        }
    }

    @Test
    void anUnknownDestinationGoesToTheRemoteVtepInVxlan() {
        rig = new CapturingSwitch(config(null, null));
        ByteBuf in = inner(REMOTE_HOST, HOST_A, 26, 2);
        byte[] original = ByteBufUtil.getBytes(in);
        rig.deliver(0, in);
        List<ByteBuf> up = rig.sent(2);
        try {
            assertEquals(1, up.size(), "head-end replication to the one remote VTEP of Vlan100");
            ParsedFrame p = new ParsedFrame();
            ByteBuf f = up.get(0);
            assertNull(p.parse(f));
            assertEquals(NEXT_HOP, p.dstMac(), "routed to the next hop of the remote VTEP");
            assertEquals(ROUTER, p.srcMac());
            int ip = p.l3Offset();
            assertEquals(LOCAL_VTEP, Ipv4.src(f, ip));
            assertEquals(REMOTE_VTEP, Ipv4.dst(f, ip));
            assertEquals(64, Ipv4.ttl(f, ip));
            assertEquals(26, Ipv4.dscp(f, ip), "uniform: the inner DSCP");
            assertEquals(2, Ipv4.ecn(f, ip), "RFC 6040 normal mode: ECT(0) copied out");
            assertEquals(4789, Udp.dstPort(f, p.udpOffset()));
            int sport = Udp.srcPort(f, p.udpOffset());
            assertTrue(sport >= 49152, "source port " + sport);
            assertEquals(10100, VxlanFrame.vni(p));
            assertArrayEquals(original, ByteBufUtil.getBytes(VxlanFrame.inner(p)));
            assertEquals(0, rig.sent(1).size(), "tenant B sees nothing");
            TunnelCounters c = rig.sw.vtep().total();
            assertEquals(1, c.txPackets);
            assertEquals(f.readableBytes(), c.txBytes);
        } finally {
            CapturingPort.releaseAll(up);
        }
    }

    @Test
    void theSourcePortFollowsTheInnerFlow() {
        rig = new CapturingSwitch(config(null, null));
        int[] ports = new int[2];
        for (int i = 0; i < 2; i++) {
            ByteBuf in = new RoceFrame().ethernet(REMOTE_HOST, HOST_A).ipv4(Ipv4.parse("192.168.0.1"),
                Ipv4.parse("192.168.0.2")).dscpEcn(26, 2).udp(0xC012 + i, 4791).opcode(Opcode.RC_SEND_ONLY)
                .destQp(0x11).payload(new byte[8]).encode(ALLOC);
            rig.deliver(0, in);
            List<ByteBuf> up = rig.sent(2);
            ports[i] = Udp.srcPort(up.get(0), up.get(0).readerIndex() + 34);
            CapturingPort.releaseAll(up);
        }
        assertNotEquals(ports[0], ports[1], "two QPs' flows, two outer source ports: ECMP entropy");
    }

    @Test
    void decapsulationDeliversEachVniToItsTenantAndLearnsBehindTheVtep() {
        rig = new CapturingSwitch(config(null, null));
        // the same overlay frame in both VNIs
        rig.deliver(2, fromRemote(inner(HOST_B, REMOTE_HOST, 26, 2), 10200, 26, 2));
        List<ByteBuf> b = rig.sent(1);
        List<ByteBuf> a = rig.sent(0);
        try {
            assertEquals(0, a.size(), "tenant A does not see VNI 10200");
            assertEquals(1, b.size());
            ByteBuf expected = inner(HOST_B, REMOTE_HOST, 26, 2);
            assertArrayEquals(ByteBufUtil.getBytes(expected), ByteBufUtil.getBytes(b.get(0)));
            expected.release();
            ParsedFrame p = new ParsedFrame();
            assertNull(p.parse(b.get(0)));
            assertTrue(new Icrc().verify(p), "the inner ICRC holds");
        } finally {
            CapturingPort.releaseAll(a);
            CapturingPort.releaseAll(b);
        }
        // tenant B answers: learned behind the remote VTEP, it goes there alone
        rig.deliver(1, inner(REMOTE_HOST, HOST_B, 26, 2));
        List<ByteBuf> up = rig.sent(2);
        try {
            assertEquals(1, up.size());
            ParsedFrame p = new ParsedFrame();
            assertNull(p.parse(up.get(0)));
            assertEquals(10200, VxlanFrame.vni(p));
        } finally {
            CapturingPort.releaseAll(up);
        }
        assertEquals(0, rig.sent(0).size());
        TunnelCounters c = rig.sw.vtep().counters().get(REMOTE_VTEP);
        assertEquals(1, c.rxPackets);
        assertEquals(1, c.txPackets);
        assertEquals(1, rig.sw.vtep().remoteMacCount());
        assertEquals("""
            +---------+-------------------+--------------+-------+---------+
            | VLAN    | MAC               | RemoteVTEP   |   VNI | Type    |
            +=========+===================+==============+=======+=========+
            | Vlan200 | 02:00:00:00:0c:01 | 10.1.0.2     | 10200 | dynamic |
            +---------+-------------------+--------------+-------+---------+
            Total count : 1

            """, VxlanViews.remoteMac(rig.sw.vtep(), rig.time.nanoTime()));
    }

    @Test
    void rfc6040OuterCeMarksAnEctInnerAndDropsANotEctOne() {
        rig = new CapturingSwitch(config(null, null));
        rig.deliver(2, fromRemote(inner(HOST_A, REMOTE_HOST, 26, 2), 10100, 26, 3));
        List<ByteBuf> a = rig.sent(0);
        assertEquals(1, a.size());
        assertEquals(3, Ipv4.ecn(a.get(0), a.get(0).readerIndex() + Ethernet.LENGTH), "CE on the inner packet");
        assertTrue(Ipv4.checksumOk(a.get(0), a.get(0).readerIndex() + Ethernet.LENGTH));
        CapturingPort.releaseAll(a);
        rig.deliver(2, fromRemote(inner(HOST_A, REMOTE_HOST, 0, 0), 10100, 0, 3));
        assertEquals(0, rig.sent(0).size(), "Not-ECT under an outer CE is dropped");
        assertEquals(1, rig.sw.counters(2).drops(DropReason.VXLAN_ECN));
        TunnelCounters c = rig.sw.vtep().total();
        assertEquals(1, c.ceMarked);
        assertEquals(1, c.rxDrops);
    }

    @Test
    void ignoreOuterLeavesTheInnerEcnAsItWas() {
        rig = new CapturingSwitch(config(null, "ignore_outer"));
        rig.deliver(2, fromRemote(inner(HOST_A, REMOTE_HOST, 26, 2), 10100, 26, 3));
        List<ByteBuf> a = rig.sent(0);
        assertEquals(1, a.size());
        assertEquals(2, Ipv4.ecn(a.get(0), a.get(0).readerIndex() + Ethernet.LENGTH), "the underlay's CE is lost");
        CapturingPort.releaseAll(a);
        assertEquals(0, rig.sw.vtep().total().ceMarked);
    }

    @Test
    void pipeSetsTheOuterDscpAndKeepsTheInner() {
        rig = new CapturingSwitch(config("pipe", null));
        rig.deliver(0, inner(REMOTE_HOST, HOST_A, 26, 2));
        List<ByteBuf> up = rig.sent(2);
        assertEquals(0, Ipv4.dscp(up.get(0), up.get(0).readerIndex() + Ethernet.LENGTH),
            "pipe: the tunnel's encap_dscp (0), the RoCE DSCP hidden from the underlay");
        CapturingPort.releaseAll(up);
        rig.deliver(2, fromRemote(inner(HOST_A, REMOTE_HOST, 26, 2), 10100, 0, 2));
        List<ByteBuf> a = rig.sent(0);
        assertEquals(26, Ipv4.dscp(a.get(0), a.get(0).readerIndex() + Ethernet.LENGTH), "pipe: the inner DSCP kept");
        CapturingPort.releaseAll(a);
        // uniform: the outer DSCP is copied in
        rig.close();
        rig = new CapturingSwitch(config("uniform", null));
        rig.deliver(2, fromRemote(inner(HOST_A, REMOTE_HOST, 26, 2), 10100, 0, 2));
        a = rig.sent(0);
        assertEquals(0, Ipv4.dscp(a.get(0), a.get(0).readerIndex() + Ethernet.LENGTH), "uniform: the outer DSCP");
        CapturingPort.releaseAll(a);
    }

    @Test
    void anUnmappedVniIsDroppedAndCounted() {
        rig = new CapturingSwitch(config(null, null));
        rig.deliver(2, fromRemote(inner(HOST_A, REMOTE_HOST, 26, 2), 999, 26, 2));
        assertEquals(0, rig.sent(0).size());
        assertEquals(0, rig.sent(1).size());
        assertEquals(1, rig.sw.counters(2).drops(DropReason.VXLAN_UNKNOWN_VNI));
    }

    @Test
    void aTenantSendingVxlanItselfReachesNoOtherVni() {
        rig = new CapturingSwitch(config(null, null));
        // tenant A's host forges a VXLAN packet to the VTEP, for tenant B's VNI
        rig.deliver(0, fromRemote(inner(HOST_B, REMOTE_HOST, 26, 2), 10200, 26, 2));
        assertEquals(0, rig.sent(1).size(), "tenant B sees nothing");
        assertEquals(0, rig.sw.vtep().total().rxPackets, "not decapsulated");
        assertEquals(1, rig.sw.counters(0).drops(DropReason.NO_ROUTE), "routed as any packet to the router: no route");
    }

    @Test
    void mangledVxlanPacketsAreDroppedOrDeliveredNeverFatal() {
        rig = new CapturingSwitch(config(null, null));
        java.util.SplittableRandom r = new java.util.SplittableRandom(6040);
        for (int i = 0; i < 2000; i++) {
            ByteBuf f = fromRemote(inner(HOST_A, REMOTE_HOST, 26, r.nextInt(4)), r.nextBoolean() ? 10100 : 10200,
                26, r.nextInt(4));
            int n = 1 + r.nextInt(4);
            for (int k = 0; k < n; k++) {
                // anywhere from the outer UDP header (the outer IP header stays valid) to the inner frame's end
                int at = f.readerIndex() + 34 + r.nextInt(f.readableBytes() - 34);
                f.setByte(at, r.nextInt(256));
            }
            if (r.nextInt(4) == 0) {
                f.writerIndex(f.readerIndex() + 34 + r.nextInt(f.readableBytes() - 34));
            }
            rig.deliver(2, f);
            for (int p = 0; p < 3; p++) {
                CapturingPort.releaseAll(rig.sent(p));
            }
        }
        assertEquals(2000, rig.sw.counters(2).rxFrames);
        // and a good packet still goes through
        rig.deliver(2, fromRemote(inner(HOST_A, REMOTE_HOST, 26, 2), 10100, 26, 2));
        List<ByteBuf> a = rig.sent(0);
        assertEquals(1, a.size());
        CapturingPort.releaseAll(a);
    }

    @Test
    void vxlanToAnotherAddressIsRoutedNotDecapsulated() {
        rig = new CapturingSwitch(config(null, null));
        ByteBuf in = inner(HOST_A, REMOTE_HOST, 26, 2);
        ByteBuf transit = VxlanFrame.encapsulate(ALLOC, in, new VxlanFrame.Outer(ROUTER, 0x02_00_00_00_77_01L,
            LOCAL_VTEP, REMOTE_VTEP, 26, 2, 63, 50000, 10100));
        in.release();
        rig.deliver(1, transit);
        List<ByteBuf> up = rig.sent(2);
        assertEquals(1, up.size(), "routed to 10.1.0.2 as any IP packet");
        assertEquals(62, Ipv4.ttl(up.get(0), up.get(0).readerIndex() + Ethernet.LENGTH));
        CapturingPort.releaseAll(up);
        assertEquals(0, rig.sw.vtep().total().rxPackets);
    }
}
