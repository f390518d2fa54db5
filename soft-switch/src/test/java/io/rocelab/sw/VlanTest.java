package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.header.Vlan;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.testing.CapturingPort;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.config.SwitchConfigBuilder;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.sw.testkit.CapturingSwitch;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.Lab;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * VLAN membership per port (SONiC VLAN / VLAN_MEMBER, IEEE 802.1Q): ingress filtering, flooding
 * within the VLAN, tagging on trunks and untagging on access ports, learning per VLAN, and the PCP
 * a frame leaves with from SONiC TC_TO_DOT1P_MAP.
 *
 * <p>Ports: Ethernet0 access in Vlan100; Ethernet4 trunk (tagged 100 and 200, PCP from map
 * "pcp": TC 3 -> 5); Ethernet8 trunk (tagged 100, no map); Ethernet12 access in Vlan200;
 * Ethernet16 in no VLAN.
 */
class VlanTest {
    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;
    private static final long HOST_A = 0x02_00_00_00_0a_01L;
    private static final long HOST_B = 0x02_00_00_00_0b_01L;
    private static final long UNKNOWN = 0x02_00_00_00_ff_01L;
    private CapturingSwitch rig;

    static SwitchConfig config() {
        ConfigBuilder b = Lab.routes(new ConfigBuilder(5, 100), 5);
        SwitchConfigBuilder t = b.tables();
        t.vlan("Vlan100", 100).vlan("Vlan200", 200);
        t.vlanMember("Vlan100", "Ethernet0", false).vlanMember("Vlan100", "Ethernet4", true)
            .vlanMember("Vlan200", "Ethernet4", true).vlanMember("Vlan100", "Ethernet8", true)
            .vlanMember("Vlan200", "Ethernet12", false);
        t.tcToDot1pMap("pcp", new int[] {0, 1, 2, 5, 4, 5, 6, 7});
        t.portQosMap("Ethernet4", SwitchConfigBuilder.PortQosMap.dscp("AZURE", null, null, 3).withTcToDot1pMap("pcp"));
        return b.build();
    }

    /** A RoCEv2 frame, DSCP 26 (TC 3), optionally with one 802.1Q tag. */
    private static ByteBuf frame(long dst, long src, int vid, int pcp, int dei) {
        RoceFrame f = new RoceFrame().ethernet(dst, src);
        if (vid >= 0) {
            f.vlan(new RoceFrame.VlanTag(EtherType.VLAN, pcp, dei, vid));
        }
        return f.ipv4(Lab.hostIp(1), Lab.hostIp(0)).udp(0xC001, 4791).dscpEcn(26, 2)
            .opcode(Opcode.RC_RDMA_WRITE_ONLY).reth(0x1000, 0x42, 64).destQp(0x11).psn(7).payload(new byte[64])
            .encode(ALLOC);
    }

    private static int vidOf(ByteBuf f) {
        assertEquals(EtherType.VLAN, f.getUnsignedShort(f.readerIndex() + 12), "tagged");
        return Vlan.vid(f, f.readerIndex() + 12);
    }

    private static int pcpOf(ByteBuf f) {
        return Vlan.pcp(f, f.readerIndex() + 12);
    }

    /** @return the frame's bytes without its outer tag */
    private static byte[] untagged(ByteBuf f) {
        return untagged(ByteBufUtil.getBytes(f));
    }

    private static byte[] untagged(byte[] all) {
        if (((all[12] & 0xFF) << 8 | (all[13] & 0xFF)) != EtherType.VLAN) {
            return all;
        }
        byte[] out = new byte[all.length - 4];
        System.arraycopy(all, 0, out, 0, 12);
        System.arraycopy(all, 16, out, 12, all.length - 16);
        return out;
    }

    @AfterEach
    void close() {
        if (rig != null) {
            rig.close();
        }
    }

    @Test
    void accessFramesFloodWithinTheirVlanTaggedOnTrunks() {
        rig = new CapturingSwitch(config());
        ByteBuf in = frame(UNKNOWN, HOST_A, -1, 0, 0);
        byte[] original = ByteBufUtil.getBytes(in);
        rig.deliver(0, in);
        List<ByteBuf> trunk4 = rig.sent(1);
        List<ByteBuf> trunk8 = rig.sent(2);
        try {
            assertEquals(1, trunk4.size());
            assertEquals(1, trunk8.size());
            assertEquals(100, vidOf(trunk4.get(0)));
            assertEquals(5, pcpOf(trunk4.get(0)), "TC 3 leaves Ethernet4 with PCP 5 (TC_TO_DOT1P_MAP)");
            assertEquals(100, vidOf(trunk8.get(0)));
            assertEquals(3, pcpOf(trunk8.get(0)), "no map bound: the pushed tag carries the TC");
            assertEquals(original.length + 4, trunk4.get(0).readableBytes());
            assertEquals(Arrays.toString(original), Arrays.toString(untagged(trunk4.get(0))),
                "only the tag was added");
            assertEquals(Arrays.toString(original), Arrays.toString(untagged(trunk8.get(0))));
            assertEquals(0, rig.sent(3).size(), "Ethernet12 is in Vlan200 only");
            assertEquals(0, rig.sent(4).size(), "Ethernet16 is in no VLAN");
        } finally {
            CapturingPort.releaseAll(trunk4);
            CapturingPort.releaseAll(trunk8);
        }
    }

    @Test
    void trunkFramesLeaveAccessPortsUntaggedAndLearningIsPerVlan() {
        rig = new CapturingSwitch(config());
        rig.deliver(0, frame(UNKNOWN, HOST_A, -1, 0, 0));   // learns HOST_A on Ethernet0 in Vlan100
        CapturingPort.releaseAll(rig.sent(1));
        CapturingPort.releaseAll(rig.sent(2));

        ByteBuf tagged = frame(HOST_A, HOST_B, 100, 3, 0);
        byte[] original = ByteBufUtil.getBytes(tagged);
        rig.deliver(1, tagged);
        List<ByteBuf> access = rig.sent(0);
        try {
            assertEquals(1, access.size(), "unicast to the learned port");
            ByteBuf out = access.get(0);
            assertEquals(EtherType.IPV4, out.getUnsignedShort(out.readerIndex() + 12), "untagged on the access port");
            assertEquals(original.length - 4, out.readableBytes());
            assertEquals(Arrays.toString(untagged(original)),
                Arrays.toString(ByteBufUtil.getBytes(out)), "only the tag was removed");
            assertEquals(0, rig.sent(2).size(), "not flooded");
        } finally {
            CapturingPort.releaseAll(access);
        }

        // HOST_A is unknown in Vlan200: the frame floods there (Ethernet12, untagged) and not to Ethernet0
        rig.deliver(1, frame(HOST_A, HOST_B, 200, 3, 0));
        assertEquals(0, rig.sent(0).size());
        List<ByteBuf> v200 = rig.sent(3);
        try {
            assertEquals(1, v200.size());
            assertEquals(EtherType.IPV4, v200.get(0).getUnsignedShort(v200.get(0).readerIndex() + 12));
        } finally {
            CapturingPort.releaseAll(v200);
        }
        assertEquals(0, rig.sw.counters(1).drops(DropReason.VLAN_NOT_MEMBER));
    }

    @Test
    void framesOfAVlanThePortIsNotInAreDroppedAndCounted() {
        rig = new CapturingSwitch(config());
        rig.deliver(1, frame(UNKNOWN, HOST_B, 300, 3, 0));  // Ethernet4 is not in Vlan300
        rig.deliver(1, frame(UNKNOWN, HOST_B, -1, 0, 0));   // a trunk without an untagged VLAN
        rig.deliver(0, frame(UNKNOWN, HOST_A, 200, 0, 0));  // the access port is in Vlan100 only
        for (int p = 0; p < 5; p++) {
            assertEquals(0, rig.sent(p).size(), "nothing forwarded on port " + p);
        }
        assertEquals(2, rig.sw.counters(1).drops(DropReason.VLAN_NOT_MEMBER));
        assertEquals(1, rig.sw.counters(0).drops(DropReason.VLAN_NOT_MEMBER));
        assertEquals(0, rig.sw.counters(1).queueDropPackets[3], "an ingress drop, not a queue drop");
    }

    @Test
    void aPriorityTaggedFrameTakesThePvidAndRoutedFramesGetTheirPcpRewritten() {
        rig = new CapturingSwitch(config());
        rig.deliver(0, frame(UNKNOWN, HOST_A, 0, 3, 0));  // VID 0: priority-tagged, belongs to Vlan100
        List<ByteBuf> trunk4 = rig.sent(1);
        List<ByteBuf> access12 = rig.sent(3);
        try {
            assertEquals(1, trunk4.size());
            assertEquals(100, vidOf(trunk4.get(0)));
            assertEquals(5, pcpOf(trunk4.get(0)));
            assertEquals(0, access12.size());
        } finally {
            CapturingPort.releaseAll(trunk4);
            CapturingPort.releaseAll(access12);
            CapturingPort.releaseAll(rig.sent(2));
        }

        // routed (to the router MAC, 10.0.0.2 behind Ethernet4): keeps its tag, PCP from the map
        ByteBuf routed = new RoceFrame().ethernet(MacAddress.parse(ConfigBuilder.ROUTER_MAC), HOST_A)
            .vlan(new RoceFrame.VlanTag(EtherType.VLAN, 3, 0, 100)).ipv4(Lab.hostIp(0), Lab.hostIp(1))
            .udp(0xC001, 4791).dscpEcn(26, 2).opcode(Opcode.RC_RDMA_WRITE_ONLY).reth(0x1000, 0x42, 64).destQp(0x11)
            .psn(7).payload(new byte[64]).encode(ALLOC);
        rig.deliver(2, routed);
        List<ByteBuf> out = rig.sent(1);
        try {
            assertEquals(1, out.size());
            assertEquals(100, vidOf(out.get(0)));
            assertEquals(5, pcpOf(out.get(0)));
            assertEquals(Lab.hostMac(1), MacAddress.get(out.get(0), out.get(0).readerIndex()));
        } finally {
            CapturingPort.releaseAll(out);
        }
    }
}
