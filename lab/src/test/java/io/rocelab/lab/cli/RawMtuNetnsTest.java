package io.rocelab.lab.cli;

import static io.rocelab.lab.cli.HostCommands.find;
import static io.rocelab.lab.cli.HostCommands.quietly;
import static io.rocelab.lab.cli.HostCommands.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --raw} on a veth as {@code ip link add} makes it (MTU 1500), between two namespaces: the
 * NIC's port takes its active MTU from the interface as rxe does (1500 less 80 header bytes, down
 * to 1024), says so in one line before perftest's header, perftest's header prints {@code Mtu :
 * 1024[B]}, and 64 KiB writes complete (with a 4096-byte port every data packet would be refused
 * by the interface and the writer would end in IBV_WC_RETRY_EXC_ERR). perftest's {@code -m 4096} is
 * capped by the active MTU as on a real device. Needs root and iproute2; elsewhere it skips loudly
 * unless CI=true, where it fails.
 */
@Tag("realtime")
@Timeout(180)
class RawMtuNetnsTest {
    private static final String IP = find("ip");
    private static final Pattern RESULT = Pattern.compile("(?m)^ 65536\\s+300\\s+\\S+\\s+([0-9.]+)");

    @TempDir
    Path dir;

    private final String tag = Long.toString(ProcessHandle.current().pid() % 100_000);
    private final String nsA = "rlma" + tag;
    private final String nsB = "rlmb" + tag;
    private ToolProcesses tools;

    @AfterEach
    void cleanUp() throws Exception {
        if (tools != null) {
            tools.stopAll();
        }
        if (cannotRun() == null) {
            quietly(IP, "netns", "del", nsA);
            quietly(IP, "netns", "del", nsB);
        }
    }

    @Test
    void aRawNicOnA1500ByteVethRunsAt1024AndItsWritesComplete() throws Exception {
        MachinePrerequisites.require("RawMtuNetnsTest", cannotRun());
        tools = new ToolProcesses(dir);
        vethPair("rma" + tag, "rmb" + tag, "10.99.72");
        int tcp = ToolProcesses.freeTcpPort();
        Process server = tools.startCommand("server", tools.commandIn(nsB, "ib_write_bw", "--raw", "rmb" + tag, "--ip", "10.99.72.12",
            "--mac", "52:54:00:72:00:12", "-n", "300", "-s", "65536", "-p", String.valueOf(tcp)));
        tools.awaitText(server, "server", "Waiting for client", 60);
        Process client = tools.startCommand("client", tools.commandIn(nsA, "ib_write_bw", "--raw", "rma" + tag, "--ip", "10.99.72.11",
            "--mac", "52:54:00:72:00:11", "-n", "300", "-s", "65536", "-m", "4096", "-p", String.valueOf(tcp), "10.99.72.2"));
        assertTrue(client.waitFor(150, TimeUnit.SECONDS), "client did not finish: " + tools.output("client"));
        assertTrue(server.waitFor(30, TimeUnit.SECONDS), "server did not finish: " + tools.output("server"));
        String out = tools.output("client");
        assertEquals(0, client.exitValue(), out);
        assertEquals(0, server.exitValue(), tools.output("server"));
        assertTrue(out.contains("rma" + tag + "'s MTU is 1500: the port's active MTU is 1024"), out);
        assertTrue(out.contains("Requested mtu is higher than active mtu"), "-m 4096 is capped: " + out);
        assertTrue(Pattern.compile("Mtu\\s+:\\s+1024\\[B\\]").matcher(out).find(), out);
        assertTrue(Pattern.compile("Mtu\\s+:\\s+1024\\[B\\]").matcher(tools.output("server")).find(), tools.output("server"));
        var m = RESULT.matcher(out);
        assertTrue(m.find() && Double.parseDouble(m.group(1)) > 0, "300 writes of 64 KiB completed: " + out);
    }

    /**
     * A netns lab whose switch ports have a 1500-byte MTU: the runner gives the hosts' veths that MTU,
     * and their soft NICs take 1024 from it as rxe would (a note says so), so 64 KiB writes complete
     * byte for byte instead of every data packet being refused by the veth.
     */
    @Test
    void aNetnsLabOn1500ByteLinksRunsItsNicsAt1024() throws Exception {
        MachinePrerequisites.require("RawMtuNetnsTest", cannotRun());
        tools = new ToolProcesses(dir);
        Path lab = dir.resolve("mtu-1500.yaml");
        java.nio.file.Files.writeString(lab, String.join("\n",
            "name: mtu-1500",
            "duration: 3s",
            "modes: [netns]",
            "topology:",
            "  hosts: [{name: a, ip: 10.0.0.1}, {name: b, ip: 10.0.0.2}]",
            "  switches: [{name: sw0, ports: 2, speed: 1G, mtu: 1500}]",
            "  links: [{a: a, b: 'sw0:Ethernet0'}, {a: b, b: 'sw0:Ethernet4'}]",
            "flows:",
            // ACK timeout 18 (1.07 s, NCCL's default) rather than perftest's 14 (67 ms): the claim is
            // the MTU, and a cold JVM on a starved machine can take longer than 8 x 67 ms for its
            // first round trip, which the QP would take for a lost path (RETRY_EXC_ERR)
            "  - {name: w, from: a, to: b, size: 64KiB, messages: 200, verify: true, ack-timeout: 18}",
            "expect:",
            "  - flow(\"w\").errors == 0 and flow(\"w\").messages == 200",
            "  - flow(\"w\").corrupt == 0 and flow(\"w\").verified == flow(\"w\").bytes",
            ""));
        Process p = tools.start("run", "lab", "run", lab.toString(), "--mode", "netns", "--out",
            dir.resolve("out").toString());
        assertTrue(p.waitFor(150, TimeUnit.SECONDS), tools.output("run"));
        String text = tools.output("run");
        assertEquals(0, p.exitValue(), text);
        assertTrue(text.contains("a: active MTU 1024 (eth0's MTU is 1500"), text);
        assertTrue(text.contains("b: active MTU 1024 (eth0's MTU is 1500"), text);
        assertTrue(!text.contains("FAIL"), text);
    }

    /**
     * Namespaces A and B joined by a veth pair as {@code ip link add} makes it (MTU 1500): {@code a} in A
     * with {@code NET.1/24}, {@code b} in B with {@code NET.2/24}, both up.
     */
    private void vethPair(String a, String b, String net) throws Exception {
        run(IP, "netns", "add", nsA);
        run(IP, "netns", "add", nsB);
        run(IP, "link", "add", a, "netns", nsA, "type", "veth", "peer", "name", b, "netns", nsB);
        String[][] ends = {{nsA, a, net + ".1"}, {nsB, b, net + ".2"}};
        for (String[] e : ends) {
            run(IP, "-n", e[0], "addr", "add", e[2] + "/24", "dev", e[1]);
            run(IP, "-n", e[0], "link", "set", e[1], "up");
            run(IP, "-n", e[0], "link", "set", "lo", "up");
        }
    }

    private static String cannotRun() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "needs root to make namespaces and veth pairs (user is " + System.getProperty("user.name") + ")";
        }
        return IP == null ? "needs ip (iproute2)" : null;
    }
}
