package io.rocelab.lab.cli;

import static io.rocelab.lab.cli.HostCommands.find;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.lab.interop.InteropEnvironment;
import io.rocelab.lab.netns.NetnsNames;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rocelab lab run rxe-behind-the-switch --mode netns} as a user runs it, a process of its
 * own: two qemu VMs with Linux rdma_rxe behind the soft switch run real {@code ib_write_bw -R}, to
 * a rocelab NIC and to each other, while a NIC flow congests the egress. Every claim holds, the
 * capture of the VM's switch port decodes with every RoCEv2 ICRC good and holds PFC frames, the
 * VMs' files stay in {@code --out}, and neither a namespace nor a qemu is left, also after SIGTERM.
 * Needs root, iproute2, ethtool and the interop harness's packages (CI has them); elsewhere it skips
 * loudly, unless CI=true, where it fails.
 */
@Timeout(400)
class RxeLabTest {
    private static final Pattern TOTALS = Pattern.compile(
        "(\\d+) frames: (\\d+) RoCEv2 \\((\\d+) ICRC OK, (\\d+) ICRC bad\\), (\\d+) malformed, \\d+ ARP, (\\d+) PFC/PAUSE");

    @TempDir
    Path dir;

    private ToolProcesses tools;

    @BeforeEach
    void needsRootAndTheVms() {
        MachinePrerequisites.require("RxeLabTest (the rxe-vm lab)", cannotRun());
        tools = new ToolProcesses(dir);
    }

    @AfterEach
    void stopWhatRuns() throws Exception {
        if (tools != null) {
            tools.stopAll();
        }
    }

    @Test
    void rxeVmsWriteToARocelabNicAndToEachOtherThroughTheCongestedSwitch() throws Exception {
        Path out = dir.resolve("out");
        long t0 = System.nanoTime();
        Process p = tools.start("run", "lab", "run", "rxe-behind-the-switch", "--mode", "netns", "--out",
            out.toString());
        assertTrue(p.waitFor(360, TimeUnit.SECONDS), tools.output("run"));
        double seconds = (System.nanoTime() - t0) / 1e9;
        String text = tools.output("run");
        System.out.printf("[rxe-lab] lab run: exit %d in %.1f s%n%s%n", p.exitValue(), seconds, text);
        assertEquals(0, p.exitValue(), text + vmFiles(out));
        for (String claim : List.of("the VMs' perftest flows complete (rxe to a rocelab NIC, and rxe to rxe)",
            "the switch paused the VM's port with PFC, and the NIC flow's", "the NIC flow stays lossless")) {
            assertTrue(text.contains("PASS  " + claim), claim + " in\n" + text);
        }
        assertFalse(text.contains("FAIL"), text);
        String report = Files.readString(out.resolve("report.md"));
        assertTrue(report.contains("| vm-to-nic | vm1 | n1 | WRITE | COMPLETED | 100 | 6553600 |"), report);
        assertTrue(report.contains("| vm-to-vm | vm1 | vm2 | WRITE | COMPLETED | 100 | 6553600 |"), report);

        // the VMs' switch ports checked every RoCEv2 frame the VMs sent
        for (String port : List.of("sw0:Ethernet0", "sw1:Ethernet4")) {
            Matcher v = Pattern.compile("vm port " + port + ": from the VM (\\d+) frames, (\\d+) RoCEv2: 0 malformed, 0 "
                + "with a bad ICRC").matcher(text);
            assertTrue(v.find() && Long.parseLong(v.group(2)) > 0, port + " in\n" + text);
        }

        // the VMs' files stay: perftest's own output with its result row, the consoles
        String client = Files.readString(out.resolve("vms/vm1/vm-to-nic.out"));
        assertTrue(client.matches("(?s).*\\n\\s*65536\\s+100\\s+[0-9.]+\\s+[0-9.]+\\s+[0-9.]+\\s*\\n.*"), client);
        assertTrue(client.contains("rdma_cm"), client);
        assertEquals("0", Files.readString(out.resolve("vms/vm1/cmd.rc")).strip());
        assertEquals("0", Files.readString(out.resolve("vms/vm2/cmd.rc")).strip());
        assertTrue(Files.readString(out.resolve("vms/vm1/console.log")).contains("ROCELAB-VM:"));
        String server = Files.readString(out.resolve("vms/vm-to-nic.server.out"));
        assertTrue(server.matches("(?s).*\\n\\s*65536\\s+100\\s+[0-9.]+\\s+[0-9.]+\\s+[0-9.]+\\s*\\n.*"), server);

        // every frame on the VM's switch port is good: rocelab decode checks each RoCEv2 ICRC
        Process decode = tools.start("decode", "decode", "-q", out.resolve("capture.pcapng").toString());
        assertTrue(decode.waitFor(120, TimeUnit.SECONDS), tools.output("decode"));
        String decoded = tools.stdout("decode");
        assertEquals(0, decode.exitValue(), tools.output("decode"));
        Matcher m = TOTALS.matcher(decoded);
        assertTrue(m.find(), decoded);
        long roce = Long.parseLong(m.group(2));
        System.out.println("[rxe-lab] capture of vm1's port: " + m.group());
        // two flows of 100 x 64 KiB in 1024-byte packets, 6400 WRITE packets each at least, and their ACKs
        assertTrue(roce > 12_800, m.group());
        assertEquals(roce, Long.parseLong(m.group(3)), m.group());
        assertEquals(0, Long.parseLong(m.group(4)), m.group());
        assertEquals(0, Long.parseLong(m.group(5)), m.group());
        assertTrue(Long.parseLong(m.group(6)) > 0, "the switch's PFC frames to the VM are in the capture: " + m.group());

        assertTrue(namespacesOf(runId(text)).isEmpty(), "the run removed its namespaces: " + namespaces());
        assertTrue(qemusOf(out).isEmpty(), "the run left qemu " + qemusOf(out));
    }

    @Test
    void sigtermStopsTheVmsAndRemovesTheNamespaces() throws Exception {
        Path out = dir.resolve("term");
        Process p = startUntilBothVmsRun("term", out);
        String id = Long.toString(p.pid(), 36);
        List<Long> qemus = qemusOf(out);
        assertFalse(namespacesOf(id).isEmpty(), "the run is under way");
        p.destroy(); // SIGTERM
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), tools.output("term"));
        assertTrue(namespacesOf(id).isEmpty(), "SIGTERM left " + namespacesOf(id) + "\n" + tools.output("term"));
        for (long pid : qemus) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "qemu " + pid + " is gone");
        }
    }

    @Test
    void aKilledRunsVmsGoWithLabClean() throws Exception {
        Path out = dir.resolve("killed");
        Process p = startUntilBothVmsRun("killed", out);
        String id = Long.toString(p.pid(), 36);
        List<Long> qemus = qemusOf(out);
        p.destroyForcibly().waitFor(30, TimeUnit.SECONDS); // kill -9: no shutdown hook runs
        assertEquals(qemus, qemusOf(out), "a killed run leaves its VMs (else this test shows nothing)");
        // by the run's id: other netns runs on the machine (another build's tests) keep theirs
        Process clean = tools.start("clean", "lab", "clean", id);
        assertTrue(clean.waitFor(60, TimeUnit.SECONDS), tools.output("clean"));
        assertEquals(0, clean.exitValue(), tools.output("clean"));
        String said = tools.stdout("clean");
        assertTrue(said.matches("(?s).*removed process \\d+ \\(qemu-system-x86_64\\) of " + NetnsNames.PREFIX + id
            + "'s VMs.*"), said);
        for (long pid : qemus) {
            ProcessHandle.of(pid).ifPresent(h -> h.onExit().orTimeout(10, TimeUnit.SECONDS).exceptionally(e -> null)
                .join());
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "qemu " + pid + " is gone");
        }
        assertTrue(namespacesOf(id).isEmpty(), namespaces());
    }

    /** Starts the shipped lab as process {@code name} and returns once both its VMs' qemu run (asserted). */
    private Process startUntilBothVmsRun(String name, Path out) throws Exception {
        Process p = tools.start(name, "lab", "run", "rxe-behind-the-switch", "--mode", "netns", "--out",
            out.toString());
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (qemusOf(out).size() < 2 && p.isAlive() && System.nanoTime() < end) {
            Thread.sleep(200);
        }
        assertEquals(2, qemusOf(out).size(), "both VMs boot: " + tools.output(name));
        return p;
    }

    /** The qemu processes (not boot-vm.sh's {@code timeout} around them) whose run directory is under {@code out}. */
    private static List<Long> qemusOf(Path out) {
        String where = out.toAbsolutePath().toString();
        List<Long> pids = new ArrayList<>();
        ProcessHandle.allProcesses().forEach(h -> {
            String cmd = h.info().commandLine().orElse("");
            boolean qemu = h.info().command().map(c -> c.contains("qemu-system")).orElse(false);
            if (qemu && cmd.contains(where)) {
                pids.add(h.pid());
            }
        });
        return pids;
    }

    private static String vmFiles(Path out) {
        StringBuilder b = new StringBuilder();
        for (String f : List.of("vms/vm1/cmd.out", "vms/vm1/vm-to-nic.out", "vms/vm1/vm-to-vm.out",
            "vms/vm-to-nic.server.out", "vms/vm2/cmd.out", "vms/vm1/boot.log")) {
            try {
                b.append("\n---- ").append(f).append(":\n").append(Files.readString(out.resolve(f)));
            } catch (Exception e) {
                b.append("\n---- ").append(f).append(": none");
            }
        }
        return b.toString();
    }

    private static String runId(String output) {
        int at = output.indexOf("run id ");
        assertTrue(at >= 0, output);
        return output.substring(at + 7).split("[),\\s]")[0];
    }

    private static String namespaces() throws Exception {
        return HostCommands.output(find("ip"), "netns", "list");
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
        for (String tool : List.of("ip", "ethtool")) {
            if (find(tool) == null) {
                missing.add(tool);
            }
        }
        if (!missing.isEmpty()) {
            return "needs " + String.join(", ", missing);
        }
        return InteropEnvironment.missing().orElse(null);
    }
}
