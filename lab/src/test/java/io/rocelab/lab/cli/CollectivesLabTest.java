package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.lab.run.ShippedLabs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code collectives:} in lab files, run as a user runs them: the shipped lab's claims, its report, live mode, mistakes. */
class CollectivesLabTest {
    @TempDir
    Path tmp;

    private static final String[] CLAIMS = {
        "every iteration of both collectives finishes, in both fabrics, without error completions",
        "on the non-blocking fabric the ring all-reduce's busbw is within 10 % of the hosts' 100 Gb/s",
        "2:1 oversubscription leaves the ring all-reduce within 5 % of its non-blocking busbw",
        "the all-to-all through the 2:1 spine layer takes at least 10 % longer than through the non-blocking one",
        "its slowest iteration too"};

    private static String shipped(String name) throws IOException {
        try (InputStream in = CollectivesLabTest.class.getClassLoader()
            .getResourceAsStream(ShippedLabs.PREFIX + name + ".yaml")) {
            assertTrue(in != null, name + " is shipped");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * labs/collectives holds its claims, and writes nccl-tests' table, a CSV and a plot per
     * collective. The seed alone moves nothing here (QPNs are allocated in order and the UDP source
     * port follows them, as rxe's does), so the second run is seed 2 with the ring rotated by two
     * ranks: the same ring edges, other QPs, other ECMP hashes (the all-to-all's times differ), and
     * the same claims hold.
     */
    @Test
    void theShippedLabHoldsItsClaimsOverTwoSeedsAndAnotherHash() throws IOException {
        Path out = tmp.resolve("coll");
        CliRun run = LabRuns.runAllPass(out, "collectives", CLAIMS);
        assertTrue(run.out().contains("2 variants (nonblocking, oversubscribed)"), run.out());
        String report = Files.readString(out.resolve("report.md"));
        assertTrue(report.contains("#       size         count      type   redop    root     time   algbw   busbw #wrong"),
            report);
        assertTrue(report.lines().anyMatch(l -> l.matches("\\s+2097152\\s+524288\\s+float\\s+sum\\s+-1\\s+.*N/A   # ar")),
            "the all-reduce's row: the whole buffer's count, redop sum");
        assertTrue(report.lines().anyMatch(l -> l.matches("\\s+2097152\\s+65536\\s+float\\s+none\\s+-1\\s+.*N/A   # a2a")),
            "the all-to-all's row: the count per peer, redop none");
        for (String v : List.of("nonblocking", "oversubscribed")) {
            for (String c : List.of("ar", "a2a")) {
                List<String> csv = Files.readAllLines(out.resolve(v + "-collective-" + c + ".csv"));
                assertEquals(5, csv.size(), "a header, a warm-up and 3 timed iterations: " + csv);
                assertTrue(csv.get(1).startsWith("1,1,") && csv.get(2).startsWith("1,0,") && csv.get(4).startsWith("3,0,"),
                    "the warm-up iteration, then timed iterations 1 to 3: " + csv);
                assertTrue(csv.get(0).endsWith(",slowest_step_us,end_h0_us,end_h1_us,end_h2_us,end_h3_us,end_h4_us,"
                    + "end_h5_us,end_h6_us,end_h7_us"), csv.get(0));
                assertTrue(Files.size(out.resolve(v + "-collective-" + c + ".png")) > 1000);
            }
        }
        List<String> side = Files.readAllLines(out.resolve("variants-collectives.csv"));
        assertEquals(List.of("ar,nonblocking", "ar,oversubscribed", "a2a,nonblocking", "a2a,oversubscribed"),
            side.subList(1, 5).stream().map(l -> l.substring(0, l.indexOf(',', l.indexOf(',') + 1))).toList());
        assertTrue(report.contains("### Collectives side by side"), report);
        String counters = Files.readString(out.resolve("counters.json"));
        assertTrue(counters.contains("\"collectives\"") && counters.contains("\"busbw\""), counters);

        String rotated = shipped("collectives").replace("ranks: \"h[0-7]\"", "ranks: [h2, h3, h4, h5, h6, h7, h0, h1]");
        assertTrue(rotated.contains("[h2, h3"), "the ranks rotated");
        Path f = tmp.resolve("rotated.yaml");
        Files.writeString(f, rotated);
        Path out2 = tmp.resolve("rot");
        CliRun again = CliRun.of("lab", "run", f.toString(), "--seed", "2", "--out", out2.toString());
        assertEquals(0, again.exitCode(), again.out() + again.err());
        for (String claim : CLAIMS) {
            assertTrue(again.out().contains("PASS  " + claim), claim + " in\n" + again.out());
        }
        assertFalse(Files.readString(out2.resolve("nonblocking-collective-a2a.csv"))
            .equals(Files.readString(out.resolve("nonblocking-collective-a2a.csv"))), "another hash, other times");
    }

    private Path small(String name, String modes, String speed, String duration) throws IOException {
        Path f = tmp.resolve(name + ".yaml");
        Files.writeString(f, """
            name: %s
            duration: %s
            modes: %s
            topology:
              leaf-spine: {leaves: 2, spines: 2, hosts-per-leaf: 2, host-speed: %s}
            qos:
              profile: lossless
            collectives:
              - {name: ar, kind: all-reduce, ranks: "h[0-3]", size: 256KiB, iterations: 2, warmup: 1, chunk: 16KiB}
              - {name: hd, kind: all-reduce, algorithm: halving-doubling, ranks: "h[0-3]", size: 256KiB, iterations: 2, qps: 2, start: 1ms}
              - {name: ag, kind: all-gather, ranks: [h0, h2, h1, h3], size: 256KiB, iterations: 2, start: 2ms}
              - {name: rs, kind: reduce-scatter, ranks: "h[0-3]", size: 256KiB, iterations: 2, start: 3ms, dscp: 26}
              - {name: a2a, kind: all-to-all, ranks: "h[0-3]", size: 256KiB, iterations: 2, start: 4ms}
            expect:
              - check: collectives.iterations == 2 and collectives.errors == 0
              - check: collectives.busbw > 0 and collectives.busbw < %s
              - check: collective("ar").jct_p99 >= collective("ar").time and collective("ar").time < 1ms
              - check: collective("hd").algbw * 2 * 3 / 4 == collective("hd").busbw
            """.formatted(name, duration, modes, speed, speed));
        return f;
    }

    /** {@code lab check} counts a file's collectives and checks its claims about them before any run. */
    @Test
    void labCheckCountsTheCollectivesAndChecksTheirClaims() throws IOException {
        Path f = small("checked", "[virtual]", "100G", "5ms");
        CliRun ok = CliRun.of("lab", "check", f.toString());
        assertEquals(0, ok.exitCode(), ok.out() + ok.err());
        assertTrue(ok.out().contains(", 0 flow(s), 5 collective(s), 0 event(s), 4 check(s)"), ok.out());
        Files.writeString(f, Files.readString(f) + "  - collective(\"zz\").busbw > 0\n  - collective(\"ar\").speed > 0\n");
        CliRun bad = CliRun.of("lab", "check", f.toString());
        assertEquals(2, bad.exitCode(), bad.out() + bad.err());
        assertTrue(bad.err().contains("expect[4]: no collective 'zz' (known: ar, hd, ag, rs, a2a)"), bad.err());
        assertTrue(bad.err().contains("expect[5]: a collective has no 'speed' (it has: time, algbw, busbw, "
            + "jct_p99, jct_max, iterations, errors)"), bad.err());
    }

    /** One seed, the same files: every CSV and counters.json, bit for bit, for each kind of collective. */
    @Test
    void oneSeedGivesTheSameFiles() throws IOException {
        Path f = small("kinds", "[virtual]", "100G", "5ms");
        Path a = tmp.resolve("a");
        Path b = tmp.resolve("b");
        for (Path out : List.of(a, b)) {
            CliRun run = CliRun.of("lab", "run", f.toString(), "--out", out.toString(), "--seed", "9");
            assertEquals(0, run.exitCode(), run.out() + run.err());
            assertFalse(run.out().contains("FAIL"), run.out());
        }
        for (String c : List.of("ar", "hd", "ag", "rs", "a2a")) {
            String csv = "collective-" + c + ".csv";
            assertEquals(Files.readString(a.resolve(csv)), Files.readString(b.resolve(csv)), csv);
            assertEquals(c.equals("ar") ? 4 : 3, Files.readAllLines(a.resolve(csv)).size(),
                csv + ": a header, (ar: a warm-up), 2 timed iterations");
        }
        assertEquals(Files.readString(a.resolve("counters.json")), Files.readString(b.resolve("counters.json")));
    }

    /**
     * Collectives on the wall clock (one real-time event loop): a ring all-reduce and an all-to-all
     * finish every iteration without error completions. Small, so that a busy machine's loop keeps up.
     */
    @Test
    void collectivesRunLive() throws IOException {
        Path f = tmp.resolve("live-coll.yaml");
        Files.writeString(f, """
            name: live-coll
            duration: 300ms
            modes: [virtual, live]
            topology:
              leaf-spine: {leaves: 2, spines: 2, hosts-per-leaf: 2, host-speed: 10G}
            qos:
              profile: lossless
            collectives:
              - {name: ar, kind: all-reduce, ranks: "h[0-3]", size: 64KiB, iterations: 2, warmup: 1, chunk: 16KiB}
              - {name: a2a, kind: all-to-all, ranks: "h[0-3]", size: 64KiB, iterations: 2, start: 100ms}
            expect:
              - check: collectives.iterations == 2 and collectives.errors == 0
              - check: collectives.busbw > 0 and collectives.busbw < 10G
            """);
        Path out = tmp.resolve("live");
        CliRun run = CliRun.of("lab", "run", f.toString(), "--mode", "live", "--out", out.toString());
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("live (real time, one event loop)"), run.out());
        assertFalse(run.out().contains("FAIL"), run.out());
        assertEquals(3, Files.readAllLines(out.resolve("collective-a2a.csv")).size(), "a header, 2 iterations");
        assertEquals(4, Files.readAllLines(out.resolve("collective-ar.csv")).size(), "a header, a warm-up, 2 iterations");
    }

    /** Every mistake of a collectives section at once, FILE:LINE:COL, exit 2, nothing run. */
    @Test
    void mistakesAreNamedWithTheirPlace() throws IOException {
        Path f = tmp.resolve("bad.yaml");
        Files.writeString(f, """
            name: bad
            duration: 1ms
            topology:
              leaf-spine: {leaves: 2, spines: 2, hosts-per-leaf: 3}
            collectives:
              - {name: a, kind: all-sum, ranks: "h[0-3]", size: 1MiB}
              - {name: b, kind: all-reduce, algorithm: halving-doubling, ranks: "h[0-5]", size: 1MiB}
              - {name: c, kind: all-gather, ranks: [h0, h9], size: 1MiB}
              - {name: d, kind: all-to-all, ranks: "h[0-3]"}
              - {name: e, kind: all-reduce, ranks: "h[0-3]", size: 1MiB, chunk: 2MiB, colour: red}
            expect:
              - collective("zz").busbw > 0
            """);
        CliRun run = CliRun.of("lab", "check", f.toString());
        assertEquals(2, run.exitCode(), run.out() + run.err());
        String err = run.err();
        for (String want : List.of(
            "bad.yaml:6:21: collectives[0].kind: no kind 'all-sum' (known: all-reduce, all-gather, reduce-scatter, "
                + "all-to-all)",
            "bad.yaml:7:", "collectives[1].algorithm: halving-doubling needs a power of two of ranks, not 6",
            "bad.yaml:8:", "collectives[2].ranks:", "h9",
            "bad.yaml:9:", "collectives[3]: 'size' is missing",
            "bad.yaml:10:", "collectives[4].chunk: a work request of 1 B to 1 MiB", "collectives[4].colour")) {
            assertTrue(err.contains(want), want + " in\n" + err);
        }
        assertFalse(err.contains("Exception"), err);
    }
}
