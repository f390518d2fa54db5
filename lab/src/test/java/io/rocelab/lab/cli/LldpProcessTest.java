package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * LLDP between processes as a user runs them: {@code rocelab switch} on the demo's config_db and
 * two {@code rocelab ib_write_bw} plugged into it by frame-over-UDP. The switch's {@code show lldp
 * table} lists both NICs (port ID their MAC, station: capability O, port description theirs) and
 * each tool, with {@code -Drocelab.counters=true}, prints the switch port it is cabled to (system
 * name leaf, port ID the port's alias) beside its counters on stderr; perftest's table is unchanged.
 */
@Timeout(240)
class LldpProcessTest {
    @TempDir
    Path dir;

    private ToolProcesses tools;

    @AfterEach
    void stop() throws Exception {
        if (tools != null) {
            tools.stopAll();
        }
    }

    @Test
    void theSwitchListsTheToolsNicsAndTheToolsPrintTheSwitchPort() throws Exception {
        tools = new ToolProcesses(dir);
        Path cfg = dir.resolve("config_db.json");
        DemoLeaf.copyTo(cfg);
        int serverNic = ToolProcesses.freeUdpPort();
        int clientNic = ToolProcesses.freeUdpPort();
        int e0 = ToolProcesses.freeUdpPort();
        int e4 = ToolProcesses.freeUdpPort();
        int tcp = ToolProcesses.freeTcpPort();
        Path socket = dir.resolve("leaf.sock");
        Process sw = tools.start("switch", "switch", "--config", cfg.toString(),
            "--port", "Ethernet0=udp:" + e0 + ":" + serverNic, "--port", "Ethernet4=udp:" + e4 + ":" + clientNic,
            "--socket", socket.toString());
        tools.awaitOutput(sw, "switch", "ready", 60);
        Process server = tools.startCommand("server", counters(tools.command("ib_write_bw", "--udp-frame",
            serverNic + ":" + e0, "-D", "4", "-s", "4096", "-p", String.valueOf(tcp))));
        tools.awaitOutput(server, "server", "Waiting for client", 60);
        Process client = tools.startCommand("client", counters(tools.command("ib_write_bw", "--udp-frame",
            clientNic + ":" + e4, "--ip", "10.77.0.2", "--mac", "52:54:00:77:01:02", "-D", "4", "-s", "4096", "-p",
            String.valueOf(tcp), "127.0.0.1")));
        // while they run, the switch hears both NICs
        String table = "";
        long end = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < end && !(table.contains("Ethernet0 ") && table.contains("Ethernet4 "))) {
            CliRun r = CliRun.of("switch", "show", "lldp", "table", "--socket", socket.toString());
            assertEquals(0, r.exitCode(), r.err());
            table = r.out();
            Thread.sleep(200);
        }
        String clientOutput = tools.output("client");
        String clientRow = table.lines().filter(l -> l.startsWith("Ethernet4 ")).findFirst().orElseThrow(
            () -> new AssertionError("no Ethernet4 row: " + clientOutput));
        assertTrue(clientRow.matches("Ethernet4\\s+\\S+\\s+52:54:00:77:01:02\\s+O\\s+rocelab port 1\\s*"), table);
        assertTrue(table.contains("Total entries displayed:  2"), table);

        assertTrue(client.waitFor(120, TimeUnit.SECONDS), tools.output("client"));
        assertTrue(server.waitFor(30, TimeUnit.SECONDS), tools.output("server"));
        assertEquals(0, client.exitValue(), tools.output("client"));
        assertTrue(tools.stdout("client").contains("#bytes"), "perftest's table: " + tools.output("client"));
        String err = tools.stderr("client");
        assertTrue(err.contains(" rocelab0 lldp port 1: leaf ") && err.contains("(local etp2, chassis mac "),
            "the switch port the client is cabled to: " + err);
        assertTrue(tools.stderr("server").contains(" rocelab0 lldp port 1: leaf ")
            && tools.stderr("server").contains("(local etp1, chassis mac "), tools.output("server"));
        sw.destroy();
        assertTrue(sw.waitFor(30, TimeUnit.SECONDS), tools.output("switch"));
    }

    /** The tool's command with -Drocelab.counters=true (its counters, and LLDP's neighbours, on stderr). */
    private static List<String> counters(List<String> cmd) {
        List<String> c = new ArrayList<>(cmd);
        c.add(1, "-Drocelab.counters=true");
        return c;
    }
}
