package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lab file's spelled-out switch takes SONiC's PORTCHANNEL tables in its inline config_db as it
 * takes any other: {@code lab check} accepts two switches joined by a port channel, and a port
 * channel mistake is one line with its place in the file, exit 2.
 */
class LabPortChannelCheckTest {
    private static final String LAB = """
        name: lag
        duration: 1ms
        topology:
          hosts: [h0, h1]
          switches:
            - name: s0
              config:
                DEVICE_METADATA: {localhost: {hostname: s0, mac: "02:00:00:00:00:f0"}}
                PORT: {Ethernet0: {speed: "100000"}, Ethernet4: {speed: "100000"}, Ethernet8: {speed: "100000"}}
                PORTCHANNEL: {PortChannel0001: {static: "true"}}
                PORTCHANNEL_MEMBER: {"PortChannel0001|Ethernet4": {}, "PortChannel0001|Ethernet8": {}}
            - name: s1
              config:
                DEVICE_METADATA: {localhost: {hostname: s1, mac: "02:00:00:00:00:f1"}}
                PORT: {Ethernet0: {speed: "100000"}, Ethernet4: {speed: "100000"}, Ethernet8: {speed: "100000"}}
                PORTCHANNEL: {PortChannel0001: {static: "true"}}
                PORTCHANNEL_MEMBER: {"PortChannel0001|Ethernet4": {}, "PortChannel0001|Ethernet8": {}}
          links:
            - {a: h0, b: s0:Ethernet0}
            - {a: h1, b: s1:Ethernet0}
            - {a: s0:Ethernet4, b: s1:Ethernet4}
            - {a: s0:Ethernet8, b: s1:Ethernet8}
        flows:
          - {from: h0, to: h1, messages: 10}
        expect:
          - check: flows.errors == 0
        """;

    @TempDir
    Path tmp;

    @Test
    void anInlineConfigDbWithAPortChannelChecks() throws Exception {
        Path f = tmp.resolve("lag.yaml");
        Files.writeString(f, LAB);
        CliRun check = CliRun.of("lab", "check", f.toString());
        assertEquals(0, check.exitCode(), check.err());
        assertTrue(check.out().contains("ok: lab lag"), check.out());
    }

    @Test
    void theLabRunsAcrossTheStaticPortChannel() throws Exception {
        Path f = tmp.resolve("lag.yaml");
        Files.writeString(f, LAB);
        CliRun run = CliRun.of("lab", "run", f.toString(), "--out", tmp.resolve("out").toString());
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("PASS"), run.out());
    }

    @Test
    void aPortChannelMistakeIsOneLineWithItsPlace() throws Exception {
        Path f = tmp.resolve("bad.yaml");
        Files.writeString(f, LAB.replaceFirst("\"PortChannel0001\\|Ethernet8\": \\{\\}",
            "\"PortChannel0001|Ethernet9\": {}"));
        CliRun check = CliRun.of("lab", "check", f.toString());
        assertEquals(2, check.exitCode(), check.out());
        assertEquals(1, check.err().strip().lines().count(), check.err());
        assertTrue(check.err().contains("PORTCHANNEL_MEMBER|PortChannel0001|Ethernet9: 'Ethernet9' is not a port"),
            check.err());
    }
}
