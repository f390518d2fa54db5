package io.rocelab.lab.interop;

import static org.junit.jupiter.api.Assertions.fail;

import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.fabric.udp.UdpFramePort;
import io.rocelab.nic.stats.NicCounter;
import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.cli.PerftestOptions;
import io.rocelab.perftest.nic.NicAttachment;
import io.rocelab.perftest.nic.NicEngine;
import io.rocelab.perftest.nic.NicOptions;
import io.rocelab.perftest.nic.PlainAttachment;
import io.rocelab.perftest.oob.OobServer;
import io.rocelab.perftest.run.PerftestSession;
import io.rocelab.perftest.run.PerftestTool;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Port 2 of a dual-port soft NIC against real Linux Soft-RoCE: rdma_cm on port 2 ({@code -R -i 2})
 * and perftest's dual-port mode ({@code -O}), both ways, against one qemu VM running rxe and
 * Debian's perftest (10.77.0.1, one port: rxe has one port per device).
 *
 * <pre>
 *  VM 1 (10.77.0.1, rxe0 on eth0) --udp-- UdpFramePort -- PcapTap -- SharedSegment -- port 1 10.77.0.100 52:54:00:77:01:64
 *  eth1: qemu user networking (TCP exchange only)                                  \-- port 2 10.77.0.101 52:54:00:77:01:65
 * </pre>
 *
 * Both ports sit on the VM's one segment ({@link SharedSegment}: qemu's socket sends to one
 * address), each with its own MAC and address, so every RoCE frame shows by its IP address which
 * port of the NIC sent or took it. The runs:
 * <ul>
 *   <li>{@code cm_port2}, rxe server: {@code ib_write_bw -R} in the VM, rocelab's client with
 *       {@code -R -i 2}: its CM binds to port 2's address, so REQ, RTU, the exchange and the
 *       WRITEs come from 10.77.0.101 and nothing RoCE from 10.77.0.100;</li>
 *   <li>{@code cm_port2}, rxe client: rocelab's server with {@code -R} (no {@code -i}: it listens on
 *       both ports), the VM's client connects to 10.77.0.101: the REQ arrives on port 2 and the REP,
 *       the exchange and the ACKs leave from there;</li>
 *   <li>{@code dualport}, both ways: rocelab's {@code ib_write_bw -O} against the VM's
 *       {@code ib_write_bw -q 2}. rxe cannot run {@code -O} itself (one port: perftest stops with
 *       " Unable to query port 2 attributes", which the VM's script records and the test checks), but
 *       perftest's exchange carries no QP count or port, only one key record per QP, so a peer with
 *       the doubled QP count takes part: rocelab's first QP talks from port 1 (10.77.0.100), its
 *       second from port 2 (10.77.0.101), both to the VM's one GID.</li>
 * </ul>
 * Each capture must decode with every ICRC good. Needs the interop harness; skips loudly without
 * it, fails under {@code CI=true}.
 */
class DualPortVsRxeInteropTest {
    private static final int VM_HOST = 1;
    private static final String VM_IP = "10.77.0." + VM_HOST;
    private static final String IP1 = "10.77.0.100";
    private static final String MAC1 = "52:54:00:77:01:64";
    private static final String IP2 = "10.77.0.101";
    private static final String MAC2 = "52:54:00:77:01:65";
    private static final int STEP_SECONDS = 60;
    private static final int BOOT_SECONDS = 180;
    private static final int VM_SECONDS = 420;
    /** As {@link RocelabVsRxeInteropTest}: qemu's socket drops bursts; 100 Mb/s towards the VM. */
    private static final double PACE_GBPS = 0.1;
    private static final int PACE_BURST_BYTES = 16 * 1024;
    private static final int ITERS = 50;
    /** perftest 4.5's BW row with two QPs: the iterations of both ({@code iters * num_of_qps}). */
    private static final Pattern ROW_ONE_QP =
            Pattern.compile("(?m)^\\s*65536\\s+" + ITERS + "\\s+[\\d.]+\\s+[\\d.]+\\s+[\\d.]+\\s*$");
    private static final Pattern ROW_TWO_QPS =
            Pattern.compile("(?m)^\\s*65536\\s+" + 2 * ITERS + "\\s+[\\d.]+\\s+[\\d.]+\\s+[\\d.]+\\s*$");

    /** One run: the VM's command (it adds nothing), rocelab's arguments, and whether the VM serves. */
    private record Step(String name, boolean vmServer, boolean rdmaCm, String vmCommand, List<String> rocelab,
                        int hostPort) {
    }

    /** What one run gave. */
    private record Outcome(int status, String out, String err, double seconds, long captured, Path pcap,
                           Map<NicCounter, Long> port1, Map<NicCounter, Long> port2, String note) {
    }

    private static final Map<String, Outcome> OUTCOMES = new LinkedHashMap<>();
    private static List<Step> steps = List.of();
    private static RxeVm vm;
    private static Optional<String> skipReason = Optional.empty();
    private static FileLock workLock;
    private static String report = "";

    private static List<Step> steps(int[] tcp) {
        String iters = " -n " + ITERS;
        return List.of(
                new Step("cm_port2-vm-server", true, true, "ib_write_bw -d rxe0 -F -R" + iters + " -p 18711",
                        List.of("-F", "-R", "-i", "2", "-n", "" + ITERS, "-p", "18711", VM_IP), 0),
                new Step("cm_port2-vm-client", false, true, "ib_write_bw -d rxe0 -F -R" + iters + " -p 18712 " + IP2,
                        List.of("-F", "-R", "-n", "" + ITERS, "-p", "18712"), 0),
                // -u 18 on rocelab's side, as in RocelabVsRxeInteropTest: the VM is slow to acknowledge
                new Step("dualport-vm-server", true, false,
                        "ib_write_bw -d rxe0 -F -x $G4 -q 2" + iters + " -p 18713",
                        List.of("-F", "-x", "1", "-O", "-n", "" + ITERS, "-u", "18", "-p", "" + tcp[0], "127.0.0.1"),
                        tcp[0]),
                new Step("dualport-vm-client", false, false,
                        "ib_write_bw -d rxe0 -F -x $G4 -q 2" + iters + " -p " + tcp[1] + " 10.0.2.2",
                        List.of("-F", "-x", "1", "-O", "-n", "" + ITERS, "-u", "18", "-p", "" + tcp[1]), tcp[1]));
    }

    /** The VM's script: rxe's own -O first (it must refuse), then each run in turn. */
    private static String script(List<Step> all) {
        StringBuilder s = new StringBuilder();
        s.append("G4=$(gid-index 4); failed=0\n");
        s.append("done_step() { echo \"$2\" > \"$1.rc\"; echo \"$1: exit $2\"; [ \"$2\" = 0 ] || failed=1; }\n");
        s.append("serve() {\n");
        s.append("  name=$1; port=$2; shift 2\n");
        s.append("  timeout ").append(STEP_SECONDS).append(" \"$@\" > \"$name.out\" 2>&1 &\n");
        s.append("  pid=$!\n");
        s.append("  if wait-listen \"$port\" 30; then touch \"$name.ready\"; fi\n");
        s.append("  wait $pid; done_step \"$name\" $?\n");
        s.append("}\n");
        s.append("serve_cm() {\n");
        s.append("  name=$1; port=$2; shift 2\n");
        s.append("  timeout ").append(STEP_SECONDS).append(" \"$@\" > \"$name.out\" 2>&1 &\n");
        s.append("  pid=$!; n=0\n");
        s.append("  until rdma res show cm_id | grep -q \"state LISTEN .*:$port \"; do\n");
        s.append("    n=$((n + 1)); [ $n -gt 300 ] && break; sleep 0.1\n");
        s.append("  done\n");
        s.append("  touch \"$name.ready\"; wait $pid; done_step \"$name\" $?\n");
        s.append("}\n");
        s.append("connect() {\n");
        s.append("  name=$1; shift\n");
        s.append("  timeout ").append(STEP_SECONDS).append(" client-retry ").append(STEP_SECONDS - 5)
                .append(" \"$@\" > \"$name.out\" 2>&1\n");
        s.append("  done_step \"$name\" $?\n");
        s.append("}\n");
        // perftest's -O on rxe's one port: it must stop at once, before it listens
        s.append("timeout 20 ib_write_bw -d rxe0 -O > rxe-dualport.out 2>&1; echo $? > rxe-dualport.rc\n");
        for (Step st : all) {
            if (st.vmServer()) {
                int port = Integer.parseInt(st.vmCommand().replaceAll(".* -p (\\d+).*", "$1"));
                s.append(st.rdmaCm() ? "serve_cm " : "serve ").append(st.name()).append(' ').append(port).append(' ')
                        .append(st.vmCommand()).append('\n');
            } else {
                s.append("connect ").append(st.name()).append(' ').append(st.vmCommand()).append('\n');
            }
        }
        s.append("exit $failed\n");
        return s.toString();
    }

    @BeforeAll
    static void runBothFeaturesBothWays() throws Exception {
        skipReason = InteropEnvironment.checkOrAnnounceSkip(DualPortVsRxeInteropTest.class.getSimpleName());
        if (skipReason.isPresent()) {
            return;
        }
        workLock = InteropEnvironment.lockWorkDir(600);
        long t0 = System.nanoTime();
        System.out.println("[interop] " + InteropEnvironment.buildImage(600));
        Path work = InteropEnvironment.workDir();
        Path captures = work.resolve("dualport-vs-rxe");
        Files.createDirectories(captures);
        int[] tcp = InteropEnvironment.freeTcpPorts(2);
        steps = steps(tcp);
        int qemuPort = InteropEnvironment.freeUdpPorts(1)[0];
        ExecutorService side = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "rocelab-interop-side");
            t.setDaemon(true);
            return t;
        });
        RealTimeScheduler scheduler = RealTimeScheduler.start("rocelab-interop-nic");
        UdpFramePort udp = null;
        try {
            udp = UdpFramePort.builder().name("rocelab-vm" + VM_HOST).localPort(0).remotePort(qemuPort)
                    .transmitRate(PACE_GBPS, PACE_BURST_BYTES).open(scheduler);
            PcapTap tap = new PcapTap(udp);
            SharedSegment segment = new SharedSegment(tap, MAC2);
            // the test owns the ports and the thread; each run's NIC takes them over, port 2 on the segment too
            NicAttachment shared = new PlainAttachment(scheduler, segment.port1(), segment.port2(),
                    "frame-over-UDP " + udp.localAddress() + " -> " + udp.remoteAddress() + ", both ports, captured",
                    () -> { }, (nic, link2) -> nic.port2(link2, MAC2, IP2));
            vm = RxeVm.start(InteropEnvironment.interopDir(), work, "dualport-vs-rxe", VM_HOST, qemuPort,
                    udp.localAddress().getPort(), VM_SECONDS, script(steps), tcp[0] + ":18713");
            try (UdpSocketDrops drops = new UdpSocketDrops(Map.of(qemuPort, "qemu (frames to the VM)",
                    udp.localAddress().getPort(), "rocelab (frames from the VM)"))) {
                boolean first = true;
                for (Step st : steps) {
                    OUTCOMES.put(st.name(), runStep(st, first, tap, shared, captures.resolve(st.name() + ".pcap"),
                            side));
                    first = false;
                }
                boolean off = vm.await(STEP_SECONDS, TimeUnit.SECONDS);
                report = "VM " + (off ? "powered off" : "still running (killed)") + "; UDP socket drops: "
                        + drops.report();
            }
        } finally {
            if (vm != null && !vm.await(1, TimeUnit.SECONDS)) {
                vm.kill();
            }
            side.shutdownNow();
            if (udp != null) {
                udp.close();
            }
            scheduler.close();
        }
        System.out.printf("[interop] dual-port vs rxe: %.1f s in all; %s%n", (System.nanoTime() - t0) / 1e9, report);
        System.out.println("[interop] vm stages: " + String.join(" | ", vm.stages()));
        System.out.print(vm.read("cmd.out").lines().map(l -> "[interop] vm   " + l + "\n").collect(Collectors.joining()));
        OUTCOMES.forEach((name, o) -> System.out.printf("[interop] %-22s rocelab exit %d, %.1f s, %d frames captured%s%n",
                name, o.status(), o.seconds(), o.captured(), o.note().isEmpty() ? "" : " (" + o.note() + ")"));
    }

    private static Outcome runStep(Step st, boolean first, PcapTap tap, NicAttachment shared, Path pcap,
                                   ExecutorService side) throws Exception {
        if (st.vmServer()) {
            String why = awaitVm(st.name() + ".ready", first ? BOOT_SECONDS : STEP_SECONDS + 30);
            if (why != null) {
                return new Outcome(-1, "", "", 0, 0, pcap, Map.of(), Map.of(), why);
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        long psnSeed = 0x0d0a_0000L + st.name().hashCode();
        OobServer listener = st.vmServer() || st.rdmaCm() ? null
                : OobServer.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), st.hostPort()));
        PerftestOptions options = PerftestTool.parse(TestKind.WRITE_BW, st.rocelab().toArray(new String[0]), o, e)
                .options();
        if (options == null) {
            throw new AssertionError(st.name() + ": rocelab refused its own command line: " + err);
        }
        NicEngine engine = new NicEngine(new NicEngine.Config(IP1, MAC1, NicOptions.DEFAULT_ACTIVE_MTU, psnSeed),
                () -> shared);
        PerftestSession session = new PerftestSession(options, engine, o, e, Duration.ofSeconds(STEP_SECONDS));
        if (listener != null) {
            session.listener(listener);
        }
        tap.start(pcap);
        long t0 = System.nanoTime();
        Future<Integer> f = side.submit(session::run);
        int status;
        String note = "";
        try {
            status = f.get(STEP_SECONDS + 30, TimeUnit.SECONDS);
        } catch (TimeoutException ex) {
            f.cancel(true);
            status = -1;
            note = "rocelab's side did not finish within " + (STEP_SECONDS + 30) + " s";
        } catch (java.util.concurrent.ExecutionException ex) {
            status = -1;
            note = "rocelab's side threw " + ex.getCause();
        } finally {
            if (listener != null) {
                listener.close();
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (!st.vmServer()) {
            awaitVm(st.name() + ".rc", 30);
        }
        long captured = tap.stop();
        boolean opened = engine.nic() != null;
        return new Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), seconds,
                captured, pcap, opened ? engine.nic().port(1).counters().snapshot() : Map.of(),
                opened && engine.nic().portCount() > 1 ? engine.nic().port(2).counters().snapshot() : Map.of(), note);
    }

    /** Waits for a file of the VM's script; returns why it did not come, or null. */
    private static String awaitVm(String file, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            if (Files.exists(vm.runDir().resolve(file))) {
                return null;
            }
            if (vm.await(0, TimeUnit.SECONDS)) {
                return "the VM powered off before " + file;
            }
            Thread.sleep(100);
        }
        return "no " + file + " from the VM within " + seconds + " s";
    }

    @BeforeEach
    void requireTheHarness() {
        InteropEnvironment.assumeRunnable(skipReason);
    }

    @AfterAll
    static void stopEverything() throws IOException {
        if (vm != null) {
            vm.kill();
        }
        if (workLock != null) {
            workLock.channel().close();
            workLock = null;
        }
    }

    private static Step step(String name) {
        return steps.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    /** Both sides exited 0 and the capture decodes; returns the decode and the context for messages. */
    private static RocelabDecode completed(Step st, String[] context) {
        Outcome o = OUTCOMES.get(st.name());
        String vmOut = vm.read(st.name() + ".out");
        String vmRc = vm.read(st.name() + ".rc").strip();
        context[0] = "\n---- rocelab (" + (st.vmServer() ? "client" : "server") + ") exit " + o.status()
                + (o.note().isEmpty() ? "" : ", " + o.note()) + ":\n" + o.out() + o.err()
                + "\n---- VM (" + (st.vmServer() ? "server" : "client") + ") exit " + (vmRc.isEmpty() ? "none" : vmRc)
                + ":\n" + vmOut + "\n---- rocelab port 1: " + nonZero(o.port1()) + "\n---- rocelab port 2: "
                + nonZero(o.port2());
        if (o.status() != 0 || !"0".equals(vmRc)) {
            fail(st.name() + " did not complete on both sides" + context[0] + "\n" + vm.diagnostics() + "\n" + report);
        }
        RocelabDecode d = RocelabDecode.run(o.pcap(), false);
        if (!d.allGood() || d.frames() != o.captured()) {
            fail(st.name() + ": rocelab decode " + o.pcap() + " exit " + d.exitCode() + ", " + d.frames()
                    + " frames of " + o.captured() + " captured, not every RoCEv2 frame good\n" + d.tail(5));
        }
        return d;
    }

    private static void expectFrames(String what, RocelabDecode d, String from, String to, String opcode) {
        Pattern p = Pattern.compile("(?m) " + Pattern.quote(from) + ":\\d+ > " + Pattern.quote(to) + ":4791 "
                + opcode + "\\S* .*ICRC OK");
        if (!p.matcher(d.out()).find()) {
            fail(what + ": the capture has no " + opcode + "* frame from " + from + " to " + to + " with a good ICRC\n"
                    + d.tail(5));
        }
    }

    private static void expectNoRoceFrom(String what, RocelabDecode d, String from) {
        Pattern p = Pattern.compile("(?m) " + Pattern.quote(from) + ":\\d+ > \\S+:4791 ");
        if (p.matcher(d.out()).find()) {
            fail(what + ": " + from + " (the other port) sent RoCE frames\n" + d.tail(5));
        }
    }

    private static void expectOutput(String what, String text, Pattern p, String context) {
        if (!p.matcher(text).find()) {
            fail(what + ": the output lacks /" + p + "/" + context);
        }
    }

    @Test
    void rdmaCmOnPortTwoAsTheClientOfRxe() {
        Step st = step("cm_port2-vm-server");
        String[] ctx = new String[1];
        RocelabDecode d = completed(st, ctx);
        expectOutput(st.name(), OUTCOMES.get(st.name()).out(), ROW_ONE_QP, ctx[0]);
        // rocelab's CM bound to port 2's address: the MADs, the exchange and the WRITEs are port 2's
        for (String m : List.of("REQ", "RTU")) {
            expectFrames(st.name(), d, IP2, VM_IP, "UD_SEND_ONLY QP 0x000001 .* CM " + m + " ");
        }
        expectFrames(st.name(), d, VM_IP, IP2, "UD_SEND_ONLY QP 0x000001 .* CM REP ");
        expectFrames(st.name(), d, IP2, VM_IP, "RC_SEND_ONLY");
        expectFrames(st.name(), d, IP2, VM_IP, "RC_RDMA_WRITE_");
        expectFrames(st.name(), d, VM_IP, IP2, "RC_ACKNOWLEDGE");
        expectNoRoceFrom(st.name(), d, IP1);
    }

    @Test
    void rdmaCmRequestToPortTwoAnsweredOnPortTwo() {
        Step st = step("cm_port2-vm-client");
        String[] ctx = new String[1];
        RocelabDecode d = completed(st, ctx);
        expectOutput(st.name(), vm.read(st.name() + ".out"), ROW_ONE_QP, ctx[0]);
        // the VM connected to port 2's address: rocelab's server (listening on both ports) answered there
        expectFrames(st.name(), d, VM_IP, IP2, "UD_SEND_ONLY QP 0x000001 .* CM REQ ");
        expectFrames(st.name(), d, IP2, VM_IP, "UD_SEND_ONLY QP 0x000001 .* CM REP ");
        expectFrames(st.name(), d, VM_IP, IP2, "RC_RDMA_WRITE_");
        expectFrames(st.name(), d, IP2, VM_IP, "RC_ACKNOWLEDGE");
        expectNoRoceFrom(st.name(), d, IP1);
    }

    @Test
    void dualPortClientAgainstRxeWithTwoQps() {
        Step st = step("dualport-vm-server");
        String[] ctx = new String[1];
        RocelabDecode d = completed(st, ctx);
        String out = OUTCOMES.get(st.name()).out();
        expectOutput(st.name(), out, Pattern.compile(" Dual-port       : ON\t\tDevice         : rocelab0\n"
                + " Number of qps   : 2\t\t"), ctx[0]);
        expectOutput(st.name(), out, ROW_TWO_QPS, ctx[0]);
        // the first QP from port 1, the second from port 2, both to rxe's one GID
        for (String from : List.of(IP1, IP2)) {
            expectFrames(st.name(), d, from, VM_IP, "RC_RDMA_WRITE_");
            expectFrames(st.name(), d, VM_IP, from, "RC_ACKNOWLEDGE");
        }
    }

    @Test
    void dualPortServerAgainstRxeWithTwoQps() {
        Step st = step("dualport-vm-client");
        String[] ctx = new String[1];
        RocelabDecode d = completed(st, ctx);
        expectOutput(st.name(), OUTCOMES.get(st.name()).out(), Pattern.compile(" Dual-port       : ON\t\t"), ctx[0]);
        expectOutput(st.name(), vm.read(st.name() + ".out"), ROW_TWO_QPS, ctx[0]);
        // rxe's two QPs write to rocelab's two ports, each at the GID its key record named
        for (String to : List.of(IP1, IP2)) {
            expectFrames(st.name(), d, VM_IP, to, "RC_RDMA_WRITE_");
            expectFrames(st.name(), d, to, VM_IP, "RC_ACKNOWLEDGE");
        }
    }

    /**
     * Real perftest's {@code -O} on rxe (one port) stops with the words rocelab's one-port NIC uses
     * for it, which is why rxe takes part in the dual-port runs with {@code -q 2} instead.
     */
    @Test
    void rxeItselfCannotRunDualPortModeAndSaysSoAsRocelabDoes() {
        String out = vm.read("rxe-dualport.out");
        String rc = vm.read("rxe-dualport.rc").strip();
        if (rc.isEmpty() || "0".equals(rc) || !out.contains(" Unable to query port 2 attributes\n")) {
            fail("rxe's ib_write_bw -O should fail with \" Unable to query port 2 attributes\"; exit " + rc + ":\n" + out
                    + "\n" + vm.diagnostics());
        }
    }

    private static String nonZero(Map<NicCounter, Long> counters) {
        return counters.entrySet().stream().filter(en -> en.getValue() != 0)
                .map(en -> en.getKey().name().toLowerCase() + "=" + en.getValue()).collect(Collectors.joining(" "));
    }

    @Test
    void theVmRanEveryStepAndPoweredOff() {
        Optional<Integer> rc = vm.exitCode();
        if (rc.isEmpty() || rc.get() != 0) {
            fail("the VM's script did not exit 0 (" + rc.map(String::valueOf).orElse("no exit code") + ")\n"
                    + vm.diagnostics() + "\n" + report);
        }
    }
}
