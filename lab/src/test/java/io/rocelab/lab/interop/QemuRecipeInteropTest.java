package io.rocelab.lab.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.lab.cli.ToolProcesses;
import io.rocelab.perftest.nic.NicOptions;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recipe {@code ib_write_bw -h} prints for a qemu VM running rdma_rxe, run as printed, in both
 * directions at once: rocelab's client against VM 1's server (10.77.0.1, the exchange through
 * qemu's forward of a 127.0.0.1 port) and VM 2's client (10.77.0.2, reaching the host as
 * 10.0.2.2) against rocelab's server. rocelab's commands are the help's, with only the UDP and
 * TCP ports made free ones and {@code -n 50}: no {@code --ip}, {@code --mac} or {@code -u}, since
 * the defaults fit such a VM.
 */
@Timeout(600)
class QemuRecipeInteropTest {
    private static final int VM_SECONDS = 300;
    private static final int RUN_SECONDS = 180;
    private static final Pattern ROW = Pattern.compile("(?m)^ 65536\\s+50\\s+[0-9.]+\\s+[0-9.]+\\s+[0-9.]+\\s*$");

    @Test
    void theHelpsQemuRecipeRunsAgainstRxeInBothDirections(@TempDir Path dir) throws Exception {
        Optional<String> skip = InteropEnvironment.checkOrAnnounceSkip(QemuRecipeInteropTest.class.getSimpleName());
        InteropEnvironment.assumeRunnable(skip);
        String help = NicOptions.usage("ib_write_bw", true);
        List<String> here = lines(help, "    here: +\\./rocelab ib_write_bw (.*)");
        List<String> inVm = lines(help, "    in the VM: +(.*)");
        assertEquals(2, here.size(), help);
        assertEquals(2, inVm.size(), help);
        for (String l : here) {
            assertFalse(l.contains("--ip") || l.contains("--mac") || l.contains("-u "), "defaults only: " + l);
        }

        FileLock lock = InteropEnvironment.lockWorkDir(600);
        ToolProcesses tools = new ToolProcesses(dir);
        RxeVm vm1 = null;
        RxeVm vm2 = null;
        try {
            System.out.println("[interop] " + InteropEnvironment.buildImage(600));
            Path work = InteropEnvironment.workDir();
            int[] udp = InteropEnvironment.freeUdpPorts(4);
            int[] tcp = InteropEnvironment.freeTcpPorts(2);

            // VM client, rocelab server: rocelab first, then VM 2's client retries until it is there
            List<String> server = args(here.get(1).replace("41001:41000", udp[3] + ":" + udp[2]));
            server.addAll(List.of("-n", "50", "-p", String.valueOf(tcp[1])));
            Process rocelabServer = tools.start("rocelab-server", server.toArray(new String[0]));
            tools.awaitOutput(rocelabServer, "rocelab-server", "Waiting for client", 60);
            String vmClient = inVm.get(1).replace(" 10.0.2.2", " -n 50 -p " + tcp[1] + " 10.0.2.2");
            vm2 = RxeVm.start(InteropEnvironment.interopDir(), work, "recipe-vm2", 2, udp[2], udp[3], VM_SECONDS,
                "client-retry 120 " + vmClient, "");

            // rocelab client, VM server: VM 1's server listens on its perftest port, forwarded from tcp[0]
            vm1 = RxeVm.start(InteropEnvironment.interopDir(), work, "recipe-vm1", 1, udp[0], udp[1], VM_SECONDS,
                inVm.get(0) + " -n 50 & wait-listen 18515 " + (VM_SECONDS - 60) + " && touch ready; wait",
                tcp[0] + ":18515");
            Path ready = vm1.runDir().resolve("ready");
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(VM_SECONDS);
            while (!Files.exists(ready) && vm1.exitCode().isEmpty() && System.nanoTime() < end) {
                Thread.sleep(200);
            }
            assertTrue(Files.exists(ready), "VM 1's server listens: " + vm1.diagnostics());
            List<String> client = args(here.get(0).replace("41001:41000", udp[1] + ":" + udp[0])
                .replace(" 127.0.0.1", ""));
            client.addAll(List.of("-n", "50", "-p", String.valueOf(tcp[0]), "127.0.0.1"));
            Process rocelabClient = tools.start("rocelab-client", client.toArray(new String[0]));

            for (String side : List.of("rocelab-client", "rocelab-server")) {
                Process p = side.equals("rocelab-client") ? rocelabClient : rocelabServer;
                assertTrue(p.waitFor(RUN_SECONDS, TimeUnit.SECONDS), side + " did not finish: " + tools.output(side)
                    + (side.equals("rocelab-client") ? vm1.diagnostics() : vm2.diagnostics()));
                assertEquals(0, p.exitValue(), side + ": " + tools.output(side));
                assertTrue(ROW.matcher(tools.stdout(side)).find(), side + ": " + tools.output(side));
            }
            for (RxeVm vm : new RxeVm[] {vm1, vm2}) {
                assertTrue(vm.await(120, TimeUnit.SECONDS), vm.diagnostics());
                assertTrue(ROW.matcher(vm.read("cmd.out")).find(), vm.name() + ": " + vm.diagnostics());
                assertEquals("0", vm.read("cmd.rc").strip(), vm.name() + ": " + vm.diagnostics());
            }
            assertTrue(tools.stdout("rocelab-client").contains("GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:77:00:01"),
                "the VM's server: " + tools.stdout("rocelab-client"));
            assertTrue(tools.stdout("rocelab-server").contains("GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:77:00:02"),
                "the VM's client: " + tools.stdout("rocelab-server"));
        } finally {
            tools.stopAll();
            for (RxeVm vm : new RxeVm[] {vm1, vm2}) {
                if (vm != null) {
                    vm.kill();
                }
            }
            lock.channel().close();
        }
    }

    private static List<String> lines(String text, String regex) {
        List<String> found = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^" + regex + "$").matcher(text);
        while (m.find()) {
            found.add(m.group(1).strip());
        }
        return found;
    }

    private static List<String> args(String line) {
        List<String> a = new ArrayList<>(List.of("ib_write_bw"));
        a.addAll(List.of(line.strip().split(" +")));
        return a;
    }
}
