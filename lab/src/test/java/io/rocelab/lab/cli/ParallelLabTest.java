package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lab run --threads}: a fat tree split into logical processes gives the same CSVs and
 * counters on one thread and on two, byte for byte, with an incast, background load, a cable pulled
 * and replugged and a lossy cable on the way; and a lab that uses what is not parallel yet says it
 * runs on one scheduler.
 */
class ParallelLabTest {
    @TempDir
    Path tmp;

    @Test
    void oneAndTwoThreadsWriteTheSameFiles() throws IOException {
        Path f = tmp.resolve("ft.yaml");
        Files.writeString(f, """
            name: ft-parallel
            duration: 200us
            topology:
              fat-tree: {k: 4, delay: 1us}
            nics: {cc: dcqcn}
            flows:
              - {name: incast, from: "h[1-6]", to: h0, messages: 20, start: 5us}
            background:
              - {name: bg, load: 30%, stop: 150us}
            events:
              - {at: 40us, link-down: pod0-edge0:Ethernet8}
              - {at: 90us, link-up: pod0-edge0:Ethernet8}
              - {at: 60us, link-faults: {link: pod1-agg0:Ethernet8, loss: 1%}}
            probes: {interval: 5us, sample: [flow-rate, queue-depth, pause, cnps]}
            expect:
              - check: flows.errors == 0
            """);
        Path one = tmp.resolve("one");
        Path two = tmp.resolve("two");
        CliRun a = CliRun.of("lab", "run", f.toString(), "--threads", "1", "--out", one.toString());
        assertTrue(a.exitCode() <= 1, a.out() + a.err());
        CliRun b = CliRun.of("lab", "run", f.toString(), "--threads", "2", "--out", two.toString());
        assertEquals(a.exitCode(), b.exitCode(), b.out() + b.err());
        assertTrue(a.out().contains("parallel: 20 logical processes, lookahead 1us, 1 threads"), a.out());
        assertTrue(b.out().contains("parallel: 20 logical processes, lookahead 1us, 2 threads"), b.out());
        assertEquals(verdicts(a), verdicts(b), "the same claims hold");
        List<String> files;
        try (Stream<Path> s = Files.list(one)) {
            files = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".csv") || n.endsWith(".json"))
                .sorted().toList();
        }
        assertTrue(files.containsAll(List.of("counters.json", "counters.csv", "flow-rate.csv", "queue-depth.csv",
            "pause.csv")), files.toString());
        for (String name : files) {
            assertArrayEquals(Files.readAllBytes(one.resolve(name)), Files.readAllBytes(two.resolve(name)), name);
        }
    }

    private static List<String> verdicts(CliRun run) {
        return run.out().lines().filter(l -> l.startsWith("PASS") || l.startsWith("FAIL")).toList();
    }

    @Test
    void aLabThatVerifiesItsDataRunsOnOneScheduler() throws IOException {
        Path f = tmp.resolve("verify.yaml");
        Files.writeString(f, """
            name: verify-one-lp
            duration: 50us
            topology:
              fat-tree: {k: 4, delay: 1us}
            flows:
              - {name: checked, from: h1, to: h12, messages: 4, verify: true}
            expect:
              - check: flows.errors == 0
            """);
        CliRun run = CliRun.of("lab", "run", f.toString(), "--threads", "2", "--out", tmp.resolve("v").toString());
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("one scheduler: the lab uses flow 'checked' verifies its data"), run.out());
    }

    @Test
    void aFabricOfShortCablesIsOneLogicalProcess() throws IOException {
        Path f = tmp.resolve("short.yaml");
        Files.writeString(f, """
            name: short-cables
            duration: 20us
            topology:
              leaf-spine: {leaves: 2, spines: 1, hosts-per-leaf: 1}
            flows:
              - {name: w, from: h0, to: h1, messages: 2}
            """);
        CliRun run = CliRun.of("lab", "run", f.toString(), "--threads", "2", "--out", tmp.resolve("s").toString());
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("one scheduler: the fabric is one logical process (cables under 100 ns join"),
            run.out());
    }

    @Test
    void threadsMustBePositiveAndVirtual() {
        CliRun zero = CliRun.of("lab", "run", "pfc-basics", "--threads", "0", "--out", tmp.resolve("z").toString());
        assertEquals(2, zero.exitCode());
        assertTrue(zero.err().contains("--threads must be 1 or more: 0"), zero.err());
    }
}
