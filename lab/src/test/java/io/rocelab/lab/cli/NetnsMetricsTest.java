package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.rocelab.lab.metrics.Exposition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rocelab lab run FILE --mode netns --metrics 127.0.0.1:0} as root runs it: the fabric on
 * namespaces and veth pairs, scraped while it runs (read on the fabric's loop) and after it, when
 * the endpoint serves what {@code counters.json} has. Needs root, iproute2 and ethtool; elsewhere it
 * skips, loudly, unless CI=true, where it fails.
 */
@Tag("realtime")
@Timeout(180)
class NetnsMetricsTest {
    private static final Pattern URL = Pattern.compile("metrics at (http://127\\.0\\.0\\.1:\\d+/metrics)");

    @TempDir
    Path dir;
    private ToolProcesses tools;

    @BeforeEach
    void needsTheLinuxNetwork() {
        String why = !"root".equals(System.getProperty("user.name")) ? "needs root to make namespaces and veth pairs"
            : HostCommands.find("ip") == null || HostCommands.find("ethtool") == null ? "needs ip and ethtool" : null;
        MachinePrerequisites.require("NetnsMetricsTest", why);
        tools = new ToolProcesses(dir);
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (tools != null) {
            tools.stopAll();
        }
    }

    @Test
    void aNetnsLabsMetricsAreItsCountersJson() throws Exception {
        Path file = dir.resolve("netns.yaml");
        Files.writeString(file, LabMetricsProcessTest.LAB.replace("duration: 1500ms", "duration: 1s")
            .replace("modes: [virtual, live]", "modes: [virtual, live, netns]"));
        Path out = dir.resolve("out");
        Process lab = tools.start("lab", "lab", "run", file.toString(), "--mode", "netns", "--out", out.toString(),
            "--metrics", "127.0.0.1:0", "--metrics-hold", "60s");
        tools.awaitOutput(lab, "lab", "metrics at ", 60);
        Matcher url = URL.matcher(tools.stdout("lab"));
        assertTrue(url.find(), tools.output("lab"));
        String metrics = url.group(1);
        double seen = -1;
        for (int i = 0; i < 400 && seen <= 0 && lab.isAlive(); i++) {
            Exposition p = new Exposition(Exposition.scrape(metrics, null).body(), false);
            if (!p.samples().isEmpty()) {
                seen = p.value("rocelab_lab_time_seconds", "lab", "live-metrics", "variant", "");
            } else {
                Thread.sleep(25);
            }
        }
        assertTrue(seen > 0, "a scrape during the run sees the run's clock past its start: " + seen);
        tools.awaitOutput(lab, "lab", "serving the last values", 120);
        Exposition page = new Exposition(Exposition.scrape(metrics, null).body(), false);
        Exposition om = new Exposition(Exposition.scrape(metrics, Exposition.PROMETHEUS_ACCEPT).body(), true);
        JsonNode run = LabMetricsProcessTest.assertPageIsCountersJson(page, om, out);
        assertTrue(run.path("ports").path("leaf0:Ethernet0").path("tx_bytes").asLong() > 0, run.toString());
        assertEquals(1.0, page.value("rocelab_lab_time_seconds", "lab", "live-metrics", "variant", ""), 1e-9);
        lab.destroy();
        assertTrue(lab.waitFor(30, TimeUnit.SECONDS));
    }
}
