package io.rocelab.sw.config;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rocelab.sw.testkit.ConfigBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A real switch's {@code config_db.json} loads as it is: the two shipped ones (written out as
 * sonic-buildimage's templates render a T1 on a Mellanox SN2700 and on an Arista 7060CX-32S,
 * Broadcom Tomahawk), the tables rocelab does not model named once, every field SONiC's schema has
 * accepted, a field it does not have a mistake.
 */
class SonicConfigDbTest {
    static final Path SONIC = Path.of(System.getProperty("rocelab.root", "..")).resolve("labs/sonic");
    static final Path MELLANOX = SONIC.resolve("mellanox-sn2700-t1.json");
    static final Path BROADCOM = SONIC.resolve("arista-7060cx-32s-t1.json");
    /** What both shipped files carry that rocelab does not model. */
    static final List<String> IGNORED_BOTH = List.of("BGP_DEVICE_GLOBAL", "CRM",
        "DEVICE_NEIGHBOR", "DEVICE_NEIGHBOR_METADATA", "DNS_NAMESERVER", "FLEX_COUNTER_TABLE",
        "MAP_PFC_PRIORITY_TO_QUEUE", "MGMT_PORT", "NTP_SERVER",
        "SYSLOG_SERVER", "TELEMETRY", "VERSIONS");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    static List<String> ignored(Path file) {
        List<String> out = new ArrayList<>(IGNORED_BOTH);
        if (file.equals(MELLANOX)) {
            out.addAll(List.of("BUFFER_PORT_EGRESS_PROFILE_LIST", "BUFFER_PORT_INGRESS_PROFILE_LIST",
                "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"));
        }
        return out.stream().sorted().toList();
    }

    static Stream<Path> shipped() {
        return Stream.of(MELLANOX, BROADCOM);
    }

    /** Every field of every modelled table in the shipped files is one SONiC's schema has: the text is read without a mistake. */
    @ParameterizedTest
    @MethodSource("shipped")
    void theShippedFilesHaveNoFieldSonicLacks(Path file) throws IOException {
        SwitchConfigBuilder tables = ConfigLoader.tables(Files.readString(file));
        assertEquals(8, tables.ports.size(), "8 of the platform's 100G ports");
        assertEquals(100_000, tables.ports.get("Ethernet0").speedMbps());
        assertEquals(Map.of("Ethernet0", 300, "Ethernet4", 300, "Ethernet8", 300, "Ethernet12", 300, "Ethernet16", 40,
                "Ethernet20", 40, "Ethernet24", 40, "Ethernet28", 40),
            tables.cableLengths.get("AZURE"), "qos templates' cables: 300 m to the spines, 40 m to the ToRs");
        assertEquals(List.of(3, 4), tables.portQos.get("Ethernet0").pfcEnable());
    }

    @ParameterizedTest
    @MethodSource("shipped")
    void theShippedFilesLoadWithTheirIgnoredTablesNamedOnce(Path file) throws IOException {
        LoadedConfig c = ConfigLoader.read(file);
        assertEquals(ignored(file), c.ignoredTables());
        // ACL_TABLE is modelled: the EVERFLOW mirror tables are read, the control-plane ACLs only named
        assertEquals(List.of("ignored (not modelled): " + String.join(", ", ignored(file)),
            "not modelled, no effect here: ACL_TABLE|SNMP_ACL type CTRLPLANE, ACL_TABLE|SSH_ONLY type CTRLPLANE"),
            c.lines());
        SwitchConfig s = c.config();
        assertEquals(List.of("EVERFLOW", "EVERFLOWV6", "SNMP_ACL", "SSH_ONLY"),
            s.acl().tables().stream().map(AclConfig.Table::name).toList());
        assertEquals("MIRRORV6", s.acl().table("EVERFLOWV6").type());
        assertEquals(8, s.ports().size());
        for (PortConfig p : s.ports()) {
            assertEquals(100_000_000_000L, p.speedBitsPerSecond());
            assertTrue(p.pfcEnabled(3) && p.pfcEnabled(4) && !p.pfcEnabled(0), p.name());
            assertEquals(Trust.DSCP, p.trust());
            assertEquals(3, p.dscpToTc()[3]);
            assertEquals(6, p.dscpToTc()[48]);
            assertNotNull(p.pgProfiles()[3], p.name() + " PG 3 is lossless");
            assertTrue(p.pgProfiles()[3].lossless(), p.name());
            assertNotNull(p.pfcWd(), p.name() + " has the default watchdog");
        }
        assertEquals(300, s.ports().get(0).cableMeters());
        assertEquals(40, s.ports().get(7).cableMeters());
    }

    /** Tables a real config_db carries, copied from a shipped file into a small working one: ignored, named once. */
    @Test
    void aRealFilesUnmodelledTablesAreIgnoredAndNamedInOneLine() throws IOException {
        ConfigBuilder b = new ConfigBuilder(2, 100);
        ObjectNode root = b.root();
        JsonNode real = MAPPER.readTree(Files.readString(MELLANOX));
        for (Iterator<String> it = real.fieldNames(); it.hasNext(); ) {
            String t = it.next();
            if (!SonicTables.modelled(t)) {
                root.set(t, real.get(t));
            }
        }
        // DEVICE_METADATA and PORT as a real switch has them, every field SONiC's
        root.set("DEVICE_METADATA", real.get("DEVICE_METADATA"));
        ObjectNode ports = root.putObject("PORT");
        ports.set("Ethernet0", real.get("PORT").get("Ethernet0"));
        ports.set("Ethernet4", real.get("PORT").get("Ethernet4"));
        LoadedConfig c = ConfigLoader.read(b.json());
        assertEquals(ignored(MELLANOX), c.ignoredTables());
        assertEquals(1, c.lines().size(), c.lines().toString());
        assertTrue(c.lines().get(0).startsWith("ignored (not modelled): BGP_DEVICE_GLOBAL, BUFFER_PORT_EGRESS_PROFILE_LIST, "),
            c.lines().get(0));
        assertEquals("leaf-sn2700", c.config().hostname());
        assertEquals(0x98_03_9b_0a_1c_00L, c.config().routerMac());
        assertEquals(2, c.config().ports().size());
        assertEquals(100_000_000_000L, c.config().ports().get(1).speedBitsPerSecond());
    }

    @Test
    void anUnknownTableIsIgnoredNotAMistake() {
        ConfigBuilder b = new ConfigBuilder(2, 100);
        b.root().putObject("NOT_A_SONIC_TABLE").putObject("x").put("y", "z");
        b.root().putObject("SNMP_COMMUNITY").putObject("public").put("TYPE", "RO");
        LoadedConfig c = ConfigLoader.read(b.json());
        assertEquals(List.of("NOT_A_SONIC_TABLE", "SNMP_COMMUNITY"), c.ignoredTables());
        assertEquals(List.of("ignored (not modelled): NOT_A_SONIC_TABLE, SNMP_COMMUNITY"), c.lines());

        // a typo of a modelled table is ignored too (SONiC would not know it either), and the line says so
        b.root().putObject("BUFFER_PROFILES").putObject("p").put("size", "0");
        b.root().putObject("DSCP_TO_FC_MAP").putObject("AZURE").put("0", "1");
        b.root().putObject("VLAM").putObject("Vlan10").put("vlanid", "10");
        assertEquals(List.of("ignored (not modelled): BUFFER_PROFILES (BUFFER_PROFILE?), DSCP_TO_FC_MAP, "
            + "NOT_A_SONIC_TABLE, SNMP_COMMUNITY, VLAM (VLAN?)"), ConfigLoader.read(b.json()).lines());
        assertEquals(List.of(), ConfigLoader.read(new ConfigBuilder(2, 100).json()).lines(),
            "a file of modelled tables only has nothing to say");
    }

    static Stream<Arguments> misspellings() {
        return Stream.of(
            Arguments.of("/PORT/Ethernet0", "sped", "PORT|Ethernet0: unknown key 'sped' (did you mean 'speed'?)"),
            Arguments.of("/WRED_PROFILE/AZURE_LOSSLESS", "green_min_treshold",
                "WRED_PROFILE|AZURE_LOSSLESS: unknown key 'green_min_treshold' (did you mean 'green_min_threshold'?)"),
            Arguments.of("/DEVICE_METADATA/localhost", "bgp_asm",
                "DEVICE_METADATA|localhost: unknown key 'bgp_asm' (did you mean 'bgp_asn'?)"),
            Arguments.of("/PORT_QOS_MAP/Ethernet4", "pfc_to_queue_mapp",
                "PORT_QOS_MAP|Ethernet4: unknown key 'pfc_to_queue_mapp' (did you mean 'pfc_to_queue_map'?)"),
            Arguments.of("/QUEUE/Ethernet0|3", "wred", "QUEUE|Ethernet0|3: unknown key 'wred' (allowed: scheduler, "
                + "wred_profile)"));
    }

    /** A field SONiC's schema does not have, in a table rocelab models, is still one line naming TABLE|key and the field. */
    @ParameterizedTest
    @MethodSource("misspellings")
    void aMisspeltFieldIsOneLine(String entry, String field, String line) throws IOException {
        ObjectNode root = (ObjectNode) MAPPER.readTree(Files.readString(MELLANOX));
        root.withObject(entry).put(field, "1");
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.tables(root.toString()));
        assertEquals(List.of(line), e.problems());
    }

    /** SONiC's PORT_QOS_MAP|global: the switch's DSCP-to-TC map, for every port that binds none of its own. */
    @Test
    void theGlobalDscpMapClassifiesPortsWithoutTheirOwn() {
        ConfigBuilder b = new ConfigBuilder(2, 100);
        ObjectNode root = b.root();
        int[] other = new int[64];
        other[26] = 5;
        ObjectNode map = root.withObject("/DSCP_TO_TC_MAP").putObject("GLOBAL");
        for (int d = 0; d < 64; d++) {
            map.put(Integer.toString(d), Integer.toString(other[d]));
        }
        root.withObject("/PORT_QOS_MAP").putObject("global").put("dscp_to_tc_map", "GLOBAL");
        ((ObjectNode) root.get("PORT_QOS_MAP").get("Ethernet4")).remove("dscp_to_tc_map");
        SwitchConfig c = ConfigLoader.parse(b.json());
        assertEquals(3, c.ports().get(0).dscpToTc()[26], "Ethernet0 keeps its own map");
        assertArrayEquals(other, c.ports().get(1).dscpToTc(), "Ethernet4 binds none: the switch's");
        assertEquals(Trust.DSCP, c.ports().get(1).trust());

        root.withObject("/PORT_QOS_MAP/global").put("dscp_to_tc_map", "NOPE").put("pfc_enable", "3");
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse(b.json()));
        assertEquals(List.of("PORT_QOS_MAP|global: only dscp_to_tc_map is switch-wide; bind the other maps and "
            + "pfc_enable per port", "PORT_QOS_MAP|global: dscp_to_tc_map 'NOPE' is not in DSCP_TO_TC_MAP"), e.problems());
    }

    /** admin_status down is accepted and said once, as rocelab does not take the port down; another value is a mistake. */
    @Test
    void adminStatusDownIsANoteAndAnyOtherValueAMistake() {
        ConfigBuilder b = new ConfigBuilder(3, 100);
        b.root().withObject("/PORT/Ethernet0").put("admin_status", "down");
        b.root().withObject("/PORT/Ethernet8").put("admin_status", "down");
        b.root().withObject("/PORT/Ethernet4").put("admin_status", "up");
        LoadedConfig c = ConfigLoader.read(b.json());
        assertEquals(List.of("not modelled, no effect here: PORT admin_status down (Ethernet0, Ethernet8: they carry "
            + "traffic as if up)"), c.lines());
        assertEquals(3, c.config().ports().size());
        b.root().withObject("/PORT/Ethernet4").put("admin_status", "shut");
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.read(b.json()));
        assertEquals(List.of("PORT|Ethernet4: admin_status must be 'up' or 'down', not 'shut'"), e.problems());
    }

    /** A file of SONiC's dynamic buffer model leaves the lossless profiles to buffermgrd: rocelab works them out as it does. */
    @Test
    void aDynamicBufferModelPgGetsTheProfileBuffermgrdWorksOut() {
        ConfigBuilder b = new ConfigBuilder(2, 100);
        b.root().withObject("/BUFFER_PG").putObject("Ethernet4|3-4").put("profile", "NULL");
        BufferProfile p = ConfigLoader.read(b.json()).config().ports().get(1).pgProfiles()[3];
        assertTrue(p.lossless(), p.toString());
        assertTrue(p.name().matches("pg_lossless_100000_\\d+m_profile"), p.name());
    }

    /** SONiC fields whose effect rocelab does not reproduce are accepted and named once, in one line with the rest. */
    @Test
    void fieldsWithoutAnEffectHereAreNamedOnce() {
        ConfigBuilder b = new ConfigBuilder(2, 100);
        b.root().withObject("/SCHEDULER").putObject("shaped").put("type", "DWRR").put("weight", "10")
            .put("meter_type", "bytes").put("pir", "1250000000");
        b.root().withObject("/PORT_QOS_MAP/Ethernet0").put("scheduler", "shaped");
        b.root().withObject("/PORT_QOS_MAP/Ethernet4").put("scheduler", "shaped");
        b.root().withObject("/PORT/Ethernet4").put("pfc_asym", "on").put("autoneg", "on").put("fec", "rs");
        LoadedConfig c = ConfigLoader.read(b.json());
        assertEquals(List.of("not modelled, no effect here: SCHEDULER meter_type, SCHEDULER pir, PORT pfc_asym on "
            + "(Ethernet4), PORT_QOS_MAP scheduler"), c.lines());
    }

    /** Each modelled table with named fields has its fields checked: a field no table has is a mistake in every one. */
    @Test
    void everyModelledTableChecksItsFields() {
        ConfigBuilder b = new ConfigBuilder(2, 100);
        ObjectNode root = b.root();
        List<String> expected = new ArrayList<>();
        for (String t : SonicTables.modelled()) {
            if (SonicTables.fields(t) == null) {
                continue;
            }
            ObjectNode table = root.has(t) ? (ObjectNode) root.get(t) : root.putObject(t);
            String key = t.equals("DEVICE_METADATA") ? "localhost" : t.equals("SWITCH") ? "switch"
                : table.fieldNames().hasNext() ? table.fieldNames().next() : t.equals("PFC_WD") ? "Ethernet0" : "k";
            table.withObject("/" + key).put("zzz_not_a_field", "1");
            expected.add(t + "|" + key + ": unknown key 'zzz_not_a_field'");
        }
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.tables(b.json()));
        for (String line : expected) {
            assertTrue(e.problems().stream().anyMatch(p -> p.startsWith(line)), line + " in " + e.problems());
        }
    }
}
