package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * tshark reads the sFlow a lab's switch sends: a lab file whose leaf has SONiC's sFlow tables in
 * its {@code tables:} runs in virtual time and writes {@code sflow.pcap}; tshark decodes its frames
 * as sFlow v5 with the agent address and sampling rate of the config, the sampled headers as
 * Ethernet, IPv4, UDP and RoCEv2 (InfiniBand BTH).
 */
class SflowLabTest {
    @TempDir
    Path dir;

    static final String LAB = """
        name: sflow-test
        description: "sFlow on a leaf: RoCE writes sampled 1 in 256 at ingress"
        duration: 2ms
        seed: %d
        modes: [virtual]
        topology:
          hosts: [h0, h1, h2]
          switches:
            - name: leaf0
              ports: 3
              speed: 100G
              tables:
                SFLOW:
                  global: {admin_state: up, agent_id: Loopback0}
                LOOPBACK_INTERFACE:
                  "Loopback0|10.1.0.1/32": {}
                SFLOW_COLLECTOR:
                  collector: {collector_ip: 192.0.2.10}
                SFLOW_SESSION:
                  Ethernet4: {sample_rate: "256"}
                  Ethernet8: {sample_rate: "256"}
          links:
            - {a: h0, b: leaf0:Ethernet0}
            - {a: h1, b: leaf0:Ethernet4}
            - {a: h2, b: leaf0:Ethernet8}
        qos:
          profile: lossless
        flows:
          - {name: incast, from: "h[1-2]", to: h0}
        expect:
          - claim: the writes arrive
            check: nic("h1").tx_bytes > 0
        """;

    @Test
    void aLabsSflowPcapIsSflowToTshark() throws Exception {
        Assumptions.assumeTrue(tsharkInstalled(), "tshark not installed: sFlow NOT checked");
        for (int seed : new int[] {1, 2}) {
            Path lab = dir.resolve("sflow-" + seed + ".yaml");
            Files.writeString(lab, LAB.formatted(seed));
            Path out = dir.resolve("out-" + seed);
            CliRun run = CliRun.of("lab", "run", lab.toString(), "--out", out.toString());
            assertEquals(0, run.exitCode(), run.out() + run.err());
            Path pcap = out.resolve("sflow.pcap");
            assertTrue(Files.size(pcap) > 24, "sflow.pcap written");
            List<String> rows = tshark(pcap, "-Y", "sflow", "-T", "fields", "-E", "separator=|", "-E",
                "aggregator=;", "-e", "sflow_245.version", "-e", "sflow_245.agent", "-e",
                "sflow.flow_sample.sampling_rate", "-e", "sflow.flow_sample.input_interface", "-e",
                "infiniband.bth.opcode", "-e", "frame.protocols", "-e", "sflow.flow_sample.sample_pool");
            assertTrue(rows.size() > 0, "datagrams");
            assertEquals(List.of(), tshark(pcap, "-Y", "_ws.malformed || _ws.expert.severity == error"),
                "nothing malformed to tshark");
            int samples = 0;
            java.util.Map<String, Long> pool = new java.util.HashMap<>();
            java.util.Map<String, Integer> taken = new java.util.HashMap<>();
            for (String r : rows) {
                String[] f = r.split("\\|", -1);
                assertEquals("5", f[0], r);
                assertEquals("10.1.0.1", f[1], "agent_id Loopback0's address: " + r);
                List<String> rates = List.of(f[2].split(";"));
                List<String> inputs = List.of(f[3].split(";"));
                assertTrue(rates.stream().allMatch("256"::equals), r);
                assertTrue(inputs.stream().allMatch(i -> i.equals("5") || i.equals("9")),
                    "Ethernet4 and Ethernet8 by their ifIndex: " + r);
                assertEquals(rates.size(), f[4].split(";").length, "every sampled header has a BTH: " + r);
                assertTrue(f[5].contains("sflow:eth:ethertype:ip:udp:infiniband"), f[5]);
                samples += rates.size();
                String[] pools = f[6].split(";");
                for (int i = 0; i < inputs.size(); i++) {
                    pool.merge(inputs.get(i), Long.parseLong(pools[i]), Math::max);
                    taken.merge(inputs.get(i), 1, Integer::sum);
                }
            }
            assertTrue(samples > 10, "flow samples: " + samples);
            for (String in : pool.keySet()) {
                // 1 in 256 of the frames each port saw (its last sample's pool), give or take the randomness
                double expected = pool.get(in) / 256.0;
                assertTrue(Math.abs(taken.get(in) - expected) <= 0.5 * expected + 3,
                    "ifIndex " + in + ": " + taken.get(in) + " samples of " + pool.get(in) + " frames");
            }
        }
    }

    /** A bad sFlow value in a lab's tables: lab check says it in one line at the switch, exit 2. */
    @Test
    void aBadSflowValueIsOneLineAtTheSwitch() throws Exception {
        Path lab = dir.resolve("bad.yaml");
        Files.writeString(lab, LAB.formatted(1).replace("Ethernet4: {sample_rate: \"256\"}",
            "Ethernet4: {sample_rate: \"100\"}"));
        CliRun check = CliRun.of("lab", "check", lab.toString());
        assertEquals(2, check.exitCode(), check.out() + check.err());
        assertEquals(1, check.err().strip().lines().count(), check.err());
        assertTrue(check.err().contains("SFLOW_SESSION|Ethernet4: sample_rate must be 256-8388608 (one packet in N),"
            + " not '100'"), check.err());
    }

    /** The same mistake in rocelab switch's config_db: one line, exit 2. */
    @Test
    void rocelabSwitchRefusesABadSflowTable() throws Exception {
        Path f = dir.resolve("config_db.json");
        Files.writeString(f, """
            {"DEVICE_METADATA": {"localhost": {"hostname": "leaf", "mac": "02:00:00:00:00:fe"}},
             "PORT": {"Ethernet0": {"speed": "100000"}},
             "SFLOW": {"global": {"admin_state": "up", "polling_interval": "3"}},
             "SFLOW_COLLECTOR": {"c": {"collector_ip": "192.0.2.10"}}}
            """);
        CliRun sw = CliRun.of("switch", "--config", f.toString(), "--port", "Ethernet0=udp:1:2");
        assertEquals(2, sw.exitCode(), sw.err());
        assertEquals(1, sw.err().strip().lines().count(), sw.err());
        assertTrue(sw.err().contains("SFLOW|global: polling_interval must be 0 or 5-300 seconds (sonic-sflow.yang), "
            + "not '3'"), sw.err());
    }

    static boolean tsharkInstalled() {
        try {
            Process p = new ProcessBuilder("tshark", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            boolean ok = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
            if (!ok) {
                System.err.println("SKIPPED: tshark not installed; Wireshark's view of sFlow is NOT checked");
            }
            return ok;
        } catch (IOException e) {
            System.err.println("SKIPPED: tshark not installed; Wireshark's view of sFlow is NOT checked");
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static List<String> tshark(Path file, String... extra) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("tshark", "-n", "-r", file.toString()));
        cmd.addAll(List.of(extra));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "tshark finished");
        assertEquals(0, p.exitValue(), "tshark exit status for " + file);
        return out.lines().toList();
    }
}
