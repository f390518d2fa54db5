package io.rocelab.lab.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.lab.cli.CommandLines;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code rocelab demo} end to end in this JVM, with small sizes; and its mistakes. */
class DemoTest {

    /** What the command line printed and returned. */
    private record Run(int exit, String out, String err) {
    }

    /** Runs {@code rocelab ARGS}; the demo writes the tools' output to System.out, as the perftest commands do. */
    private static synchronized Run rocelab(String... args) {
        PrintStream stdout = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit;
        try {
            System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
            var cl = CommandLines.create();
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));
            exit = cl.execute(args);
        } finally {
            System.out.flush();
            System.setOut(stdout);
        }
        return new Run(exit, bytes.toString(StandardCharsets.UTF_8) + out, err.toString());
    }

    @Test
    void runsWriteBwAndReadLatAcrossTheLeafAndWritesACaptureThatDecodes(@TempDir Path dir) {
        Path capture = dir.resolve("demo.pcapng");
        Run r = rocelab("demo", "--size", "4096", "--iters", "300", "--lat-iters", "100", "--capture",
            capture.toString(), "--capture-frames", "200");
        System.out.print(r.out());
        assertEquals(0, r.exit(), r.err());
        String out = r.out();

        // the warm-up first, on a throwaway copy of the lab: said, and nothing of it in the tables
        assertTrue(out.startsWith("warm-up: a throwaway copy of the lab wrote 1024 MB with ib_write_bw"), out);
        assertEquals(1, Pattern.compile("(?m)^ 4096 +").matcher(out).results().count(), "one write_bw result row");

        // perftest's tables, as the tools print them
        assertTrue(out.contains("RDMA_Write BW Test"), out);
        assertTrue(out.contains(" #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]"), out);
        assertTrue(Pattern.compile("(?m)^ 4096 +300 +\\d+\\.\\d+ +\\d+\\.\\d+").matcher(out).find(), out);
        assertTrue(out.contains("RDMA_Read Latency Test"), out);
        assertTrue(out.contains(" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]"
            + "    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec]"), out);
        assertTrue(Pattern.compile("(?m)^ 2 +100 +\\d+\\.\\d+").matcher(out).find(), out);
        assertTrue(out.indexOf("RDMA_Write BW Test") < out.indexOf("RDMA_Read Latency Test"), "write_bw, then read_lat");
        assertTrue(out.contains("GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:00:00:01"), "host-a's address");
        assertTrue(out.contains("GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:00:00:02"), "host-b's address");

        // NIC counters of both hosts, rxe's names: host-a sent what host-b received
        assertTrue(out.contains("host-a          host-b"), out);
        long[] sent = counter(out, "sent_pkts");
        long[] rcvd = counter(out, "rcvd_pkts");
        assertTrue(sent[0] >= 300 + 100 && rcvd[1] >= 300 + 100, out);
        assertTrue(sent[1] > 0 && rcvd[0] > 0, "ACKs and read responses: " + out);
        // a lossless fabric with nothing injected: nothing resent, nothing received twice, no NAK
        for (String resent : new String[] {"completer_retry_err", "duplicate_request", "out_of_seq_request",
            "rcvd_seq_err", "retry_exceeded_err"}) {
            assertFalse(Pattern.compile("(?m)^" + resent + " ").matcher(out).find(), resent + " in " + out);
        }

        // the leaf's SONiC views; RoCE went through lossless queue 3 (DSCP 26 -> TC 3)
        for (String view : new String[] {"leaf# show interfaces counters", "leaf# show pfc counters",
            "leaf# show queue counters", "leaf# show pfcwd stats", "leaf# crm show resources fdb",
            "leaf# show buffer_pool watermark"}) {
            assertTrue(out.contains(view), view);
        }
        // host-a's frames came in on Ethernet0 with no error, runt or oversize frame
        Matcher eth0 = Pattern.compile("(?m)^  Ethernet0 +U +(\\d+) +N/A +N/A +0 +0 +0 +\\d+").matcher(out);
        assertTrue(eth0.find(), out);
        assertTrue(Long.parseLong(eth0.group(1)) >= 400, out);
        // the leaf learned the two hosts' MACs and refused none
        assertTrue(out.contains("fdb_entry                   2              32766"), out);
        assertTrue(out.contains("fdb_learn_refused (new MACs not learned, table full): 0"), out);
        assertTrue(out.contains("    Port Rx    PFC0    PFC1"), out);
        assertTrue(out.contains("QUEUE        STATUS   STORM DETECTED/RESTORED"), out);
        assertTrue(out.contains("Ethernet0:3   operational"), out);
        Matcher uc3 = Pattern.compile("(?m)^  Ethernet4    UC3 +(\\d+) +(\\d+) +(\\d+)").matcher(
            out.substring(out.indexOf("== leaf# show queue counters")));
        assertTrue(uc3.find(), out);
        assertTrue(Long.parseLong(uc3.group(1)) >= 400, "host-a's RoCE frames left Ethernet4 from queue 3: " + out);
        assertTrue(out.contains("ingress_lossless_pool"), out);

        // the congestion act: 2:1 with DCQCN in virtual time; PFC, ECN marks and CNPs, and no loss
        assertTrue(out.contains("== congestion: host-a and host-c write to host-b at once"), out);
        assertTrue(out.contains(" time (us)  host-a rate (Gb/s)  host-c rate (Gb/s)  queue to b (KB)"), out);
        assertTrue(out.contains("switch drops 0 {}, retransmissions 0, error completions 0"), out);
        long[] cnps = counter3(out, "np_cnp_sent");
        long[] handled = counter3(out, "rp_cnp_handled");
        long[] paused = counter3(out, "rx_prio3_pause");
        assertTrue(cnps[2] > 0 && cnps[0] == 0 && cnps[1] == 0, "host-b sent the CNPs: " + out);
        assertEquals(cnps[2], handled[0] + handled[1], "host-a and host-c handled every CNP");
        assertTrue(handled[0] > 0 && handled[1] > 0 && paused[0] > 0 && paused[1] > 0, out);
        Matcher ecn = Pattern.compile("(?m)^  Ethernet0    UC3 +\\d+ +\\d+ +0 +0 +(\\d+)").matcher(
            out.substring(out.indexOf("incast leaf# show queue counters")));
        assertTrue(ecn.find() && Long.parseLong(ecn.group(1)) > 0, "ECN marks on the queue to host-b: " + out);

        // the capture, named at the end, bounded, and every RoCEv2 frame in it has a good ICRC
        String[] lines = out.strip().split("\n");
        assertTrue(lines[lines.length - 2].startsWith("capture: " + capture.toAbsolutePath()), lines[lines.length - 2]);
        assertTrue(lines[lines.length - 2].contains("the first 200 frames on each leaf port in each test"), out);
        assertTrue(Files.isRegularFile(capture));
        Run decoded = rocelab("decode", "-q", capture.toString());
        assertEquals(0, decoded.exit(), decoded.out() + decoded.err());
        Matcher totals = Pattern.compile("(\\d+) frames: (\\d+) RoCEv2 \\((\\d+) ICRC OK, 0 ICRC bad\\), 0 malformed")
            .matcher(decoded.out());
        assertTrue(totals.find(), decoded.out());
        long frames = Long.parseLong(totals.group(1));
        assertTrue(Long.parseLong(totals.group(2)) > 0 && totals.group(2).equals(totals.group(3)), decoded.out());
        assertTrue(frames <= 2 * 2 * 200 + 3 * 200 + LeafFabric.CAPTURE_DECISIONS, "bounded: " + frames);
        assertTrue(decoded.out().contains(" ARP"), decoded.out());
        Run all = rocelab("decode", capture.toString());
        assertTrue(all.out().contains(" CNP "), "the act's CNPs are in the capture");
        assertTrue(all.out().contains("PFC"), "and the leaf's PFC frames");
    }

    /** The three columns (host-a, host-c, host-b) of a row of the NIC congestion counters. */
    private static long[] counter3(String out, String name) {
        Matcher m = Pattern.compile("(?m)^" + name + " +(\\d+) +(\\d+) +(\\d+)$").matcher(out);
        assertTrue(m.find(), name + " in " + out);
        return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3))};
    }

    @Test
    void noCaptureWritesNoFileAndSaysSo() {
        Path dflt = Path.of(DemoOptions.DEFAULT_CAPTURE).toAbsolutePath();
        boolean before = Files.exists(dflt);
        Run r = rocelab("demo", "--size", "1024", "--iters", "50", "--lat-iters", "20", "--no-capture",
            "--no-congestion", "--no-warmup");
        assertEquals(0, r.exit(), r.err());
        assertFalse(r.out().contains("== congestion"), "--no-congestion skips the act");
        assertFalse(r.out().contains("warm-up"), "--no-warmup skips the warm-up");
        assertTrue(r.out().strip().endsWith("capture: none (--no-capture)"), r.out());
        assertEquals(before, Files.exists(dflt), "no " + dflt);
    }

    @ParameterizedTest
    @ValueSource(strings = {"--bogus", "--size=abc", "--size=0", "--iters=3", "--iters", "--duration=99",
        "--iters=10 --duration=2", "--capture=x.pcapng --no-capture", "extra", "--no-capture=yes", "--no-warmup=1"})
    void aBadOptionIsOneLineAndExitTwo(String args) {
        String[] argv = ("demo " + args).split(" ");
        Run r = rocelab(argv);
        assertEquals(2, r.exit(), r.out() + r.err());
        String err = r.err().strip();
        assertFalse(err.isEmpty());
        assertEquals(1, err.split("\n").length, err);
        assertTrue(err.startsWith("rocelab: demo: "), err);
        assertFalse(r.out().contains("RDMA_Write"), "nothing ran");
    }

    private static long[] counter(String out, String name) {
        Matcher m = Pattern.compile("(?m)^" + name + " +(\\d+) +(\\d+)$").matcher(out);
        assertTrue(m.find(), name + " in " + out);
        return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
    }
}
