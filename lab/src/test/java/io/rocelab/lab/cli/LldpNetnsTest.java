package io.rocelab.lab.cli;

import static io.rocelab.lab.cli.HostCommands.find;
import static io.rocelab.lab.cli.HostCommands.output;
import static io.rocelab.lab.cli.HostCommands.quietly;
import static io.rocelab.lab.cli.HostCommands.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rocelab switch} against a real LLDP agent: Debian's lldpd in a namespace of its own on the
 * far end of a veth whose near end is the switch's {@code Ethernet0}. The switch's
 * {@code show lldp neighbors} and {@code show lldp table} list the lldpd host (its port, its
 * chassis MAC), lldpd's {@code lldpcli show neighbors} lists the soft switch as SONiC's lldpd
 * would announce it (system name the hostname, port ID the alias, subtype local), neither side
 * discards a frame of the other's, and when the switch stops its shutdown LLDPDU takes it out of
 * lldpd's table at once. Needs root, iproute2 and lldpd (CI has them); elsewhere it skips, loudly,
 * unless CI=true, where it fails.
 */
@Tag("realtime")
@Timeout(150)
class LldpNetnsTest {
    private static final String IP = find("ip");
    private static final String LLDPD = find("lldpd");
    private static final String LLDPCLI = find("lldpcli");

    @TempDir
    Path dir;

    private final String tag = Long.toString(ProcessHandle.current().pid() % 100_000);
    private final String nsSwitch = "rlls" + tag;
    private final String nsHost = "rllh" + tag;
    private final String swEnd = "rls" + tag;
    private final String hostEnd = "rlh" + tag;
    private ToolProcesses tools;
    private Process lldpd;

    @Test
    void theSwitchAndLldpdSeeEachOther() throws Exception {
        MachinePrerequisites.require("LldpNetnsTest", cannotRun());
        tools = new ToolProcesses(dir);
        run(IP, "netns", "add", nsSwitch);
        run(IP, "netns", "add", nsHost);
        run(IP, "link", "add", swEnd, "type", "veth", "peer", "name", hostEnd);
        run(IP, "link", "set", swEnd, "netns", nsSwitch);
        run(IP, "link", "set", hostEnd, "netns", nsHost);
        run(IP, "-n", nsSwitch, "link", "set", swEnd, "up");
        run(IP, "-n", nsHost, "addr", "add", "192.0.2.7/24", "dev", hostEnd);
        run(IP, "-n", nsHost, "link", "set", hostEnd, "up");
        String hostMac = output(IP, "-n", nsHost, "-br", "link", "show", hostEnd).trim().split("\\s+")[2];

        // lldpd's unprivileged half (user _lldpd) connects to its control socket: a directory it may enter
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Path lldpSock = dir.resolve("lldpd.sock");
        lldpd = tools.startCommand("lldpd", List.of(IP, "netns", "exec", nsHost, LLDPD, "-d", "-u", lldpSock.toString(),
            "-I", hostEnd, "-S", "rocelab test host"));
        Path cfg = dir.resolve("config_db.json");
        DemoLeaf.copyTo(cfg);
        Path socket = dir.resolve("sw.sock");
        Process sw = tools.startCommand("switch", tools.commandIn(nsSwitch, "switch", "--config", cfg.toString(),
            "--port", "Ethernet0=veth:" + swEnd, "--socket", socket.toString()));
        tools.awaitText(sw, "switch", "ready", 60);

        // the switch hears lldpd (lldpd sends at start, and again fast once it hears a new neighbour)
        String neighbors = await(() -> show(socket, "lldp", "neighbors"), s -> s.contains("Interface:    Ethernet0,"), 40);
        assertTrue(neighbors.contains("    ChassisID:    mac " + hostMac + "\n"), neighbors);
        assertTrue(neighbors.contains("    PortDescr:    " + hostEnd + "\n"), neighbors);
        assertTrue(neighbors.contains("    SysDescr:     rocelab test host\n"), neighbors);
        assertTrue(neighbors.contains("    MgmtIP:       192.0.2.7\n"), neighbors);
        assertTrue(neighbors.contains("    TTL:          120\n"), neighbors);
        String table = show(socket, "lldp", "table");
        assertTrue(table.lines().anyMatch(l -> l.startsWith("Ethernet0 ") && l.contains(" " + hostMac + " ")
            && l.contains(" " + hostEnd)), table);
        assertTrue(table.contains("Total entries displayed:  1"), table);

        // lldpd hears the switch as SONiC's lldpd would announce it
        String far = await(() -> lldpcli(lldpSock, "show", "neighbors"), s -> s.contains("SysName:      leaf"), 40);
        assertTrue(far.contains("Interface:    " + hostEnd + ", via: LLDP"), far);
        assertTrue(far.contains("    PortID:       local etp1\n"), far);
        assertTrue(far.contains("    Capability:   Router, on\n"), far);
        assertTrue(far.contains("    SysDescr:     SONiC Software Version:"), far);
        String stats = lldpcli(lldpSock, "show", "statistics");
        assertTrue(stats.contains("  Discarded:    0\n") && !stats.contains("  Received:     0\n"), stats);
        String ours = show(socket, "lldp", "statistics");
        String e0 = ours.substring(ours.indexOf("Interface:    Ethernet0\n"));
        e0 = e0.substring(0, e0.indexOf("-----"));
        assertTrue(e0.contains("  Discarded:    0\n") && !e0.contains("  Received:     0\n")
            && e0.contains("  Inserted:     1\n"), ours);

        // the switch stops: its shutdown LLDPDU (TTL 0) removes it from lldpd's table at once
        sw.destroy();
        assertTrue(sw.waitFor(30, TimeUnit.SECONDS), tools.output("switch"));
        String after = await(() -> lldpcli(lldpSock, "show", "neighbors"), s -> !s.contains("SysName:      leaf"), 10);
        assertTrue(!after.contains("leaf"), after);
    }

    private static String show(Path socket, String... words) {
        String[] args = new String[words.length + 4];
        args[0] = "switch";
        args[1] = "show";
        System.arraycopy(words, 0, args, 2, words.length);
        args[words.length + 2] = "--socket";
        args[words.length + 3] = socket.toString();
        CliRun r = CliRun.of(args);
        assertEquals(0, r.exitCode(), r.err());
        return r.out();
    }

    private String lldpcli(Path sock, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of(IP, "netns", "exec", nsHost, LLDPCLI, "-u", sock.toString()));
        cmd.addAll(List.of(args));
        return output(cmd.toArray(new String[0]));
    }

    private interface Probe {
        String get() throws Exception;
    }

    private String await(Probe probe, Predicate<String> done, int seconds) throws Exception {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        String last = "";
        while (System.nanoTime() < end) {
            last = probe.get();
            if (done.test(last)) {
                return last;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("not within " + seconds + " s: " + last + "\n--- switch\n" + tools.output("switch")
            + "\n--- lldpd\n" + tools.output("lldpd"));
    }

    /**
     * A netns lab with {@code lldp: true}: its {@code kind: linux} host runs Debian's lldpd on its eth0, the
     * soft switch lists it (lldpd's TTL, 120, and the host's name), lldpd lists the switch's port, and the
     * nic hosts and the switch hear each other as before.
     */
    @Test
    void aNetnsLabsLinuxHostRunsLldpdAndTheSwitchListsIt() throws Exception {
        MachinePrerequisites.require("LldpNetnsTest", cannotRun());
        tools = new ToolProcesses(dir);
        Path lab = dir.resolve("lldp-netns.yaml");
        Files.writeString(lab, String.join("\n",
            "name: lldp-netns",
            "duration: 4s",
            "modes: [netns]",
            "lldp: true",
            "topology:",
            "  hosts:",
            "    - {name: r1, kind: nic, ip: 10.0.0.1}",
            "    - {name: r2, kind: nic, ip: 10.0.0.2}",
            "    - {name: t1, kind: linux, ip: 10.0.0.3}",
            "  switches: [{name: sw0, ports: 3, speed: 1G}]",
            "  links: [{a: r1, b: 'sw0:Ethernet0'}, {a: r2, b: 'sw0:Ethernet4'}, {a: t1, b: 'sw0:Ethernet8'}]",
            "flows:",
            "  - {name: w, from: r1, to: r2, size: 64KiB, messages: 50}",
            "expect:",
            "  - flow(\"w\").errors == 0",
            ""));
        Process p = tools.start("run", "lab", "run", lab.toString(), "--mode", "netns", "--out", dir.resolve("out").toString());
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), tools.output("run"));
        String out = tools.output("run");
        assertEquals(0, p.exitValue(), out);
        assertTrue(java.util.regex.Pattern.compile("LLDP: sw0 Ethernet8 hears t1 eth0 \\(mac [0-9a-f:]+, chassis [0-9a-f:]+,"
            + " ttl 120\\)").matcher(out).find(), "the switch lists lldpd's host:\n" + out);
        assertTrue(out.contains("lldpd on t1: eth0 hears sw0 Ethernet8 (port ID Ethernet8, ttl 121)"),
            "lldpd lists the switch:\n" + out);
        assertTrue(out.contains("LLDP: r1 port 1 hears sw0 Ethernet0"), out);
        assertTrue(out.contains("PASS  flow(\"w\").errors == 0"), out);
    }

    @AfterEach
    void cleanUp() throws Exception {
        if (lldpd != null) {
            lldpd.descendants().forEach(ProcessHandle::destroy);
            lldpd.destroy();
            lldpd.waitFor(5, TimeUnit.SECONDS);
            lldpd.descendants().forEach(ProcessHandle::destroyForcibly);
        }
        if (tools != null) {
            tools.stopAll();
        }
        if (cannotRun() == null) {
            quietly(IP, "netns", "del", nsSwitch);
            quietly(IP, "netns", "del", nsHost);
        }
    }

    private static String cannotRun() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "needs root to make namespaces and veth pairs (user is " + System.getProperty("user.name") + ")";
        }
        if (IP == null || LLDPD == null || LLDPCLI == null) {
            return "needs ip (iproute2) and lldpd (apt-get install lldpd); found ip=" + IP + ", lldpd=" + LLDPD
                + ", lldpcli=" + LLDPCLI;
        }
        return null;
    }
}
