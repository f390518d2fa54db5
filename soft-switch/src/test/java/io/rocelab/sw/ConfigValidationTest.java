package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rocelab.sw.config.Color;
import io.rocelab.sw.config.ConfigException;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.config.Trust;
import io.rocelab.sw.config.BufferPool;
import io.rocelab.sw.config.BufferProfile;
import io.rocelab.sw.config.HeadroomModel;
import io.rocelab.sw.config.ConfigValidator;
import io.rocelab.sw.config.ConfigWriter;
import io.rocelab.sw.config.RouteConfig;
import io.rocelab.sw.config.SchedulerConfig;
import io.rocelab.sw.config.SwitchConfigBuilder;
import io.rocelab.sw.config.WredProfile;
import io.rocelab.sw.testkit.Lab;
import java.util.List;
import io.rocelab.sw.testkit.ConfigBuilder;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each kind of configuration mistake gives its own single, clear line. */
class ConfigValidationTest {

    @Test
    void aGoodConfigLoads() {
        SwitchConfig c = new ConfigBuilder(4, 100).build();
        assertEquals(4, c.ports().size());
        assertEquals(100_000_000_000L, c.ports().get(0).speedBitsPerSecond());
        assertEquals(Trust.DSCP, c.ports().get(0).trust());
        assertEquals(3, c.ports().get(0).dscpToTc()[26]);
        assertTrue(c.ports().get(0).pfcEnabled(3));
    }

    static Stream<Arguments> mistakes() {
        return Stream.of(
            Arguments.of("a field SONiC's PORT does not have", (Consumer<ObjectNode>) r ->
                r.withObject("/PORT/Ethernet4").put("sped", "100000"),
                "PORT|Ethernet4: unknown key 'sped' (did you mean 'speed'?)"),
            Arguments.of("unknown key", (Consumer<ObjectNode>) r ->
                r.withObject("/BUFFER_PROFILE/pg_lossless").put("xonn", "1"),
                "BUFFER_PROFILE|pg_lossless: unknown key 'xonn'"),
            Arguments.of("bad DSCP map key", (Consumer<ObjectNode>) r ->
                r.withObject("/DSCP_TO_TC_MAP/AZURE").put("64", "3"),
                "DSCP_TO_TC_MAP|AZURE: key '64' is not a DSCP (0-63)"),
            Arguments.of("bad TC in map", (Consumer<ObjectNode>) r ->
                r.withObject("/DSCP_TO_TC_MAP/AZURE").put("26", "9"),
                "DSCP_TO_TC_MAP|AZURE: value '9' for key 26 is not a traffic class or queue (0-7)"),
            Arguments.of("rocelab's old headroom key", (Consumer<ObjectNode>) r ->
                r.withObject("/BUFFER_PROFILE/pg_lossless").put("headroom", "8388608"),
                "BUFFER_PROFILE|pg_lossless: 'headroom' is no SONiC key: 'xoff' is the headroom"),
            Arguments.of("both thresholds", (Consumer<ObjectNode>) r ->
                r.withObject("/BUFFER_PROFILE/pg_lossless").put("dynamic_th", "0"),
                "BUFFER_PROFILE|pg_lossless: give dynamic_th or static_th, not both"),
            Arguments.of("xon without a headroom", (Consumer<ObjectNode>) r ->
                r.withObject("/BUFFER_PROFILE/lossy").put("xon", "1000"),
                "BUFFER_PROFILE|lossy: 'xon'/'xon_offset' without 'xoff'"),
            Arguments.of("dynamic headroom with numbers", (Consumer<ObjectNode>) r ->
                r.withObject("/BUFFER_PROFILE/pg_lossless").put("headroom_type", "dynamic"),
                "BUFFER_PROFILE|pg_lossless: headroom_type dynamic works size, xon and xoff out for each port"),
            Arguments.of("bad headroom_type", (Consumer<ObjectNode>) r ->
                r.withObject("/BUFFER_PROFILE/pg_lossless").put("headroom_type", "auto"),
                "BUFFER_PROFILE|pg_lossless: headroom_type must be 'static' or 'dynamic', not 'auto'"),
            Arguments.of("headroom too small for the cable", (Consumer<ObjectNode>) r ->
                r.putObject("CABLE_LENGTH").putObject("AZURE").put("Ethernet0", "300m"),
                "BUFFER_PG|Ethernet0|3: the headroom (xoff) of profile 'pg_lossless' is 40000 bytes but 100 Gb/s over 300 m"),
            Arguments.of("unknown map bound to a port", (Consumer<ObjectNode>) r ->
                r.withObject("/PORT_QOS_MAP/Ethernet0").put("dscp_to_tc_map", "AZUR"),
                "PORT_QOS_MAP|Ethernet0: dscp_to_tc_map 'AZUR' is not in DSCP_TO_TC_MAP"),
            Arguments.of("bad pfc_enable", (Consumer<ObjectNode>) r ->
                r.withObject("/PORT_QOS_MAP/Ethernet0").put("pfc_enable", "3,9"),
                "PORT_QOS_MAP|Ethernet0: pfc_enable '3,9' must list priorities 0-7"),
            Arguments.of("unknown profile in BUFFER_PG", (Consumer<ObjectNode>) r ->
                r.withObject("/BUFFER_PG").putObject("Ethernet0|4").put("profile", "nope"),
                "BUFFER_PG|Ethernet0|4: profile 'nope' is not in BUFFER_PROFILE"),
            Arguments.of("bad WRED ecn mode", (Consumer<ObjectNode>) r ->
                r.withObject("/WRED_PROFILE").putObject("W").put("ecn", "ecn_blue")
                    .put("green_min_threshold", "1").put("green_max_threshold", "2"),
                "WRED_PROFILE|W: ecn must be one of"),
            Arguments.of("bad scheduler type", (Consumer<ObjectNode>) r ->
                r.withObject("/SCHEDULER").putObject("S").put("type", "FAIR"),
                "SCHEDULER|S: type must be STRICT, DWRR or WRR, not 'FAIR'"),
            Arguments.of("bad watchdog action", (Consumer<ObjectNode>) r ->
                r.withObject("/PFC_WD").putObject("Ethernet0").put("action", "reboot"),
                "PFC_WD|Ethernet0: action must be drop, forward or alert, not 'reboot'"),
            Arguments.of("speed not a number", (Consumer<ObjectNode>) r ->
                r.withObject("/PORT/Ethernet0").put("speed", "100G"),
                "PORT|Ethernet0: speed '100G' is not a whole number"),
            Arguments.of("route to an unknown port", (Consumer<ObjectNode>) r ->
                r.withObject("/STATIC_ROUTE").putObject("10.0.0.0/8").put("ifname", "Ethernet99")
                    .put("nexthop_mac", "02:00:00:00:00:01"),
                "STATIC_ROUTE|10.0.0.0/8: unknown port 'Ethernet99' in ifname"),
            Arguments.of("IPv6 prefix too long", (Consumer<ObjectNode>) r ->
                r.withObject("/STATIC_ROUTE").putObject("fd00:9::/129").put("ifname", "Ethernet0")
                    .put("nexthop_mac", "02:00:00:00:00:01"),
                "STATIC_ROUTE|fd00:9::/129: 'fd00:9::/129' is not a prefix like 10.0.1.0/24 or fd00:1::/64"),
            Arguments.of("VLAN id out of range", (Consumer<ObjectNode>) r ->
                r.withObject("/VLAN").putObject("Vlan5000").put("vlanid", "5000"),
                "VLAN|Vlan5000: vlanid 5000 is out of range [1, 4094]"),
            Arguments.of("VLAN id not matching its name", (Consumer<ObjectNode>) r ->
                r.withObject("/VLAN").putObject("Vlan100").put("vlanid", "200"),
                "VLAN|Vlan100: vlanid 200 does not match the name"),
            Arguments.of("member of an unknown VLAN", (Consumer<ObjectNode>) r ->
                r.withObject("/VLAN_MEMBER").putObject("Vlan7|Ethernet0").put("tagging_mode", "tagged"),
                "VLAN_MEMBER|Vlan7|Ethernet0: VLAN 'Vlan7' is not in VLAN"),
            Arguments.of("bad tagging mode", (Consumer<ObjectNode>) r -> {
                r.withObject("/VLAN").putObject("Vlan100").put("vlanid", "100");
                r.withObject("/VLAN_MEMBER").putObject("Vlan100|Ethernet0").put("tagging_mode", "trunk");
            }, "VLAN_MEMBER|Vlan100|Ethernet0: tagging_mode must be 'tagged' or 'untagged', not 'trunk'"),
            Arguments.of("two untagged VLANs on one port", (Consumer<ObjectNode>) r -> {
                r.withObject("/VLAN").putObject("Vlan100").put("vlanid", "100");
                r.withObject("/VLAN").putObject("Vlan200").put("vlanid", "200");
                r.withObject("/VLAN_MEMBER").putObject("Vlan100|Ethernet0").put("tagging_mode", "untagged");
                r.withObject("/VLAN_MEMBER").putObject("Vlan200|Ethernet0").put("tagging_mode", "untagged");
            }, "VLAN_MEMBER|Vlan200|Ethernet0: Ethernet0 is already an untagged member of Vlan100"),
            Arguments.of("bad PCP in TC_TO_DOT1P_MAP", (Consumer<ObjectNode>) r ->
                r.withObject("/TC_TO_DOT1P_MAP/pcp").put("3", "8"),
                "TC_TO_DOT1P_MAP|pcp: value '8' for key 3 is not an 802.1p priority (0-7)"),
            Arguments.of("bad colour in DSCP_TO_COLOR_MAP", (Consumer<ObjectNode>) r ->
                r.withObject("/DSCP_TO_COLOR_MAP/C").put("8", "blue"),
                "DSCP_TO_COLOR_MAP|C: value 'blue' for key 8 is not a colour (green, yellow, red)"),
            Arguments.of("unknown colour map bound to a port", (Consumer<ObjectNode>) r ->
                r.withObject("/PORT_QOS_MAP/Ethernet0").put("dscp_to_color_map", "C"),
                "PORT_QOS_MAP|Ethernet0: dscp_to_color_map 'C' is not in DSCP_TO_COLOR_MAP"),
            Arguments.of("yellow thresholds reversed", (Consumer<ObjectNode>) r ->
                r.withObject("/WRED_PROFILE").putObject("W").put("green_min_threshold", "1")
                    .put("green_max_threshold", "2").put("yellow_min_threshold", "9000")
                    .put("yellow_max_threshold", "5000"),
                "WRED_PROFILE|W: yellow_min_threshold (9000) is above yellow_max_threshold (5000)"),
            Arguments.of("red drops enabled without thresholds", (Consumer<ObjectNode>) r ->
                r.withObject("/WRED_PROFILE").putObject("W").put("green_min_threshold", "1")
                    .put("green_max_threshold", "2").put("wred_red_enable", "true"),
                "WRED_PROFILE|W: wred_red_enable is true but red_min_threshold and red_max_threshold are missing"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void eachMistakeHasItsOwnMessage(String what, Consumer<ObjectNode> mistake, String message) {
        ConfigBuilder b = new ConfigBuilder(2, 100);
        mistake.accept(b.root());
        ConfigException e = assertThrows(ConfigException.class, () -> b.build());
        assertEquals(1, e.problems().size(), () -> what + ": " + e.problems());
        assertTrue(e.problems().get(0).startsWith(message), () -> what + ": got " + e.problems().get(0));
    }

    static Stream<Arguments> builderMistakes() {
        return Stream.of(
            Arguments.of("headroom beyond the shared headroom pool", (Consumer<SwitchConfigBuilder>) t -> t.bufferPool(
                new BufferPool("ingress_pool", 8_000_000, BufferPool.Mode.DYNAMIC, 20_000)),
                "BUFFER_PROFILE|pg_lossless: xoff (40000) exceeds the shared headroom pool of 'ingress_pool'"),
            Arguments.of("headroom too small for the cable", (Consumer<SwitchConfigBuilder>) t ->
                t.cableLength("Ethernet0", 300),
                "BUFFER_PG|Ethernet0|3: the headroom (xoff) of profile 'pg_lossless' is 40000 bytes but 100 Gb/s over 300 m"),
            Arguments.of("unknown map bound to a port", (Consumer<SwitchConfigBuilder>) t ->
                t.portQosMap("Ethernet0", SwitchConfigBuilder.PortQosMap.dscp("AZUR", null, null, 3)),
                "PORT_QOS_MAP|Ethernet0: dscp_to_tc_map 'AZUR' is not in DSCP_TO_TC_MAP"),
            Arguments.of("bad TC in map", (Consumer<SwitchConfigBuilder>) t -> {
                int[] m = new int[64];
                m[26] = 9;
                t.dscpToTcMap("AZURE", m);
            }, "DSCP_TO_TC_MAP|AZURE: value '9' for key 26 is not a traffic class or queue (0-7)"),
            Arguments.of("bad pfc_enable", (Consumer<SwitchConfigBuilder>) t ->
                t.portQosMap("Ethernet0", SwitchConfigBuilder.PortQosMap.dscp("AZURE", null, null, 3, 9)),
                "PORT_QOS_MAP|Ethernet0: pfc_enable '3,9' must list priorities 0-7"),
            Arguments.of("unknown profile in BUFFER_PG", (Consumer<SwitchConfigBuilder>) t ->
                t.bufferPg("Ethernet0|4", "nope"), "BUFFER_PG|Ethernet0|4: profile 'nope' is not in BUFFER_PROFILE"),
            Arguments.of("route to an unknown port", (Consumer<SwitchConfigBuilder>) t -> t.staticRoute("10.0.0.0/8",
                List.of(new RouteConfig.NextHop("Ethernet99", 0x02_00_00_00_00_01L))),
                "STATIC_ROUTE|10.0.0.0/8: unknown port 'Ethernet99' in ifname"),
            Arguments.of("VLAN id out of range", (Consumer<SwitchConfigBuilder>) t -> t.vlan("Vlan5000", 5000),
                "VLAN|Vlan5000: vlanid 5000 is out of range [1, 4094]"),
            Arguments.of("speed out of range", (Consumer<SwitchConfigBuilder>) t -> t.port("Ethernet0", 0, 9100),
                "PORT|Ethernet0: speed 0 is out of range [1, 1600000]"),
            Arguments.of("scheduler weight out of range", (Consumer<SwitchConfigBuilder>) t ->
                t.scheduler(new SchedulerConfig("S", false, 0)), "SCHEDULER|S: weight 0 is out of range [1, 100]"),
            Arguments.of("a map of the wrong size", (Consumer<SwitchConfigBuilder>) t -> t.dscpToTcMap("AZURE", new int[8]),
                "DSCP_TO_TC_MAP|AZURE: has 8 entries, not 64"));
    }

    /** The builder goes through the loader's validation: the same mistake, the same line. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("builderMistakes")
    void theBuilderReportsTheSameLines(String what, Consumer<SwitchConfigBuilder> mistake, String message) {
        ConfigBuilder b = new ConfigBuilder(2, 100);
        mistake.accept(b.tables());
        ConfigException e = assertThrows(ConfigException.class, b::build);
        assertEquals(1, e.problems().size(), () -> what + ": " + e.problems());
        assertTrue(e.problems().get(0).startsWith(message), () -> what + ": got " + e.problems().get(0));
        assertEquals(e.problems(), ConfigValidator.problems(b.tables()), "the validator alone says the same");
    }

    /** Every table the builder fills, written as config_db JSON and loaded back: the same configuration. */
    @Test
    void whatTheWriterWritesTheLoaderReadsBackTheSame() {
        ConfigBuilder b = Lab.routes(new ConfigBuilder(4, 100), 4).wred(3, "ecn_all", false, 5_000, 40_000, 50)
            .scheduler(3, "DWRR", 60).scheduler(6, "STRICT", 1).pfcWd("drop", 200, 300).queueCap(0, 30_000)
            .switchField("ecmp_hash_seed", "7").switchField("flowlet_timeout", "20")
            .route("fd00:9::/32", "Ethernet4,Ethernet8", "02:00:00:00:09:01,02:00:00:00:09:02");
        SwitchConfigBuilder t = b.tables();
        t.cableLength("Ethernet0", 40).vlan("Vlan100", 100).vlanMember("Vlan100", "Ethernet0", false)
            .vlanMember("Vlan100", "Ethernet4", true);
        int[] colors = new int[64];
        colors[8] = Color.YELLOW;
        colors[12] = Color.RED;
        t.dscpToColorMap("C", colors).wredProfile(new WredProfile("colours",
            new WredProfile.ColorRule(true, true, 10_000, 20_000, 0.2),
            new WredProfile.ColorRule(true, false, 5_000, 10_000, 0.5), WredProfile.ColorRule.OFF));
        t.portQosMap("Ethernet4", SwitchConfigBuilder.PortQosMap.dscp("AZURE", null, null, 3).withDscpToColorMap("C"));
        t.queue("Ethernet8|1", null, "colours");
        SwitchConfig built = b.build();
        SwitchConfig loaded = ConfigLoader.parse(ConfigWriter.toJson(t));
        assertEquals(built, loaded);
        assertEquals(40, loaded.ports().get(0).cableMeters(), "a field the defaults do not give");
        assertTrue(loaded.ports().get(1).vlans().isTagged(100));
        assertEquals(Color.RED, loaded.ports().get(1).dscpToColor()[12]);
        assertEquals(2, loaded.routes6().get(0).nextHops().size());
    }

    /** Text read into tables, completed in Java, then checked: the text's own mistakes come first. */
    @Test
    void tablesReadFromJsonAreCompletedInJava() {
        ConfigBuilder b = new ConfigBuilder(2, 100);
        SwitchConfigBuilder t = ConfigLoader.tables(b.json());
        t.staticRoute("10.9.0.0/16", List.of(new RouteConfig.NextHop("Ethernet4", 0x02_00_00_00_09_01L)));
        SwitchConfig c = t.build();
        assertEquals(1, c.routes().size());
        assertEquals(b.build().ports(), c.ports(), "the rest as read");
        b.root().withObject("/PORT/Ethernet0").put("sped", "1");
        ConfigException text = assertThrows(ConfigException.class, () -> ConfigLoader.tables(b.json()));
        assertEquals(List.of("PORT|Ethernet0: unknown key 'sped' (did you mean 'speed'?)"), text.problems());
        ((ObjectNode) b.root().get("PORT").get("Ethernet0")).remove("sped");
        b.root().withObject("/BUFFER_PROFILE/pg_lossless").put("dynamic_th", "0");
        SwitchConfigBuilder later = ConfigLoader.tables(b.json());
        ConfigException semantic = assertThrows(ConfigException.class, later::build);
        assertTrue(semantic.problems().get(0).startsWith("BUFFER_PROFILE|pg_lossless: give dynamic_th or static_th"));
    }

    @Test
    void invalidJsonAndSeveralMistakesAtOnce() {
        ConfigException bad = assertThrows(ConfigException.class, () -> ConfigLoader.parse("{ \"PORT\": "));
        assertTrue(bad.getMessage().startsWith("not valid JSON"));
        ConfigBuilder b = new ConfigBuilder(2, 100);
        b.root().putObject("FOO"); // a table rocelab does not model: ignored, not a mistake
        b.root().withObject("/PORT/Ethernet0").put("mtu_", "9100");
        b.root().withObject("/BUFFER_PROFILE/pg_lossless").put("dynamic_th", "0");
        ConfigException two = assertThrows(ConfigException.class, b::build);
        assertEquals(2, two.problems().size(), two.getMessage());
    }

    @Test
    void aNullProfileOrADynamicHeadroomIsWorkedOutFromThePortsPhysics() {
        ConfigBuilder b = new ConfigBuilder(2, 100);
        b.root().withObject("/BUFFER_PG/Ethernet0|3").put("profile", "NULL");
        b.root().putObject("CABLE_LENGTH").putObject("AZURE").put("Ethernet0", "40m").put("Ethernet4", "300m");
        b.root().withObject("/BUFFER_PROFILE").putObject("pg_dynamic").put("pool", "ingress_pool")
            .put("headroom_type", "dynamic").put("dynamic_th", "-1");
        b.root().withObject("/BUFFER_PG/Ethernet4|3").put("profile", "pg_dynamic");
        b.root().withObject("/BUFFER_POOL/ingress_pool").put("xoff", "1000000");
        SwitchConfig c = b.build();
        BufferProfile p0 = c.ports().get(0).pgProfiles()[3];
        BufferProfile p4 = c.ports().get(1).pgProfiles()[3];
        long g100 = 100_000_000_000L;
        assertEquals("pg_lossless_100000_40m_profile", p0.name(), "SONiC buffermgrd's name");
        assertEquals(HeadroomModel.SPECTRUM_DYNAMIC.compute(g100, 40, 9100), new HeadroomModel.Headroom(p0.size(),
            p0.xon(), p0.xoff()));
        assertEquals(0, p0.dynamicTh(), "DEFAULT_LOSSLESS_BUFFER_PARAMETER's dynamic_th");
        assertEquals(HeadroomModel.SPECTRUM_DYNAMIC.compute(g100, 300, 9100).xoff(), p4.xoff());
        assertEquals(-1, p4.dynamicTh());
        assertTrue(p4.xoff() > p0.xoff() + 60_000, "260 m more of cable both ways");
        assertEquals(1_000_000, c.pools().get("ingress_pool").xoff(), "the shared headroom pool");
        // the tables round-trip through config_db JSON
        SwitchConfigBuilder t = ConfigLoader.tables(b.json());
        SwitchConfig again = ConfigLoader.parse(ConfigWriter.toJson(t));
        assertEquals(c.ports(), again.ports());
        assertEquals(c.pools(), again.pools());
    }

    @Test
    void aStaticThresholdBeyondThePoolsSharedSizeIsRefused() {
        ConfigException e = assertThrows(ConfigException.class, () -> new ConfigBuilder(8, 100).pool(20_000).build());
        assertEquals(List.of("BUFFER_PROFILE|pg_lossless: static_th (30000) exceeds the shared size of pool "
            + "'ingress_pool' (20000)"), e.problems());
    }
}
