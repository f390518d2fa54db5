package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lab file's {@code lldp: true}: every switch port and NIC port runs LLDP, and the report says
 * what each port heard (the switch its hosts' NICs, each NIC its switch port, the switches each
 * other), for two seeds alike; without the key the same lab's report has no LLDP line and its
 * flow moves the same bytes; {@code lldp: maybe} is one mistake naming the key.
 */
class LldpLabTest {
    private static final String LAB = """
        name: lldp-%s
        duration: 2ms
        seed: %d
        %s
        topology:
          hosts: [h0, h1]
          switches:
            - {name: leaf0, ports: 2}
            - {name: leaf1, ports: 2}
          links:
            - {a: h0, b: leaf0:Ethernet0}
            - {a: leaf0:Ethernet4, b: leaf1:Ethernet4}
            - {a: h1, b: leaf1:Ethernet0}
        flows:
          - {name: w, from: h0, to: h1, messages: 50}
        expect:
          - claim: the flow completes
            check: flows.messages == 50 and flows.errors == 0
        """;

    @TempDir
    Path tmp;

    private Path file(String name, long seed, String lldp) throws IOException {
        Path f = tmp.resolve(name + ".yaml");
        Files.writeString(f, LAB.formatted(name, seed, lldp));
        return f;
    }

    @Test
    void theReportSaysWhatEachPortHeard() throws IOException {
        for (long seed : new long[] {1, 2}) {
            Path f = file("on" + seed, seed, "lldp: true");
            CliRun run = LabRuns.runAllPass(tmp.resolve("on" + seed), f.toString(), "the flow completes");
            String report = Files.readString(tmp.resolve("on" + seed).resolve("report.md"));
            assertTrue(report.contains("LLDP: leaf0 Ethernet0 hears h0 rocelab port 1 (mac "), report);
            assertTrue(report.contains("LLDP: leaf0 Ethernet4 hears leaf1 Ethernet4 (local Ethernet4, chassis "), report);
            assertTrue(report.contains("LLDP: h1 port 1 hears leaf1 Ethernet0 (local Ethernet0, chassis "), report);
            assertFalse(report.contains("discarded 1"), report);
            String counters = Files.readString(tmp.resolve("on" + seed).resolve("counters.json"));
            assertTrue(counters.contains("\"lldp\" : [ \"LLDP: leaf0 Ethernet0 hears h0 ")
                && counters.contains("\"LLDP: h0 port 1 hears leaf0 Ethernet0 (local Ethernet0"), counters);
            assertTrue(run.exitCode() == 0);
        }
        Path off = file("off", 1, "");
        LabRuns.runAllPass(tmp.resolve("off"), off.toString(), "the flow completes");
        String report = Files.readString(tmp.resolve("off").resolve("report.md"));
        assertFalse(report.contains("LLDP"), report);
        assertFalse(Files.readString(tmp.resolve("off").resolve("counters.json")).contains("\"lldp\" :"));
    }

    @Test
    void notABooleanIsOneMistake() throws IOException {
        Path f = file("bad", 1, "lldp: maybe");
        CliRun check = CliRun.of("lab", "check", f.toString());
        assertEquals(2, check.exitCode(), check.out() + check.err());
        assertTrue(check.err().contains("lldp") && check.err().contains("true or false"), check.err());
        assertEquals(1, check.err().strip().lines().count(), check.err());
    }
}
