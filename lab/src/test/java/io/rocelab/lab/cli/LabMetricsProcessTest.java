package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocelab.lab.metrics.Exposition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rocelab lab run FILE --mode live --metrics 127.0.0.1:0 --metrics-hold 60s} as a user runs
 * it, a process of its own: while the live lab runs, its {@code /metrics} answers with the running
 * fabric's switches and NICs (read on the fabric's loop at each scrape); once the report is written
 * it serves the run's last values, which are {@code counters.json}'s, port by port and NIC by NIC.
 */
@Timeout(180)
class LabMetricsProcessTest {
    private static final Pattern URL = Pattern.compile("metrics at (http://127\\.0\\.0\\.1:\\d+/metrics)");
    static final String LAB = """
        name: live-metrics
        description: two writers into one receiver through a leaf at 1G, lossless, in real time
        duration: 1500ms
        modes: [virtual, live]
        topology:
          hosts: [h0, h1, h2]
          switches: [{name: leaf0, ports: 3, speed: 1G}]
          links:
            - {a: h0, b: leaf0:Ethernet0}
            - {a: h1, b: leaf0:Ethernet4}
            - {a: h2, b: leaf0:Ethernet8}
        qos: {profile: lossless}
        flows:
          - {name: w1, from: h1, to: h0, messages: 600, window: 8, ack-timeout: 18}
          - {name: w2, from: h2, to: h0, messages: 600, window: 8, ack-timeout: 18}
        probes: {interval: 50ms}
        """;

    @TempDir
    Path dir;
    @RegisterExtension
    final ToolProcesses tools = ToolProcesses.in(() -> dir);

    @Test
    void aLiveLabsMetricsAreItsCountersJson() throws Exception {
        Path file = dir.resolve("live.yaml");
        Files.writeString(file, LAB);
        Path out = dir.resolve("out");
        Process lab = tools.start("lab", "lab", "run", file.toString(), "--mode", "live", "--out", out.toString(),
            "--metrics", "127.0.0.1:0", "--metrics-hold", "60s");
        tools.awaitOutput(lab, "lab", "metrics at ", 60);
        Matcher url = URL.matcher(tools.stdout("lab"));
        assertTrue(url.find(), tools.output("lab"));
        String metrics = url.group(1);

        // while it runs: the live fabric, its run's clock moving
        double seen = -1;
        for (int i = 0; i < 200 && seen <= 0; i++) {
            Exposition p = new Exposition(Exposition.scrape(metrics, null).body(), false);
            if (!p.samples().isEmpty()) {
                seen = p.value("rocelab_lab_time_seconds", "lab", "live-metrics", "variant", "");
                assertTrue(p.types().containsKey("rocelab_switch_pfc_rx_frames_total"));
                assertTrue(p.types().containsKey("rocelab_nic_np_cnp_sent_total"));
            } else {
                Thread.sleep(20);
            }
        }
        assertTrue(seen > 0, "a scrape during the run sees the run's clock past its start: " + seen);

        tools.awaitOutput(lab, "lab", "serving the last values", 120);
        Exposition page = new Exposition(Exposition.scrape(metrics, null).body(), false);
        Exposition om = new Exposition(Exposition.scrape(metrics, Exposition.PROMETHEUS_ACCEPT).body(), true);
        JsonNode run = assertPageIsCountersJson(page, om, out);
        long wrote = run.path("ports").path("leaf0:Ethernet0").path("tx_bytes").asLong();
        assertTrue(wrote > 65536L, "writes left by h0's port (live: as many as this machine managed): " + wrote);
        assertEquals(1.5, page.value("rocelab_lab_time_seconds", "lab", "live-metrics", "variant", ""), 1e-9);

        lab.destroy();
        assertTrue(lab.waitFor(30, TimeUnit.SECONDS));
    }

    @Test
    void metricsHoldWithoutMetricsIsAMistake() {
        CliRun run = CliRun.of("lab", "run", "pfc-basics", "--metrics-hold", "5s", "--out", dir.resolve("x").toString());
        assertEquals(2, run.exitCode(), run.out() + run.err());
        assertEquals("rocelab: --metrics-hold goes with --metrics HOST:PORT\n", run.err());
        CliRun bad = CliRun.of("lab", "run", "pfc-basics", "--metrics", "127.0.0.1:99999", "--out",
            dir.resolve("y").toString());
        assertEquals(2, bad.exitCode(), bad.out() + bad.err());
        assertEquals("rocelab: --metrics 127.0.0.1:99999: the port must be 0..65535\n", bad.err());
    }

    /**
     * Asserts that a scrape's values are {@code counters.json}'s, port by port and NIC by NIC.
     *
     * @return the run's node of {@code counters.json}
     */
    static JsonNode assertPageIsCountersJson(Exposition page, Exposition om, Path out) throws java.io.IOException {
        JsonNode run = new ObjectMapper().readTree(out.resolve("counters.json").toFile()).path("runs").path("run");
        for (Iterator<Map.Entry<String, JsonNode>> it = run.path("ports").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String sw = e.getKey().substring(0, e.getKey().indexOf(':'));
            String port = e.getKey().substring(e.getKey().indexOf(':') + 1);
            JsonNode c = e.getValue();
            for (Exposition p : new Exposition[] {page, om}) {
                assertEquals(c.path("pfc_tx").asLong(), (long) p.sum("rocelab_switch_pfc_tx_frames_total",
                    "switch", sw, "port", port), e.getKey() + " pfc_tx");
                assertEquals(c.path("pfc_rx").asLong(), (long) p.sum("rocelab_switch_pfc_rx_frames_total",
                    "switch", sw, "port", port), e.getKey() + " pfc_rx");
                assertEquals(c.path("ecn_marks").asLong(), (long) p.sum("rocelab_switch_queue_ecn_marked_packets_total",
                    "switch", sw, "port", port), e.getKey() + " ecn_marks");
                assertEquals(c.path("drops").asLong(), (long) p.sum("rocelab_switch_port_drop_packets_total",
                    "switch", sw, "port", port), e.getKey() + " drops");
                assertEquals(c.path("tx_bytes").asLong(), (long) p.value("rocelab_switch_port_tx_bytes_total",
                    "switch", sw, "port", port), e.getKey() + " tx_bytes");
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = run.path("nics").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String h = e.getKey();
            JsonNode c = e.getValue();
            assertEquals(c.path("cnps_sent").asLong(), (long) page.sum("rocelab_nic_np_cnp_sent_total", "host", h), h);
            assertEquals(c.path("cnps_handled").asLong(), (long) page.sum("rocelab_nic_rp_cnp_handled_total", "host", h),
                h);
            assertEquals(c.path("pfc_rx").asLong(), (long) page.sum("rocelab_nic_rx_prio_pause_total", "host", h), h);
            assertEquals(c.path("pfc_tx").asLong(), (long) page.sum("rocelab_nic_tx_prio_pause_total", "host", h), h);
            assertEquals(c.path("retransmissions").asLong(), (long) (page.sum("rocelab_nic_completer_retry_err_total",
                "host", h) + page.sum("rocelab_nic_rcvd_seq_err_total", "host", h)), h);
        }
        return run;
    }
}
