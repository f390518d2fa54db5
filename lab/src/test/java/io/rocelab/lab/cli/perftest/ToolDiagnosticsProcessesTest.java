package io.rocelab.lab.cli.perftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rocelab.lab.cli.ToolProcesses;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
 * What a user has of a run that did not succeed, with no root and no dumpcap: two {@code rocelab}
 * processes over frame-over-UDP, the client with {@code --capture}; when the run is interrupted
 * (Ctrl-C) or fails (its server gone), the client prints its NIC's counters on stderr and leaves a
 * bounded pcapng that tshark reads.
 */
@Tag("realtime")
@Timeout(240)
class ToolDiagnosticsProcessesTest {
    private static final Pattern COUNTERS = Pattern.compile("(?m)^ link rocelab0/1 (.*)$");

    @TempDir
    Path dir;
    private ToolProcesses tools;

    @BeforeEach
    void tools() {
        tools = new ToolProcesses(dir);
    }

    @AfterEach
    void stop() throws InterruptedException {
        tools.stopAll();
    }

    @Test
    void anInterruptedClientPrintsItsCountersAndFinishesItsCapture() throws Exception {
        int tcp = ToolProcesses.freeTcpPort();
        int udpServer = ToolProcesses.freeUdpPort();
        int udpClient = ToolProcesses.freeUdpPort();
        Process server = tools.start("server", "ib_write_bw", "--udp-frame", udpServer + ":" + udpClient,
            "-s", "4096", "-D", "60", "-p", String.valueOf(tcp));
        tools.awaitOutput(server, "server", "Waiting for client", 60);
        Path capture = dir.resolve("client.pcapng");
        Process client = tools.start("client", "ib_write_bw", "--udp-frame", udpClient + ":" + udpServer,
            "-s", "4096", "-D", "60", "-p", String.valueOf(tcp), "--capture", capture.toString(),
            "--capture-frames", "300", "127.0.0.1");
        tools.awaitOutput(client, "client", " #bytes", 60);
        // let the run send well over the 600 frames the capture keeps before it is interrupted: its first
        // 300 frames on disk (4 KB each, the writer buffers 64 KB), then twice as long again, 3 s at
        // least: at the pace the machine gave the first 300 (the slowest, the code still compiling),
        // 600 frames more (a loaded 2-core machine moved 133 frames in a run's first second); the
        // interrupt comes 50 s into the run at the latest, the run lasting 60
        long started = System.nanoTime();
        long deadline = started + TimeUnit.SECONDS.toNanos(50);
        while ((!Files.exists(capture) || Files.size(capture) < 270L * 4096) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        long first300 = System.nanoTime() - started;
        long more = Math.max(TimeUnit.SECONDS.toNanos(3), 2 * first300);
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(Math.max(0, Math.min(more, deadline - System.nanoTime()))));
        String signal = ToolProcesses.sigintIgnored() ? "TERM" : "INT";
        if (!signal.equals("INT")) {
            System.out.println("[diagnostics] SIGINT is ignored in this process tree (a background job): SIGTERM instead");
        }
        Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(client.pid())).inheritIO().start();
        assertEquals(0, kill.waitFor());
        assertTrue(client.waitFor(30, TimeUnit.SECONDS), tools.output("client"));
        assertEquals(signal.equals("INT") ? 130 : 143, client.exitValue(), tools.output("client"));

        String err = tools.stderr("client");
        assertTrue(err.contains(" ib_write_bw interrupted; the soft NIC's counters (rdma statistic show, non-zero):\n"),
            err);
        long sent = counter(err, "sent_pkts");
        assertTrue(sent > 300 && counter(err, "rcvd_pkts") > 0, "how far the run got: " + err);

        Matcher line = Pattern.compile(" capture " + Pattern.quote(capture.toString())
            + ": 600 frames \\(the first and the last 300 of (\\d+)\\)").matcher(err);
        assertTrue(line.find(), err);
        List<String[]> frames = tshark(capture, "frame.number", "frame.interface_name", "infiniband.bth.opcode",
            "frame.comment");
        assertEquals(600, frames.size(), "tshark reads every frame of the finished capture");
        assertTrue(frames.stream().allMatch(f -> f[1].equals("rocelab0")), "one NIC, one interface");
        assertTrue(frames.get(300)[3].matches("rocelab: \\d+ frames not kept before this one.*"), frames.get(300)[3]);
        assertTrue(frames.stream().filter(f -> f[2].equals("10")).count() > 200, "RDMA WRITE ONLY, both ends kept");

        Process decode = tools.start("decode", "decode", "-q", capture.toString());
        assertTrue(decode.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, decode.exitValue(), "every frame well-formed, every ICRC good: " + tools.output("decode"));
    }

    @Test
    void aClientWhoseServerVanishesPrintsItsCountersWhenTheRunFails() throws Exception {
        int tcp = ToolProcesses.freeTcpPort();
        int udpServer = ToolProcesses.freeUdpPort();
        int udpClient = ToolProcesses.freeUdpPort();
        Process server = tools.start("server", "ib_write_bw", "--udp-frame", udpServer + ":" + udpClient,
            "-s", "4096", "-D", "60", "-p", String.valueOf(tcp));
        tools.awaitOutput(server, "server", "Waiting for client", 60);
        Path capture = dir.resolve("client.pcapng");
        // -u 14: perftest's 67 ms timer, so the seven retries are over in half a second
        Process client = tools.start("client", "ib_write_bw", "--udp-frame", udpClient + ":" + udpServer,
            "-s", "4096", "-D", "60", "-u", "14", "-p", String.valueOf(tcp), "--capture", capture.toString(),
            "127.0.0.1");
        tools.awaitOutput(client, "client", " #bytes", 60);
        // traffic flows: WRITEs in the capture (the writer buffers 64 KB), the server's address
        // resolved (a server killed before it answers ARP leaves nothing to retry on the wire)
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(50);
        while ((!Files.exists(capture) || Files.size(capture) < 16L * 4096) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        Thread.sleep(500);
        server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        assertTrue(client.waitFor(60, TimeUnit.SECONDS), tools.output("client"));
        assertEquals(1, client.exitValue(), tools.output("client"));

        String err = tools.stderr("client");
        assertTrue(err.contains(" ib_write_bw failed; the soft NIC's counters (rdma statistic show, non-zero):\n"), err);
        // perftest's retry count, spent after the server vanished (a loaded machine may add one before:
        // a thread that waits longer than the 67 ms ACK timeout costs a retry that then succeeds)
        assertTrue(counter(err, "completer_retry_err") >= 7, "perftest's retry count, spent: " + err);
        assertEquals(1, counter(err, "retry_exceeded_err"), err);
        assertTrue(counter(err, "sent_pkts") > counter(err, "rcvd_pkts"), err);
        assertTrue(err.contains(" capture " + capture), err);

        List<String[]> frames = tshark(capture, "frame.number", "infiniband.bth.opcode", "infiniband.bth.psn",
            "frame.packet_flags_direction");
        assertTrue(frames.size() > 8, frames.size() + " frames: " + frames.stream().map(f -> String.join("|", f))
            .toList() + "\n" + err);
        // the capture ends with the retries: the window sent again seven times, answered by nothing
        List<String[]> tail = frames.subList(frames.size() - 8, frames.size());
        assertTrue(tail.stream().allMatch(f -> f[3].equals("0x00000002")), "the last frames all went out");
        long mostSent = frames.stream().filter(f -> f[3].equals("0x00000002") && !f[2].isEmpty())
            .collect(java.util.stream.Collectors.groupingBy(f -> f[2], java.util.stream.Collectors.counting()))
            .values().stream().mapToLong(Long::longValue).max().orElse(0);
        assertTrue(mostSent >= 7, "a PSN of the last window sent at least seven times: " + mostSent);
    }

    private static long counter(String err, String name) {
        Matcher m = COUNTERS.matcher(err);
        assertTrue(m.find(), "a counters line in " + err);
        Matcher c = Pattern.compile("(?:^| )" + name + " (\\d+)").matcher(m.group(1));
        return c.find() ? Long.parseLong(c.group(1)) : 0;
    }

    /** One array of fields per frame, as tshark prints them. */
    private List<String[]> tshark(Path capture, String... fields) throws IOException, InterruptedException {
        Path tshark = Path.of("/usr/bin/tshark");
        assumeTrue(Files.isExecutable(tshark), "tshark is needed to read the capture as a user would");
        List<String> cmd = new ArrayList<>(List.of(tshark.toString(), "-r", capture.toString(), "-T", "fields",
            "-E", "separator=|", "-E", "occurrence=f"));
        for (String f : fields) {
            cmd.add("-e");
            cmd.add(f);
        }
        Process p = new ProcessBuilder(cmd).redirectError(dir.resolve("tshark.err").toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), Files.readString(dir.resolve("tshark.err")));
        List<String[]> rows = new ArrayList<>();
        for (String l : out.split("\n")) {
            if (!l.isEmpty()) {
                rows.add(l.split("\\|", -1));
            }
        }
        return rows;
    }

    /** Whether SIGINT is ignored here (and so in the processes started from here): /proc's SigIgn mask. */
}
