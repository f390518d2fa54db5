package io.rocelab.perftest.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.testkit.RunQueue;
import io.rocelab.perftest.TestKind;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * perftest's rate limiter flags on the soft NIC, run as a user runs a tool: {@code --in-process}
 * with the whole command line. Each limited run reports an average near the rate asked for; an
 * unlimited run of the same test goes well above it, so the limiter is what holds the rate.
 *
 * <p>In wall-clock time, as the tool reports it, a limited run never goes above its rate (plus the
 * burst), however busy the machine. Below it, a run is judged over the time the machine gave the
 * NIC: its bytes over the time it measured less the time its event loop's thread spent waiting for
 * a core meanwhile ({@link RunQueue}). A limiter's pace is lost while its thread waits for a core
 * (the NIC's pacer starts again from the time it gets one); that is the machine, not the limiter. A
 * limiter that holds a run below its rate while its thread has the core (a wrong unit, a late
 * timer) still fails, and one that does not hold it above fails wherever the machine lets the
 * unlimited run go faster than the rate.
 */
@Tag("realtime")
@Timeout(120)
class RateLimitToolTest {
    /** How the event loop of the tools' in-process fabric names its thread (Linux keeps 15 characters). */
    private static final String LOOP_THREAD = "rocelab-loop-";

    /**
     * A run: the tool's exit status and output, and a watch over its event loop's thread, which
     * ended with the run.
     */
    private record Run(int status, String out, String err, long endNanos, RunQueue.Watch loop) {
        double averageGbps() {
            List<NicSessions.BwLine> lines = NicSessions.BwLine.all(out);
            assertEquals(1, lines.size(), out + err);
            return lines.get(0).average();
        }

        /** The tool's measured time: its bytes over its average (the last part of the call, the report then). */
        long measuredNanos() {
            NicSessions.BwLine line = NicSessions.BwLine.all(out).get(0);
            return Math.round(line.size() * line.iterations() * 8 / line.average());
        }

        /**
         * How long the NIC's thread waited for a core over the measured time: the call's last
         * {@link #measuredNanos()} (which also holds the report and the teardown, a few milliseconds).
         */
        long waitedNanos() {
            return loop.busiestBetween(endNanos - measuredNanos(), endNanos).waitedNanos();
        }

        /** The average over the time the machine gave the NIC (the measured time less its wait). */
        double givenGbps() {
            long measured = measuredNanos();
            return averageGbps() * measured / Math.max(1, measured - waitedNanos());
        }

        String machine() {
            return String.format(" (the NIC's thread waited for a core %d ms of the run's %d ms)",
                waitedNanos() / 1_000_000, measuredNanos() / 1_000_000);
        }
    }

    private static Run run(TestKind kind, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RunQueue.Watch watch = RunQueue.watch(LOOP_THREAD); // the loop's thread ends with the run
        int status = NicTool.run(kind, args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        long end = System.nanoTime();
        watch.stop();
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), end, watch);
    }

    private static void assertNear(double expected, Run r, String what) {
        // above: the burst; below: payload over wire bytes (the pacer counts headers)
        double actual = r.averageGbps();
        assertTrue(actual < expected * 1.1, what + ": expected about " + expected + " Gb/s, got " + actual);
        assertTrue(r.givenGbps() > expected * 0.7, what + ": expected about " + expected + " Gb/s, got " + actual
                + ", " + r.givenGbps() + " over the time the machine gave the NIC" + r.machine());
    }

    /** The soft NIC's code compiled before the runs that measure a rate, as a long-running tool has it. */
    @BeforeAll
    static void warmUp() {
        assertEquals(0, run(TestKind.WRITE_BW, "--in-process", "-s", "65536", "-n", "2000").status());
        assertEquals(0, run(TestKind.WRITE_BW, "--in-process", "--rate_limit=5", "-s", "65536", "-n", "2000").status());
    }

    @Test
    void withoutALimitTheTestRunsFarAboveOneGigabit() {
        Run r = run(TestKind.WRITE_BW, "--in-process", "--report_gbits", "-s", "65536", "-n", "1000");
        assertEquals(0, r.status(), r.err() + r.out());
        assertTrue(r.givenGbps() > 1.5, "the limited tests below would not tell: " + r.out() + r.machine());
    }

    @Test
    void oneGigabitHwLimitByDefault() {
        Run r = run(TestKind.WRITE_BW, "--in-process", "--rate_limit=1", "--rate_units=g", "--report_gbits",
                "-s", "65536", "-n", "1000");
        assertEquals(0, r.status(), r.err() + r.out());
        assertNear(1.0, r, "HW (the NIC's per-QP pacer)");
    }

    @Test
    void ppIsTheNicsPacerInPerftestsPacketPacingUnits() {
        // 128 M as packet pacing counts it: 128 x 8 x 1024 kb/s = 1.048576 Gb/s
        Run r = run(TestKind.WRITE_BW, "--in-process", "--rate_limit=128", "--rate_units=M",
                "--rate_limit_type=PP", "--report_gbits", "-s", "65536", "-n", "1000");
        assertEquals(0, r.status(), r.err() + r.out());
        assertNear(1.048576, r, "PP");
    }

    @Test
    void swLimiterPostsBurstsFromTheSendLoop() {
        // bursts of 128 messages (the tx depth) every 67 ms: the test runs 40 of them
        Run r = run(TestKind.WRITE_BW, "--in-process", "--rate_limit=1", "--rate_limit_type=SW", "--report_gbits",
                "-s", "4096", "-n", "5120");
        assertEquals(0, r.status(), r.err() + r.out());
        assertTrue(r.err().contains(" Setting burst size to tx depth = 128"), r.err());
        assertNear(1.0, r, "SW");
    }

    @Test
    void swLimiterCountsPacketsPerSecondWithBursts() {
        // 20000 messages of 4096 bytes a second, 0.65536 Gb/s, in bursts of 16: 1000 bursts
        Run r = run(TestKind.SEND_BW, "--in-process", "--rate_limit=20000", "--rate_units=p",
                "--rate_limit_type=SW", "--burst_size=16", "--report_gbits", "-s", "4096", "-n", "16000");
        assertEquals(0, r.status(), r.err() + r.out());
        assertNear(0.65536, r, "SW in packets per second");
    }

    @Test
    void readResponsesArePacedOnTheServersQp() {
        // 100 MiB/s = 0.8388608 Gb/s: the server's responder sends the data of a READ
        Run r = run(TestKind.READ_BW, "--in-process", "--rate_limit=100", "--rate_units=M", "--report_gbits",
                "-s", "65536", "-n", "1000");
        assertEquals(0, r.status(), r.err() + r.out());
        assertNear(0.8388608, r, "HW in MiB/s, READ");
    }

    @Test
    void durationModeIsLimitedToo() {
        Run r = run(TestKind.WRITE_BW, "--in-process", "--rate_limit=1", "--rate_limit_type=SW", "--burst_size=8",
                "--report_gbits", "-s", "65536", "-D", "2");
        assertEquals(0, r.status(), r.err() + r.out());
        assertNear(1.0, r, "SW, -D");
    }
}
