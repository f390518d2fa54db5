package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.sw.config.Color;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.config.WredProfile;
import io.rocelab.sw.egress.Wred;
import io.rocelab.sw.pipeline.ClassifyStage;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.sw.pipeline.PacketContext;
import io.rocelab.sw.pipeline.ParseStage;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.Lab;
import org.junit.jupiter.api.Test;

/**
 * WRED colours (SONiC WRED_PROFILE yellow_/red_ fields): a packet's colour comes from the ingress
 * DSCP_TO_COLOR_MAP and the 802.1Q DEI bit, and picks the thresholds it meets at dequeue.
 */
class WredColorTest {
    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;

    private static final WredProfile THREE = new WredProfile("w",
        new WredProfile.ColorRule(true, false, 100_000, 200_000, 0.5),
        new WredProfile.ColorRule(true, true, 20_000, 60_000, 0.5),
        new WredProfile.ColorRule(true, false, 0, 10_000, 1.0));

    @Test
    void eachColourMeetsItsOwnThresholdsAndEcnMode() {
        int n = 20_000;
        long depth = 40_000;  // above yellow's minimum, below green's, above red's maximum
        int[] hits = new int[3];
        int[] marks = new int[3];
        Wred wred = new Wred(THREE, 3);
        for (int color = 0; color < 3; color++) {
            for (int i = 0; i < n; i++) {
                Wred.Verdict v = wred.decide(depth, 2, color);
                hits[color] += v != Wred.Verdict.PASS ? 1 : 0;
                marks[color] += v == Wred.Verdict.MARK ? 1 : 0;
            }
        }
        System.out.printf("depth 40 kB, ECT: green %d, yellow %d (%d marked), red %d hit of %d%n", hits[0], hits[1],
            marks[1], hits[2], n);
        assertEquals(0, hits[Color.GREEN], "green starts at 100 kB");
        double expected = 0.5 * (depth - 20_000) / 40_000.0;
        double sigma = Math.sqrt(expected * (1 - expected) / n);
        assertEquals(expected, hits[Color.YELLOW] / (double) n, 5 * sigma);
        assertEquals(hits[Color.YELLOW], marks[Color.YELLOW], "the ecn mode covers yellow: ECT is marked");
        assertEquals(n, hits[Color.RED], "above red's maximum every packet is hit");
        assertEquals(0, marks[Color.RED], "the ecn mode does not cover red: dropped, not marked");
        assertEquals(Wred.Verdict.PASS, new Wred(new WredProfile("g", true, true, 0, 1, 1.0), 1).decide(10, 2, Color.RED),
            "a profile without red fields never hits red");
    }

    private static PacketContext classify(PortConfig port, int dscp, int dei) {
        RoceFrame f = new RoceFrame().ethernet(MacAddress.parse(ConfigBuilder.ROUTER_MAC), Lab.hostMac(1));
        if (dei >= 0) {
            f.vlan(new RoceFrame.VlanTag(EtherType.VLAN, 3, dei, 100));
        }
        ByteBuf frame = f.ipv4(Lab.hostIp(1), Lab.hostIp(0)).udp(0xC001, 4791).dscpEcn(dscp, 2)
            .opcode(Opcode.RC_RDMA_WRITE_ONLY).reth(0x1000, 0x42, 64).destQp(0x11).psn(7).payload(new byte[64])
            .encode(ALLOC);
        PacketContext ctx = new PacketContext();
        ctx.reset();
        ctx.frame = frame;
        ctx.length = frame.readableBytes();
        ctx.ingressPort = 0;
        assertTrue(new ParseStage().apply(ctx));
        new ClassifyStage(new PortConfig[] {port}).apply(ctx);
        frame.release();
        return ctx;
    }

    @Test
    void colourComesFromTheDscpMapAndTheDeiBitTheWorseWinning() {
        ConfigBuilder b = new ConfigBuilder(2, 100);
        b.root().putObject("DSCP_TO_COLOR_MAP").putObject("C").put("8", "yellow").put("12", "red").put("26", "green");
        b.root().withObject("/PORT_QOS_MAP/Ethernet0").put("dscp_to_color_map", "C");
        PortConfig port = b.build().ports().get(0);
        assertEquals(Color.GREEN, classify(port, 26, -1).color);
        assertEquals(Color.GREEN, classify(port, 0, -1).color, "unlisted DSCPs are green");
        assertEquals(Color.YELLOW, classify(port, 8, -1).color);
        assertEquals(Color.RED, classify(port, 12, -1).color);
        assertEquals(Color.YELLOW, classify(port, 26, 1).color, "DEI: drop eligible");
        assertEquals(Color.GREEN, classify(port, 26, 0).color);
        assertEquals(Color.RED, classify(port, 12, 1).color, "red beats DEI's yellow");
        PortConfig other = b.build().ports().get(1);
        assertEquals(Color.GREEN, classify(other, 8, -1).color, "Ethernet4 has no colour map");
    }

    @Test
    void underCongestionYellowIsDroppedBeforeGreen() {
        ConfigBuilder b = Lab.routes(new ConfigBuilder(3, 100), 3);
        ObjectNode r = b.root();
        r.putObject("DSCP_TO_COLOR_MAP").putObject("C").put("8", "yellow");
        for (int i = 0; i < 3; i++) {
            r.withObject("/PORT_QOS_MAP/" + ConfigBuilder.name(i)).put("dscp_to_color_map", "C");
        }
        r.putObject("WRED_PROFILE").putObject("colours").put("wred_green_enable", "true")
            .put("green_min_threshold", "1000000").put("green_max_threshold", "2000000")
            .put("green_drop_probability", "10").put("wred_yellow_enable", "true")
            .put("yellow_min_threshold", "5000").put("yellow_max_threshold", "40000")
            .put("yellow_drop_probability", "50").put("ecn", "ecn_none");
        for (int i = 0; i < 3; i++) {
            r.withObject("/QUEUE").putObject(ConfigBuilder.name(i) + "|0").put("wred_profile", "colours");
        }
        Lab lab = new Lab(b.build());
        lab.flow(1, 0, 0, 0, 0xC001, 4096).start();  // DSCP 0: TC 0, green
        lab.flow(2, 0, 8, 0, 0xC002, 4096).start();  // DSCP 8: TC 0, yellow
        lab.time.runFor(500_000);
        lab.drainAndClose();
        long green = lab.sw.counters(1).drops(DropReason.WRED);
        long yellow = lab.sw.counters(2).drops(DropReason.WRED);
        System.out.printf("2:1 lossy: WRED drops green %d, yellow %d; deepest queue %d B%n", green, yellow,
            lab.sw.egress(0).queue(0).watermarkBytes());
        assertEquals(0, green, "the queue never reaches green's thresholds");
        assertTrue(yellow > 0);
        assertTrue(lab.sw.egress(0).queue(0).watermarkBytes() < 1_000_000);
        assertEquals(0, lab.sw.counters(1).drops(DropReason.BUFFER_FULL) + lab.sw.counters(2).drops(DropReason.BUFFER_FULL));
    }
}
