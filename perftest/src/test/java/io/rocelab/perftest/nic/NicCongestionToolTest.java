package io.rocelab.perftest.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.capture.CaptureReader;
import io.rocelab.codec.capture.CaptureRecord;
import io.rocelab.codec.capture.PacketDirection;
import io.rocelab.fabric.pfc.PauseResponse;
import io.rocelab.nic.cc.DcqcnParam;
import io.rocelab.perftest.TestKind;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --cc}, {@code --cc-param}, {@code --pfc-storm} and {@code --pause-response} on the tools, run
 * as a user runs them: the whole command line, {@code --in-process}.
 */
@Timeout(120)
class NicCongestionToolTest {
    @TempDir
    Path dir;

    private record Run(int status, String out, String err) {
    }

    private static Run run(TestKind kind, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = NicTool.run(kind, args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The ECN field of every RoCE frame the client's NIC sent, from a capture. */
    private static List<Integer> clientEcn(Path file) throws Exception {
        List<Integer> ecn = new ArrayList<>();
        ParsedFrame p = new ParsedFrame();
        try (CaptureReader r = CaptureReader.open(file)) {
            int client = -1;
            for (CaptureRecord rec; (rec = r.next()) != null; ) {
                try {
                    if (client < 0) {
                        client = r.interfaces().stream().filter(i -> i.name().equals("rocelab0 client"))
                                .findFirst().orElseThrow().id();
                    }
                    if (rec.interfaceId() == client && rec.direction() == PacketDirection.OUTBOUND
                            && p.parse(rec.content()) == null && p.isRoce()) {
                        ecn.add(p.ecn());
                    }
                } finally {
                    rec.release();
                }
            }
        }
        return ecn;
    }

    @Test
    void dcqcnMakesTheQpsPacketsEcnCapable() throws Exception {
        Path with = dir.resolve("dcqcn.pcapng");
        Run r = run(TestKind.WRITE_BW, "--in-process", "--cc", "dcqcn", "--cc-param", "rp_ai_rate=10",
                "--cc-param=np_cnp_dscp=26", "-s", "4096", "-n", "200", "--capture", with.toString());
        assertEquals(0, r.status(), r.err() + r.out());
        List<Integer> ecn = clientEcn(with);
        assertTrue(ecn.size() >= 200, "the 200 WRITEs: " + ecn.size());
        assertTrue(ecn.stream().allMatch(e -> e == 2), "every packet ECT(0) with DCQCN: " + ecn);

        Path without = dir.resolve("none.pcapng");
        r = run(TestKind.WRITE_BW, "--in-process", "--cc", "none", "-s", "4096", "-n", "200", "--capture",
                without.toString());
        assertEquals(0, r.status(), r.err() + r.out());
        ecn = clientEcn(without);
        assertTrue(ecn.size() >= 200, "the 200 WRITEs: " + ecn.size());
        assertTrue(ecn.stream().allMatch(e -> e == 0), "no ECN without congestion control: " + ecn);
    }

    @Test
    void ccParamsReachTheNicsSettingsUnderMlx5Names() {
        NicOptions nic = NicOptions.split(new String[] {"--in-process", "--cc=dcqcn", "--cc-param", "rp_ai_rate=10",
                "--cc-param", "rp_time_reset=55", "--cc-param", "np_min_time_between_cnps=8"}).nic();
        assertTrue(nic.congestion().dcqcn());
        assertEquals(10, nic.congestion().params().get(DcqcnParam.RP_AI_RATE));
        assertEquals(55, nic.congestion().params().get(DcqcnParam.RP_TIME_RESET));
        assertEquals(8, nic.congestion().params().get(DcqcnParam.NP_MIN_TIME_BETWEEN_CNPS));
        assertEquals(DcqcnParam.RP_HAI_RATE.defaultValue(), nic.congestion().params().get(DcqcnParam.RP_HAI_RATE));
        // the notification point's parameters need no reaction point
        NicOptions np = NicOptions.split(new String[] {"--in-process", "--cc-param", "np_cnp_prio=3"}).nic();
        assertFalse(np.congestion().dcqcn());
        assertEquals(3, np.congestion().params().get(DcqcnParam.NP_CNP_PRIO));
        assertFalse(NicOptions.split(new String[] {"--in-process"}).nic().congestion().dcqcn(), "none by default");
    }

    /** The counter report's value of {@code name} after the result line. */
    private static long counter(String out, String name) {
        Matcher m = Pattern.compile("\t" + Pattern.quote(name) + "=(\\d+)\n").matcher(out);
        assertTrue(m.find(), name + " in " + out);
        return Long.parseLong(m.group(1));
    }

    @Test
    void aStormOnAnotherPriorityPausesItButTheTestRuns() {
        Run r = run(TestKind.WRITE_BW, "--in-process", "--pfc-storm", "3", "-s", "4096", "-n", "2000",
                "-W", "hw_counters/rx_prio3_pause,hw_counters/rx_prio0_pause");
        assertEquals(0, r.status(), r.err() + r.out());
        assertEquals(1, NicSessions.BwLine.all(r.out()).size(), r.out());
        assertTrue(counter(r.out(), "hw_counters/rx_prio3_pause") > 0, "the client's NIC is paused on 3: " + r.out());
        assertEquals(0, counter(r.out(), "hw_counters/rx_prio0_pause"), r.out());
    }

    /** The soft NIC's code compiled before the runs whose bandwidths are compared. */
    @BeforeAll
    static void warmUp() {
        assertEquals(0, run(TestKind.WRITE_BW, "--in-process", "-s", "4096", "-n", "20000").status());
    }

    /**
     * The same test with and without a storm on its priority, the two run at the same time so that
     * they share the machine as it is at that moment (run one after the other on a loaded machine, a
     * short run once went faster stormed than free, the load having changed between them): the
     * stormed client is paused, and moves less than the free one. A storm that holds nothing back
     * (pauses not acted on, or a refresh that never comes) leaves the two alike and fails.
     */
    @Test
    @Tag("realtime")
    void aStormOnTheTrafficsPriorityHoldsTheClientBack() throws Exception {
        String[] test = {"--in-process", "-s", "4096", "-n", "2000", "-W",
            "hw_counters/rx_prio0_pause,hw_counters/rx_prio0_pause_duration"};
        List<String> stormedArgs = new ArrayList<>(List.of(test));
        stormedArgs.add("--pfc-storm=0");
        ExecutorService both = Executors.newFixedThreadPool(2);
        Run free;
        Run r;
        try {
            Future<Run> stormedRun = both.submit(() -> run(TestKind.WRITE_BW, stormedArgs.toArray(new String[0])));
            Future<Run> freeRun = both.submit(() -> run(TestKind.WRITE_BW, test));
            free = freeRun.get();
            r = stormedRun.get();
        } finally {
            both.shutdownNow();
        }
        assertEquals(0, free.status(), free.err() + free.out());
        assertEquals(0, counter(free.out(), "hw_counters/rx_prio0_pause"), free.out());
        double freeAvg = NicSessions.BwLine.all(free.out()).get(0).average();
        if (r.status() != 0) {
            // a storm that never lets up stalls the victim until its retries are spent, as on a fabric
            // without the PFC watchdog: what the stalled NIC reports is its pauses
            assertTrue(r.err().contains("IBV_WC_RETRY_EXC_ERR"), r.err() + r.out());
            assertTrue(r.err().matches("(?s).*rx_prio0_pause \\d+ rx_prio0_pause_duration \\d+.*"), r.err());
            return;
        }
        assertTrue(counter(r.out(), "hw_counters/rx_prio0_pause") > 0, r.out());
        assertTrue(counter(r.out(), "hw_counters/rx_prio0_pause_duration") > 0, r.out());
        double stormedAvg = NicSessions.BwLine.all(r.out()).get(0).average();
        // in real time the storm's refresh is only as punctual as the loop's timers (whole milliseconds on
        // a busy NIO loop, where a pause lasts 335 us): it holds the client back, by how much varies
        assertTrue(stormedAvg < freeAvg, "the storm held the client back: " + stormedAvg + " MB/s against "
                + freeAvg + " MB/s without the storm, at the same time\nstormed:\n" + r.out() + "free:\n" + free.out()
                + free.err());
    }

    @Test
    void pauseResponseReachesTheNicsSettings() {
        assertEquals(PauseResponse.IEEE, NicOptions.split(new String[] {"--in-process"}).nic().congestion()
            .pauseResponse(), "the standard's bound by default");
        NicOptions nic = NicOptions.split(new String[] {"--in-process", "--pause-response", "394q"}).nic();
        assertEquals(PauseResponse.ofQuanta(394), nic.congestion().pauseResponse());
        assertEquals(PauseResponse.ofQuanta(394), nic.congestionFor(false).pauseResponse(), "the client's NIC too");
        assertEquals(PauseResponse.ofNanos(0), NicOptions.split(new String[] {"--in-process", "--pause-response=0"})
            .nic().congestion().pauseResponse());
    }

    /**
     * A storm's pauses last 65535 quanta, 335 us at 100 Gb/s; a NIC that takes 1 ms to act on a
     * pause finds each one's timer run out before it acts, so the storm holds nothing back: the
     * client's NIC counts the pauses but no time paused. The flag reached the NIC the tool built.
     */
    @Test
    void aResponseLongerThanThePauseTimeHoldsNothing() {
        Run r = run(TestKind.WRITE_BW, "--in-process", "-s", "4096", "-n", "2000", "--pfc-storm", "0",
            "--pause-response", "1ms", "-W", "hw_counters/rx_prio0_pause,hw_counters/rx_prio0_pause_duration");
        assertEquals(0, r.status(), r.err() + r.out());
        assertTrue(counter(r.out(), "hw_counters/rx_prio0_pause") > 0, r.out());
        assertEquals(0, counter(r.out(), "hw_counters/rx_prio0_pause_duration"), r.out());
    }

    @Test
    void mistakesAreOneLineNamingTheFlag() {
        String[][] bad = {
            {"--cc", "reno"}, {"--cc-param", "rp_bogus=1", "--cc", "dcqcn"}, {"--cc-param", "rp_ai_rate=fast",
                "--cc", "dcqcn"}, {"--cc-param", "rp_ai_rate", "--cc", "dcqcn"}, {"--cc-param", "rp_gd=99", "--cc",
                "dcqcn"}, {"--cc-param", "rp_ai_rate=10"}, {"--pfc-storm", "8"}, {"--pfc-storm", "high"}, {"--cc"},
            {"--pause-response", "-2us"}, {"--pause-response", "2 parsecs"}, {"--pause-response", "2"}};
        String[] named = {"--cc", "rp_bogus", "rp_ai_rate", "rp_ai_rate", "rp_gd", "rp_ai_rate", "--pfc-storm",
            "--pfc-storm", "--cc", "--pause-response", "--pause-response", "--pause-response"};
        for (int i = 0; i < bad.length; i++) {
            List<String> args = new ArrayList<>(List.of("--in-process", "-n", "10"));
            args.addAll(List.of(bad[i]));
            Run r = run(TestKind.WRITE_BW, args.toArray(new String[0]));
            String what = String.join(" ", bad[i]);
            assertEquals(1, r.status(), what);
            assertEquals("", r.out(), what);
            assertEquals(1, r.err().lines().count(), what + ": " + r.err());
            assertTrue(r.err().contains(named[i]), what + ": " + r.err());
        }
    }

    @Test
    void pingpongTakesTheFlagsToo() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = PingpongTool.run(io.rocelab.perftest.pingpong.PingpongKind.RC, new String[] {"--in-process",
            "--cc", "dcqcn", "--pfc-storm", "5", "-n", "100"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8) + out);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("100 iters in"), out.toString(StandardCharsets.UTF_8));
    }
}
