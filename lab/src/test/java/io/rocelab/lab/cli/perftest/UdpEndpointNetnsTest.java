package io.rocelab.lab.cli.perftest;

import static io.rocelab.lab.cli.HostCommands.find;
import static io.rocelab.lab.cli.HostCommands.quietly;
import static io.rocelab.lab.cli.HostCommands.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.Icrc;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.capture.CaptureReader;
import io.rocelab.codec.capture.CaptureRecord;
import io.rocelab.lab.cli.MachinePrerequisites;
import io.rocelab.lab.cli.ToolProcesses;
import java.io.IOException;
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
 * {@code ib_write_bw --udp-endpoint} between two hosts for real: two network namespaces joined by
 * a veth pair, a rocelab server in one and a client in the other, the RoCEv2 packets going through
 * both kernels' IP stacks. tshark captures the veth on the server's side: {@code rocelab decode}
 * must find every packet a well-formed RoCEv2 packet, and each ICRC must be the one its sender
 * computed (see {@link #canonicalIcrcsGood} for what the kernel changes). Needs root, iproute2, ethtool and tshark (CI has them); elsewhere it skips, loudly,
 * unless CI=true, where it fails.
 */
@Timeout(300)
class UdpEndpointNetnsTest {
    private static final String SERVER_IP = "10.99.77.1";
    private static final String CLIENT_IP = "10.99.77.2";
    private static final Pattern BW_LINE = Pattern.compile(
            "(?m)^ 65536\\s+300\\s+(-?[0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)\\s*$");
    private static final Pattern DECODE_TOTAL = Pattern.compile("(\\d+) RoCEv2 \\(\\d+ ICRC OK, \\d+ ICRC bad\\), (\\d+) malformed");

    @TempDir
    Path dir;

    private static final String IP = find("ip");
    private static final String ETHTOOL = find("ethtool");
    private static final String TSHARK = find("tshark");

    private final String tag = Long.toString(ProcessHandle.current().pid() % 100_000);
    private final String nsServer = "rls" + tag;
    private final String nsClient = "rlc" + tag;
    private ToolProcesses tools;

    @BeforeEach
    void namespaces() throws Exception {
        MachinePrerequisites.require("UdpEndpointNetnsTest", cannotRun());
        tools = new ToolProcesses(dir);
        run(IP, "netns", "add", nsServer);
        run(IP, "netns", "add", nsClient);
        run(IP, "link", "add", "rlv" + tag, "type", "veth", "peer", "name", "rlw" + tag);
        run(IP, "link", "set", "rlv" + tag, "netns", nsServer);
        run(IP, "link", "set", "rlw" + tag, "netns", nsClient);
        // 9000 bytes: a 4096-byte RoCE packet with DF set must fit the link, as on a RoCE fabric
        for (String[] side : new String[][] {{nsServer, "rlv" + tag, SERVER_IP}, {nsClient, "rlw" + tag, CLIENT_IP}}) {
            run(IP, "-n", side[0], "link", "set", "lo", "up");
            run(IP, "-n", side[0], "link", "set", side[1], "mtu", "9000");
            run(IP, "-n", side[0], "addr", "add", side[2] + "/24", "dev", side[1]);
            // the endpoint sends runs of equal-size packets as one UDP GSO datagram; a veth would pass
            // that unsegmented to the capture tap, so let the kernel cut it into the datagrams a physical
            // link carries (each one RoCEv2 packet) before the tap sees it, on both sides
            run(IP, "netns", "exec", side[0], ETHTOOL, "-K", side[1], "tx-udp-segmentation", "off", "gro", "off");
            run(IP, "-n", side[0], "link", "set", side[1], "up");
        }
    }

    @AfterEach
    void cleanUp() throws Exception {
        if (tools == null) {
            return; // skipped: nothing was made
        }
        tools.stopAll();
        // deleting a namespace deletes the veth end inside it, and so the pair
        for (String ns : List.of(nsServer, nsClient)) {
            quietly(IP, "netns", "del", ns);
        }
    }

    /** Null when this machine can make namespaces and capture, else why not. */
    private static String cannotRun() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "needs root to create network namespaces (user is " + System.getProperty("user.name") + ")";
        }
        if (IP == null || ETHTOOL == null || TSHARK == null) {
            return "needs ip (iproute2), ethtool and tshark; found ip=" + IP + ", ethtool=" + ETHTOOL + ", tshark="
                    + TSHARK;
        }
        return null;
    }

    @Test
    void writeBandwidthBetweenTwoNamespacesOverTheKernelsUdpStacks() throws Exception {
        Path capture = dir.resolve("server-veth.pcapng");
        // a 64 MiB capture buffer (dumpcap's default is 2): the 20 MB of this run arrive in bursts at
        // tens of Gb/s, and a busy VM's dumpcap must not drop any (the count below wants them all)
        Process tshark = tools.startCommand("tshark", List.of(IP, "netns", "exec", nsServer, TSHARK, "-q", "-i", "rlv" + tag,
                "-B", "64", "-f", "udp port 4791", "-w", capture.toString()));
        tools.awaitText(tshark, "tshark", "Capturing on", 60);
        Process server = tools.startCommand("server", rocelab(nsServer, "ib_write_bw", "--udp-endpoint", SERVER_IP,
                "-s", "65536", "-n", "300", "-u", "18"));
        tools.awaitText(server, "server", "Waiting for client", 60);
        Process client = tools.startCommand("client", rocelab(nsClient, "ib_write_bw", "--udp-endpoint", CLIENT_IP,
                "-s", "65536", "-n", "300", "-u", "18", SERVER_IP));
        assertTrue(client.waitFor(200, TimeUnit.SECONDS), "client did not finish: " + tools.output("client"));
        assertTrue(server.waitFor(30, TimeUnit.SECONDS), "server did not finish: " + tools.output("server"));
        assertEquals(0, client.exitValue(), tools.output("client"));
        assertEquals(0, server.exitValue(), tools.output("server"));
        for (String side : List.of("client", "server")) {
            Matcher m = BW_LINE.matcher(tools.output(side));
            assertTrue(m.find(), side + " prints the result line for 65536 B x 300: " + tools.output(side));
            assertTrue(Double.parseDouble(m.group(2)) > 0, tools.output(side));
        }
        // let tshark write what it has (on a busy machine it can trail the traffic by seconds: wait
        // until the file stops growing), then stop it as a user would (destroy sends SIGTERM)
        awaitStableSize(capture, 30);
        tshark.destroy();
        assertTrue(tshark.waitFor(30, TimeUnit.SECONDS), "tshark did not stop: " + tools.output("tshark"));

        Process decode = tools.startCommand("decode", rocelab(null, "decode", capture.toString()));
        assertTrue(decode.waitFor(120, TimeUnit.SECONDS), tools.output("decode"));
        Matcher total = DECODE_TOTAL.matcher(tools.output("decode"));
        assertTrue(total.find(), tools.output("decode"));
        assertEquals("0", total.group(2), "no malformed packet on the wire: " + total.group());
        // 300 messages of 16 packets each left the client, and ACKs came back (one per 128 packets at
        // least: UDP endpoint mode asks that often): all on the wire here
        assertTrue(Long.parseLong(total.group(1)) >= 300 * 16 + 300 * 16 / 128, total.group() + "; tshark: "
                + tools.output("tshark"));
        assertEquals(Long.parseLong(total.group(1)), canonicalIcrcsGood(capture), "packets whose ICRC is good over"
                + " the header the sender computed it for (IPv4 identification 0, DF)");
    }

    /** Waits until {@code file} has kept its size for a second, at most {@code seconds}. */
    private static void awaitStableSize(Path file, int seconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        long last = -1;
        while (System.nanoTime() < deadline) {
            long size = Files.exists(file) ? Files.size(file) : 0;
            if (size == last) {
                return;
            }
            last = size;
            Thread.sleep(1000);
        }
    }

    /**
     * Counts the captured RoCEv2 packets whose ICRC checks once their IPv4 identification and flags
     * are put back to what the sending endpoint computed the ICRC over (0 and DF). The ICRC covers
     * both fields (IBA A17.4), but a UDP socket cannot choose them: the kernel numbers the datagrams
     * and its segmentation clears DF, so on the wire these ICRCs are wrong for any other RoCE
     * receiver. That is why UDP endpoint mode is for rocelab talking to rocelab; frame mode is for
     * RoCE peers.
     */
    private static long canonicalIcrcsGood(Path capture) throws IOException {
        long good = 0;
        ParsedFrame f = new ParsedFrame();
        Icrc icrc = new Icrc();
        try (CaptureReader reader = CaptureReader.open(capture)) {
            for (CaptureRecord r; (r = reader.next()) != null; ) {
                try {
                    ByteBuf frame = r.content();
                    if (f.parse(frame) != null || !f.isRoce() || f.ipVersion() != 4) {
                        continue;
                    }
                    frame.setShort(f.l3Offset() + 4, 0);
                    frame.setShort(f.l3Offset() + 6, 0x4000);
                    if (icrc.verify(f)) {
                        good++;
                    }
                } finally {
                    r.release();
                }
            }
        }
        return good;
    }

    /** {@code rocelab ARGS}, in {@code namespace} unless it is null. */
    private List<String> rocelab(String namespace, String... args) {
        List<String> cmd = new ArrayList<>();
        if (namespace != null) {
            cmd.addAll(List.of(IP, "netns", "exec", namespace));
        }
        cmd.addAll(tools.command(args));
        return cmd;
    }
}
