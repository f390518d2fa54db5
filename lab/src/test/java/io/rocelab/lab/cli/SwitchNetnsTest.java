package io.rocelab.lab.cli;

import static io.rocelab.lab.cli.HostCommands.find;
import static io.rocelab.lab.cli.HostCommands.quietly;
import static io.rocelab.lab.cli.HostCommands.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.rocelab.fabric.raw.RawEthernetPort;
import io.rocelab.fabric.time.RealTimeScheduler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rocelab switch} on real interfaces, as a user runs it: the switch process in a network
 * namespace of its own with its ports on two veth ends ({@code --port Ethernet0=veth:...}, AF_PACKET,
 * and {@code Ethernet4=pcap:...}, libpcap); the
 * other ends first in this test's namespace, where raw ports inject frames and watch what comes
 * out, then in two namespaces of their own that ping each other through the switch. Needs root,
 * iproute2 and ping (CI has them); elsewhere it skips, loudly, unless CI=true, where it fails.
 */
@Tag("realtime")
@Timeout(180)
class SwitchNetnsTest {
    private static final int ETHERTYPE = 0x88B5;
    private static final byte[] MAC_A = {0x02, 0, 0, 0x53, 0x57, 0x01};
    private static final byte[] MAC_B = {0x02, 0, 0, 0x53, 0x57, 0x02};
    private static final String IP = find("ip");
    private static final String PING = find("ping");
    private static final String ETHTOOL = find("ethtool");
    private static final String IPERF3 = find("iperf3");
    private static final Pattern BW_LINE = Pattern.compile("(?m)^ 4096\\s+300\\s+(-?[0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)\\s*$");
    private static final Pattern DECODE_TOTAL = Pattern.compile(
            "(\\d+) frames: (\\d+) RoCEv2 \\((\\d+) ICRC OK, (\\d+) ICRC bad\\), (\\d+) malformed");
    private static final Pattern IFACE_ROW = Pattern.compile("(?m)^\\s*(Ethernet\\d+)\\s+U\\s+(\\d+)(?:\\s+\\S+){5}\\s+(\\d+)");

    @TempDir
    Path dir;

    private final String tag = Long.toString(ProcessHandle.current().pid() % 100_000);
    private final String nsSwitch = "rlsw" + tag;
    private final String nsA = "rlha" + tag;
    private final String nsB = "rlhb" + tag;
    /** The switch's ends (in its namespace) and the hosts' ends. */
    private final String swA = "rsa" + tag;
    private final String swB = "rsb" + tag;
    private final String hostA = "rha" + tag;
    private final String hostB = "rhb" + tag;
    private final List<AutoCloseable> opened = new ArrayList<>();
    private ToolProcesses tools;
    private Process sw;
    private Path socket;

    @BeforeEach
    void switchOnVeths() throws Exception {
        MachinePrerequisites.require("SwitchNetnsTest", cannotRun());
        tools = new ToolProcesses(dir);
        run(IP, "netns", "add", nsSwitch);
        run(IP, "link", "add", swA, "type", "veth", "peer", "name", hostA);
        run(IP, "link", "add", swB, "type", "veth", "peer", "name", hostB);
        for (String v : List.of(swA, swB)) {
            run(IP, "link", "set", v, "netns", nsSwitch);
            noIpv6(nsSwitch, v);
            run(IP, "-n", nsSwitch, "link", "set", v, "mtu", "9000", "up");
        }
        for (String v : List.of(hostA, hostB)) {
            noIpv6(null, v);
            run(IP, "link", "set", v, "mtu", "9000", "up");
        }
        Path cfg = dir.resolve("config_db.json");
        DemoLeaf.copyTo(cfg);
        LldpOff.in(cfg); // the tests count every frame the switch sends
        socket = dir.resolve("sw.sock");
        sw = startSwitch("switch");
    }

    /** {@code rocelab switch} on the two veth ends in its namespace, as {@code name}, once it says it is ready. */
    private Process startSwitch(String name) throws Exception {
        Process p = tools.startCommand(name, tools.commandIn(nsSwitch, "switch",
            "--config", dir.resolve("config_db.json").toString(), "--port", "Ethernet0=veth:" + swA,
            "--port", "Ethernet4=pcap:" + swB, "--capture", dir.resolve("cap").toString(), "--socket", socket.toString()));
        tools.awaitText(p, name, "ready", 60);
        return p;
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (AutoCloseable c : opened) {
            c.close();
        }
        if (tools != null) {
            tools.stopAll();
        }
        if (cannotRun() == null) {
            // deleting a namespace deletes the veth ends in it, and so the pairs
            for (String ns : List.of(nsSwitch, nsA, nsB)) {
                quietly(IP, "netns", "del", ns);
            }
            quietly(IP, "link", "del", hostA);
            quietly(IP, "link", "del", hostB);
        }
    }

    @Test
    void injectedFramesCrossTheSwitchByteExactAndItsOwnAreNotReceivedBack() throws Exception {
        RealTimeScheduler owner = open(RealTimeScheduler.start("inject"));
        RawEthernetPort a = open(RawEthernetPort.open("a", hostA, owner));
        RawEthernetPort b = open(RawEthernetPort.open("b", hostB, owner));
        LinkedBlockingQueue<byte[]> atA = collect(a);
        LinkedBlockingQueue<byte[]> atB = collect(b);
        List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            byte[] f = frame(MAC_B, MAC_A, i, 60 + (i * 89) % 8940);
            sent.add(f);
            a.send(Unpooled.wrappedBuffer(f.clone()));
            if (i % 16 == 15) {
                Thread.sleep(2); // the switch floods them: keep within its veth's queue
            }
        }
        for (int i = 0; i < sent.size(); i++) {
            byte[] got = atB.poll(10, TimeUnit.SECONDS);
            assertNotNull(got, "frame " + i + " of " + sent.size() + " did not cross the switch: " + tools.output("switch"));
            assertArrayEquals(sent.get(i), got, "frame " + i + " crosses byte for byte");
        }
        Thread.sleep(300);
        assertNull(atA.poll(), "nothing comes back to the sender's port");
        assertNull(atB.poll(), "each frame crosses once");
        CliRun show = CliRun.of("switch", "show", "interfaces", "counters", "--socket", socket.toString());
        assertEquals(0, show.exitCode(), show.err());
        // the switch received the 100 frames on Ethernet0 and sent them on Ethernet4, and did not
        // receive its own transmissions back on Ethernet4
        assertEquals(List.of(100L, 0L), rxTx(show.out(), "Ethernet0"), show.out());
        assertEquals(List.of(0L, 100L), rxTx(show.out(), "Ethernet4"), show.out());
        // the raw ports' own counters say the same, and that the kernel dropped nothing at the sockets
        CliRun ports = CliRun.of("switch", "show", "ports", "--socket", socket.toString());
        assertEquals(0, ports.exitCode(), ports.err());
        List<String> lines = ports.out().lines().toList();
        int e0 = lines.indexOf(lines.stream().filter(l -> l.trim().startsWith("Ethernet0 ")).findFirst().orElseThrow());
        int e4 = lines.indexOf(lines.stream().filter(l -> l.trim().startsWith("Ethernet4 ")).findFirst().orElseThrow());
        assertTrue(lines.get(e0).contains("af_packet " + swA) && lines.get(e0 + 1).contains("FRAMES_RECEIVED=100,"), ports.out());
        assertTrue(lines.get(e4).contains("pcap " + swB) && lines.get(e4 + 1).contains("FRAMES_SENT=100,")
            && !lines.get(e4 + 1).contains("FRAMES_RECEIVED"), ports.out());
        assertTrue(!ports.out().contains("DROPPED"), ports.out());
    }

    @Test
    void pingWorksBetweenTwoNamespacesThroughTheSwitch() throws Exception {
        run(IP, "netns", "add", nsA);
        run(IP, "netns", "add", nsB);
        String[][] hosts = {{nsA, hostA, "10.99.66.1"}, {nsB, hostB, "10.99.66.2"}};
        for (String[] h : hosts) {
            run(IP, "link", "set", h[1], "netns", h[0]);
            noIpv6(h[0], h[1]);
            run(IP, "-n", h[0], "addr", "add", h[2] + "/24", "dev", h[1]);
            run(IP, "-n", h[0], "link", "set", h[1], "mtu", "9000", "up");
        }
        Process ping = tools.startCommand("ping", List.of(IP, "netns", "exec", nsA, PING, "-c", "5", "-i", "0.2", "-W", "3",
            "10.99.66.2"));
        assertTrue(ping.waitFor(60, TimeUnit.SECONDS), tools.output("ping"));
        assertEquals(0, ping.exitValue(), tools.output("ping") + tools.output("switch"));
        assertTrue(tools.output("ping").contains("5 received"), tools.output("ping"));
        CliRun show = CliRun.of("switch", "show", "interfaces", "counters", "--socket", socket.toString());
        // 5 echo requests in on Ethernet0 and out on Ethernet4, 5 replies the other way, plus ARP
        assertTrue(rxTx(show.out(), "Ethernet0").get(0) >= 5 && rxTx(show.out(), "Ethernet4").get(1) >= 5, show.out());
        assertTrue(rxTx(show.out(), "Ethernet4").get(0) >= 5 && rxTx(show.out(), "Ethernet0").get(1) >= 5, show.out());

        sw.destroy(); // SIGTERM
        assertTrue(sw.waitFor(30, TimeUnit.SECONDS), tools.output("switch"));
        assertTrue(tools.output("switch").contains("capture written"), tools.output("switch"));
        CliRun decode = CliRun.of("decode", dir.resolve("cap").resolve("leaf.pcapng").toString());
        assertEquals(0, decode.exitCode(), decode.out() + decode.err());
        long icmp = decode.out().lines().filter(l -> l.contains("10.99.66.1") && l.contains("10.99.66.2")).count();
        assertTrue(icmp >= 20, "each of the 10 pings in on one port and out on the other: " + decode.out());
    }

    /**
     * Two rocelab NICs on the hosts' veth ends ({@code --raw}), each in its namespace, write to each
     * other across the switch; perftest's TCP exchange goes through the switch too, between the
     * kernels' own addresses on the same veths (offloads off: the switch forwards frames as the
     * kernel hands them over, so their checksums must be complete).
     */
    @Test
    void perftestBetweenTwoNamespacesOnRawInterfacesAcrossTheSwitch() throws Exception {
        hostNamespaces("10.99.67");
        int tcp = ToolProcesses.freeTcpPort();
        // the NICs' addresses (.11, .12) are not the kernels' (.1, .2): each NIC answers ARP for its own
        Process server = tools.startCommand("server", tools.commandIn(nsB, "ib_write_bw", "--raw", "pcap:" + hostB, "--ip", "10.99.67.12",
            "--mac", "52:54:00:67:00:12", "-n", "300", "-s", "4096", "-p", String.valueOf(tcp)));
        tools.awaitText(server, "server", "Waiting for client", 60);
        Process client = tools.startCommand("client", tools.commandIn(nsA, "ib_write_bw", "--raw", hostA, "--ip", "10.99.67.11",
            "--mac", "52:54:00:67:00:11", "-n", "300", "-s", "4096", "-p", String.valueOf(tcp), "10.99.67.2"));
        assertTrue(client.waitFor(150, TimeUnit.SECONDS), "client did not finish: " + tools.output("client"));
        assertTrue(server.waitFor(30, TimeUnit.SECONDS), "server did not finish: " + tools.output("server"));
        assertEquals(0, client.exitValue(), tools.output("client") + tools.output("switch"));
        assertEquals(0, server.exitValue(), tools.output("server"));
        for (String side : List.of("client", "server")) {
            Matcher m = BW_LINE.matcher(tools.output(side));
            assertTrue(m.find(), side + " prints a result line for 4096 B x 300: " + tools.output(side));
            assertTrue(Double.parseDouble(m.group(2)) > 0, tools.output(side));
        }
        CliRun show = CliRun.of("switch", "show", "queue", "counters", "--socket", socket.toString());
        assertTrue(show.out().lines().anyMatch(l -> l.trim().matches("Ethernet4\\s+UC0\\s+([3-9]\\d\\d|\\d{4,})\\s.*")),
            "the 300 writes left by the server's port: " + show.out());

        sw.destroy(); // SIGTERM
        assertTrue(sw.waitFor(30, TimeUnit.SECONDS), tools.output("switch"));
        CliRun decode = CliRun.of("decode", "-q", dir.resolve("cap").resolve("leaf.pcapng").toString());
        assertEquals(0, decode.exitCode(), decode.out() + decode.err());
        Matcher m = DECODE_TOTAL.matcher(decode.out());
        assertTrue(m.find(), decode.out());
        assertTrue(Long.parseLong(m.group(3)) >= 2 * 300, "every write in and out, ICRC good: " + decode.out());
        assertEquals(0, Long.parseLong(m.group(4)), decode.out());
    }

    /**
     * The switch restart drill: {@code rocelab switch} carrying RC writes between two {@code --raw} NICs
     * is killed (SIGKILL: no goodbye, its in-flight frames lost) and started again while the writer's
     * retry budget lasts ({@code -u 20}: a local ACK timeout of 4.096 us x 2^20 = 4.3 s, seven
     * retries, IBA 9.7.6.1.1): the requester's timer resends from the first unacknowledged PSN and
     * every write completes without an error completion, as on a fabric whose switch reboots faster than
     * the QPs give up. The writer's counters ({@code -W}, perftest's report of counter changes) prove the
     * outage was real: it took at least one retry, and did not exceed its budget.
     */
    @Test
    void rcWritesCompleteWhenTheSwitchIsKilledAndRestartedWithinTheRetryBudget() throws Exception {
        hostNamespaces("10.99.69");
        Process[] ends = writeBandwidth("10.99.69", "20", "hw_counters/completer_retry_err,hw_counters/retry_exceeded_err");
        Process client = ends[0];
        Process server = ends[1];
        tools.awaitText(client, "client", "#bytes", 60);
        Thread.sleep(1500); // writes flowing through the switch
        sw.destroyForcibly(); // SIGKILL
        assertTrue(sw.waitFor(30, TimeUnit.SECONDS), tools.output("switch"));
        sw = startSwitch("switch-again");

        assertTrue(client.waitFor(150, TimeUnit.SECONDS), "client did not finish: " + tools.output("client"));
        assertTrue(server.waitFor(30, TimeUnit.SECONDS), "server did not finish: " + tools.output("server"));
        assertEquals(0, client.exitValue(), tools.output("client") + tools.output("switch-again"));
        assertEquals(0, server.exitValue(), tools.output("server"));
        String out = tools.output("client");
        assertTrue(Pattern.compile("(?m)^ 65536\\s+[1-9]\\d*\\s").matcher(out).find(), "a result line: " + out);
        Matcher retries = Pattern.compile("hw_counters/completer_retry_err=(\\d+)").matcher(out);
        assertTrue(retries.find() && Long.parseLong(retries.group(1)) >= 1,
            "the writer timed out and resent across the outage: " + out);
        assertTrue(out.contains("hw_counters/retry_exceeded_err=0"), "and stayed within its retry budget: " + out);
        // the restarted switch forwarded the resent writes and what followed
        CliRun show = CliRun.of("switch", "show", "interfaces", "counters", "--socket", socket.toString());
        assertEquals(0, show.exitCode(), show.err());
        assertTrue(rxTx(show.out(), "Ethernet0").get(0) > 0 && rxTx(show.out(), "Ethernet4").get(1) > 0, show.out());
    }

    /**
     * The same drill with a budget the outage outlasts ({@code -u 14}: 67 ms x 8 tries, about half a
     * second, perftest's default): the writer's QP exhausts its retries and the tool reports the error
     * completion as perftest does ({@code IBV_WC_RETRY_EXC_ERR} with its send and completion counts),
     * with the NIC's counters, and fails.
     */
    @Test
    void rcWritesFailWithRetryExceededWhenTheSwitchStaysDownBeyondTheRetryBudget() throws Exception {
        hostNamespaces("10.99.70");
        Process[] ends = writeBandwidth("10.99.70", "14", null);
        Process client = ends[0];
        tools.awaitText(client, "client", "#bytes", 60);
        Thread.sleep(1500);
        sw.destroyForcibly(); // SIGKILL, and the switch stays down
        assertTrue(client.waitFor(60, TimeUnit.SECONDS), "client did not give up: " + tools.output("client"));
        assertEquals(1, client.exitValue(), tools.output("client"));
        String out = tools.output("client");
        assertTrue(out.contains("Completion with error at client: IBV_WC_RETRY_EXC_ERR"), out);
        assertTrue(Pattern.compile("retry_exceeded_err 1\\b").matcher(out).find(), "the NIC counted it: " + out);
        // seven retries of the last timeout, and any a loaded machine's late ACKs took before the kill
        Matcher retries = Pattern.compile("completer_retry_err (\\d+)\\b").matcher(out);
        assertTrue(retries.find() && Long.parseLong(retries.group(1)) >= 7, "after seven retries: " + out);
    }

    /**
     * The soak's short form ({@code bench/run-soak.sh} runs it for 30 minutes): iperf3 TCP (DSCP 0, lossy)
     * and RC writes over rdma_cm with DSCP 26 (the leaf's lossless class) through the switch at once,
     * in the same direction so both share Ethernet4's egress. The switch's open file descriptors stay
     * flat (sampled from /proc while it runs: a descriptor leaked per connection, per frame or per
     * second would show), the lossless class carries the writes and drops nothing, and the switch's
     * frame counts agree with the hosts' own ({@code ip -s link}) from a {@code switch clear counters}
     * on: what host A sent the switch received (or its socket dropped, counted), and what the switch
     * sent host B received. Resident memory needs longer than a test to say anything: the 30-minute
     * figures are in docs/performance.md.
     */
    @Test
    void tcpAndLosslessRoceTogetherLeaveTheSwitchsDescriptorsFlatAndItsCountersMatchTheHosts() throws Exception {
        MachinePrerequisites.require("SwitchNetnsTest.soak", IPERF3 == null ? "it needs iperf3 (apt-get install iperf3)"
            : null);
        hostNamespaces("10.99.71");
        long swPid = sw.pid();
        int tcp = ToolProcesses.freeTcpPort();
        int iperfPort = ToolProcesses.freeTcpPort();
        Process server = tools.startCommand("server", tools.commandIn(nsB, "ib_write_bw", "--raw", hostB, "--ip", "10.99.71.12",
            "--mac", "52:54:00:71:00:12", "-D", "15", "-s", "65536", "-R", "-T", "106", "-p", String.valueOf(tcp)));
        tools.awaitText(server, "server", "Waiting for client", 60);
        Process iperfServer = tools.startCommand("iperf3-server", List.of(IP, "netns", "exec", nsB, IPERF3, "-s", "-1",
            "--forceflush", "-p", String.valueOf(iperfPort)));
        tools.awaitText(iperfServer, "iperf3-server", "Server listening", 30);
        CliRun clear = CliRun.of("switch", "clear", "counters", "--socket", socket.toString());
        assertEquals(0, clear.exitCode(), clear.err());
        long[] a0 = linkPackets(nsA, hostA);
        long[] b0 = linkPackets(nsB, hostB);

        Process client = tools.startCommand("client", tools.commandIn(nsA, "ib_write_bw", "--raw", hostA, "--ip", "10.99.71.11",
            "--mac", "52:54:00:71:00:11", "-D", "15", "-s", "65536", "-R", "-T", "106", "-p", String.valueOf(tcp),
            "10.99.71.12"));
        Process iperf = tools.startCommand("iperf3", List.of(IP, "netns", "exec", nsA, IPERF3, "-c", "10.99.71.2",
            "-p", String.valueOf(iperfPort), "-t", "15"));
        List<Integer> fds = new ArrayList<>();
        while (client.isAlive() || iperf.isAlive()) {
            fds.add(openFiles(swPid));
            Thread.sleep(1000);
            assertTrue(fds.size() < 120, "the writes and TCP did not end: " + tools.output("client") + tools.output("iperf3"));
        }
        assertEquals(0, client.exitValue(), tools.output("client") + tools.output("switch"));
        assertEquals(0, iperf.exitValue(), tools.output("iperf3"));
        assertTrue(server.waitFor(30, TimeUnit.SECONDS), tools.output("server"));
        Thread.sleep(500); // the last frames through the switch
        long[] a1 = linkPackets(nsA, hostA);
        long[] b1 = linkPackets(nsB, hostB);

        // descriptors: from the third second on (the connections settled), none gained
        List<Integer> settled = fds.subList(Math.min(3, fds.size() - 1), fds.size());
        assertTrue(settled.stream().mapToInt(Integer::intValue).max().orElseThrow()
            <= settled.get(0) + 1, "the switch's open descriptors, one sample a second: " + fds);
        // the lossless class carried the writes and dropped none
        CliRun queues = CliRun.of("switch", "show", "queue", "counters", "--socket", socket.toString());
        Matcher uc3 = Pattern.compile("(?m)^\\s*Ethernet4\\s+UC3\\s+(\\d+)\\s+\\d+\\s+(\\d+)").matcher(queues.out());
        assertTrue(uc3.find(), queues.out());
        assertTrue(Long.parseLong(uc3.group(1)) > 1000, "the writes crossed in the lossless queue: " + queues.out());
        assertEquals(0, Long.parseLong(uc3.group(2)), "and it dropped none: " + queues.out());
        CliRun pgDrops = CliRun.of("switch", "show", "priority-group", "drop", "counters", "--socket", socket.toString());
        assertTrue(pgDrops.out().lines().filter(l -> l.startsWith("Ethernet"))
            .allMatch(l -> l.trim().split("\\s+")[4].equals("0")), "no PG3 drop: " + pgDrops.out());
        // the switch's counts against the hosts'
        CliRun show = CliRun.of("switch", "show", "interfaces", "counters", "--socket", socket.toString());
        CliRun ports = CliRun.of("switch", "show", "ports", "--socket", socket.toString());
        long socketDrops = 0;
        Matcher d = Pattern.compile("RX_DROPPED_SOCKET=(\\d+)").matcher(ports.out());
        while (d.find()) {
            socketDrops += Long.parseLong(d.group(1));
        }
        String counts = "host A sent " + (a1[1] - a0[1]) + ", host B received " + (b1[0] - b0[0]) + "\n" + show.out()
            + ports.out();
        assertEquals(a1[1] - a0[1], rxTx(show.out(), "Ethernet0").get(0) + socketDrops, counts);
        assertEquals(b1[0] - b0[0], rxTx(show.out(), "Ethernet4").get(1), counts);
    }

    /** {rx packets, tx packets} of {@code iface} in {@code ns}, from {@code ip -s link}. */
    private static long[] linkPackets(String ns, String iface) throws Exception {
        String json = HostCommands.output(IP, "-n", ns, "-j", "-s", "link", "show", "dev", iface);
        Matcher m = Pattern.compile("\"rx\":\\{\"bytes\":\\d+,\"packets\":(\\d+).*\"tx\":\\{\"bytes\":\\d+,\"packets\":(\\d+)")
            .matcher(json);
        assertTrue(m.find(), json);
        return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
    }

    /** How many descriptors process {@code pid} has open. */
    private static int openFiles(long pid) throws Exception {
        try (var files = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return (int) files.count();
        }
    }

    /**
     * {@code ib_write_bw} between the two namespaces' {@code --raw} NICs (.11 and .12 of {@code subnet}),
     * 64 KiB writes for ten seconds with local ACK timeout {@code -u timeout}; the client's
     * {@code -W counters} when given. Returns the client and the server.
     */
    private Process[] writeBandwidth(String subnet, String timeout, String counters) throws Exception {
        int tcp = ToolProcesses.freeTcpPort();
        Process server = tools.startCommand("server", tools.commandIn(nsB, "ib_write_bw", "--raw", hostB, "--ip", subnet + ".12",
            "--mac", "52:54:00:67:00:12", "-D", "10", "-s", "65536", "-u", timeout, "-p", String.valueOf(tcp)));
        tools.awaitText(server, "server", "Waiting for client", 60);
        List<String> client = new ArrayList<>(List.of("ib_write_bw", "--raw", hostA, "--ip", subnet + ".11",
            "--mac", "52:54:00:67:00:11", "-D", "10", "-s", "65536", "-u", timeout, "-p", String.valueOf(tcp)));
        if (counters != null) {
            client.addAll(List.of("-W", counters));
        }
        client.add(subnet + ".2");
        return new Process[] {tools.startCommand("client", tools.commandIn(nsA, client.toArray(String[]::new))), server};
    }

    /**
     * Real TCP through the switch: iperf3 between the two namespaces' kernels for two seconds
     * (offloads off on every veth end, as a user-space switch needs), the bytes it counted cross
     * the switch's ports, and nothing is dropped in the switch on the way.
     */
    @Test
    void iperf3TcpWorksBetweenTwoNamespacesThroughTheSwitch() throws Exception {
        MachinePrerequisites.require("SwitchNetnsTest.iperf3", IPERF3 == null ? "it needs iperf3 (apt-get install iperf3)"
            : null);
        hostNamespaces("10.99.68");
        int port = ToolProcesses.freeTcpPort();
        Process server = tools.startCommand("iperf3-server", List.of(IP, "netns", "exec", nsB, IPERF3, "-s", "-1", "--forceflush",
            "-p", String.valueOf(port)));
        tools.awaitText(server, "iperf3-server", "Server listening", 30);
        Process client = tools.startCommand("iperf3", List.of(IP, "netns", "exec", nsA, IPERF3, "-c", "10.99.68.2",
            "-p", String.valueOf(port), "-t", "2", "-J"));
        assertTrue(client.waitFor(60, TimeUnit.SECONDS), tools.output("iperf3"));
        assertEquals(0, client.exitValue(), tools.output("iperf3") + tools.output("switch"));
        Matcher bytes = Pattern.compile("\"sum_received\":\\s*\\{[^}]*?\"bytes\":\\s*(\\d+)").matcher(tools.output("iperf3"));
        assertTrue(bytes.find(), tools.output("iperf3"));
        long received = Long.parseLong(bytes.group(1));
        assertTrue(received > 1_000_000, "TCP moved data through the switch: " + received + " bytes");
        CliRun show = CliRun.of("switch", "show", "interfaces", "counters", "--socket", socket.toString());
        // 9000-byte MTU: at least one frame per 8948 bytes of TCP payload went in on Ethernet0 and out on Ethernet4
        long frames = received / 8948;
        assertTrue(rxTx(show.out(), "Ethernet0").get(0) >= frames && rxTx(show.out(), "Ethernet4").get(1) >= frames,
            frames + " frames each way at least: " + show.out());
    }

    /**
     * Moves the hosts' veth ends into namespaces of their own with addresses {@code subnet.1} and
     * {@code .2}, MTU 9000 and every veth end's offloads off (tx checksum, TSO, GSO, GRO): a user-space
     * switch forwards frames as the kernel hands them over, so their checksums must be complete.
     */
    private void hostNamespaces(String subnet) throws Exception {
        run(IP, "netns", "add", nsA);
        run(IP, "netns", "add", nsB);
        String[][] hosts = {{nsA, hostA, subnet + ".1"}, {nsB, hostB, subnet + ".2"}};
        for (String[] h : hosts) {
            run(IP, "link", "set", h[1], "netns", h[0]);
            noIpv6(h[0], h[1]);
            run(IP, "-n", h[0], "addr", "add", h[2] + "/24", "dev", h[1]);
            run(IP, "-n", h[0], "link", "set", h[1], "mtu", "9000", "up");
            run(IP, "-n", h[0], "link", "set", "lo", "up");
            run(IP, "netns", "exec", h[0], ETHTOOL, "-K", h[1], "tx", "off", "tso", "off", "gso", "off", "gro", "off");
        }
        for (String v : List.of(swA, swB)) {
            run(IP, "netns", "exec", nsSwitch, ETHTOOL, "-K", v, "tx", "off", "tso", "off", "gso", "off", "gro", "off");
        }
    }


    /** RX_OK and TX_OK of {@code port} in {@code show interfaces counters}. */
    private static List<Long> rxTx(String table, String port) {
        Matcher m = IFACE_ROW.matcher(table);
        while (m.find()) {
            if (m.group(1).equals(port)) {
                return List.of(Long.parseLong(m.group(2)), Long.parseLong(m.group(3)));
            }
        }
        throw new AssertionError("no row " + port + " in\n" + table);
    }

    private <T extends AutoCloseable> T open(T c) {
        opened.add(0, c);
        return c;
    }

    private static LinkedBlockingQueue<byte[]> collect(RawEthernetPort port) {
        LinkedBlockingQueue<byte[]> q = new LinkedBlockingQueue<>();
        port.setReceiver((p, f) -> {
            try {
                if (f.readableBytes() >= 14 && f.getUnsignedShort(f.readerIndex() + 12) == ETHERTYPE) {
                    q.add(ByteBufUtil.getBytes(f));
                }
            } finally {
                f.release();
            }
        });
        return q;
    }

    private static byte[] frame(byte[] dst, byte[] src, int seq, int length) {
        ByteBuf b = Unpooled.buffer(length);
        b.writeBytes(dst).writeBytes(src).writeShort(ETHERTYPE).writeInt(seq);
        while (b.readableBytes() < length) {
            b.writeByte(b.readableBytes() * 13 + seq);
        }
        return ByteBufUtil.getBytes(b);
    }

    /** No router solicitations or MLD reports: the counters count only the test's frames. */
    private static void noIpv6(String ns, String iface) throws Exception {
        String write = "f=/proc/sys/net/ipv6/conf/" + iface + "/disable_ipv6; [ ! -e $f ] || echo 1 > $f";
        if (ns == null) {
            run("sh", "-c", write);
        } else {
            run(IP, "netns", "exec", ns, "sh", "-c", write);
        }
    }

    private static String cannotRun() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "needs root to make namespaces and veth pairs (user is " + System.getProperty("user.name") + ")";
        }
        if (IP == null || PING == null || ETHTOOL == null) {
            return "needs ip (iproute2), ethtool and ping (iputils-ping); found ip=" + IP + ", ethtool=" + ETHTOOL
                + ", ping=" + PING;
        }
        return null;
    }
}
