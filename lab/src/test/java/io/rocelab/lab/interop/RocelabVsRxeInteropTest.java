package io.rocelab.lab.interop;

import static org.junit.jupiter.api.Assertions.fail;

import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.fabric.udp.UdpFramePort;
import io.rocelab.nic.stats.NicCounter;
import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.cli.PerftestOptions;
import io.rocelab.perftest.nic.NicAttachment;
import io.rocelab.perftest.nic.NicEngine;
import io.rocelab.perftest.nic.NicOptions;
import io.rocelab.perftest.nic.PingpongTool;
import io.rocelab.perftest.nic.PlainAttachment;
import io.rocelab.perftest.oob.OobServer;
import io.rocelab.perftest.pingpong.PingpongKind;
import io.rocelab.perftest.pingpong.PingpongOptions;
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
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * rocelab's own soft NIC and tools against real Linux Soft-RoCE: one qemu VM (Debian's kernel,
 * rdma_rxe on eth0, 10.77.0.1) runs rdma-core's {@code ibv_rc_pingpong}, {@code ibv_uc_pingpong},
 * {@code ibv_ud_pingpong} and perftest's {@code ib_write_bw}, {@code ib_read_bw},
 * {@code ib_send_bw} (also over rdma_cm) and the four latency tools {@code ib_write_lat},
 * {@code ib_read_lat}, {@code ib_send_lat}, {@code ib_atomic_lat}; this JVM runs rocelab's
 * {@code ibv_*_pingpong} / {@code ib_*_bw} / {@code ib_*_lat} on a soft
 * NIC (10.77.0.100, its own MAC) whose frames go to the VM's {@code -netdev socket,udp=} link. Each tool runs twice: the real tool as server
 * and rocelab as client, then rocelab as server and the real tool as client. Two tools run over
 * IPv6 as well: {@code ibv_rc_pingpong} between the global GIDs (rxe's fd77::1, rocelab's
 * {@code --ip6 fd77::100}, GID index 2 on both) and {@code ib_write_bw --ipv6}, which on both sides
 * picks the link-local GID 0.
 *
 * <p>The tools' TCP exchange goes over a second NIC of the VM on qemu's user networking
 * ({@code boot-vm.sh --oob}): rocelab's clients reach the VM's servers through qemu's forwards of
 * 127.0.0.1 ports, the VM's clients reach rocelab's servers at 10.0.2.2. Only RoCE crosses the
 * UDP link, and every frame of it, both directions, is captured on the JVM's side into one pcap
 * per run, which {@code rocelab decode} must read with every ICRC good.
 *
 * <p>qemu's receive socket drops datagrams when frames come in bursts (the NIC sends up to
 * perftest's TX depth at once); both NICs repair that by go-back-N retransmission, so the runs
 * take the drops as part of the wire, and the report prints how many there were.
 *
 * <p>Needs qemu, Debian's kernel and the RDMA tools ({@code interop/install-deps.sh}); without them
 * it skips loudly, or fails under {@code CI=true}.
 */
class RocelabVsRxeInteropTest {
    private static final int VM_HOST = 1;
    private static final String VM_IP = "10.77.0." + VM_HOST;
    private static final String ROCELAB_IP = "10.77.0.100";
    /** The NIC's global IPv6 address ({@code --ip6}), GID index 2 as the VM's fd77::1 is on rxe0. */
    private static final String ROCELAB_IP6 = "fd77::100";
    private static final String ROCELAB_MAC = "52:54:00:77:01:64";
    /** Per run: the VM's limit for its tool, and this JVM's for its side. */
    private static final int STEP_SECONDS = 60;
    /** The first run also waits for the VM to boot. */
    private static final int BOOT_SECONDS = 180;
    private static final int VM_SECONDS = 600;
    /**
     * rocelab's frames to the VM are paced: the VM handles RoCE at ~10-15 MB/s under TCG, and a NIC
     * ~1000 times faster sending perftest's TX depth at once overflows qemu's socket; go-back-N then
     * resends whole windows the VM is still working through as duplicates (rxe acknowledges each
     * one), the backlog grows, and rocelab's 67 ms timer runs out of retries
     * (IBV_WC_RETRY_EXC_ERR, seen in ib_send_bw at load 10). 100 Mb/s is below the VM's pace; a
     * burst of 16 KB covers the pacer's ~1 ms timer.
     */
    private static final double PACE_GBPS = 0.1;
    private static final int PACE_BURST_BYTES = 16 * 1024;
    private static final int PINGPONG_ITERS = 100;
    private static final int BW_ITERS = 50;
    /** One message in flight per side: 200 round trips take ~0.1-0.3 s under TCG. */
    private static final int LAT_ITERS = 200;

    /** Which GIDs a tool's RoCEv2 packets run between, and so which addresses the capture shows. */
    private enum Gids {
        /** GID index 1 on both: IPv4. */
        IPV4(VM_IP, ROCELAB_IP, true),
        /** GID index 2 on both (rxe's {@code gid-index 6}, rocelab's {@code --ip6}): the global IPv6 addresses. */
        IPV6_GLOBAL("fd77::" + VM_HOST, ROCELAB_IP6, false),
        /** perftest's {@code --ipv6} on both: GID index 0 on rxe and on rocelab, the link-local addresses. */
        IPV6_LINK_LOCAL("fe80::5054:ff:fe77:" + VM_HOST, "fe80::5054:ff:fe77:164", false);

        final String vm;
        final String rocelab;
        /** As pingpong prints the GID: {@code ::ffff:10.77.0.1}, or the IPv6 address itself. */
        final boolean mapped;

        Gids(String vm, String rocelab, boolean mapped) {
            this.vm = vm;
            this.rocelab = rocelab;
            this.mapped = mapped;
        }
    }

    /** A tool, as the VM runs it and as rocelab runs it, and what its capture must hold. */
    private record Tool(String name, String vmCommand, String[] rocelabArgs, PingpongKind pingpong, TestKind perftest,
                        List<Pattern> output, String clientSends, String serverSends, boolean rdmaCm, Gids gids) {
    }

    /** One run: a tool with the real one on one side and rocelab on the other. */
    private record Step(Tool tool, boolean vmServer, int guestPort, int hostPort) {
        String name() {
            return tool.name() + (vmServer ? "-vm-server" : "-vm-client");
        }

        String title() {
            return tool.name() + (vmServer ? ": rxe server, rocelab client" : ": rocelab server, rxe client");
        }
    }

    /** What one run gave. */
    private record Outcome(int status, String out, String err, double seconds, long captured, Path pcap,
                           Map<NicCounter, Long> nicCounters, String note) {
    }

    private static final Pattern PINGPONG_BYTES =
            Pattern.compile("(?m)^\\d+ bytes in [\\d.]+ seconds = [\\d.]+ Mbit/sec$");
    private static final Pattern PINGPONG_ITERS_LINE =
            Pattern.compile("(?m)^" + PINGPONG_ITERS + " iters in [\\d.]+ seconds = [\\d.]+ usec/iter$");

    private static final List<Tool> TOOLS = List.of(
            pingpong("rc_pingpong", PingpongKind.RC, "", "RC_SEND_"),
            // UC and UD do not retransmit: a frame qemu drops would stall these two runs (and fail
            // them at the step's limit); one message in flight per side is far below the bursts
            // that make qemu drop, so the runs are kept short rather than paced
            pingpong("uc_pingpong", PingpongKind.UC, "", "UC_SEND_"),
            pingpong("ud_pingpong", PingpongKind.UD, " -s 512", "UD_SEND_ONLY"),
            perftest("write_bw", "ib_write_bw", TestKind.WRITE_BW, "RC_RDMA_WRITE_", "RC_ACKNOWLEDGE"),
            perftest("read_bw", "ib_read_bw", TestKind.READ_BW, "RC_RDMA_READ_REQUEST", "RC_RDMA_READ_RESPONSE_"),
            perftest("send_bw", "ib_send_bw", TestKind.SEND_BW, "RC_SEND_", "RC_ACKNOWLEDGE"),
            perftestCm("write_bw_cm", "ib_write_bw", TestKind.WRITE_BW, "RC_RDMA_WRITE_", "RC_ACKNOWLEDGE"),
            perftestCm("read_bw_cm", "ib_read_bw", TestKind.READ_BW, "RC_RDMA_READ_REQUEST", "RC_RDMA_READ_RESPONSE_"),
            perftestCm("send_bw_cm", "ib_send_bw", TestKind.SEND_BW, "RC_SEND_", "RC_ACKNOWLEDGE"),
            // ib_write_lat: each side writes its count into the last byte of the other's buffer,
            // the server first (perftest's run_iter_lat_write), so both send WRITEs
            latency("write_lat", "ib_write_lat", TestKind.WRITE_LAT, 2, "RC_RDMA_WRITE_ONLY", "RC_RDMA_WRITE_ONLY"),
            latency("read_lat", "ib_read_lat", TestKind.READ_LAT, 2, "RC_RDMA_READ_REQUEST",
                    "RC_RDMA_READ_RESPONSE_ONLY"),
            latency("send_lat", "ib_send_lat", TestKind.SEND_LAT, 2, "RC_SEND_ONLY", "RC_SEND_ONLY"),
            latency("atomic_lat", "ib_atomic_lat", TestKind.ATOMIC_LAT, 8, "RC_FETCH_ADD", "RC_ATOMIC_ACKNOWLEDGE"),
            // IPv6: the global GIDs (GID index 2, rocelab's --ip6) and perftest's --ipv6 (GID 0)
            pingpong6("rc_pingpong6"),
            perftestIpv6("write_bw6"));

    /** A pingpong tool, with -c: the server checks the first byte of each page the client sent. */
    private static Tool pingpong(String name, PingpongKind kind, String extra, String sends) {
        List<String> args = new ArrayList<>(List.of("-g", "1", "-n", String.valueOf(PINGPONG_ITERS), "-c"));
        if (!extra.isEmpty()) {
            args.addAll(List.of(extra.strip().split(" ")));
        }
        return new Tool(name, kind.toolName() + " -g $G4 -n " + PINGPONG_ITERS + " -c" + extra,
                args.toArray(new String[0]), kind, null, List.of(PINGPONG_BYTES, PINGPONG_ITERS_LINE), sends, sends,
                false, Gids.IPV4);
    }

    /** rc_pingpong over the global IPv6 GIDs: rxe's fd77::1 (gid-index 6) and rocelab's --ip6 (GID 2). */
    private static Tool pingpong6(String name) {
        return new Tool(name, "ibv_rc_pingpong -g $G6 -n " + PINGPONG_ITERS + " -c",
                new String[] {"-g", "2", "-n", String.valueOf(PINGPONG_ITERS), "-c"}, PingpongKind.RC, null,
                List.of(PINGPONG_BYTES, PINGPONG_ITERS_LINE), "RC_SEND_", "RC_SEND_", false, Gids.IPV6_GLOBAL);
    }

    private static Tool perftest(String name, String tool, TestKind kind, String clientSends, String serverSends) {
        // perftest's result row: #bytes #iterations BW peak BW average MsgRate (the client's; both for send)
        Pattern row = Pattern.compile("(?m)^\\s*65536\\s+" + BW_ITERS + "\\s+[\\d.]+\\s+[\\d.]+\\s+[\\d.]+\\s*$");
        // rocelab's side: -u 18, a local ACK timeout of 1.07 s instead of 67 ms (perftest's 14). The
        // VM answers ~1000 times slower than hardware, and at load 10+ a 64 KiB message can take it
        // over 100 ms; with 67 ms rocelab resent windows the VM was still working through, each
        // duplicate it then acknowledged one by one, and the retries ran out (IBV_WC_RETRY_EXC_ERR).
        // Losses are still repaired at once by rxe's sequence NAKs; only a lost tail waits for the timer.
        return new Tool(name, tool + " -d rxe0 -F -x $G4 -n " + BW_ITERS,
                new String[] {"-F", "-x", "1", "-n", String.valueOf(BW_ITERS), "-u", "18"}, null, kind, List.of(row),
                clientSends, serverSends, false, Gids.IPV4);
    }

    /**
     * ib_write_bw with perftest's {@code --ipv6} on both sides and no {@code -x}: perftest 4.5's
     * automatic choice then prefers an IPv6 GID, index 0 (the link-local one) on rxe's table and on
     * rocelab's, which both print as their GID index.
     */
    private static Tool perftestIpv6(String name) {
        Pattern row = Pattern.compile("(?m)^\\s*65536\\s+" + BW_ITERS + "\\s+[\\d.]+\\s+[\\d.]+\\s+[\\d.]+\\s*$");
        return new Tool(name, "ib_write_bw -d rxe0 -F --ipv6 -n " + BW_ITERS,
                new String[] {"-F", "--ipv6", "-n", String.valueOf(BW_ITERS), "-u", "18"}, null, TestKind.WRITE_BW,
                List.of(row), "RC_RDMA_WRITE_", "RC_ACKNOWLEDGE", false, Gids.IPV6_LINK_LOCAL);
    }

    /**
     * A perftest latency tool (2 bytes, 8 for atomics), one message in flight, so no pacing matters
     * and perftest's ACK timeout stays. The row: #bytes #iterations t_min t_max t_typical t_avg
     * t_stdev 99% 99.9%; perftest in the VM turns cycles into µs with a CPU clock it measures
     * itself, and under TCG that can fail ("Correlation coefficient r^2 < 0.9") and print the times
     * as inf/-nan with every iteration still done, so the row proves completion either way.
     */
    private static Tool latency(String name, String tool, TestKind kind, int bytes, String clientSends,
                                String serverSends) {
        Pattern row = Pattern.compile("(?m)^\\s*" + bytes + "\\s+" + LAT_ITERS
                + "(\\s+(?:[\\d.]+|inf|-?nan)){7}\\s*$");
        return new Tool(name, tool + " -d rxe0 -F -x $G4 -n " + LAT_ITERS,
                new String[] {"-F", "-x", "1", "-n", String.valueOf(LAT_ITERS)}, null, kind, List.of(row),
                clientSends, serverSends, false, Gids.IPV4);
    }

    /**
     * A perftest tool with {@code -R}: no TCP at all; rdma_cm connects the exchange's QP and the data
     * QPs with CM MADs on QP1, and the exchange runs as SENDs over RoCE. rdma_cm sets the QPs' ACK
     * timeout itself (2.1 s), so no {@code -u}.
     */
    private static Tool perftestCm(String name, String tool, TestKind kind, String clientSends, String serverSends) {
        Pattern row = Pattern.compile("(?m)^\\s*65536\\s+" + BW_ITERS + "\\s+[\\d.]+\\s+[\\d.]+\\s+[\\d.]+\\s*$");
        return new Tool(name, tool + " -d rxe0 -F -R -n " + BW_ITERS,
                new String[] {"-F", "-R", "-n", String.valueOf(BW_ITERS)}, null, kind, List.of(row), clientSends,
                serverSends, true, Gids.IPV4);
    }

    private static List<Step> steps = List.of();
    private static final Map<String, Outcome> OUTCOMES = new LinkedHashMap<>();
    private static RxeVm vm;
    private static Optional<String> skipReason = Optional.empty();
    private static FileLock workLock;
    private static String report = "";

    /** The VM's script: each run in turn; a server run says when it listens (NAME.ready). */
    private static String script(List<Step> all) {
        StringBuilder s = new StringBuilder();
        s.append("G4=$(gid-index 4); G6=$(gid-index 6); failed=0\n");
        s.append("done_step() {\n");
        s.append("  echo \"$2\" > \"$1.rc\"\n");
        s.append("  echo \"$1: exit $2, uptime $3 -> $(cut -d' ' -f1 /proc/uptime) s\"\n");
        s.append("  [ \"$2\" = 0 ] || failed=1\n");
        s.append("}\n");
        s.append("serve() {\n");
        s.append("  name=$1; port=$2; shift 2; t0=$(cut -d' ' -f1 /proc/uptime)\n");
        s.append("  timeout ").append(STEP_SECONDS).append(" \"$@\" > \"$name.out\" 2>&1 &\n");
        s.append("  pid=$!\n");
        s.append("  if wait-listen \"$port\" 30; then touch \"$name.ready\"; else echo \"$name: nothing listens on $port\"; fi\n");
        s.append("  wait $pid; done_step \"$name\" $? \"$t0\"\n");
        s.append("}\n");
        // rdma_cm has no socket for wait-listen: the server listens once rdma shows its cm_id listening
        s.append("serve_cm() {\n");
        s.append("  name=$1; port=$2; shift 2; t0=$(cut -d' ' -f1 /proc/uptime)\n");
        s.append("  timeout ").append(STEP_SECONDS).append(" \"$@\" > \"$name.out\" 2>&1 &\n");
        s.append("  pid=$!; n=0\n");
        s.append("  until rdma res show cm_id | grep -q \"state LISTEN .*:$port \"; do\n");
        s.append("    n=$((n + 1)); [ $n -gt 300 ] && break; sleep 0.1\n");
        s.append("  done\n");
        s.append("  if [ $n -le 300 ]; then touch \"$name.ready\"; else echo \"$name: no rdma_cm listener on $port\"; fi\n");
        s.append("  wait $pid; done_step \"$name\" $? \"$t0\"\n");
        s.append("}\n");
        s.append("connect() {\n");
        s.append("  name=$1; shift; t0=$(cut -d' ' -f1 /proc/uptime)\n");
        s.append("  timeout ").append(STEP_SECONDS).append(" client-retry ").append(STEP_SECONDS - 5)
                .append(" \"$@\" > \"$name.out\" 2>&1\n");
        s.append("  done_step \"$name\" $? \"$t0\"\n");
        s.append("}\n");
        for (Step st : all) {
            if (st.vmServer()) {
                s.append(st.tool().rdmaCm() ? "serve_cm " : "serve ").append(st.name()).append(' ')
                        .append(st.guestPort()).append(' ')
                        .append(st.tool().vmCommand()).append(" -p ").append(st.guestPort()).append('\n');
            } else {
                // -R: the VM's client connects through rdma_cm to rocelab's NIC itself, not over TCP
                s.append("connect ").append(st.name()).append(' ').append(st.tool().vmCommand()).append(" -p ")
                        .append(st.hostPort()).append(st.tool().rdmaCm() ? " " + ROCELAB_IP : " 10.0.2.2").append('\n');
            }
        }
        s.append("exit $failed\n");
        return s.toString();
    }

    @BeforeAll
    static void runEveryToolBothWays() throws Exception {
        skipReason = InteropEnvironment.checkOrAnnounceSkip(RocelabVsRxeInteropTest.class.getSimpleName());
        if (skipReason.isPresent()) {
            return;
        }
        workLock = InteropEnvironment.lockWorkDir(600);
        long t0 = System.nanoTime();
        System.out.println("[interop] " + InteropEnvironment.buildImage(600));
        Path work = InteropEnvironment.workDir();
        Path captures = work.resolve("rocelab-vs-rxe");
        Files.createDirectories(captures);

        int[] tcp = InteropEnvironment.freeTcpPorts(2 * TOOLS.size());
        List<Step> all = new ArrayList<>();
        List<String> forwards = new ArrayList<>();
        for (int i = 0; i < TOOLS.size(); i++) {
            int guest = 18601 + i;
            all.add(new Step(TOOLS.get(i), true, guest, tcp[2 * i]));
            if (!TOOLS.get(i).rdmaCm()) {
                forwards.add(tcp[2 * i] + ":" + guest);
            }
            all.add(new Step(TOOLS.get(i), false, 0, tcp[2 * i + 1]));
        }
        steps = List.copyOf(all);

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
            NicAttachment shared = shared(scheduler, tap, udp);
            vm = RxeVm.start(InteropEnvironment.interopDir(), work, "rocelab-vs-rxe", VM_HOST, qemuPort,
                    udp.localAddress().getPort(), VM_SECONDS, script(steps), String.join(",", forwards));
            try (UdpSocketDrops drops = new UdpSocketDrops(Map.of(qemuPort, "qemu (frames to the VM)",
                    udp.localAddress().getPort(), "rocelab (frames from the VM)"))) {
                boolean first = true;
                for (Step st : steps) {
                    Path pcap = captures.resolve(st.name() + ".pcap");
                    OUTCOMES.put(st.name(), runStep(st, first, tap, shared, pcap, side));
                    first = false;
                }
                boolean off = vm.await(STEP_SECONDS, TimeUnit.SECONDS);
                report = "VM " + (off ? "powered off" : "still running (killed)") + "; UDP socket drops: " + drops.report();
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
        System.out.printf("[interop] rocelab vs rxe: %.1f s in all; %s%n", (System.nanoTime() - t0) / 1e9, report);
        System.out.println("[interop] vm stages: " + String.join(" | ", vm.stages()));
        System.out.print(vm.read("cmd.out").lines().map(l -> "[interop] vm   " + l + "\n").collect(Collectors.joining()));
        OUTCOMES.forEach((name, o) -> System.out.printf("[interop] %-24s rocelab exit %d, %.1f s, %d frames captured%s%n",
                name, o.status(), o.seconds(), o.captured(), o.note().isEmpty() ? "" : " (" + o.note() + ")"));
    }

    /** The one UDP port and NIC thread every run's NIC plugs into; the runs never close them. */
    private static NicAttachment shared(Scheduler scheduler, FramePort port, UdpFramePort udp) {
        // the test owns the port and the thread; the next run's NIC takes them over
        return PlainAttachment.borrowed(scheduler, port,
                "frame-over-UDP " + udp.localAddress() + " -> " + udp.remoteAddress() + ", captured");
    }

    /** Runs rocelab's side of one step (waiting for the VM's server first), capturing its frames. */
    private static Outcome runStep(Step st, boolean first, PcapTap tap, NicAttachment shared, Path pcap,
                                   ExecutorService side) throws Exception {
        if (st.vmServer()) {
            String why = awaitVmServer(st, first ? BOOT_SECONDS : STEP_SECONDS + 30);
            if (why != null) {
                return new Outcome(-1, "", "", 0, 0, pcap, Map.of(), why);
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        // a PSN seed of its own per run: every run's NIC starts at QPN 0x11 on the same address, so
        // different first PSNs keep a late frame of one run from passing for one of the next
        long psnSeed = 0x5eed_0000L + st.hostPort();
        NicOptions nic = new NicOptions(NicOptions.DataPath.UDP_FRAME, 0, null, 0, ROCELAB_IP, ROCELAB_MAC,
                NicOptions.DEFAULT_ACTIVE_MTU, psnSeed, false, List.of(ROCELAB_IP6), null,
                NicOptions.DEFAULT_CAPTURE_FRAMES);
        boolean cm = st.tool().rdmaCm();
        OobServer listener = st.vmServer() || cm ? null
                : OobServer.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), st.hostPort()));
        List<String> args = new ArrayList<>(List.of(st.tool().rocelabArgs()));
        if (cm) {
            // rdma_cm: the VM's rdma_cm port, at the VM's own address on the RoCE link
            args.addAll(st.vmServer() ? List.of("-p", String.valueOf(st.guestPort()), VM_IP)
                    : List.of("-p", String.valueOf(st.hostPort())));
        } else if (st.vmServer()) {
            args.addAll(List.of("-p", String.valueOf(st.hostPort()), "127.0.0.1"));
        }
        NicEngine[] engine = new NicEngine[1];
        Callable<Integer> run;
        if (st.tool().pingpong() != null) {
            PingpongOptions options = PingpongOptions.parse(st.tool().pingpong(), args.toArray(new String[0]));
            run = () -> PingpongTool.run(options, nic, server -> shared, o, e, Duration.ofSeconds(STEP_SECONDS),
                    listener);
        } else {
            PerftestOptions options = PerftestTool.parse(st.tool().perftest(), args.toArray(new String[0]), o, e)
                    .options();
            if (options == null) {
                throw new AssertionError(st.title() + ": rocelab refused its own command line: " + err);
            }
            engine[0] = new NicEngine(new NicEngine.Config(ROCELAB_IP, ROCELAB_MAC, NicOptions.DEFAULT_ACTIVE_MTU,
                    psnSeed, List.of(ROCELAB_IP6)), () -> shared);
            PerftestSession session = new PerftestSession(options, engine[0], o, e, Duration.ofSeconds(STEP_SECONDS));
            if (listener != null) {
                session.listener(listener);
            }
            run = session::run;
        }
        tap.start(pcap);
        long t0 = System.nanoTime();
        Future<Integer> f = side.submit(run);
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
            // the VM's client writes its result after the last exchange with rocelab's server
            awaitVmFile(st.name() + ".rc", 30);
        }
        long captured = tap.stop();
        Map<NicCounter, Long> counters = engine[0] != null && engine[0].nic() != null
                ? engine[0].nic().counters().snapshot() : Map.of();
        return new Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), seconds,
                captured, pcap, counters, note);
    }

    /** Waits until the VM's server listens; returns why not, or null. */
    private static String awaitVmServer(Step st, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            if (Files.exists(vm.runDir().resolve(st.name() + ".ready"))) {
                return null;
            }
            if (Files.exists(vm.runDir().resolve(st.name() + ".rc"))) {
                return "the VM's server exited before it listened";
            }
            if (vm.await(0, TimeUnit.SECONDS)) {
                return "the VM powered off before its server listened";
            }
            Thread.sleep(100);
        }
        return "the VM's server did not listen within " + seconds + " s";
    }

    private static void awaitVmFile(String file, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline && !Files.exists(vm.runDir().resolve(file))
                && !vm.await(0, TimeUnit.SECONDS)) {
            Thread.sleep(100);
        }
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

    @TestFactory
    Stream<DynamicTest> eachToolRanBothWaysAndItsCaptureDecodes() {
        return steps.stream().map(st -> DynamicTest.dynamicTest(st.title(), () -> check(st)));
    }

    private static void check(Step st) {
        Outcome o = OUTCOMES.get(st.name());
        String vmOut = vm.read(st.name() + ".out");
        String vmRc = vm.read(st.name() + ".rc").strip();
        String both = "\n---- rocelab (" + (st.vmServer() ? "client" : "server") + ") exit " + o.status()
                + (o.note().isEmpty() ? "" : ", " + o.note()) + ":\n" + o.out() + o.err()
                + "\n---- VM (" + (st.vmServer() ? "server" : "client") + ") exit " + (vmRc.isEmpty() ? "none" : vmRc)
                + ":\n" + vmOut + "\n---- rocelab NIC counters: " + nonZero(o.nicCounters());
        if (o.status() != 0 || !"0".equals(vmRc)) {
            fail(st.title() + " did not complete on both sides" + both + "\n" + vm.diagnostics() + "\n" + report);
        }
        // the client prints the result lines; pingpong's server, ib_send_bw's (the receiver) and the
        // ping-pong latency tools' (ib_write_lat, ib_send_lat) too
        TestKind kind = st.tool().perftest();
        boolean serverReports = st.tool().pingpong() != null || kind == TestKind.SEND_BW
                || kind == TestKind.WRITE_LAT || kind == TestKind.SEND_LAT;
        boolean rocelabReports = st.vmServer() || serverReports;
        boolean vmReports = !st.vmServer() || serverReports;
        Gids gids = st.tool().gids();
        List<Pattern> expected = new ArrayList<>(st.tool().output());
        if (st.tool().pingpong() != null) {
            expected.add(Pattern.compile("(?m)^  remote address: LID 0x0000, QPN 0x[0-9a-f]{6}, PSN 0x[0-9a-f]{6}, GID "
                    + (gids.mapped ? "::ffff:" : "") + "PEER$"));
        }
        if (gids == Gids.IPV6_LINK_LOCAL) {
            // --ipv6 without -x: perftest's choice, on both sides, is the link-local GID
            for (String side : List.of(o.out(), vmOut)) {
                if (!side.contains(" GID index       : 0\n")) {
                    fail(st.title() + ": with --ipv6 both sides should use GID index 0" + both);
                }
            }
        }
        for (Pattern p : expected) {
            Pattern forRocelab = Pattern.compile(p.pattern().replace("PEER", Pattern.quote(gids.vm)));
            Pattern forVm = Pattern.compile(p.pattern().replace("PEER", Pattern.quote(gids.rocelab)));
            if (rocelabReports && !forRocelab.matcher(o.out()).find()) {
                fail(st.title() + ": rocelab's output lacks /" + forRocelab + "/" + both);
            }
            if (vmReports && !forVm.matcher(vmOut).find()) {
                fail(st.title() + ": the VM's output lacks /" + forVm + "/" + both);
            }
        }
        if (st.tool().pingpong() != null && (o.out().contains("invalid data") || vmOut.contains("invalid data"))) {
            fail(st.title() + ": the server's check of the received buffer (-c) failed" + both);
        }
        RocelabDecode d = RocelabDecode.run(o.pcap(), false);
        if (!d.allGood()) {
            String problems = d.out().lines().filter(l -> l.contains("ICRC BAD") || l.contains("malformed"))
                    .limit(10).collect(Collectors.joining("\n"));
            fail(st.title() + ": rocelab decode " + o.pcap() + " exit " + d.exitCode() + ", not every RoCEv2 frame"
                    + " well-formed with a good ICRC:\n" + problems + "\n" + d.tail(3));
        }
        if (d.frames() != o.captured()) {
            fail(st.title() + ": the capture holds " + d.frames() + " frames, the tap wrote " + o.captured());
        }
        // what each NIC put on the wire: the client's requests and the server's answers, both ways
        String client = st.vmServer() ? gids.rocelab : gids.vm;
        String server = st.vmServer() ? gids.vm : gids.rocelab;
        expectFrames(st, d, client, server, st.tool().clientSends());
        expectFrames(st, d, server, client, st.tool().serverSends());
        if (st.tool().rdmaCm()) {
            // rdma_cm: the CM's MADs on QP1 (REQ/REP/RTU for the exchange's QP and the data QP;
            // DREQs answered by DREPs, from whichever side disconnects first: perftest's client
            // disconnects the data QP, its server the data QP and the exchange's), and the exchange
            // as RC SENDs both ways
            for (String m : List.of("REQ", "RTU")) {
                expectFrames(st, d, client, server, "UD_SEND_ONLY QP 0x000001 .* CM " + m + " ");
            }
            expectFrames(st, d, server, client, "UD_SEND_ONLY QP 0x000001 .* CM REP ");
            for (String m : List.of("DREQ", "DREP")) {
                Pattern either = Pattern.compile("(?m) (" + Pattern.quote(client) + "|" + Pattern.quote(server)
                        + "):\\d+ > \\S+:4791 UD_SEND_ONLY QP 0x000001 .* CM " + m + " .*ICRC OK");
                if (!either.matcher(d.out()).find()) {
                    fail(st.title() + ": the capture has no CM " + m + " with a good ICRC\n" + d.tail(8));
                }
            }
            expectFrames(st, d, client, server, "RC_SEND_ONLY");
            expectFrames(st, d, server, client, "RC_SEND_ONLY");
        }
    }

    private static void expectFrames(Step st, RocelabDecode d, String from, String to, String opcode) {
        // decode writes 10.77.0.1:4791 for IPv4 and fd77::1.4791 for IPv6, as tcpdump does
        String port = from.contains(":") ? "\\." : ":";
        Pattern p = Pattern.compile("(?m) " + Pattern.quote(from) + port + "\\d+ > " + Pattern.quote(to) + port + "4791 "
                + opcode + "\\S* .*ICRC OK");
        if (!p.matcher(d.out()).find()) {
            fail(st.title() + ": the capture has no " + opcode + "* frame from " + from + " to " + to + " with a good ICRC"
                    + "\n" + d.tail(5));
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
