package io.rocelab.lab.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.lab.expect.Kind;
import io.rocelab.lab.labfile.LabReader;
import io.rocelab.lab.labfile.LabSources;
import io.rocelab.lab.labfile.Mode;
import io.rocelab.lab.labfile.RunSpec;
import io.rocelab.lab.run.LabRun;
import io.rocelab.lab.run.LabRunner;
import io.rocelab.lab.run.RunData;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A virtual-time lab run with its telemetry on a {@code /metrics} endpoint, scraped over HTTP as
 * Prometheus scrapes: after the run the page holds the run's last values, the very ones its report
 * ({@code counters.json}) has, under names and labels that follow Prometheus' conventions, in text
 * that a strict parser of text 0.0.4 and of OpenMetrics accepts.
 */
@Timeout(120)
class LabTelemetryTest {
    static final String INCAST = """
        name: metrics-incast
        description: four writers into one receiver through a leaf, lossless
        duration: 1ms
        topology:
          leaf-spine: {leaves: 1, spines: 1, hosts-per-leaf: 5, host-speed: 100G}
        qos: {profile: lossless}
        flows:
          - {name: incast, from: "h[1-4]", to: h0, verb: write, size: 64KiB, qps: 8, window: 8}
        probes: {interval: 10us, queues: [leaf0:Ethernet0:3]}
        """;

    @Test
    void afterARunTheEndpointServesWhatTheReportHas() throws Exception {
        RunSpec spec = LabReader.read("incast.yaml", INCAST, LabSources.directory(Path.of("."))).runs().get(0);
        LabTelemetry telemetry = new LabTelemetry("metrics-incast");
        LabRun run;
        try (MetricsEndpoint endpoint = MetricsEndpoint.start(MetricsAddress.parse("127.0.0.1:0"), telemetry)) {
            Exposition.Page before = Exposition.scrape(endpoint.url(), null);
            assertEquals(200, before.status());
            assertTrue(new Exposition(before.body(), false).samples().isEmpty(), "before a run: no series\n" + before);

            run = new LabRunner(LabSources.directory(Path.of("."))).telemetry(telemetry)
                .run(spec, (t, d) -> { }, null, Mode.VIRTUAL);

            Exposition.Page text = Exposition.scrape(endpoint.url(), null);
            assertEquals(200, text.status());
            assertTrue(text.contentType().startsWith("text/plain; version=0.0.4"), text.contentType());
            Exposition page = new Exposition(text.body(), false);
            Exposition.Page om = Exposition.scrape(endpoint.url(), Exposition.PROMETHEUS_ACCEPT);
            assertTrue(om.contentType().startsWith("application/openmetrics-text"), om.contentType());
            Exposition openMetrics = new Exposition(om.body(), true);

            RunData d = run.data();
            for (String port : d.names(Kind.PORT)) {
                String node = port.substring(0, port.indexOf(':'));
                String name = port.substring(port.indexOf(':') + 1);
                for (Exposition p : new Exposition[] {page, openMetrics}) {
                    assertEquals(d.total(Kind.PORT, port, "pfc_tx"),
                        p.sum("rocelab_switch_pfc_tx_frames_total", "switch", node, "port", name), port);
                    assertEquals(d.total(Kind.PORT, port, "pfc_rx"),
                        p.sum("rocelab_switch_pfc_rx_frames_total", "switch", node, "port", name), port);
                    assertEquals(d.total(Kind.PORT, port, "ecn_marks"),
                        p.sum("rocelab_switch_queue_ecn_marked_packets_total", "switch", node, "port", name), port);
                    assertEquals(d.total(Kind.PORT, port, "drops"),
                        p.sum("rocelab_switch_port_drop_packets_total", "switch", node, "port", name), port);
                    assertEquals(d.total(Kind.PORT, port, "tx_bytes"),
                        p.value("rocelab_switch_port_tx_bytes_total", "switch", node, "port", name), port);
                }
            }
            assertTrue(d.total(Kind.SWITCH, "leaf0", "pfc_tx") > 0, "the incast makes the leaf pause its senders");
            assertEquals(d.total(Kind.QUEUE, "leaf0:Ethernet0:3", "watermark"),
                page.value("rocelab_switch_queue_watermark_bytes", "switch", "leaf0", "port", "Ethernet0", "queue", "3"));
            for (String h : d.names(Kind.NIC)) {
                String dev = device(page, h);
                Map<String, String> l = Map.of("host", h, "device", dev, "port", "1");
                assertEquals(d.total(Kind.NIC, h, "cnps_sent"),
                    page.value("rocelab_nic_np_cnp_sent_total", "host", h, "device", dev, "port", "1"), h);
                assertEquals(d.total(Kind.NIC, h, "pfc_rx"),
                    page.sum("rocelab_nic_rx_prio_pause_total", "host", h), h);
                assertEquals(d.total(Kind.NIC, h, "retransmissions"),
                    page.value("rocelab_nic_completer_retry_err_total", "host", h, "device", dev, "port", "1")
                        + page.value("rocelab_nic_rcvd_seq_err_total", "host", h, "device", dev, "port", "1"), h);
                assertTrue(l.size() == 3);
            }
            assertTrue(page.sum("rocelab_nic_rx_prio_pause_total", "priority", "3") > 0,
                "the senders' NICs received the leaf's pauses on priority 3");
            assertEquals(0.001, page.value("rocelab_lab_time_seconds", "lab", "metrics-incast", "variant", ""), 1e-12);
            // text 0.0.4 types a counter under its sample's name, OpenMetrics under the family's
            assertEquals("counter", page.types().get("rocelab_switch_pfc_tx_frames_total"));
            assertEquals("counter", openMetrics.types().get("rocelab_switch_pfc_tx_frames"));
            assertEquals("gauge", page.types().get("rocelab_switch_queue_depth_bytes"));
            for (Exposition.Sample s : page.samples()) {
                assertTrue(s.name().startsWith("rocelab_"), s.name());
                assertTrue(!s.name().matches(".*(Ethernet|_prio[0-7]_|h[0-9]).*"), "no name per port, priority or host: "
                    + s.name());
            }
            dashboardQueriesWhatIsExported(page);
        }
        // publishing between samples reads the fabric, never moves it: the same run without it is the same
        LabRun plain = new LabRunner(LabSources.directory(Path.of("."))).run(spec, (t, d) -> { }, null, Mode.VIRTUAL);
        assertEquals(plain.events(), run.events());
        for (String port : plain.data().names(Kind.PORT)) {
            assertEquals(plain.data().total(Kind.PORT, port, "pfc_tx"), run.data().total(Kind.PORT, port, "pfc_tx"));
            assertEquals(plain.data().total(Kind.PORT, port, "tx_bytes"), run.data().total(Kind.PORT, port, "tx_bytes"));
        }
    }

    /** Every series docs/grafana/rocelab-fabric.json asks Prometheus for is one the endpoint exports. */
    private static void dashboardQueriesWhatIsExported(Exposition page) throws java.io.IOException {
        Path root = Path.of(System.getProperty("rocelab.root", ".."));
        com.fasterxml.jackson.databind.JsonNode dash = new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(root.resolve("docs/grafana/rocelab-fabric.json").toFile());
        java.util.Set<String> exported = new java.util.HashSet<>();
        page.samples().forEach(s -> exported.add(s.name()));
        java.util.regex.Pattern metric = java.util.regex.Pattern.compile("rocelab_[a-z_]+");
        int queries = 0;
        for (com.fasterxml.jackson.databind.JsonNode panel : dash.path("panels")) {
            for (com.fasterxml.jackson.databind.JsonNode target : panel.path("targets")) {
                java.util.regex.Matcher m = metric.matcher(target.path("expr").asText());
                while (m.find()) {
                    queries++;
                    assertTrue(exported.contains(m.group()), panel.path("title").asText() + ": " + m.group()
                        + " is not exported");
                }
            }
        }
        for (com.fasterxml.jackson.databind.JsonNode v : dash.path("templating").path("list")) {
            java.util.regex.Matcher m = metric.matcher(v.path("definition").asText());
            while (m.find()) {
                assertTrue(exported.contains(m.group()), "variable " + v.path("name").asText() + ": " + m.group());
            }
        }
        assertTrue(queries >= 20, "the dashboard's queries: " + queries);
    }

    /** The NIC's device label, as the page gives it for {@code host}. */
    private static String device(Exposition page, String host) {
        return page.samples().stream().filter(s -> s.name().equals("rocelab_nic_sent_pkts_total")
                && host.equals(s.labels().get("host"))).findFirst()
            .orElseThrow(() -> new AssertionError("no NIC series of " + host)).labels().get("device");
    }
}
