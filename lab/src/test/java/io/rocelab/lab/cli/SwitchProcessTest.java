package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
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
 * {@code rocelab switch} as a user runs it: the switch a process of its own with the demo's
 * config_db.json, two {@code rocelab ib_write_bw} processes plugged into its ports by
 * frame-over-UDP, {@code rocelab switch show ...}, {@code clear counters} and {@code clear watermark} asking it over its
 * control socket, and SIGTERM stopping it with a capture {@code rocelab decode} finds complete.
 */
@Timeout(240)
class SwitchProcessTest {
    private static final Pattern BW_LINE = Pattern.compile(
            "(?m)^ 4096\\s+300\\s+(-?[0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)\\s*$");
    private static final Pattern DECODE_TOTAL = Pattern.compile(
            "(\\d+) frames: (\\d+) RoCEv2 \\((\\d+) ICRC OK, (\\d+) ICRC bad\\), (\\d+) malformed");

    @TempDir
    Path dir;
    @RegisterExtension
    final ToolProcesses tools = ToolProcesses.in(() -> dir);

    private Path config() throws IOException {
        Path cfg = dir.resolve("config_db.json");
        DemoLeaf.copyTo(cfg);
        LldpOff.in(cfg); // counters cleared must stay at 0: no LLDPDU in between
        return cfg;
    }

    @Test
    void twoPerftestProcessesTalkAcrossTheSwitchProcess() throws Exception {
        int serverNic = ToolProcesses.freeUdpPort();
        int clientNic = ToolProcesses.freeUdpPort();
        int e0 = ToolProcesses.freeUdpPort();
        int e4 = ToolProcesses.freeUdpPort();
        int tcp = ToolProcesses.freeTcpPort();
        Path socket = dir.resolve("leaf.sock");
        Process sw = tools.start("switch", "switch", "--config", config().toString(),
                "--port", "Ethernet0=udp:" + e0 + ":" + serverNic, "--port", "Ethernet4=udp:" + e4 + ":" + clientNic,
                "--capture", dir.resolve("cap").toString(), "--socket", socket.toString());
        tools.awaitOutput(sw, "switch", "ready", 60);
        assertTrue(Files.exists(socket), "the control socket exists while the switch runs");

        Process server = tools.start("server", "ib_write_bw", "--udp-frame", serverNic + ":" + e0,
                "-n", "300", "-s", "4096", "-p", String.valueOf(tcp));
        tools.awaitOutput(server, "server", "Waiting for client", 60);
        Process client = tools.start("client", "ib_write_bw", "--udp-frame", clientNic + ":" + e4,
                "--ip", "10.77.0.2", "--mac", "52:54:00:77:01:02",
                "-n", "300", "-s", "4096", "-p", String.valueOf(tcp), "127.0.0.1");
        assertTrue(client.waitFor(150, TimeUnit.SECONDS), "client did not finish: " + tools.output("client"));
        assertTrue(server.waitFor(30, TimeUnit.SECONDS), "server did not finish: " + tools.output("server"));
        assertEquals(0, client.exitValue(), tools.output("client"));
        assertEquals(0, server.exitValue(), tools.output("server"));
        for (String side : List.of("client", "server")) {
            Matcher m = BW_LINE.matcher(tools.stdout(side));
            assertTrue(m.find(), side + " prints a result line for 4096 B x 300: " + tools.output(side));
            assertTrue(Double.parseDouble(m.group(2)) > 0, tools.output(side));
        }

        // the client is on Ethernet4: its 300 writes came in there and left by Ethernet0
        CliRun ifaces = CliRun.of("switch", "show", "interfaces", "counters", "--socket", socket.toString());
        assertEquals(0, ifaces.exitCode(), ifaces.err());
        assertTrue(column(ifaces.out(), "Ethernet4", 2) >= 300, ifaces.out());
        assertTrue(column(ifaces.out(), "Ethernet0", 8) >= 300, ifaces.out());
        CliRun queues = CliRun.of("switch", "show", "queue", "counters", "--socket", socket.toString());
        assertTrue(queues.out().lines().anyMatch(l -> l.trim().matches("Ethernet0\\s+UC0\\s+([3-9]\\d\\d|\\d{4,})\\s.*")),
                queues.out());
        CliRun pfc = CliRun.of("switch", "show", "pfc", "counters", "--socket", socket.toString());
        assertTrue(pfc.out().contains("Port Rx") && pfc.out().contains("PFC3"), pfc.out());
        CliRun wd = CliRun.of("switch", "show", "pfcwd", "stats", "--socket", socket.toString());
        assertTrue(wd.out().contains("Ethernet0:3"), wd.out());
        CliRun wm = CliRun.of("switch", "show", "priority-group", "watermark", "shared", "--socket", socket.toString());
        assertTrue(wm.out().contains("PG3") && wm.out().contains("Ethernet4"), wm.out());

        CliRun ports = CliRun.of("switch", "show", "ports", "--socket", socket.toString());
        assertTrue(ports.out().contains("frame-over-UDP") && ports.out().contains("FRAMES_RECEIVED="), ports.out());
        CliRun clear = CliRun.of("switch", "clear", "counters", "--socket", socket.toString());
        assertEquals(0, clear.exitCode(), clear.err());
        CliRun after = CliRun.of("switch", "show", "interfaces", "counters", "--socket", socket.toString());
        assertEquals(0, column(after.out(), "Ethernet4", 2), after.out());
        assertEquals(0, column(after.out(), "Ethernet0", 8), after.out());
        CliRun before = CliRun.of("switch", "show", "buffer_pool", "persistent-watermark", "--socket", socket.toString());
        CliRun clearWm = CliRun.of("switch", "clear", "watermark", "--socket", socket.toString());
        assertEquals(0, clearWm.exitCode(), clearWm.err());
        assertTrue(clearWm.out().contains("Cleared watermarks"), clearWm.out());
        CliRun persistent = CliRun.of("switch", "show", "buffer_pool", "persistent-watermark", "--socket",
            socket.toString());
        assertEquals(before.out(), persistent.out(), "sonic-clear watermark leaves the persistent watermarks");
        CliRun unknown = CliRun.of("switch", "show", "routes", "--socket", socket.toString());
        assertEquals(2, unknown.exitCode());
        assertEquals(1, unknown.err().strip().lines().count(), unknown.err());

        sw.destroy(); // SIGTERM
        assertTrue(sw.waitFor(30, TimeUnit.SECONDS), "the switch stops on SIGTERM: " + tools.output("switch"));
        assertTrue(tools.stdout("switch").contains("capture written"), tools.output("switch"));
        assertFalse(Files.exists(socket), "the control socket is removed");
        Path capture = dir.resolve("cap").resolve("leaf.pcapng");
        CliRun decode = CliRun.of("decode", "-q", capture.toString());
        assertEquals(0, decode.exitCode(), decode.out() + decode.err());
        Matcher m = DECODE_TOTAL.matcher(decode.out());
        assertTrue(m.find(), decode.out());
        // each RoCE frame is in the capture twice, in on one port and out on the other
        assertTrue(Long.parseLong(m.group(2)) >= 2 * 300, decode.out());
        assertEquals(0, Long.parseLong(m.group(4)), decode.out());
        assertEquals(0, Long.parseLong(m.group(5)), decode.out());
    }

    /**
     * Ctrl-C (SIGINT) stops the switch as SIGTERM does: the capture is a valid file, the socket
     * gone; and while it runs, a second switch of the same name is refused in one line.
     */
    @Test
    void ctrlCStopsItCleanlyAndASecondSwitchOfTheSameNameIsRefused() throws Exception {
        Path socket = dir.resolve("one.sock");
        Process sw = tools.start("switch", "switch", "--config", config().toString(),
                "--port", "Ethernet0=udp:" + ToolProcesses.freeUdpPort() + ":" + ToolProcesses.freeUdpPort(),
                "--capture", dir.resolve("cap").toString(), "--socket", socket.toString());
        tools.awaitOutput(sw, "switch", "ready", 60);
        CliRun second = CliRun.of("switch", "--config", config().toString(),
                "--port", "Ethernet4=udp:" + ToolProcesses.freeUdpPort() + ":" + ToolProcesses.freeUdpPort(),
                "--socket", socket.toString());
        assertEquals(2, second.exitCode(), second.err());
        assertTrue(second.err().strip().lines().count() == 1 && second.err().contains("already running"), second.err());
        assertTrue(Files.exists(socket), "the refused switch leaves the running one's socket alone");

        String signal = ToolProcesses.sigintIgnored() ? "TERM" : "INT";
        if (!signal.equals("INT")) {
            System.out.println("[switch] SIGINT is ignored in this process tree (a background job): SIGTERM instead");
        }
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(sw.pid())).start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS));
        assertTrue(sw.waitFor(30, TimeUnit.SECONDS), "the switch stops on SIG" + signal + ": " + tools.output("switch"));
        assertTrue(tools.stdout("switch").contains("capture written"), tools.output("switch"));
        assertFalse(Files.exists(socket), "the control socket is removed");
        CliRun decode = CliRun.of("decode", dir.resolve("cap").resolve("leaf.pcapng").toString());
        assertEquals(0, decode.exitCode(), decode.out() + decode.err());
        assertTrue(decode.out().contains("0 frames"), decode.out());
    }

    @Test
    void badInputIsOneLineAndExitTwo() throws Exception {
        Path cfg = config();
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"PORT\": {\"Ethernet0\": {\"speed\": \"fast\"}}}");
        String[][] cases = {
            {"switch", "--port", "Ethernet0=udp:40010:40000"},
            {"switch", "--config", cfg.toString()},
            {"switch", "--config", dir.resolve("missing.json").toString(), "--port", "Ethernet0=udp:40010:40000"},
            {"switch", "--config", bad.toString(), "--port", "Ethernet0=udp:40010:40000"},
            {"switch", "--config", cfg.toString(), "--port", "Ethernet8=udp:40010:40000"},
            {"switch", "--config", cfg.toString(), "--port", "Ethernet0=udp:40010"},
            {"switch", "--config", cfg.toString(), "--port", "Ethernet0=udp:40010:99999"},
            {"switch", "--config", cfg.toString(), "--port", "Ethernet0=tap:tap0"},
            {"switch", "--config", cfg.toString(), "--port", "Ethernet0=af_packet:"},
            {"switch", "--config", cfg.toString(), "--port", "Ethernet0=pcap:no-such-iface0"},
            {"switch", "--config", cfg.toString(), "--port", "Ethernet0",},
            {"switch", "--config", cfg.toString(), "--port", "Ethernet0=udp:40010:40000", "--port", "Ethernet0=udp:40011:40001"},
            {"switch", "show", "pfc", "counters", "--socket", dir.resolve("none.sock").toString()},
            {"switch", "clear", "counters", "--name", "bad/name"},
        };
        for (String[] args : cases) {
            CliRun r = CliRun.of(args);
            String what = String.join(" ", args) + ": " + r.err();
            assertEquals(2, r.exitCode(), what);
            assertEquals(1, r.err().strip().lines().count(), what);
            assertFalse(r.err().contains("Exception"), what);
        }
    }

    /** The {@code index}-th whitespace-separated column of the row that starts with {@code port}. */
    private static long column(String table, String port, int index) {
        String row = table.lines().filter(l -> l.trim().startsWith(port + " ")).findFirst()
                .orElseThrow(() -> new AssertionError("no row " + port + " in\n" + table));
        return Long.parseLong(row.trim().split("\\s+")[index]);
    }
}
