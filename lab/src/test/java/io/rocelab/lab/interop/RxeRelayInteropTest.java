package io.rocelab.lab.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The codec interoperates with real Linux Soft-RoCE: two qemu VMs running Debian's kernel with
 * rdma_rxe talk through a {@link ReencodingRelay}, which forwards every RoCEv2 frame as the
 * project's encoder rebuilds it from the decoded value, not as rxe sent it. When rdma-core's
 * {@code ibv_*_pingpong} and perftest's {@code ib_*_bw} complete through the relay (over IPv4 and
 * the IPv6 GID, RC, UC and UD, SEND, RDMA WRITE, RDMA READ, atomics, and rdma_cm's connection
 * MADs), rxe has accepted the codec's frames; and every frame rxe sent had a good ICRC and
 * re-encoded to exactly its own bytes.
 *
 * <p>The two VMs boot once and run all the tools in sequence (server in host 1, 10.77.0.1; client
 * in host 2, 10.77.0.2), each tool on its own TCP port with its own time limit, so one failing
 * tool does not hide the others. Under TCG a VM is about 1000 times slower than hardware: booting
 * takes ~10 s, the whole class ~1 minute on an idle 2-core machine.
 *
 * <p>Needs qemu, Debian's kernel and the RDMA tools ({@code interop/install-deps.sh}); without them
 * it skips loudly, or fails under {@code CI=true}.
 */
class RxeRelayInteropTest {
    private static final String SERVER_IP = "10.77.0.1";
    /** Per tool, inside the VM: the server's limit; a client step may last 15 s longer (see script()). */
    private static final int STEP_SECONDS = 45;
    /** Hard limit of each VM (boot-vm.sh kills qemu after it). */
    private static final int VM_SECONDS = 300;

    private static final Pattern PINGPONG_BYTES =
            Pattern.compile("(?m)^\\d+ bytes in [\\d.]+ seconds = [\\d.]+ Mbit/sec$");
    private static final Pattern PINGPONG_ITERS =
            Pattern.compile("(?m)^200 iters in [\\d.]+ seconds = [\\d.]+ usec/iter$");

    /** One tool run: server and client command lines (in the VM's shell) and what proves it worked. */
    private record Exchange(String name, String title, String server, String client, List<Pattern> serverOutput,
                            List<Pattern> clientOutput, String relayOpcodes) {
    }

    private static final List<Exchange> EXCHANGES = List.of(
            pingpong("rc4", "ibv_rc_pingpong over IPv4", "ibv_rc_pingpong -p 18601 -g $G4 -n 200",
                    "GID ::ffff:10.77.0.2", "IPv4 RC_SEND_"),
            pingpong("rc6", "ibv_rc_pingpong over the IPv6 GID", "ibv_rc_pingpong -p 18602 -g $G6 -n 200",
                    "GID fd77::2", "IPv6 RC_SEND_"),
            pingpong("uc4", "ibv_uc_pingpong", "ibv_uc_pingpong -p 18603 -g $G4 -n 200",
                    "GID ::ffff:10.77.0.2", "IPv4 UC_SEND_"),
            pingpong("ud4", "ibv_ud_pingpong", "ibv_ud_pingpong -p 18604 -g $G4 -s 512 -n 200",
                    "GID ::ffff:10.77.0.2", "IPv4 UD_SEND_ONLY"),
            perftest("write", "ib_write_bw", "ib_write_bw -d rxe0 -F -p 18605 -x $G4 -n 200", 65536, false,
                    "IPv4 RC_RDMA_WRITE_"),
            perftest("read", "ib_read_bw", "ib_read_bw -d rxe0 -F -p 18606 -x $G4 -n 200", 65536, false,
                    "IPv4 RC_RDMA_READ_RESPONSE_"),
            perftest("send", "ib_send_bw", "ib_send_bw -d rxe0 -F -p 18607 -x $G4 -n 200", 65536, true,
                    "IPv4 RC_SEND_"),
            perftest("atomic", "ib_atomic_bw (FETCH_ADD)", "ib_atomic_bw -d rxe0 -F -p 18608 -x $G4 -n 200", 8,
                    false, "IPv4 RC_FETCH_ADD"),
            perftest("cas", "ib_atomic_bw -A CMP_AND_SWAP",
                    "ib_atomic_bw -d rxe0 -F -p 18609 -x $G4 -n 200 -A CMP_AND_SWAP", 8, false, "IPv4 RC_COMPARE_SWAP"),
            latency("wlat", "ib_write_lat (2-byte RDMA WRITE ONLY, PadCnt 2)",
                    "ib_write_lat -d rxe0 -F -p 18610 -x $G4 -n 200", true, "IPv4 RC_RDMA_WRITE_ONLY"),
            latency("rlat", "ib_read_lat", "ib_read_lat -d rxe0 -F -p 18611 -x $G4 -n 200", false,
                    "IPv4 RC_RDMA_READ_RESPONSE_ONLY"),
            latency("slat", "ib_send_lat", "ib_send_lat -d rxe0 -F -p 18612 -x $G4 -n 200", true,
                    "IPv4 RC_SEND_ONLY"),
            perftest("cm", "ib_write_bw -R (rdma_cm connection)", "ib_write_bw -d rxe0 -F -p 18613 -R -n 200",
                    65536, false, "IPv4 QP1 UD_SEND_ONLY"));

    private static RxeVm server;
    private static RxeVm client;
    private static ReencodingRelay relay;
    private static ReencodingRelay.Snapshot stats;
    private static Path pcap;
    private static UdpSocketDrops drops;
    private static Optional<String> skipReason = Optional.empty();
    private static FileLock workLock;

    private static Exchange pingpong(String name, String title, String command, String clientGidInServerOutput,
                                     String opcodes) {
        List<Pattern> both = List.of(PINGPONG_BYTES, PINGPONG_ITERS);
        List<Pattern> serverOut = new ArrayList<>(both);
        serverOut.add(Pattern.compile("remote address: .*" + Pattern.quote(clientGidInServerOutput)));
        return new Exchange(name, title, command, command + " " + SERVER_IP, serverOut, both, opcodes);
    }

    private static Exchange perftest(String name, String title, String command, int bytes, boolean serverReports,
                                     String opcodes) {
        // perftest's result row: #bytes #iterations BW peak BW average MsgRate
        Pattern row = Pattern.compile("(?m)^\\s*" + bytes + "\\s+200\\s+[\\d.]+\\s+[\\d.]+\\s+[\\d.]+\\s*$");
        return new Exchange(name, title, command, command + " " + SERVER_IP,
                serverReports ? List.of(row) : List.of(), List.of(row), opcodes);
    }

    private static Exchange latency(String name, String title, String command, boolean serverReports,
                                    String opcodes) {
        // perftest's latency row: #bytes #iterations t_min t_max t_typical t_avg t_stdev 99% 99.9%.
        // perftest turns cycles into µs with a CPU clock it measures itself; under TCG emulation that
        // measurement can fail ("Correlation coefficient r^2 < 0.9"), and then all 200 iterations
        // still complete but the times print as inf/-nan. The row proves completion either way.
        Pattern row = Pattern.compile("(?m)^\\s*2\\s+200(\\s+(?:[\\d.]+|inf|-?nan)){7}\\s*$");
        return new Exchange(name, title, command, command + " " + SERVER_IP,
                serverReports ? List.of(row) : List.of(), List.of(row), opcodes);
    }

    /** The VM-side script: every tool in turn, each output in NAME.out and exit code in NAME.rc. */
    private static String script(boolean serverSide) {
        StringBuilder s = new StringBuilder();
        s.append("G4=$(gid-index 4); G6=$(gid-index 6); failed=0\n");
        // The peer's MAC as permanent neighbour entries: rxe resolves the destination MAC when a QP
        // goes to RTR, and an IPv6 neighbour solicitation through the relay on a loaded TCG VM once
        // took longer than that resolution waits ("Failed to modify QP to RTR").
        int peer = serverSide ? 2 : 1;
        String mac = String.format("52:54:00:77:00:%02x", peer);
        s.append("/usr/sbin/ip neigh replace 10.77.0.").append(peer).append(" lladdr ").append(mac)
                .append(" dev eth0 nud permanent\n");
        s.append("/usr/sbin/ip -6 neigh replace fd77::").append(peer).append(" lladdr ").append(mac)
                .append(" dev eth0 nud permanent\n");
        s.append("step() {\n");
        s.append("  name=$1; limit=$2; shift 2; t0=$(cut -d' ' -f1 /proc/uptime)\n");
        s.append("  timeout \"$limit\" \"$@\" > \"$name.out\" 2>&1; rc=$?\n");
        s.append("  echo \"$rc\" > \"$name.rc\"\n");
        s.append("  echo \"$name: exit $rc, uptime $t0 -> $(cut -d' ' -f1 /proc/uptime) s\"\n");
        s.append("  [ \"$rc\" = 0 ] || failed=1\n");
        s.append("}\n");
        for (Exchange e : EXCHANGES) {
            // A client keeps retrying its connection for longer than a server step may last: when one
            // tool fails early on the client side, its server waits out STEP_SECONDS, and the next
            // client must still be trying when the next server listens, so one miss costs one tool,
            // not all that follow.
            s.append("step ").append(e.name()).append(' ');
            s.append(serverSide ? STEP_SECONDS + " " + e.server()
                    : (STEP_SECONDS + 15) + " client-retry " + (STEP_SECONDS + 10) + " " + e.client());
            s.append('\n');
        }
        s.append("exit $failed\n");
        return s.toString();
    }

    @BeforeAll
    static void runBothVmsThroughTheRelay() throws Exception {
        skipReason = InteropEnvironment.checkOrAnnounceSkip(RxeRelayInteropTest.class.getSimpleName());
        if (skipReason.isPresent()) {
            return;
        }
        workLock = InteropEnvironment.lockWorkDir(600);
        long t0 = System.nanoTime();
        String built = InteropEnvironment.buildImage(600);
        long tBuilt = System.nanoTime();
        System.out.println("[interop] " + built);

        Path work = InteropEnvironment.workDir();
        pcap = work.resolve("relay.pcap");
        int[] qemuPorts = InteropEnvironment.freeUdpPorts(2);
        relay = new ReencodingRelay(qemuPorts[0], qemuPorts[1], pcap);
        server = RxeVm.start(InteropEnvironment.interopDir(), work, "relay-server", 1, qemuPorts[0],
                relay.leftPort(), VM_SECONDS, script(true));
        client = RxeVm.start(InteropEnvironment.interopDir(), work, "relay-client", 2, qemuPorts[1],
                relay.rightPort(), VM_SECONDS, script(false));
        boolean clientDone;
        boolean serverDone;
        long tClient;
        long tServer;
        try (UdpSocketDrops watch = new UdpSocketDrops(Map.of(qemuPorts[0], "server qemu", qemuPorts[1],
                "client qemu", relay.leftPort(), "relay left", relay.rightPort(), "relay right"))) {
            clientDone = client.await(VM_SECONDS + 30, TimeUnit.SECONDS);
            tClient = System.nanoTime();
            serverDone = server.await(clientDone ? 60 : 1, TimeUnit.SECONDS);
            tServer = System.nanoTime();
            drops = watch;
        }
        if (!clientDone || !serverDone) {
            server.kill();
            client.kill();
        }
        stats = relay.stats();
        relay.close();
        relay = null;

        System.out.printf("[interop] image %.1f s; VMs: client done after %.1f s, server after %.1f s%s%n",
                (tBuilt - t0) / 1e9, (tClient - tBuilt) / 1e9, (tServer - tBuilt) / 1e9,
                clientDone && serverDone ? "" : " (NOT FINISHED: killed)");
        for (RxeVm vm : List.of(server, client)) {
            System.out.println("[interop] " + vm.name() + " stages: " + String.join(" | ", vm.stages()));
            System.out.print(vm.read("cmd.out").lines().map(l -> "[interop] " + vm.name() + "   " + l + "\n")
                    .reduce("", String::concat));
        }
        System.out.print(stats.toString().lines().map(l -> "[interop] " + l + "\n").reduce("", String::concat));
        System.out.println("[interop] UDP socket drops (frames lost on 127.0.0.1, repaired by rxe's retransmission): "
                + drops.report());
        System.out.println("[interop] capture: " + pcap + " (" + Files.size(pcap) + " bytes)");
    }

    @BeforeEach
    void requireTheHarness() {
        InteropEnvironment.assumeRunnable(skipReason);
    }

    @AfterAll
    static void stopEverything() throws Exception {
        for (RxeVm vm : new RxeVm[] {server, client}) {
            if (vm != null) {
                vm.kill();
            }
        }
        if (relay != null) {
            relay.close();
            relay = null;
        }
        if (workLock != null) {
            workLock.channel().close();
            workLock = null;
        }
    }

    @Test
    void bothVmsRanAllTheirToolsSuccessfully() {
        for (RxeVm vm : List.of(server, client)) {
            Optional<Integer> rc = vm.exitCode();
            if (rc.isEmpty() || rc.get() != 0) {
                fail(vm.name() + " did not exit 0 (" + rc.map(String::valueOf).orElse("no exit code") + ")\n"
                        + server.diagnostics() + "\n" + client.diagnostics() + "\n" + stats);
            }
        }
    }

    @TestFactory
    Stream<DynamicTest> eachToolCompletedThroughTheRelay() {
        return EXCHANGES.stream().map(e -> DynamicTest.dynamicTest(e.title(), () -> {
            checkSide(e, server, e.serverOutput());
            checkSide(e, client, e.clientOutput());
            long frames = stats.count(e.relayOpcodes());
            assertTrue(frames > 0, e.title() + ": the relay re-encoded no '" + e.relayOpcodes() + "*' frame\n" + stats);
        }));
    }

    private static void checkSide(Exchange e, RxeVm vm, List<Pattern> expected) {
        String out = vm.read(e.name() + ".out");
        String rc = vm.read(e.name() + ".rc").strip();
        String context = e.title() + " in " + vm.name() + " (" + (vm == server ? e.server() : e.client()) + ")";
        if (!"0".equals(rc)) {
            fail(context + " exited " + (rc.isEmpty() ? "(never ran)" : rc) + ":\n" + out + "\n"
                    + vm.diagnostics() + "\n" + stats);
        }
        for (Pattern p : expected) {
            if (!p.matcher(out).find()) {
                fail(context + ": output lacks /" + p + "/:\n" + out);
            }
        }
    }

    @Test
    void everyRoceFrameHadAGoodIcrcAndReencodedByteIdentical() {
        String report = "\n" + stats;
        assertTrue(stats.roce() > 0, "the relay saw no RoCEv2 frame" + report);
        assertTrue(stats.roceIpv6() > 0, "the relay saw no RoCEv2 frame over IPv6" + report);
        assertEquals(0, stats.malformed(), "RoCEv2 frames the codec could not parse" + report);
        assertEquals(0, stats.badIcrc(), "RoCEv2 frames whose ICRC the codec computes differently" + report);
        assertEquals(0, stats.errors(), "relay errors" + report);
        assertEquals(0, stats.mismatches(), "re-encoded frames that differ from rxe's" + report);
        assertEquals(stats.roce(), stats.identical(), "RoCEv2 frames vs identical re-encodings" + report);
        assertEquals(0, stats.portDrops().values().stream().mapToLong(Long::longValue).sum(),
                "frames dropped by the relay's UDP ports" + report);
    }

    @Test
    void theRelayCaptureDecodesWithRocelabDecode() {
        RocelabDecode d = RocelabDecode.run(pcap, false);
        String tail = d.tail(8);
        System.out.println("[interop] rocelab decode " + pcap + " -> exit " + d.exitCode() + "; last lines:\n" + tail);
        assertEquals(0, d.exitCode(), "rocelab decode " + pcap + " exit code\n" + tail);
        // the totals line must count what the relay forwarded, every RoCEv2 frame with a good ICRC
        assertTrue(d.frames() >= 0, "rocelab decode printed no totals line with every ICRC good\n" + tail);
        assertEquals(stats.frames(), d.frames(), "frames in the capture vs relayed");
        assertEquals(stats.roce(), d.roce(), "RoCEv2 frames in the capture vs relayed");
        assertEquals(stats.roce(), d.icrcOk(), "RoCEv2 frames with a good ICRC");
    }
}
