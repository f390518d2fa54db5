package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rocelab.sw.config.SonicTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A real switch's {@code config_db.json} as a user brings it: {@code rocelab switch --config} and a
 * lab's {@code switches: [{config: FILE}]} take it as it is, name the tables rocelab does not model
 * in one line on stderr, and still refuse a misspelt field in one line with exit 2.
 */
class SonicConfigDbCliTest {
    static final Path SONIC = Path.of(System.getProperty("rocelab.root", "..")).resolve("labs/sonic");
    static final Path MELLANOX = SONIC.resolve("mellanox-sn2700-t1.json");
    static final Path BROADCOM = SONIC.resolve("arista-7060cx-32s-t1.json");
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** What the shipped Mellanox file carries that rocelab does not model. */
    private static final String MELLANOX_IGNORED = "ignored (not modelled): BGP_DEVICE_GLOBAL, "
        + "BUFFER_PORT_EGRESS_PROFILE_LIST, BUFFER_PORT_INGRESS_PROFILE_LIST, CRM, DEVICE_NEIGHBOR, "
        + "DEVICE_NEIGHBOR_METADATA, DNS_NAMESERVER, FLEX_COUNTER_TABLE, "
        + "MAP_PFC_PRIORITY_TO_QUEUE, MGMT_PORT, NTP_SERVER, PFC_PRIORITY_TO_PRIORITY_GROUP_MAP, "
        + "SYSLOG_SERVER, TELEMETRY, VERSIONS";

    @TempDir
    Path tmp;

    static Stream<Path> shipped() {
        return Stream.of(MELLANOX, BROADCOM);
    }

    /**
     * The demo's leaf with everything the shipped Mellanox file carries beyond rocelab's tables
     * (BGP_NEIGHBOR, FEATURE, ACL_TABLE, ...) and its DEVICE_METADATA: a real file's extra tables
     * around a buffer configuration today's validator takes.
     */
    private Path realishLeaf() throws IOException {
        ObjectNode leaf;
        leaf = DemoLeaf.tables();
        JsonNode real = MAPPER.readTree(Files.readString(MELLANOX));
        for (Iterator<String> it = real.fieldNames(); it.hasNext(); ) {
            String t = it.next();
            if (!SonicTables.modelled(t)) {
                leaf.set(t, real.get(t));
            }
        }
        leaf.set("DEVICE_METADATA", real.get("DEVICE_METADATA"));
        ((ObjectNode) leaf.get("PORT").get("Ethernet0")).setAll((ObjectNode) real.get("PORT").get("Ethernet0"));
        Path f = tmp.resolve("config_db.json");
        Files.writeString(f, leaf.toPrettyString());
        return f;
    }

    private static String lab(Path config) {
        return """
            name: real-leaf
            duration: 1ms
            topology:
              hosts: [h0, h1]
              switches:
                - {name: leaf, config: %s}
              links:
                - {a: h0, b: leaf:Ethernet0}
                - {a: h1, b: leaf:Ethernet4}
            flows:
              - {from: h0, to: h1, messages: 10}
            expect:
              - check: flows.errors == 0
            """.formatted(config.toAbsolutePath());
    }

    @Test
    void switchCheckNamesTheIgnoredTablesInOneLine() throws IOException {
        Path f = realishLeaf();
        CliRun check = CliRun.of("switch", "--config", f.toString(), "--check");
        assertEquals(0, check.exitCode(), check.err());
        assertEquals("rocelab switch: " + f + ": " + MELLANOX_IGNORED + "\n", check.err());
        assertEquals(f + ": ok: switch leaf-sn2700, 2 port(s) (2 with PFC), 0 port channel(s), 0 static route(s)\n",
            check.out());
    }

    /** The switch as a process of its own: the line once on stderr, then ready as with any config. */
    @Test
    @Timeout(120)
    void theSwitchProcessStartsWithARealFileAndSaysOnceWhatItIgnores() throws Exception {
        ToolProcesses tools = new ToolProcesses(tmp);
        try {
            Path f = realishLeaf();
            Process sw = tools.start("switch", "switch", "--config", f.toString(), "--port", "Ethernet0=udp:"
                + ToolProcesses.freeUdpPort() + ":" + ToolProcesses.freeUdpPort(), "--socket",
                tmp.resolve("sw.sock").toString());
            tools.awaitOutput(sw, "switch", "ready", 60);
            assertTrue(tools.stdout("switch").startsWith("rocelab switch leaf-sn2700: " + f + ", 1 of 2 ports plugged in"),
                tools.output("switch"));
            assertEquals(List.of("rocelab switch: " + f + ": " + MELLANOX_IGNORED), tools.stderr("switch").lines()
                .filter(l -> l.contains("not modelled")).toList(), tools.output("switch"));
            sw.destroy();
            assertTrue(sw.waitFor(30, TimeUnit.SECONDS), tools.output("switch"));
        } finally {
            tools.stopAll();
        }
    }

    @Test
    void aMisspeltFieldIsOneLineAndExit2() throws IOException {
        Path f = realishLeaf();
        JsonNode root = MAPPER.readTree(Files.readString(f));
        ((ObjectNode) root.get("PORT").get("Ethernet0")).put("sped", "100000");
        ((ObjectNode) root.get("WRED_PROFILE").elements().next()).put("green_min_treshold", "1048576");
        Files.writeString(f, root.toPrettyString());
        String wred = root.get("WRED_PROFILE").fieldNames().next();
        CliRun sw = CliRun.of("switch", "--config", f.toString(), "--port", "Ethernet0=udp:1:2");
        assertEquals(2, sw.exitCode(), sw.err());
        assertEquals(1, sw.err().strip().lines().count(), sw.err());
        assertTrue(sw.err().contains("PORT|Ethernet0: unknown key 'sped' (did you mean 'speed'?)"), sw.err());
        assertTrue(sw.err().contains("WRED_PROFILE|" + wred + ": unknown key 'green_min_treshold' (did you mean "
            + "'green_min_threshold'?)"), sw.err());

        Path lab = tmp.resolve("lab.yaml");
        Files.writeString(lab, lab(f));
        CliRun check = CliRun.of("lab", "check", lab.toString());
        assertEquals(2, check.exitCode(), check.out());
        List<String> lines = check.err().strip().lines().toList();
        assertEquals(2, lines.size(), check.err());
        assertTrue(lines.stream().allMatch(l -> l.startsWith(lab + ":6:28: topology.switches[0].config: ")), check.err());
        assertTrue(lines.stream().anyMatch(l -> l.endsWith("PORT|Ethernet0: unknown key 'sped' (did you mean 'speed'?)")),
            check.err());
    }

    @Test
    void aLabCheckNamesTheIgnoredTablesOnceAtTheSwitch() throws IOException {
        Path lab = tmp.resolve("lab.yaml");
        Files.writeString(lab, lab(realishLeaf()));
        CliRun check = CliRun.of("lab", "check", lab.toString());
        assertEquals(0, check.exitCode(), check.err());
        assertEquals(lab + ":6:28: topology.switches[0].config: " + MELLANOX_IGNORED + "\n", check.err());
        assertTrue(check.out().contains("ok: lab real-leaf"), check.out());
        CliRun run = CliRun.of("lab", "run", lab.toString(), "--out", tmp.resolve("out").toString());
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertEquals(check.err(), run.err(), "a run says it once too");
        assertTrue(run.out().contains("PASS"), run.out());
    }

    @ParameterizedTest
    @MethodSource("shipped")
    void theShippedFilesCheckAsTheyAre(Path file) throws IOException {
        CliRun check = CliRun.of("switch", "--config", file.toString(), "--check");
        assertEquals(0, check.exitCode(), check.err());
        // the ignored tables, then the control-plane ACL tables (ACL_TABLE is modelled; CTRLPLANE tables are not)
        assertEquals(2, check.err().lines().count(), check.err());
        assertTrue(check.err().startsWith("rocelab switch: " + file + ": ignored (not modelled): BGP_DEVICE_GLOBAL, "),
            check.err());
        assertTrue(check.err().contains("not modelled, no effect here: ACL_TABLE|SNMP_ACL type CTRLPLANE"), check.err());
        assertTrue(check.out().contains(": ok: switch leaf-") && check.out().contains("8 port(s) (8 with PFC)"),
            check.out());

        Path lab = tmp.resolve("lab.yaml");
        Files.writeString(lab, lab(file).replace("leaf:Ethernet0", "leaf:Ethernet16").replace("leaf:Ethernet4",
            "leaf:Ethernet20"));
        CliRun labCheck = CliRun.of("lab", "check", lab.toString());
        assertEquals(0, labCheck.exitCode(), labCheck.err());
        assertEquals(2, labCheck.err().lines().count(), labCheck.err());
        assertTrue(labCheck.err().contains("topology.switches[0].config: ignored (not modelled): BGP_DEVICE_GLOBAL, "),
            labCheck.err());
    }
}
