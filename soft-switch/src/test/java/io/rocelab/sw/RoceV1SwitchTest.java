package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.header.Vlan;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.testing.CapturingPort;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.sw.testkit.CapturingSwitch;
import io.rocelab.sw.testkit.ConfigBuilder;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * RoCEv1 (EtherType 0x8915, IBA Annex A16) through the soft switch, on {@link VlanTest}'s ports:
 * bridged within its VLAN and classified by its 802.1Q PCP, the only priority it carries (no DSCP:
 * it is not IP); sent to the router MAC it cannot be routed and is dropped, counted as SAI's
 * {@code SAI_IN_DROP_REASON_NO_L3_HEADER} and in {@code show interfaces counters}' RX_DRP.
 */
class RoceV1SwitchTest {
    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;
    private static final long HOST_A = 0x02_00_00_00_0a_01L;
    private static final long UNKNOWN = 0x02_00_00_00_ff_01L;
    private static final byte[] GID_A = gid(1);
    private static final byte[] GID_B = gid(2);
    private CapturingSwitch rig;

    private static byte[] gid(int host) {
        byte[] g = new byte[16];
        g[10] = (byte) 0xFF;
        g[11] = (byte) 0xFF;
        g[12] = 10;
        g[15] = (byte) host;
        return g;
    }

    private static ByteBuf v1(long dst, int vid, int pcp) {
        RoceFrame f = new RoceFrame().ethernet(dst, HOST_A);
        if (vid >= 0) {
            f.vlan(RoceFrame.VlanTag.dot1q(pcp, vid));
        }
        return f.roceV1(GID_A, GID_B).opcode(Opcode.RC_RDMA_WRITE_ONLY).reth(0x1000, 0x42, 64).destQp(0x11).psn(7)
            .ackReq(true).payload(new byte[64]).encode(ALLOC);
    }

    private static int typeAfterTags(ByteBuf f) {
        int t = f.getUnsignedShort(f.readerIndex() + 12);
        return t == EtherType.VLAN ? f.getUnsignedShort(f.readerIndex() + 16) : t;
    }

    @AfterEach
    void close() {
        if (rig != null) {
            rig.close();
        }
    }

    @Test
    void aTaggedRoceV1FrameIsBridgedInItsVlanAtItsPcpsClass() {
        rig = new CapturingSwitch(VlanTest.config());
        rig.deliver(1, v1(UNKNOWN, 100, 3)); // Ethernet4, trunk of Vlan100, PCP 3
        List<ByteBuf> access = rig.sent(0);
        List<ByteBuf> trunk8 = rig.sent(2);
        try {
            assertEquals(1, access.size(), "flooded to Vlan100's access port");
            assertEquals(1, trunk8.size(), "and its other trunk");
            assertEquals(EtherType.ROCE, access.get(0).getUnsignedShort(access.get(0).readerIndex() + 12),
                "untagged on the access port, still RoCEv1");
            assertEquals(EtherType.ROCE, typeAfterTags(trunk8.get(0)));
            assertEquals(3, Vlan.pcp(trunk8.get(0), trunk8.get(0).readerIndex() + 12),
                "its PCP gave it TC 3 (DOT1P_TO_TC_MAP): the pushed tag carries the TC");
            assertEquals(0, rig.sent(3).size() + rig.sent(4).size(), "not outside Vlan100");
            assertEquals(0, rig.sw.counters(1).totalDrops());
        } finally {
            CapturingPort.releaseAll(access);
            CapturingPort.releaseAll(trunk8);
        }
    }

    @Test
    void aRoceV1FrameToTheRouterMacIsNotRoutableDroppedAndCounted() {
        rig = new CapturingSwitch(VlanTest.config());
        long router = MacAddress.parse(ConfigBuilder.ROUTER_MAC);
        rig.deliver(4, v1(router, -1, 0)); // Ethernet16, a routed port
        rig.deliver(1, v1(router, 100, 3)); // and from the VLAN to its gateway
        for (int p = 0; p < 5; p++) {
            assertEquals(0, rig.sent(p).size(), "nothing leaves port " + p + ": not flooded, not routed");
        }
        assertEquals(1, rig.sw.counters(4).drops(DropReason.NO_L3_HEADER));
        assertEquals(1, rig.sw.counters(1).drops(DropReason.NO_L3_HEADER));
        String counters = SonicViews.interfaceCounters(rig.sw.countersSnapshot());
        String ethernet16 = counters.lines().filter(l -> l.trim().startsWith("Ethernet16")).findFirst().orElseThrow();
        assertEquals("1", ethernet16.trim().split("\\s+")[6], "RX_DRP: " + counters);
        assertTrue(DropReason.NO_L3_HEADER.comment().contains("no L3 header"));
    }

    /** An untagged frame of {@code etherType} from {@link #HOST_A} to {@code dst}, padded to 60 bytes. */
    private static ByteBuf ofType(long dst, int etherType) {
        ByteBuf f = ALLOC.buffer(60);
        f.writeShort((int) (dst >>> 32)).writeInt((int) dst);
        f.writeShort((int) (HOST_A >>> 32)).writeInt((int) HOST_A);
        f.writeShort(etherType);
        f.writeZero(60 - 14);
        return f;
    }

    @Test
    void anyOtherEtherTypeToTheRouterMacIsNoL3HeaderButArpIsBridged() {
        rig = new CapturingSwitch(VlanTest.config());
        long router = MacAddress.parse(ConfigBuilder.ROUTER_MAC);
        rig.deliver(4, ofType(router, 0x88B5)); // IEEE 802 local experimental, to a routed port's gateway
        rig.deliver(0, ofType(router, 0x88B5)); // and from the VLAN's access port
        for (int p = 0; p < 5; p++) {
            assertEquals(0, rig.sent(p).size(), "nothing leaves port " + p + ": not flooded, not routed");
        }
        assertEquals(1, rig.sw.counters(4).drops(DropReason.NO_L3_HEADER));
        assertEquals(1, rig.sw.counters(0).drops(DropReason.NO_L3_HEADER));
        rig.deliver(0, ofType(router, EtherType.ARP)); // an ARP reply to the switch: the host interface's
        assertEquals(1, rig.sw.counters(0).drops(DropReason.NO_L3_HEADER), "ARP is not dropped as not IP");
        for (int p = 0; p < 5; p++) {
            CapturingPort.releaseAll(rig.sent(p));
        }
    }
}
