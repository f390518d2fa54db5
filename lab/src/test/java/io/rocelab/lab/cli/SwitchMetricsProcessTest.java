package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.lab.metrics.Exposition;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rocelab switch --metrics 127.0.0.1:0} as a user runs it: the switch a process of its own on
 * the demo's config_db.json, two {@code rocelab ib_write_bw} processes across it, and its
 * {@code /metrics} scraped over HTTP (Java's client, and curl where it is installed) as Prometheus
 * scrapes it. The page is valid text 0.0.4 and OpenMetrics, and its values are the ones
 * {@code rocelab switch show interfaces counters}, {@code pfc counters}, {@code queue counters},
 * {@code pfcwd stats} and {@code priority-group watermark shared} print for the same run; a
 * {@code clear counters} resets what {@code show} prints, not the Prometheus counters.
 */
@Timeout(240)
class SwitchMetricsProcessTest {
    private static final Pattern URL = Pattern.compile("metrics    (http://127\\.0\\.0\\.1:\\d+/metrics)");

    @TempDir
    Path dir;
    @RegisterExtension
    final ToolProcesses tools = ToolProcesses.in(() -> dir);

    @Test
    void theSwitchsMetricsAreWhatItsShowCommandsPrint() throws Exception {
        Path cfg = dir.resolve("config_db.json");
        DemoLeaf.copyTo(cfg);
        LldpOff.in(cfg); // nothing moves between a show and a scrape once the tools have finished
        int serverNic = ToolProcesses.freeUdpPort();
        int clientNic = ToolProcesses.freeUdpPort();
        int e0 = ToolProcesses.freeUdpPort();
        int e4 = ToolProcesses.freeUdpPort();
        int tcp = ToolProcesses.freeTcpPort();
        Path socket = dir.resolve("leaf.sock");
        Process sw = tools.start("switch", "switch", "--config", cfg.toString(),
                "--port", "Ethernet0=udp:" + e0 + ":" + serverNic, "--port", "Ethernet4=udp:" + e4 + ":" + clientNic,
                "--socket", socket.toString(), "--metrics", "127.0.0.1:0");
        tools.awaitOutput(sw, "switch", "ready", 60);
        Matcher url = URL.matcher(tools.stdout("switch"));
        assertTrue(url.find(), "the switch prints its metrics URL: " + tools.output("switch"));
        String metrics = url.group(1);

        Process server = tools.start("server", "ib_write_bw", "--udp-frame", serverNic + ":" + e0,
                "-n", "300", "-s", "4096", "-p", String.valueOf(tcp));
        tools.awaitOutput(server, "server", "Waiting for client", 60);
        // while traffic runs, a scrape answers (the copy is queued to the switch's busy thread)
        Process client = tools.start("client", "ib_write_bw", "--udp-frame", clientNic + ":" + e4,
                "--ip", "10.77.0.2", "--mac", "52:54:00:77:01:02",
                "-n", "300", "-s", "4096", "-p", String.valueOf(tcp), "127.0.0.1");
        Exposition.Page during = Exposition.scrape(metrics, null);
        assertEquals(200, during.status(), during.body());
        new Exposition(during.body(), false);
        assertTrue(client.waitFor(150, TimeUnit.SECONDS), "client did not finish: " + tools.output("client"));
        assertTrue(server.waitFor(30, TimeUnit.SECONDS), "server did not finish: " + tools.output("server"));
        assertEquals(0, client.exitValue(), tools.output("client"));

        Exposition.Page text = Exposition.scrape(metrics, null);
        assertEquals(200, text.status());
        assertTrue(text.contentType().startsWith("text/plain; version=0.0.4"), text.contentType());
        Exposition page = new Exposition(text.body(), false);
        Exposition.Page om = Exposition.scrape(metrics, Exposition.PROMETHEUS_ACCEPT);
        assertTrue(om.contentType().startsWith("application/openmetrics-text"), om.contentType());
        Exposition openMetrics = new Exposition(om.body(), true);

        String ifaces = show(socket, "interfaces", "counters");
        String queues = show(socket, "queue", "counters");
        String pfc = show(socket, "pfc", "counters");
        String wd = show(socket, "pfcwd", "stats");
        String wm = show(socket, "priority-group", "watermark", "shared");
        for (Exposition p : List.of(page, openMetrics)) {
            for (String port : List.of("Ethernet0", "Ethernet4")) {
                String[] row = row(ifaces, port);
                assertEquals(Long.parseLong(row[2]), (long) p.value("rocelab_switch_port_rx_ok_packets_total",
                    "switch", "leaf", "port", port), port + " RX_OK\n" + ifaces);
                assertEquals(Long.parseLong(row[5]), (long) p.value("rocelab_switch_port_rx_error_packets_total",
                    "switch", "leaf", "port", port), port + " RX_ERR");
                assertEquals(Long.parseLong(row[6]), (long) p.value("rocelab_switch_port_rx_discard_packets_total",
                    "switch", "leaf", "port", port), port + " RX_DRP");
                assertEquals(Long.parseLong(row[8]), (long) p.value("rocelab_switch_port_tx_ok_packets_total",
                    "switch", "leaf", "port", port), port + " TX_OK");
                assertEquals(Long.parseLong(row[12]), (long) p.value("rocelab_switch_port_tx_discard_packets_total",
                    "switch", "leaf", "port", port), port + " TX_DRP");
                assertEquals(1, p.value("rocelab_switch_port_oper_up", "switch", "leaf", "port", port), port);
                for (int q = 0; q < 8; q++) {
                    String uc = "UC" + q;
                    String[] qr = queues.lines().map(l -> l.trim().split("\\s+"))
                        .filter(r -> r.length == 7 && r[0].equals(port) && r[1].equals(uc)).findFirst()
                        .orElseThrow();
                    String queue = String.valueOf(q);
                    String[] names = {"tx_packets", "tx_bytes", "drop_packets", "drop_bytes", "ecn_marked_packets"};
                    for (int c = 0; c < names.length; c++) {
                        assertEquals(Long.parseLong(qr[2 + c]), (long) p.value("rocelab_switch_queue_" + names[c]
                            + "_total", "switch", "leaf", "port", port, "queue", queue), port + " UC" + q + " " + names[c]);
                    }
                }
                long[] rx = pfcRow(pfc, "Port Rx", port);
                long[] tx = pfcRow(pfc, "Port Tx", port);
                String[] pg = row(wm, port);
                for (int pr = 0; pr < 8; pr++) {
                    String prio = String.valueOf(pr);
                    assertEquals(rx[pr], (long) p.value("rocelab_switch_pfc_rx_frames_total", "switch", "leaf",
                        "port", port, "priority", prio), port + " PFC" + pr + " Rx");
                    assertEquals(tx[pr], (long) p.value("rocelab_switch_pfc_tx_frames_total", "switch", "leaf",
                        "port", port, "priority", prio), port + " PFC" + pr + " Tx");
                    assertEquals(Long.parseLong(pg[1 + pr]), (long) p.value("rocelab_switch_pg_shared_watermark_bytes",
                        "switch", "leaf", "port", port, "pg", prio), port + " PG" + pr + "\n" + wm);
                }
                String[] w = row(wd, port + ":3");
                assertEquals(w[1].equals("stormed") ? 1 : 0, (long) p.value("rocelab_switch_pfcwd_stormed",
                    "switch", "leaf", "port", port, "queue", "3"));
                assertEquals(Long.parseLong(w[2].split("/")[0]), (long) p.value(
                    "rocelab_switch_pfcwd_storms_detected_total", "switch", "leaf", "port", port, "queue", "3"));
            }
        }
        // the client's 300 writes came in on Ethernet4, out of Ethernet0's queue 0 (perftest's default traffic class)
        assertTrue(page.value("rocelab_switch_port_rx_ok_packets_total", "switch", "leaf", "port", "Ethernet4") >= 300);
        assertTrue(page.value("rocelab_switch_queue_tx_packets_total", "switch", "leaf", "port", "Ethernet0",
            "queue", "0") >= 300, queues);
        assertTrue(page.value("rocelab_switch_queue_watermark_bytes", "switch", "leaf", "port", "Ethernet0",
            "queue", "0") > 0);

        String curl = HostCommands.find("curl");
        if (curl != null) {
            Process c = new ProcessBuilder(curl, "-sS", "-H", "Accept: " + Exposition.PROMETHEUS_ACCEPT, metrics)
                .redirectErrorStream(true).start();
            String body = new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(c.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, c.exitValue(), body);
            assertEquals(page.value("rocelab_switch_port_tx_ok_packets_total", "switch", "leaf", "port", "Ethernet0"),
                new Exposition(body, true).value("rocelab_switch_port_tx_ok_packets_total", "switch", "leaf",
                    "port", "Ethernet0"));
        } else {
            System.err.println("SwitchMetricsProcessTest: no curl on this machine: scraped with Java's client only");
        }

        // sonic-clear counters is the CLI's baseline: Prometheus' counters keep growing, as COUNTERS_DB does
        assertEquals(0, CliRun.of("switch", "clear", "counters", "--socket", socket.toString()).exitCode());
        assertEquals("0", row(show(socket, "interfaces", "counters"), "Ethernet0")[8]);
        assertEquals(page.value("rocelab_switch_port_tx_ok_packets_total", "switch", "leaf", "port", "Ethernet0"),
            new Exposition(Exposition.scrape(metrics, null).body(), false).value(
                "rocelab_switch_port_tx_ok_packets_total", "switch", "leaf", "port", "Ethernet0"));

        sw.destroy();
        assertTrue(sw.waitFor(30, TimeUnit.SECONDS), "the switch stops on SIGTERM: " + tools.output("switch"));
    }

    @Test
    void aBadMetricsAddressIsOneLineAndExitCode2() throws IOException {
        Path cfg = dir.resolve("config_db.json");
        DemoLeaf.copyTo(cfg);
        CliRun run = CliRun.of("switch", "--config", cfg.toString(), "--port", "Ethernet0=udp:1:2",
            "--metrics", "localhost");
        assertEquals(2, run.exitCode(), run.out() + run.err());
        assertEquals(1, run.err().strip().lines().count(), run.err());
        assertTrue(run.err().contains("--metrics localhost: expected HOST:PORT"), run.err());
    }

    private static String show(Path socket, String... words) {
        String[] args = new String[words.length + 3];
        args[0] = "switch";
        args[1] = "show";
        System.arraycopy(words, 0, args, 2, words.length);
        args[words.length + 2] = "--socket";
        String[] all = java.util.Arrays.copyOf(args, args.length + 1);
        all[all.length - 1] = socket.toString();
        CliRun r = CliRun.of(all);
        assertEquals(0, r.exitCode(), r.err());
        return r.out();
    }

    private static String[] row(String table, String first) {
        return table.lines().map(l -> l.trim().split("\\s+")).filter(r -> r[0].equals(first)).findFirst()
            .orElseThrow(() -> new AssertionError("no row " + first + " in\n" + table));
    }

    /** A port's row in the Rx or the Tx half of {@code show pfc counters}. */
    private static long[] pfcRow(String table, String half, String port) {
        String part = table.substring(table.indexOf(half));
        String[] r = row(part, port);
        long[] v = new long[8];
        for (int i = 0; i < 8; i++) {
            v[i] = Long.parseLong(r[1 + i]);
        }
        return v;
    }
}
