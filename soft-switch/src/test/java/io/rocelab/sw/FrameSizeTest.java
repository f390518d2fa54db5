package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.Lab;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A port drops runts and frames over its MTU as a hardware switch's MAC does, and counts them where
 * SONiC shows them ({@code show interfaces counters}: RX_ERR, RX_OVR). The switch sees frames
 * without their FCS: a runt is under 60 bytes (64 on the wire), and the longest frame is the port's
 * MTU plus the Ethernet header and a VLAN tag, mtu + 18 (SONiC's SAI_PORT_ATTR_MTU, mtu + 22, less
 * the FCS).
 */
class FrameSizeTest {
    private static final int MTU = 1500;

    /** A bridged frame of {@code length} bytes from host 0 to host 1, optionally 802.1Q-tagged. */
    private static ByteBuf frame(int length, boolean tagged) {
        ByteBuf f = Unpooled.buffer(length, length).writeZero(12);
        MacAddress.set(f, 0, Lab.hostMac(1));
        MacAddress.set(f, 6, Lab.hostMac(0));
        if (tagged) {
            f.writeShort(EtherType.VLAN).writeShort(100);
        }
        f.writeShort(0x88B5); // IEEE 802 local experimental EtherType
        return f.writeZero(length - f.writerIndex());
    }

    @Test
    void runtsAndFramesOverTheMtuAreDroppedAndCountedTheRestGoesThrough() {
        ConfigBuilder cb = new ConfigBuilder(2, 100);
        cb.root().withObject("/PORT/" + ConfigBuilder.name(0)).put("mtu", String.valueOf(MTU));
        Lab lab = new Lab(cb.build());
        int[] lengths = {59, 60, 64, MTU + 18, MTU + 19, 9000};
        for (int n : lengths) {
            lab.links.get(0).portA().send(frame(n, false));
        }
        lab.links.get(0).portA().send(frame(MTU + 18, true));
        lab.time.runFor(1_000_000);
        assertEquals(4, lab.hosts.get(1).rxFrames, "60, 64 and mtu + 18 bytes (untagged and tagged) go through");
        assertEquals(1, lab.sw.counters(0).drops(DropReason.UNDERSIZE), "59 bytes: a runt");
        assertEquals(2, lab.sw.counters(0).drops(DropReason.OVERSIZE), "mtu + 19 and 9000 bytes");
        assertEquals(3, lab.sw.counters(0).totalDrops());

        String view = SonicViews.interfaceCounters(lab.sw);
        assertTrue(view.contains("IFACE  STATE       RX_OK      RX_BPS  RX_UTIL    RX_ERR    RX_DRP    RX_OVR"), view);
        Matcher m = Pattern.compile("(?m)^ +Ethernet0 +U +(\\d+) +N/A +N/A +(\\d+) +(\\d+) +(\\d+) +(\\d+)")
            .matcher(view);
        assertTrue(m.find(), view);
        assertEquals("4", m.group(1), "RX_OK: " + view);
        assertEquals("1", m.group(2), "RX_ERR: " + view);
        assertEquals("0", m.group(3), "RX_DRP: " + view);
        assertEquals("2", m.group(4), "RX_OVR: " + view);
        Matcher out = Pattern.compile("(?m)^ +Ethernet4 +U +\\d+ +N/A +N/A +\\d+ +\\d+ +\\d+ +(\\d+)").matcher(view);
        assertTrue(out.find(), view);
        assertEquals("4", out.group(1), "TX_OK of Ethernet4: " + view);
        lab.drainAndClose();
    }

    @Test
    void theLimitIsEachPortsOwnMtu() {
        ConfigBuilder cb = new ConfigBuilder(2, 100);
        cb.root().withObject("/PORT/" + ConfigBuilder.name(1)).put("mtu", String.valueOf(MTU));
        Lab lab = new Lab(cb.build()); // port 0 keeps SONiC's default 9100
        lab.links.get(0).portA().send(frame(9100 + 18, false));
        lab.links.get(0).portA().send(frame(9100 + 19, false));
        lab.time.runFor(1_000_000);
        assertEquals(1, lab.hosts.get(1).rxFrames);
        assertEquals(1, lab.sw.counters(0).drops(DropReason.OVERSIZE));
        lab.drainAndClose();
    }
}
