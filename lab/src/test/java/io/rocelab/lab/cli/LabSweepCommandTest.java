package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lab's variants and seeds run apart ({@code lab run --variant NAME --seed N}) and merged ({@code lab report
 * DIR...}) give the report one run of them all gives, file for file and byte for byte, but for the wall time each
 * run took; runs missing are named and fail their claims; runs of another lab file are refused.
 */
class LabSweepCommandTest {
    /** A 3:1 incast with a seeded Poisson background (so that the seeds differ), lossless and lossy, two seeds. */
    static final String LAB = """
        name: sweep-small
        description: "3:1 incast with a seeded background, lossless and lossy"
        duration: 300us
        modes: [virtual]
        seeds: [1, 2]
        topology:
          leaf-spine: {leaves: 1, spines: 1, hosts-per-leaf: 4, host-speed: 100G}
        qos:
          profile: lossless
        flows:
          - {name: incast, from: "h[1-3]", to: h0, verb: write, size: 64KiB, qps: 2, window: 8, ack-timeout: 8}
        background:
          - {name: bg, load: 20%, size: 16KiB}
        probes:
          interval: 10us
          queues: [leaf0:Ethernet0:3]
        capture:
          ports: [h0]
          frames: 40
        variants:
          lossless:
          lossy:
            qos: {profile: lossy}
        expect:
          - claim: the lossless class drops nothing
            check: lossless.switch.drops == 0
          - claim: the lossy class drops at least what the lossless one does
            check: lossy.switch.drops >= lossless.switch.drops
          - claim: the incast carries bytes in either class
            check: lossless.flows.bytes > 0 and lossy.flows.bytes > 0
        """;

    @TempDir
    Path tmp;

    private Path lab() throws IOException {
        Path f = tmp.resolve("sweep-small.yaml");
        Files.writeString(f, LAB);
        return f;
    }

    private static CliRun ok(String... args) {
        CliRun r = CliRun.of(args);
        assertTrue(r.exitCode() == 0, String.join(" ", args) + " -> " + r.exitCode() + "\n" + r.out() + r.err());
        return r;
    }

    @Test
    void theRunsOfVariantsAndSeedsApartMergeIntoTheWholeRunsReport() throws IOException {
        Path f = lab();
        Path whole = tmp.resolve("whole");
        CliRun all = ok("lab", "run", f.toString(), "--out", whole.toString());
        assertTrue(all.out().contains("2 variants (lossless, lossy), virtual time, seeds 1, 2, 300us"), all.out());
        assertTrue(all.out().contains("  seed 2: lossy: ran 300us"), all.out());
        assertTrue(all.out().contains("PASS  the lossless class drops nothing  (seed 1: 0 == 0; seed 2: 0 == 0)"),
            all.out());
        String top = Files.readString(whole.resolve("report.md"));
        assertTrue(top.contains("Virtual time, seeds 1, 2, 300us simulated per run, variants: lossless, lossy."), top);
        assertTrue(top.contains("## Seeds side by side") && top.contains("### Flows over the seeds"), top);
        assertTrue(top.contains("| 2 | 3 of 3 | [seed-2/report.md](seed-2/report.md) |"), top);
        assertTrue(Files.readString(whole.resolve("seed-1/report.md")).contains("Virtual time, seed 1, 300us"));
        assertTrue(Files.isRegularFile(whole.resolve("seed-2/lossless-capture.pcapng")));
        assertEquals(1 + 4, Files.readAllLines(whole.resolve("seeds.csv")).size(), "a row per variant and seed");
        assertNotEquals(Files.readString(whole.resolve("seed-1/counters.json")),
            Files.readString(whole.resolve("seed-2/counters.json")), "the seeds draw different backgrounds");

        Path pieces = tmp.resolve("runs");
        for (String v : List.of("lossless", "lossy")) {
            for (String s : List.of("1", "2")) {
                CliRun piece = ok("lab", "run", f.toString(), "--variant", v, "--seed", s, "--out",
                    pieces.resolve(v + "-" + s).toString());
                assertTrue(piece.out().contains("1 of 2 variants (" + v + "), virtual time, seed " + s), piece.out());
                // the claims over both variants are left to the merge; the one over its own variant is evaluated
                assertTrue(piece.out().contains("SKIP  the incast carries bytes in either class (variant "
                    + (v.equals("lossy") ? "lossless" : "lossy") + " did not run here)"), piece.out());
                assertEquals(v.equals("lossless"), piece.out().contains("PASS  the lossless class drops nothing"),
                    piece.out());
            }
        }
        Path merged = tmp.resolve("merged");
        CliRun report = ok("lab", "report", pieces.resolve("lossy-2").toString(), pieces.resolve("lossless-1").toString(),
            pieces.resolve("lossy-1").toString(), pieces.resolve("lossless-2").toString(), "--out", merged.toString());
        assertTrue(report.out().startsWith("lab sweep-small: merged 4 run(s) from 4 directories: variants "
            + "lossless, lossy at seeds 1, 2\n"), report.out());
        assertEquals(lines(all.out(), "PASS"), lines(report.out(), "PASS"), "the same claims, the same observations");
        assertSameFiles(whole, merged);

        // a merge of merges, and of a whole run with its own pieces, is the same report again
        Path again = tmp.resolve("again");
        ok("lab", "report", merged.toString(), whole.toString(), pieces.resolve("lossy-1").toString(), "--out",
            again.toString());
        assertSameFiles(whole, again);
    }

    @Test
    void atOneSeedTheMergedReportIsTheRunsAsItHasAlwaysBeen() throws IOException {
        Path f = lab();
        Path whole = tmp.resolve("whole");
        CliRun all = ok("lab", "run", f.toString(), "--seeds", "3", "--out", whole.toString());
        assertTrue(all.out().contains(", virtual time, seed 3, 300us"), all.out());
        assertTrue(Files.isRegularFile(whole.resolve("lossless-flow-rate.csv")), "one seed: the files at the top");
        assertFalse(Files.exists(whole.resolve("seed-3")));
        ok("lab", "run", f.toString(), "--seeds", "3", "--variant", "lossy", "--out", tmp.resolve("p/b").toString());
        ok("lab", "run", f.toString(), "--seed", "3", "--seeds", "3", "--variant", "lossless", "--out",
            tmp.resolve("p/a").toString());
        Path merged = tmp.resolve("merged");
        ok("lab", "report", tmp.resolve("p/a").toString(), tmp.resolve("p/b").toString(), "--out", merged.toString());
        assertSameFiles(whole, merged);
        assertTrue(Files.readString(merged.resolve("report.md")).contains("Capture: [lossless-capture.pcapng]"));
    }

    @Test
    void aMissingRunIsNamedAndTheClaimsOverItFail() throws IOException {
        Path f = lab();
        ok("lab", "run", f.toString(), "--variant", "lossless,lossy", "--seed", "1", "--out",
            tmp.resolve("runs/1").toString());
        ok("lab", "run", f.toString(), "--variant", "lossless", "--seed", "2", "--out", tmp.resolve("runs/2").toString());
        Path merged = tmp.resolve("merged");
        CliRun r = CliRun.of("lab", "report", tmp.resolve("runs/1").toString(), tmp.resolve("runs/2").toString(),
            "--out", merged.toString());
        assertEquals(LabCommand.CLAIM_FAILED, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("missing: variant lossy at seed 2\n"), r.out());
        assertTrue(r.out().contains("PASS  the lossless class drops nothing  (seed 1: 0 == 0; seed 2: 0 == 0)"),
            r.out());
        assertTrue(r.out().contains("FAIL  the lossy class drops at least what the lossless one does  (seed 1: "),
            r.out());
        assertTrue(r.out().contains("seed 2: cannot evaluate: variant lossy did not run at seed 2 (it is missing from "
            + "the runs merged))"), r.out());
        String top = Files.readString(merged.resolve("report.md"));
        assertTrue(top.contains("**Missing** from the runs merged: variant lossy at seed 2. Claims over them fail."),
            top);
        String seed2 = Files.readString(merged.resolve("seed-2/report.md"));
        assertTrue(seed2.contains("**Missing** at this seed: variant lossy. Claims over it fail."), seed2);
        assertTrue(seed2.contains("## Variant lossless") && !seed2.contains("## Variant lossy"), seed2);
    }

    @Test
    void runsOfAnotherLabFileOrAnUnknownVariantOrSeedAreRefusedInOneLine() throws IOException {
        Path f = lab();
        ok("lab", "run", f.toString(), "--variant", "lossless", "--seed", "1", "--duration", "50us", "--out",
            tmp.resolve("a").toString());
        Path g = tmp.resolve("other/sweep-small.yaml");
        Files.createDirectories(g.getParent());
        Files.writeString(g, LAB.replace("frames: 40", "frames: 41"));
        ok("lab", "run", g.toString(), "--variant", "lossy", "--seed", "1", "--duration", "50us", "--out",
            tmp.resolve("b").toString());
        CliRun mixed = CliRun.of("lab", "report", tmp.resolve("a").toString(), tmp.resolve("b").toString(), "--out",
            tmp.resolve("m").toString());
        assertEquals(2, mixed.exitCode(), mixed.out() + mixed.err());
        assertEquals(1, mixed.err().lines().count(), mixed.err());
        assertTrue(mixed.err().startsWith(tmp.resolve("b") + ": runs of " + g + " (lab sweep-small, SHA-256 "), mixed.err());
        assertTrue(mixed.err().contains("runs of different lab files do not merge"), mixed.err());
        assertFalse(Files.exists(tmp.resolve("m")), "nothing written");

        CliRun into = CliRun.of("lab", "report", tmp.resolve("a").toString(), "--out", tmp.resolve("a").toString());
        assertEquals(2, into.exitCode());
        assertEquals("rocelab: --out " + tmp.resolve("a") + " is one of the runs merged: give another\n", into.err());
        Path gone = tmp.resolve("gone");
        ok("lab", "run", f.toString(), "--variant", "lossy", "--seed", "2", "--duration", "50us", "--out",
            gone.toString());
        Files.delete(gone.resolve("lab-run/lossy.seed-2.json.gz"));
        CliRun lost = CliRun.of("lab", "report", tmp.resolve("a").toString(), gone.toString(), "--out",
            tmp.resolve("m").toString());
        assertEquals(2, lost.exitCode());
        assertEquals(gone.resolve("lab-run/lossy.seed-2.json.gz") + ": missing (its lab-run.json names it)\n",
            lost.err());
        assertFalse(Files.exists(tmp.resolve("m")), "nothing written");

        CliRun notRun = CliRun.of("lab", "report", tmp.toString(), "--out", tmp.resolve("m").toString());
        assertEquals(2, notRun.exitCode());
        assertEquals(tmp + ": no lab-run.json (not the --out of a 'rocelab lab run')\n", notRun.err());

        CliRun variant = CliRun.of("lab", "run", f.toString(), "--variant", "lossles,lossy,pfc", "--out",
            tmp.resolve("x").toString());
        assertEquals(2, variant.exitCode());
        assertEquals("rocelab: --variant: lab sweep-small has no variant lossles, pfc (its variants: lossless, lossy)\n",
            variant.err());
        CliRun seed = CliRun.of("lab", "run", f.toString(), "--seed", "9", "--out", tmp.resolve("x").toString());
        assertEquals(2, seed.exitCode());
        assertEquals("rocelab: --seed 9: lab sweep-small runs seeds 1, 2 (its seeds:; --seeds LIST runs others)\n", seed.err());
        CliRun seeds = CliRun.of("lab", "run", f.toString(), "--seeds", "2-1", "--out", tmp.resolve("x").toString());
        assertEquals(2, seeds.exitCode());
        assertEquals("rocelab: --seeds: a range of seeds is A-B with 0 <= A <= B: 2-1\n", seeds.err());
        CliRun both = CliRun.of("lab", "run", f.toString(), "--variant", "pfc", "--seed", "9", "--out",
            tmp.resolve("x").toString());
        assertEquals(2, both.exitCode());
        assertEquals("rocelab: --variant: lab sweep-small has no variant pfc (its variants: lossless, lossy); --seed 9: "
            + "lab sweep-small runs seeds 1, 2 (its seeds:; --seeds LIST runs others)\n", both.err(), "both at once");
        assertFalse(Files.exists(tmp.resolve("x")), "nothing written");
        CliRun checked = ok("lab", "check", f.toString());
        assertTrue(checked.out().startsWith(f + ": ok: lab sweep-small, 2 variants (lossless, lossy) at seeds 1, 2, "
            + "300us,"), checked.out());

        Path bad = tmp.resolve("bad.yaml");
        Files.writeString(bad, LAB.replace("seeds: [1, 2]", "seeds: [1, 2, 2, x]\nseed: 4"));
        CliRun check = CliRun.of("lab", "check", bad.toString());
        assertEquals(2, check.exitCode());
        assertEquals(List.of(bad + ":5:8: seeds: give seed (one) or seeds (several), not both"),
            check.err().lines().toList());
        Files.writeString(bad, LAB.replace("seeds: [1, 2]", "seeds: [1, 2, 2, x]"));
        check = CliRun.of("lab", "check", bad.toString());
        assertEquals(2, check.exitCode());
        assertEquals(List.of(bad + ":5:15: seeds[2]: seed 2 is named twice",
            bad + ":5:18: seeds[3]: a seed is a whole number or a range A-B: 'x'"), check.err().lines().toList());
    }

    /**
     * The GNU parallel example of labs/README.md, as written there but for the command (this JVM's class path): only
     * where GNU parallel is installed ({@code apt-get install parallel}).
     */
    @Test
    void theGnuParallelExampleRunsAndMerges() throws Exception {
        boolean hasParallel = Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
            .anyMatch(d -> Files.isExecutable(Path.of(d, "parallel")));
        MachinePrerequisites.require("LabSweepCommandTest.theGnuParallelExampleRunsAndMerges",
            hasParallel ? null : "GNU parallel is not installed (apt-get install parallel)");
        Path f = lab();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String rocelab = java + " -cp " + System.getProperty("java.class.path") + " io.rocelab.lab.cli.Rocelab";
        Process p = new ProcessBuilder("sh", "-c", "parallel -j 2 " + rocelab + " lab run " + f
            + " --variant {1} --seed {2} --duration 50us --out runs/{1}-{2} ::: lossless lossy ::: 1 2 && "
            + rocelab + " lab report runs/* --out report").directory(tmp.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), out);
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("lab sweep-small: merged 4 run(s) from 4 directories: variants lossless, lossy at "
            + "seeds 1, 2"), out);
        assertTrue(Files.isRegularFile(tmp.resolve("report/seed-2/lossy-flow-rate.csv")), out);
    }

    /**
     * labs/slurm-sweep.sh as a Slurm job array runs it, a task per variant and seed ({@code SLURM_ARRAY_TASK_ID} 1 and
     * 2 of 0 to 3: a process each, a few seconds; 0 and 3 run here, as the script would run them), then {@code lab
     * report} over what the tasks wrote.
     */
    @Test
    void theSlurmScriptMapsEachArrayTaskToAVariantAndASeed() throws Exception {
        Path f = tmp.resolve("short.yaml");
        Files.writeString(f, LAB.replace("duration: 300us", "duration: 60us"));
        Path script = CliDocsTest.ROOT.resolve("labs/slurm-sweep.sh");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String rocelab = java + " -cp " + System.getProperty("java.class.path") + " io.rocelab.lab.cli.Rocelab";
        for (int task : new int[] {1, 2}) {
            ProcessBuilder pb = new ProcessBuilder("sh", script.toString(), f.toString(), "lossless lossy", "1 2",
                tmp.resolve("runs").toString()).redirectErrorStream(true);
            pb.environment().put("SLURM_ARRAY_TASK_ID", Integer.toString(task));
            pb.environment().put("ROCELAB", rocelab);
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), out);
            assertEquals(0, p.exitValue(), out);
            String variant = task / 2 == 0 ? "lossless" : "lossy";
            assertTrue(out.contains("1 of 2 variants (" + variant + "), virtual time, seed " + (task % 2 + 1) + ", 60us"),
                "task " + task + ": " + out);
        }
        ok("lab", "run", f.toString(), "--variant", "lossless", "--seed", "1", "--out", tmp.resolve("runs/lossless-1")
            .toString());
        ok("lab", "run", f.toString(), "--variant", "lossy", "--seed", "2", "--out", tmp.resolve("runs/lossy-2")
            .toString());
        List<String> dirs;
        try (Stream<Path> s = Files.list(tmp.resolve("runs"))) {
            dirs = s.map(Path::toString).sorted().toList();
        }
        assertEquals(List.of("lossless-1", "lossless-2", "lossy-1", "lossy-2"),
            dirs.stream().map(d -> Path.of(d).getFileName().toString()).toList());
        List<String> args = new ArrayList<>(List.of("lab", "report"));
        args.addAll(dirs);
        args.addAll(List.of("--out", tmp.resolve("report").toString()));
        CliRun report = ok(args.toArray(String[]::new));
        assertFalse(report.out().contains("missing") || report.out().contains("FAIL"), report.out());
        assertTrue(Files.isRegularFile(tmp.resolve("report/seed-2/lossy-flow-rate.csv")), report.out());

        ProcessBuilder beyond = new ProcessBuilder("sh", script.toString(), f.toString(), "lossless lossy", "1 2",
            tmp.resolve("runs").toString()).redirectErrorStream(true);
        beyond.environment().put("SLURM_ARRAY_TASK_ID", "4");
        Process p = beyond.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(2, p.exitValue(), out);
        assertTrue(out.endsWith("task 4: the array is 0-3 (2 variants x 2 seeds)\n"), out);
    }

    private static List<String> lines(String out, String prefix) {
        return out.lines().filter(l -> l.startsWith(prefix)).toList();
    }

    /**
     * Every file of {@code a} is in {@code b} with the same bytes and the other way round, but for the manifest and
     * the archives (which say where each run was) and the wall time a report says each run took.
     */
    static void assertSameFiles(Path a, Path b) throws IOException {
        Map<String, byte[]> fa = files(a);
        Map<String, byte[]> fb = files(b);
        assertEquals(fa.keySet(), fb.keySet());
        assertTrue(fa.size() > 10, fa.keySet().toString());
        for (String name : fa.keySet()) {
            if (name.endsWith(".md")) {
                assertEquals(withoutWallTime(fa.get(name)), withoutWallTime(fb.get(name)), name);
            } else {
                assertArrayEquals(fa.get(name), fb.get(name), name);
            }
        }
    }

    private static String withoutWallTime(byte[] md) {
        return new String(md, StandardCharsets.UTF_8).replaceAll("in [0-9.]+ s of wall time", "in X s of wall time");
    }

    private static Map<String, byte[]> files(Path dir) throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        List<Path> all = new ArrayList<>();
        try (Stream<Path> s = Files.walk(dir)) {
            s.filter(Files::isRegularFile).forEach(all::add);
        }
        for (Path p : all) {
            String name = dir.relativize(p).toString();
            if (name.equals("lab-run.json") || name.startsWith("lab-run/")) {
                continue;
            }
            out.put(name, Files.readAllBytes(p));
        }
        return out;
    }
}
