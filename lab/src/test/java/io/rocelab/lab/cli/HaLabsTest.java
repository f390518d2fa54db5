package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * High availability from lab files, as a user runs it: dual-port hosts and bonds in {@code hosts:},
 * the shipped HA labs with every claim holding, and the mistakes a dual-port host invites as one
 * line each with their place, exit 2.
 */
class HaLabsTest {
    /** A bonded host on one switch's port channel, and a host beside it. */
    private static final String BONDED = """
        name: bonded
        duration: 4500ms
        topology:
          hosts:
            - {name: h0, ports: 2, bond: 802.3ad, lacp-rate: fast}
            - h1
          switches:
            - name: s0
              config:
                DEVICE_METADATA: {localhost: {hostname: s0, mac: "02:00:00:00:00:f0"}}
                PORT: {Ethernet0: {speed: "100000"}, Ethernet4: {speed: "100000"}, Ethernet8: {speed: "100000"}}
                PORTCHANNEL: {PortChannel0001: {fast_rate: "true"}}
                PORTCHANNEL_MEMBER: {"PortChannel0001|Ethernet0": {}, "PortChannel0001|Ethernet4": {}}
          links:
            - {a: h0:eth0, b: s0:Ethernet0}
            - {a: h0:eth1, b: s0:Ethernet4}
            - {a: h1, b: s0:Ethernet8}
        flows:
          - {from: h0, to: h1, messages: 50, qps: 8, start: 4s}
        expect:
          - check: flows.messages == 50 and nic("h0").tx_bytes > 50 * 64KiB
        """;

    @TempDir
    Path tmp;

    private Path file(String name, String text) throws IOException {
        Path f = tmp.resolve(name);
        Files.writeString(f, text);
        return f;
    }

    private CliRun runAllPass(String lab, String outName, String... claims) {
        return LabRuns.runAllPass(tmp.resolve(outName), lab, claims);
    }

    /** {@code lab check} of {@code text}: the one line {@code expected} after the file's name, exit 2. */
    private void oneMistake(String name, String text, String expected) throws IOException {
        Path f = file(name + ".yaml", text);
        CliRun check = CliRun.of("lab", "check", f.toString());
        assertEquals(2, check.exitCode(), check.out() + check.err());
        assertEquals(f + ":" + expected + "\n", check.err());
    }

    @Test
    void aBondedHostChecksAndRunsOverBothPorts() throws IOException {
        Path f = file("bonded.yaml", BONDED);
        CliRun check = CliRun.of("lab", "check", f.toString());
        assertEquals(0, check.exitCode(), check.err());
        CliRun run = runAllPass(f.toString(), "bonded");
        // no probes.interval: 4.5 s of LACP and traffic at 5 ms, not 450,000 samples of 10 us
        assertTrue(run.out().contains("seed 1, 4500ms, probes every 5ms\n"), run.out());
        long rows = Files.readAllLines(tmp.resolve("bonded/flow-rate.csv")).size() - 1;
        assertTrue(rows >= 900 && rows <= 901, rows + " samples");
        String counters = Files.readString(tmp.resolve("bonded/counters.json"));
        assertTrue(counters.contains("\"failovers\""), counters);
    }

    @Test
    void aBondOnAOnePortHostIsOneLine() throws IOException {
        oneMistake("bond1", BONDED.replace("{name: h0, ports: 2, bond: 802.3ad, lacp-rate: fast}",
                "{name: h0, bond: 802.3ad}"),
            "5:24: topology.hosts[0].bond: host has one port: bond needs ports: 2");
    }

    @Test
    void aLinkToEth1OfAOnePortHostIsOneLineAtTheHost() throws IOException {
        oneMistake("eth1", BONDED.replace("{name: h0, ports: 2, bond: 802.3ad, lacp-rate: fast}", "h0"),
            "5:7: topology: link 'h0:eth1--s0:Ethernet4': host 'h0' has one port, 'eth0', not 'eth1'"
                + " (only a dual-port host has 'eth1')");
    }

    @Test
    void anUncabledSecondPortIsOneLine() throws IOException {
        oneMistake("uncabled", BONDED.replace("    - {a: h0:eth1, b: s0:Ethernet4}\n", ""),
            "5:7: topology: host 'h0': nothing is cabled to h0:eth1 (it has a bond of two ports)");
    }

    @Test
    void aBondTakesNoAddressesOfItsOwnAndLacpOnlyIn8023ad() throws IOException {
        oneMistake("ip2", BONDED.replace("bond: 802.3ad, lacp-rate: fast}", "bond: 802.3ad, ip2: 10.9.0.1}"),
            "5:48: topology.hosts[0].ip2: a bond puts eth1 behind eth0's MAC and address: no ip2");
        oneMistake("rate", BONDED.replace("bond: 802.3ad, lacp-rate: fast}", "bond: balance-xor, lacp-rate: fast}"),
            "5:58: topology.hosts[0].lacp-rate: LACP runs only in an 802.3ad bond, not balance-xor");
        oneMistake("mode", BONDED.replace("bond: 802.3ad,", "bond: round-robin,"),
            "5:34: topology.hosts[0].bond: bond mode must be active-backup, balance-xor or 802.3ad: round-robin");
    }

    @Test
    void dualHomedFailover() {
        runAllPass("dual-homed-failover", "dual-homed",
            "every flow completes despite losing a leaf, every byte delivered",
            "with no error completion",
            "h0's bond moved the QPs of eth1 (cabled to leaf2) to eth0",
            "the QPs resent what was lost in leaf2",
            "the traffic gap is less than one ACK timeout (ack-timeout 8, 1.05 ms) and a round trip");
    }

    @Test
    void silentMemberFailure() {
        runAllPass("silent-member-failure", "silent",
            "with LACP every message completes, with no error completion",
            "with LACP h0's bond takes the silent eth1 out and moves its QPs to eth0",
            "with LACP the transfer stands still at most the LACP timeout (3 s at the fast rate) and one ACK timeout"
                + " (1.07 s)",
            "without LACP nothing takes the silent member out",
            "without LACP the QPs hashed to eth1 exhaust their retries (IBV_WC_RETRY_EXC_ERR)",
            "without LACP they fail only after their whole retry budget (8 ACK timeouts of 1.07 s)");
    }
}
