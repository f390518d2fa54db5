package io.rocelab.lab.cli;

import static io.rocelab.lab.cli.HostCommands.find;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.lab.netns.NetnsNames;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rocelab lab run FILE --mode netns} as a user runs it, a process of its own: the shipped
 * roce-tcp-convergence lab on namespaces and veth pairs with real iperf3 holds its claims, its
 * tshark capture has the PFC frames, and nothing is left behind; a run stopped with SIGTERM tears
 * down by itself; a run killed with kill -9 leaves its namespaces, and the next run, or
 * {@code rocelab lab clean}, removes them and the iperf3 processes in them. Needs root, iproute2,
 * ethtool, iperf3 and tshark (CI has them); elsewhere it skips, loudly, unless CI=true, where it
 * fails.
 */
@Tag("realtime")
@Timeout(300)
class NetnsLabTest {
    private static final String IP = find("ip");
    private static final Path LAB = Path.of("..", "labs", "roce-tcp-convergence.yaml").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    private ToolProcesses tools;

    @BeforeEach
    void needsTheLinuxNetwork() {
        MachinePrerequisites.require("NetnsLabTest", cannotRun());
        tools = new ToolProcesses(dir);
    }

    @AfterEach
    void stopWhatRuns() throws Exception {
        if (tools != null) {
            tools.stopAll();
        }
    }

    @Test
    void roceAndTcpConvergeOnVethsWithEveryClaimHolding() throws Exception {
        Path out = dir.resolve("out");
        Process p = tools.start("run", "lab", "run", LAB.toString(), "--mode", "netns", "--out", out.toString());
        assertTrue(p.waitFor(240, TimeUnit.SECONDS), tools.output("run"));
        String text = tools.output("run");
        assertEquals(0, p.exitValue(), text);
        for (String claim : List.of("RoCE gets its ETS weight's share of the bottleneck (60 %, within 5 points)",
            "TCP gets its ETS weight's share (40 %, within 5 points)", "RoCE is lossless, held back by PFC",
            "TCP is lossy (never paused, its drops left to TCP) and still moving")) {
            assertTrue(text.contains("PASS  " + claim), claim + " in\n" + text);
        }
        assertFalse(text.contains("FAIL"), text);
        // the pause frames the switch sent are on r1's wire, as tshark saw them on its eth0
        Path capture = out.resolve("tshark-r1.pcapng");
        assertTrue(Files.size(capture) > 0, capture.toString());
        String pfc = HostCommands.output(find("tshark"), "-r", capture.toString(), "-Y", "macc.opcode == 0x0101",
            "-T", "fields", "-e", "macc.cbfc.pause_time.c3");
        long pauses = pfc.lines().filter(l -> l.matches("\\s*\\d+\\s*") && Long.parseLong(l.trim()) > 0).count();
        assertTrue(pauses > 0, "PFC pauses of priority 3 in " + capture + ":\n" + pfc);
        String report = Files.readString(out.resolve("report.md"));
        assertTrue(report.contains("| tcp | t1 | t2 | TCP (iperf3) |"), report);
        assertTrue(namespacesOf(runId(text)).isEmpty(), "the run removed its namespaces: " + namespaces());
    }

    @Test
    void sigtermTearsDownWhatTheRunMade() throws Exception {
        Process p = tools.start("term", "lab", "run", LAB.toString(), "--mode", "netns", "--duration", "20s", "--out",
            dir.resolve("term").toString());
        String id = Long.toString(p.pid(), 36);
        awaitRunning(p, "term", id);
        p.destroy(); // SIGTERM
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), tools.output("term"));
        assertTrue(namespacesOf(id).isEmpty(), "SIGTERM left " + namespacesOf(id) + "\n" + tools.output("term"));
    }

    @Test
    void aKilledRunsLeftoversGoWithTheNextRunAndWithLabClean() throws Exception {
        // killed once: the next run removes what it left
        List<Long> iperf = killMidRun("killed1");
        String first = Long.toString(tools.pidOf("killed1"), 36);
        Process next = tools.start("next", "lab", "run", LAB.toString(), "--mode", "netns", "--duration", "1s",
            "--out", dir.resolve("next").toString());
        assertTrue(next.waitFor(120, TimeUnit.SECONDS), tools.output("next"));
        assertTrue(tools.stdout("next").contains("removed a killed run's namespace " + NetnsNames.PREFIX + first),
            tools.output("next"));
        assertTrue(namespacesOf(first).isEmpty(), namespaces());
        assertTrue(iperf.stream().noneMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)),
            "iperf3 processes " + iperf + " of the killed run are gone");
        assertTrue(namespacesOf(runId(tools.stdout("next"))).isEmpty(), namespaces());

        // killed again: lab clean removes it, says what it removed, and leaves no veth or process; named
        // by its run id, as a user on a machine where others run labs would (a bare lab clean removes every
        // run's namespaces, those of another build's tests running at the time too)
        iperf = killMidRun("killed2");
        String second = Long.toString(tools.pidOf("killed2"), 36);
        Process clean = tools.start("clean", "lab", "clean", second);
        assertTrue(clean.waitFor(60, TimeUnit.SECONDS), tools.output("clean"));
        assertEquals(0, clean.exitValue(), tools.output("clean"));
        String said = tools.stdout("clean");
        assertTrue(said.contains("removed namespace " + NetnsNames.PREFIX + second + "-t2"), said);
        assertTrue(said.matches("(?s).*removed process \\d+ \\(iperf3\\) in " + NetnsNames.PREFIX + second + ".*"),
            said);
        assertTrue(namespacesOf(second).isEmpty(), namespaces());
        assertTrue(iperf.stream().noneMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)),
            "iperf3 processes " + iperf + " of the killed run are gone");
        String links = HostCommands.output(IP, "-o", "link", "show");
        assertFalse(links.contains(NetnsNames.PREFIX + second), links);
        Process again = tools.start("clean-again", "lab", "clean", second);
        assertTrue(again.waitFor(60, TimeUnit.SECONDS));
        assertTrue(tools.stdout("clean-again").contains("nothing to remove"), tools.output("clean-again"));
        Process bad = tools.start("clean-bad", "lab", "clean", "rl-" + second);
        assertTrue(bad.waitFor(60, TimeUnit.SECONDS));
        assertEquals(2, bad.exitValue(), tools.output("clean-bad"));
        assertEquals(1, tools.stderr("clean-bad").lines().count(), tools.output("clean-bad"));
    }

    /** Starts a netns run, waits for its iperf3 flow, kills it with SIGKILL; @return the iperf3 pids it left */
    private List<Long> killMidRun(String name) throws Exception {
        Process p = tools.start(name, "lab", "run", LAB.toString(), "--mode", "netns", "--duration", "30s", "--out",
            dir.resolve(name).toString());
        String id = Long.toString(p.pid(), 36);
        List<Long> iperf = awaitRunning(p, name, id);
        p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        assertFalse(namespacesOf(id).isEmpty(), "a killed run leaves its namespaces (else this test shows nothing)");
        return iperf;
    }

    /** Waits until run {@code id} has made its namespaces and iperf3 runs in them; @return iperf3's pids */
    private List<Long> awaitRunning(Process p, String name, String id) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < end && p.isAlive()) {
            List<Long> pids = new ArrayList<>();
            for (String ns : namespacesOf(id)) {
                for (String pid : HostCommands.output(IP, "netns", "pids", ns).lines().map(String::trim)
                    .filter(l -> l.matches("\\d+")).toList()) {
                    ProcessHandle.of(Long.parseLong(pid)).flatMap(h -> h.info().command())
                        .filter(c -> c.endsWith("iperf3")).ifPresent(c -> pids.add(Long.parseLong(pid)));
                }
            }
            if (pids.size() >= 2) {
                return pids; // iperf3's server and client: the run is under way
            }
            Thread.sleep(200);
        }
        throw new AssertionError("run " + id + " did not get going: " + tools.output(name) + "\n" + namespaces());
    }

    private static String runId(String output) {
        int at = output.indexOf("run id ");
        assertTrue(at >= 0, output);
        return output.substring(at + 7).split("[),\\s]")[0];
    }

    private static String namespaces() throws Exception {
        return HostCommands.output(IP, "netns", "list");
    }

    private static List<String> namespacesOf(String id) throws Exception {
        String mine = NetnsNames.PREFIX + id;
        return namespaces().lines().map(l -> l.trim().split("\\s+")[0])
            .filter(n -> n.equals(mine) || n.startsWith(mine + "-")).toList();
    }

    private static String cannotRun() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "needs root to make namespaces and veth pairs (user is " + System.getProperty("user.name") + ")";
        }
        List<String> missing = new ArrayList<>();
        for (String tool : List.of("ip", "ethtool", "iperf3", "tshark")) {
            if (find(tool) == null) {
                missing.add(tool);
            }
        }
        return missing.isEmpty() ? null : "needs " + String.join(", ", missing) + " (iproute2, ethtool, iperf3, tshark)";
    }
}
