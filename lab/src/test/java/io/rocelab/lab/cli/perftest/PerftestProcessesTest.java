package io.rocelab.lab.cli.perftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.lab.cli.ToolProcesses;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code rocelab} processes, a server and a client of the same tool, talking exactly as two
 * hosts would: perftest's exchange on TCP, the RoCEv2 frames as UDP datagrams (qemu's socket
 * netdev format) between their soft NICs.
 */
@Timeout(240)
class PerftestProcessesTest {
    private static final Pattern BW_LINE = Pattern.compile(
            "(?m)^ 4096\\s+200\\s+(-?[0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)\\s*$");

    @TempDir
    Path dir;
    private ToolProcesses tools;

    @BeforeEach
    void tools() {
        tools = new ToolProcesses(dir);
    }

    @Test
    void writeBandwidthBetweenTwoProcessesOverFrameOverUdp() throws Exception {
        int tcp = freeTcpPort();
        int udpServer = freeUdpPort();
        int udpClient = freeUdpPort();
        Process server = null;
        Process client = null;
        try {
            server = start("server", "ib_write_bw", "--udp-frame", udpServer + ":" + udpClient,
                    "-n", "200", "-s", "4096", "-p", String.valueOf(tcp));
            awaitOutput(server, "server", "Waiting for client", 60);
            client = start("client", "ib_write_bw", "--udp-frame", udpClient + ":" + udpServer,
                    "-n", "200", "-s", "4096", "-p", String.valueOf(tcp), "127.0.0.1");
            assertTrue(client.waitFor(150, TimeUnit.SECONDS), "client did not finish: " + output("client"));
            assertTrue(server.waitFor(30, TimeUnit.SECONDS), "server did not finish: " + output("server"));
            assertEquals(0, client.exitValue(), output("client"));
            assertEquals(0, server.exitValue(), output("server"));
            for (String side : List.of("client", "server")) {
                String out = output(side);
                assertTrue(out.contains("RDMA_Write BW Test"), out);
                assertTrue(out.contains("Device         : rocelab0"), out);
                Matcher m = BW_LINE.matcher(out);
                assertTrue(m.find(), side + " prints a result line for 4096 B x 200: " + out);
                assertTrue(Double.parseDouble(m.group(2)) > 0, out);
            }
        } finally {
            for (Process p : new Process[] {client, server}) {
                if (p != null && p.isAlive()) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
    }

    @Test
    void badDataPathFlagsAreOneLineAndExitNonZero() throws Exception {
        String[][] cases = {
            {"ib_write_bw", "-s", "4096"},
            {"ib_write_bw", "--udp-frame", "40000"},
            {"ib_write_bw", "--udp-frame", "40000:40001", "--in-process"},
            {"ib_write_bw", "--udp-frame", "40000:40000"},
            {"ib_read_bw", "--udp-frame", "40000:40001", "--ip", "10.77.0.300"},
            {"ib_send_bw", "--udp-frame", "40000:40001", "--mac", "01:00:5e:00:00:01"},
            {"ib_send_bw", "--udp-frame", "40000:40001", "-c", "UC", "--use-srq"},
            {"ib_write_lat", "--in-process", "-x", "3"},
            {"ib_write_bw", "--udp-frame", "40000:40001", "--ip6", "fe80::1"},
        };
        for (String[] args : cases) {
            Process p = start("bad", args);
            try {
                assertTrue(p.waitFor(60, TimeUnit.SECONDS), String.join(" ", args));
                String err = Files.readString(dir.resolve("bad.err"), StandardCharsets.UTF_8).strip();
                assertEquals(1, p.exitValue(), String.join(" ", args) + ": " + err);
                assertEquals(1, err.lines().count(), String.join(" ", args) + ": " + err);
                assertTrue(!err.contains("Exception"), err);
            } finally {
                p.destroyForcibly();
            }
        }
    }

    /** rdma-core's pingpong the same way: two launchers, the 52-byte exchange on TCP, frames over UDP. */
    @Test
    void rcPingpongBetweenTwoProcessesOverFrameOverUdp() throws Exception {
        int udpServer = freeUdpPort();
        int udpClient = freeUdpPort();
        rcPingpongBetweenTwoProcesses(List.of("--udp-frame", udpServer + ":" + udpClient), "::ffff:10.77.0.1",
                List.of("--udp-frame", udpClient + ":" + udpServer, "--ip", "10.77.0.2", "--mac", "52:54:00:77:01:02"),
                "::ffff:10.77.0.2");
    }

    /** The same over IPv6: each NIC given a global IPv6 address (--ip6), GID index 2 chosen with -g. */
    @Test
    void rcPingpongBetweenTwoProcessesOverIpv6() throws Exception {
        int udpServer = freeUdpPort();
        int udpClient = freeUdpPort();
        rcPingpongBetweenTwoProcesses(List.of("--udp-frame", udpServer + ":" + udpClient, "--ip6", "fd77::1", "-g", "2"),
                "fd77::1", List.of("--udp-frame", udpClient + ":" + udpServer, "--ip", "10.77.0.2", "--mac",
                        "52:54:00:77:01:02", "--ip6", "fd77::2", "-g", "2"), "fd77::2");
    }

    /** And with each NIC on its own address of this host, its packets through the kernel's UDP stack. */
    @Test
    void rcPingpongBetweenTwoProcessesOverUdpEndpoints() throws Exception {
        rcPingpongBetweenTwoProcesses(List.of("--udp-endpoint", "127.0.98.1"), "::ffff:127.0.98.1",
                List.of("--udp-endpoint", "127.0.98.2"), "::ffff:127.0.98.2");
    }

    /** @param serverGid the server's GID as the client prints it, e.g. {@code ::ffff:10.77.0.1} */
    private void rcPingpongBetweenTwoProcesses(List<String> serverPath, String serverGid, List<String> clientPath,
                                               String clientGid) throws Exception {
        int tcp = freeTcpPort();
        Process server = null;
        Process client = null;
        try {
            List<String> serverArgs = new ArrayList<>(List.of("ibv_rc_pingpong"));
            serverArgs.addAll(serverPath);
            serverArgs.addAll(List.of("-n", "100", "-p", String.valueOf(tcp)));
            server = start("ppserver", serverArgs.toArray(new String[0]));
            awaitOutput(server, "ppserver", "local address:", 60);
            List<String> clientArgs = new ArrayList<>(List.of("ibv_rc_pingpong"));
            clientArgs.addAll(clientPath);
            clientArgs.addAll(List.of("-n", "100", "-p", String.valueOf(tcp), "127.0.0.1"));
            client = start("ppclient", clientArgs.toArray(new String[0]));
            assertTrue(client.waitFor(150, TimeUnit.SECONDS), "client did not finish: " + output("ppclient"));
            assertTrue(server.waitFor(30, TimeUnit.SECONDS), "server did not finish: " + output("ppserver"));
            assertEquals(0, client.exitValue(), output("ppclient"));
            assertEquals(0, server.exitValue(), output("ppserver"));
            for (String side : List.of("ppclient", "ppserver")) {
                String out = output(side);
                String peer = side.equals("ppclient") ? serverGid : clientGid;
                assertTrue(Pattern.compile("(?m)^  remote address: LID 0x0000, QPN 0x000011, PSN 0x[0-9a-f]{6},"
                        + " GID " + Pattern.quote(peer) + "$").matcher(out).find(), side + ": " + out);
                assertTrue(Pattern.compile("(?m)^819200 bytes in [0-9.]+ seconds = [0-9.]+ Mbit/sec$")
                        .matcher(out).find(), side + ": " + out);
                assertTrue(Pattern.compile("(?m)^100 iters in [0-9.]+ seconds = [0-9.]+ usec/iter$")
                        .matcher(out).find(), side + ": " + out);
            }
        } finally {
            for (Process p : new Process[] {client, server}) {
                if (p != null && p.isAlive()) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
    }

    @Test
    void badPingpongFlagsAreOneLineAndExitNonZero() throws Exception {
        String[][] cases = {
            {"ibv_rc_pingpong", "--in-process", "-x"},
            {"ibv_rc_pingpong", "--in-process", "-s", "4k"},
            {"ibv_uc_pingpong", "--in-process", "-o"},
            {"ibv_ud_pingpong", "--in-process", "-m", "1024"},
            {"ibv_ud_pingpong", "-n", "10"},
        };
        for (String[] args : cases) {
            Process p = start("bad", args);
            try {
                assertTrue(p.waitFor(60, TimeUnit.SECONDS), String.join(" ", args));
                String err = Files.readString(dir.resolve("bad.err"), StandardCharsets.UTF_8).strip();
                assertEquals(1, p.exitValue(), String.join(" ", args) + ": " + err);
                assertEquals(1, err.lines().count(), String.join(" ", args) + ": " + err);
                assertTrue(!err.contains("Exception"), err);
                assertTrue(err.startsWith(args[0] + ": "), err);
            } finally {
                p.destroyForcibly();
            }
        }
    }

    private Process start(String name, String... args) throws IOException {
        return tools.start(name, args);
    }

    private String output(String name) throws IOException {
        return tools.output(name);
    }

    private void awaitOutput(Process p, String name, String text, int seconds) throws Exception {
        tools.awaitOutput(p, name, text, seconds);
    }

    private static int freeTcpPort() throws IOException {
        return ToolProcesses.freeTcpPort();
    }

    private static int freeUdpPort() throws IOException {
        return ToolProcesses.freeUdpPort();
    }
}
