package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.lab.report.TimePlot;
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

    /** Two dual-port hosts, a switch per plane; the flow's alternate path is the second plane. */
    private static final String PLANES = """
        name: planes
        duration: 20ms
        topology:
          hosts:
            - {name: h0, ports: 2}
            - {name: h1, ports: 2}
            - h2
          switches:
            - {name: s1, ports: 3}
            - {name: s2, ports: 2}
          links:
            - {a: h0:eth0, b: s1:Ethernet0}
            - {a: h1:eth0, b: s1:Ethernet4}
            - {a: h0:eth1, b: s2:Ethernet0}
            - {a: h1:eth1, b: s2:Ethernet4}
            - {a: h2, b: s1:Ethernet8}
        flows:
          - {name: w, from: h0, to: h1, messages: 100, qps: 2, ack-timeout: 8, retry: 1, alt-path: {}, verify: true}
        events:
          - {at: 200us, link-down: h0:eth0}
        probes: {interval: 100us, sample: [flow-rate]}
        expect:
          - claim: the flow completes on its alternate path
            check: flows.messages == 100 and flows.errors == 0
          - claim: both QPs migrated
            check: flows.migrations == 2 and nic("h1").migrations == 2
          - claim: byte-exact
            check: flows.corrupt == 0 and flows.verified == 100 * 64KiB
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
    void dualHomedFailover() throws IOException {
        runAllPass("dual-homed-failover", "dual-homed",
            "every flow completes despite losing a leaf, every byte delivered",
            "with no error completion",
            "the memory is byte-exact at the end, every byte completed checked",
            "h0's bond moved the QPs of eth1 (cabled to leaf2) to eth0",
            "the QPs resent what was lost in leaf2",
            "the traffic gap is less than one ACK timeout (ack-timeout 8, 1.05 ms) and a round trip");
        // its plot: the 5 ms of traffic after 4 s of LACP fill the time axis, drawn from 100 us samples
        TimePlot p = FlowRatePlotLabTest.plotOf(tmp.resolve("dual-homed/flow-rate.csv"), 4_010_000);
        assertEquals(4_000, p.x().min(), p.x().toString());
        double[] x = p.line("write").x();
        double[] y = p.line("write").y();
        long drawn = java.util.stream.IntStream.range(0, x.length).filter(i -> y[i] > 10).count();
        assertTrue(drawn >= 15, "the write flow drawn from " + drawn + " samples, not as a stroke");
        double before = 0;
        for (int i = 0; i < x.length; i++) {
            before = x[i] <= 4_000.3 ? Math.max(before, y[i]) : before;
            if (x[i] > 4_000.5 && x[i] < 4_001.8) {
                assertEquals(100, y[i], 5, "on eth0 alone after leaf2 failed, Gb/s at " + x[i] + " ms");
            }
        }
        assertTrue(before > 110, "on both bonded ports before it failed: " + before + " Gb/s");
    }

    @Test
    void apm() throws IOException {
        CliRun run = runAllPass("apm", "apm",
            "every flow completes its messages despite losing its spine",
            "with no error completion (no IBV_WC_RETRY_EXC_ERR)",
            "every requester QP migrated to its alternate path once (IBV_EVENT_PATH_MIG)",
            "the responders' QPs followed them (MigReq 1 from the alternate path's peer)",
            "the memory is byte-exact, every byte completed checked",
            "the traffic gap is at most the retry budget on the primary path, (3 + 1) ACK timeouts of 1.05 ms, and a"
                + " round trip",
            "the QPs migrate when the retries run out, not before (the gap is more than 3 ACK timeouts)",
            "without an alternate path the same failure ends every flow in IBV_WC_RETRY_EXC_ERR, short of its messages",
            "what the failed flows did complete was placed byte-exact");
        assertTrue(run.out().contains("2 variants (armed, unarmed)"), run.out());
        String report = Files.readString(tmp.resolve("apm/report.md"));
        assertTrue(report.contains("Path migrations (IBV_EVENT_PATH_MIG on the source's QPs): write 4, read 4, send 4."),
            report);
        assertTrue(report.contains("Memory checked (verify): write 26214400 bytes as sent, 0 corrupt;"), report);
        assertTrue(report.contains("QPs migrated to their alternate path, per NIC (requesters and responders): h0 4, "
            + "h1 8, h2 4, h3 8."), report);
        String counters = Files.readString(tmp.resolve("apm/counters.json"));
        assertTrue(counters.contains("\"migrations\" : 4") && counters.contains("\"verified\" : 26214400"), counters);
    }

    @Test
    void anAlternatePathFromALabFileMigratesWhenItsCableIsPulled() throws IOException {
        Path f = file("planes.yaml", PLANES);
        CliRun check = CliRun.of("lab", "check", f.toString());
        assertEquals(0, check.exitCode(), check.err());
        runAllPass(f.toString(), "planes", "the flow completes on its alternate path", "both QPs migrated",
            "byte-exact");
        // the same cable pulled without the alternate path: retry 1 is spent, the QPs fail
        CliRun without = CliRun.of("lab", "run", file("bare.yaml", PLANES.replace(" alt-path: {},", "")).toString(),
            "--out", tmp.resolve("bare").toString());
        assertEquals(1, without.exitCode(), without.out() + without.err());
        assertTrue(without.out().contains("FAIL  the flow completes on its alternate path"), without.out());
        assertTrue(without.out().contains("FAIL  both QPs migrated  ([0] == 2"), without.out());
    }

    @Test
    void anAlternatePathMayLeaveByThePrimaryPortToThePeersOtherPort() throws IOException {
        // IBA 17.2.8: the alternate path may use the primary port, to other addresses; here s1 and s2
        // are cabled, h0's eth0 reaches h1's eth1 through them, and h1's eth0 is pulled
        Path f = file("same-port.yaml", PLANES.replace("alt-path: {}", "alt-path: {port: 1, remote-port: 2}")
            .replace("{at: 200us, link-down: h0:eth0}", "{at: 200us, link-down: h1:eth0}")
            .replace("{name: s1, ports: 3}", "{name: s1, ports: 4}").replace("{name: s2, ports: 2}", "{name: s2, ports: 3}")
            .replace("    - {a: h2, b: s1:Ethernet8}\n", "    - {a: h2, b: s1:Ethernet8}\n    - {a: s1:Ethernet12, b: s2:Ethernet8}\n"));
        runAllPass(f.toString(), "same-port", "the flow completes on its alternate path", "both QPs migrated",
            "byte-exact");
    }

    @Test
    void alternatePathMistakesAreOneLineEach() throws IOException {
        oneMistake("primary", PLANES.replace("alt-path: {}", "alt-path: {port: 1, remote-port: 1}"),
            "18:92: flows[0].alt-path: the alternate path is the primary path (h0's port 1 to h1's port 1): give a"
                + " port 2 on either end");
        oneMistake("remote", PLANES.replace("to: h1, messages", "to: h2, messages")
                .replace("alt-path: {}", "alt-path: {remote-port: 2}"),
            "18:106: flows[0].alt-path.remote-port: h2 has one port: no port 2 (ports: 2 on the host gives it eth1)");
        oneMistake("local", PLANES.replace("from: h0, to: h1, messages", "from: h2, to: h1, messages")
                .replace("alt-path: {}", "alt-path: {port: 2}"),
            "18:99: flows[0].alt-path.port: h2 has one port: no port 2 (ports: 2 on the host gives it eth1)");
        oneMistake("range", PLANES.replace("alt-path: {}", "alt-path: {port: 3}"),
            "18:99: flows[0].alt-path.port: must be 1..2: 3");
        oneMistake("ud", PLANES.replace("messages: 100, qps: 2", "verb: ud-send, messages: 100, qps: 1")
                .replace(", verify: true", ""),
            "18:107: flows[0].alt-path: an alternate path is for RC flows (IBA 17.2.8), not ud-send");
        oneMistake("reconnect", PLANES.replace("alt-path: {}", "alt-path: {}, reconnect: 10ms"),
            "18:92: flows[0].alt-path: a flow with reconnect connects through rdma_cm, which loads no alternate path"
                + " (no LAP): give one or the other");
        oneMistake("bonded", BONDED.replace("messages: 50, qps: 8,", "messages: 50, qps: 8, alt-path: {},"),
            "19:56: flows[0].alt-path: h0's ports are bonded (h0 has one port to verbs, and the bond fails over by"
                + " itself): no alternate path");
    }

    @Test
    void aSinglePortDestinationTakesAnAlternatePathFromTheSourcesPort2() throws IOException {
        // h0's port 2 to h2's only port: another path (other addresses), so no mistake
        Path f = file("to-one-port.yaml", PLANES.replace("to: h1, messages", "to: h2, messages"));
        CliRun check = CliRun.of("lab", "check", f.toString());
        assertEquals(0, check.exitCode(), check.err());
    }

    @Test
    void verifyMistakesAreOneLineEach() throws IOException {
        oneMistake("verify-ud", PLANES.replace("messages: 100, qps: 2", "verb: ud-send, messages: 100, qps: 1")
                .replace(" alt-path: {},", ""),
            "18:105: flows[0].verify: UD datagrams may be lost: verify checks write, read and send flows");
        oneMistake("verify-bool", PLANES.replace("verify: true", "verify: yes please"),
            "18:104: flows[0].verify: must be true or false, not 'yes please'");
        oneMistake("verify-big", PLANES.replace("messages: 100, qps: 2", "messages: 100, qps: 128, size: 1MiB"),
            "18:118: flows[0].verify: a verified flow holds 16 slots of 262144 bytes per QP on each side: 128 QPs take"
                + " 512 MiB, more than 256 MiB (fewer qps, a smaller window or smaller messages)");
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
