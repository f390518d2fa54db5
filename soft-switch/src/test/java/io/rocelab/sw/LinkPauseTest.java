package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.ByteBuf;
import io.rocelab.codec.FrameKind;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.header.Pause;
import io.rocelab.codec.header.Pfc;
import io.rocelab.fabric.pfc.PauseResponse;
import io.rocelab.sw.config.ConfigException;
import io.rocelab.sw.config.GlobalFlowControl;
import io.rocelab.sw.config.SwitchConfigBuilder;
import io.rocelab.sw.mmu.PortPauseState;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.HostStub;
import io.rocelab.sw.testkit.Lab;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * 802.3x link-level PAUSE at the switch (IEEE 802.3 Annex 31B; rocelab's {@code PORT}
 * {@code global_flow_control}, SAI's {@code SAI_PORT_ATTR_GLOBAL_FLOW_CONTROL_MODE}): a port that
 * sends PAUSE pauses its peer when its whole ingress, every PG together, reaches its lossless
 * profile's pause point, and resumes it with a PAUSE of 0; a port that honours PAUSE stops every
 * queue for the pause time; {@code SAI_PORT_STAT_PAUSE_RX_PKTS}/{@code _TX_PKTS} count them. A port
 * with PFC and PAUSE both, an unknown mode, or a PAUSE port without a lossless profile is a mistake.
 */
class LinkPauseTest {
    private static final long GBPS_100 = 100_000_000_000L;

    /** Three 100G ports; Ethernet4 and Ethernet8 run 802.3x in {@code mode} and no PFC. */
    private static ConfigBuilder config(GlobalFlowControl mode) {
        ConfigBuilder b = Lab.routes(new ConfigBuilder(3, 100), 3);
        for (int i = 1; i < 3; i++) {
            b.tables().portQosMap(ConfigBuilder.name(i), SwitchConfigBuilder.PortQosMap.dscp("AZURE", null, null))
                .globalFlowControl(ConfigBuilder.name(i), mode);
        }
        return b;
    }

    @Test
    void anIncastPausesTheWholeSendingPortLossyClassTooAndResumesIt() {
        Lab lab = new Lab(config(GlobalFlowControl.BOTH).build());
        HostStub roce = lab.flow(1, 0, 26, 2, 0xC001, 4096);
        HostStub lossy = lab.flow(2, 0, 0, 0, 0xC002, 4096);
        roce.start();
        lossy.start();
        lab.time.runFor(2_000_000);

        for (HostStub h : List.of(roce, lossy)) {
            ByteBuf f = h.firstPause;
            ParsedFrame p = new ParsedFrame();
            assertNull(p.parse(f));
            assertEquals(FrameKind.PAUSE, p.kind(), "802.3x, not PFC");
            assertEquals(60, f.readableBytes());
            assertEquals(MacAddress.PAUSE_MULTICAST, p.dstMac());
            assertEquals(0xFFFF, Pause.quanta(f, p.l3Offset()));
            assertTrue(h.pausedNanos == 0 && h.rxPfc == 0, "no PFC");
        }
        assertTrue(lossy.pauseLog.size() >= 2, "the lossy sender is paused too: " + lossy.pauseLog.size());
        assertEquals(0, lab.sw.counters(0).totalDrops() + lab.sw.counters(1).totalDrops()
            + lab.sw.counters(2).totalDrops(), "nothing dropped, lossy class included");
        long sent = lab.sw.counters(1).txPause + lab.sw.counters(2).txPause;
        assertEquals(roce.pauseLog.size() + lossy.pauseLog.size(), sent, "SAI_PORT_STAT_PAUSE_TX_PKTS, every one");
        for (int i = 0; i < 3; i++) {
            for (int p = 0; p < 8; p++) {
                assertEquals(0, lab.sw.counters(i).txPfc[p], "no PFC from port " + i);
            }
        }
        // the two share port 0's 100G: each gets about half, the PAUSE evening them out
        double share = lossy.sentBytes / (double) (roce.sentBytes + lossy.sentBytes);
        assertTrue(share > 0.4 && share < 0.6, "the lossy sender held to its share by PAUSE: " + share);
        PortPauseState state = lab.sw.mmu().portPause(1);
        assertTrue(state.xoffCount() >= 1 && state.drops() == 0);
        assertEquals(30_000, state.profile().staticTh(), "the port's lossless profile's pause point");

        roce.stop();
        lossy.stop();
        lab.time.runFor(1_000_000);
        for (HostStub h : List.of(roce, lossy)) {
            assertEquals(0, h.pauseLog.get(h.pauseLog.size() - 1)[1], "the last PAUSE resumes: time 0");
        }
        assertFalse(lab.sw.pause().paused(1) || lab.sw.pause().paused(2));
        assertEquals(0, lab.sw.mmu().portPause(1).used());
        lab.drainAndClose();
    }

    @Test
    void aPortThatHonoursPauseStopsEveryQueueForThePauseTime() {
        Lab lab = new Lab(config(GlobalFlowControl.BOTH).tables().globalFlowControl(ConfigBuilder.name(0),
            GlobalFlowControl.RX).portQosMap(ConfigBuilder.name(0), SwitchConfigBuilder.PortQosMap.dscp("AZURE", null,
            null)).build());
        HostStub roce = lab.flow(1, 0, 26, 2, 0xC001, 1024);
        HostStub lossy = lab.flow(2, 0, 0, 0, 0xC002, 1024).gap(1_000);
        HostStub receiver = lab.hosts.get(0);
        roce.gap(1_000).start();
        lossy.start();
        lab.time.runFor(10_000);
        int quanta = 10_000;
        receiver.sendLinkPause(quanta);
        long response = PauseResponse.IEEE.nanosAt(GBPS_100);
        lab.time.runFor(50 + response + 200);
        long inFlight = receiver.rxFrames;
        long pause = Pfc.quantaToNanos(quanta, GBPS_100);
        lab.time.runFor(pause - response - 400);
        assertEquals(inFlight, receiver.rxFrames, "both queues held for " + pause + " ns");
        lab.time.runFor(3_000);
        assertTrue(receiver.rxFrames > inFlight + 2, "resumed when the pause ran out");
        assertEquals(1, lab.sw.counters(0).rxPause, "SAI_PORT_STAT_PAUSE_RX_PKTS");
        assertTrue(lab.sw.egress(0).port() != null);
        receiver.sendLinkPause(0xFFFF);
        lab.time.runFor(20_000);
        long held = receiver.rxFrames;
        receiver.sendLinkPause(0);
        lab.time.runFor(5_000);
        assertTrue(receiver.rxFrames > held, "a PAUSE of 0 resumes at once");
        String view = SonicViews.pauseCounters(lab.sw);
        assertTrue(view.contains("Rx PAUSE") && view.lines().anyMatch(l -> l.trim().matches("Ethernet0\\s+3\\s+0")),
            view);
        lab.drainAndClose();
    }

    @Test
    void aPortWithoutPauseCountsItAndGoesOn() {
        Lab lab = new Lab(Lab.routes(new ConfigBuilder(2, 100), 2).build());
        HostStub sender = lab.flow(1, 0, 0, 0, 0xC001, 1024).gap(500);
        HostStub receiver = lab.hosts.get(0);
        sender.start();
        lab.time.runFor(10_000);
        receiver.sendLinkPause(0xFFFF);
        lab.time.runFor(10_000);
        long before = receiver.rxFrames;
        lab.time.runFor(50_000);
        assertTrue(receiver.rxFrames > before + 50, "not held: the port runs no 802.3x");
        assertEquals(1, lab.sw.counters(0).rxPause);
        assertEquals(0, lab.sw.counters(0).rxPfc[0], "a PAUSE is not a PFC frame");
        lab.drainAndClose();
    }

    @Test
    void theFieldLoadsFromConfigDbAndIsWrittenBack() {
        ConfigBuilder b = config(GlobalFlowControl.BOTH);
        ObjectNode root = b.root();
        assertEquals("both", root.get("PORT").get("Ethernet4").get("global_flow_control").asText(),
            "ConfigWriter writes rocelab's PORT field");
        ((ObjectNode) root.get("PORT").get("Ethernet8")).put("global_flow_control", "rx");
        var config = b.build();
        assertEquals(GlobalFlowControl.OFF, config.ports().get(0).globalFlowControl());
        assertEquals(GlobalFlowControl.BOTH, config.ports().get(1).globalFlowControl());
        assertEquals(GlobalFlowControl.RX, config.ports().get(2).globalFlowControl());
    }

    @Test
    void pauseBesidePfcAnUnknownModeAndNoThresholdsAreOneLineEach() {
        ConfigBuilder both = Lab.routes(new ConfigBuilder(2, 100), 2);
        ObjectNode root = both.root();
        ((ObjectNode) root.get("PORT").get("Ethernet0")).put("global_flow_control", "both");
        ((ObjectNode) root.get("PORT").get("Ethernet4")).put("global_flow_control", "pause");
        ConfigException e = assertThrows(ConfigException.class, both::build);
        assertEquals(List.of(
            "PORT|Ethernet4: global_flow_control must be off, tx, rx or both, not 'pause'",
            "PORT|Ethernet0: global_flow_control 'both' (802.3x PAUSE) and PORT_QOS_MAP|Ethernet0 pfc_enable on one "
                + "port: a port runs PFC or PAUSE, not both"), e.problems());

        ConfigBuilder bare = new ConfigBuilder(1, 100);
        bare.tables().portQosMap(ConfigBuilder.name(0), SwitchConfigBuilder.PortQosMap.dscp("AZURE", null, null))
            .bufferPg(ConfigBuilder.name(0) + "|3", "lossy").globalFlowControl(ConfigBuilder.name(0), GlobalFlowControl.TX);
        ConfigException none = assertThrows(ConfigException.class, bare::build);
        assertEquals(List.of("PORT|Ethernet0: global_flow_control 'tx' sends PAUSE but no BUFFER_PG|Ethernet0|... has a "
            + "lossless profile (xon, xoff): its numbers are the port's pause thresholds"), none.problems());
    }
}
