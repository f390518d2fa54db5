package io.rocelab.lab.cli;

import io.rocelab.lab.labfile.LabFileException;
import io.rocelab.lab.labfile.RunSpec;
import io.rocelab.lab.run.LabReport;
import io.rocelab.lab.run.ShippedLabs;
import io.rocelab.lab.run.SweepManifest;
import io.rocelab.lab.run.SweepMerge;
import io.rocelab.lab.run.SweepReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code rocelab lab report DIR...}: merges the directories of runs of one lab made apart ({@code lab run --variant
 * NAME --seed N --out DIR}, by GNU parallel, a Slurm job array or Kubernetes Jobs) into the report one run of them
 * all writes: the variants side by side, the seeds as a spread, the claims over every seed (labs/README.md, "Sweeps
 * on many machines").
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Merges runs of one lab made apart ('lab run FILE --variant NAME --seed N --out DIR', each DIR "
            + "holding its lab-run.json) into one report: the same report.md, CSVs, plots and counters.json a run of "
            + "them all writes (per seed in seed-N/ when there are several, the seeds side by side above), the claims "
            + "evaluated over every seed. Runs missing are named, and claims over them fail.",
            "Exit code 0: every claim holds; 1: one does not (or its run is missing); 2: not runs of one lab file "
            + "(its SHA-256), a directory without lab-run.json, or another mistake: one line each."})
public final class LabReportCommand implements Callable<Integer> {
    @Parameters(paramLabel = "DIR", arity = "1..*", description = "the --out of a 'rocelab lab run' (or of an earlier "
        + "'lab report')")
    List<Path> dirs = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR", description = "where the merged report goes (default lab-out/NAME, as "
        + "'lab run')")
    Path out;

    @Option(names = "--lab", paramLabel = "FILE|NAME", description = "the lab file the runs ran (default: the path "
        + "their lab-run.json names, from here); its SHA-256 must be theirs")
    String labFile;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter w = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<String> problems = new ArrayList<>();
        Map<Path, SweepManifest> manifests = new LinkedHashMap<>();
        for (Path d : dirs) {
            if (!Files.isDirectory(d)) {
                problems.add(d + ": not a directory");
                continue;
            }
            try {
                manifests.put(d, SweepManifest.read(d));
            } catch (IOException e) {
                problems.add(e.getMessage());
            }
        }
        if (problems.isEmpty()) {
            problems.addAll(SweepMerge.mixing(manifests));
        }
        if (!problems.isEmpty()) {
            return refuse(err, problems);
        }
        Path first = manifests.keySet().iterator().next();
        SweepManifest m = manifests.get(first);
        for (Map.Entry<Path, SweepManifest> e : manifests.entrySet()) {
            if (!e.getValue().rocelab().equals(m.rocelab())) {
                err.println("note: " + e.getKey() + " ran " + e.getValue().rocelab() + ", " + first + " "
                    + m.rocelab());
            }
        }
        String fileOrName = labFile != null ? labFile : m.file();
        if (labFile == null && !Files.isRegularFile(Path.of(m.file())) && ShippedLabs.text(m.file()) == null) {
            throw new UserError("the runs ran the lab file " + m.file() + ", not found from here: give it with --lab "
                + "FILE");
        }
        LabCommand.Loaded l;
        try {
            l = LabCommand.load(fileOrName);
        } catch (LabFileException e) {
            return refuse(err, e.problems());
        }
        if (!l.sha256().equals(m.sha256())) {
            throw new UserError(fileOrName + " is not the lab file the runs ran (its SHA-256 " + abbrev(l.sha256())
                + ", theirs " + abbrev(m.sha256()) + "): give the file they ran with --lab");
        }
        Path dir = out != null ? out : Path.of("lab-out", l.lab().name());
        for (Path d : manifests.keySet()) {
            if (same(d, dir)) {
                throw new UserError("--out " + dir + " is one of the runs merged: give another");
            }
        }
        Map<String, Long> durations = new LinkedHashMap<>();
        for (RunSpec r : l.lab().runs()) {
            durations.put(r.variant(), m.durationNanos() > 0 ? m.durationNanos() : r.durationNanos());
        }
        SweepMerge merge;
        try {
            merge = SweepMerge.of(l.lab(), manifests, dir);
        } catch (SweepMerge.Refusal e) {
            return refuse(err, e.problems());
        } catch (IOException e) {
            throw new UserError("cannot copy a run's capture to " + dir + ": " + e.getMessage());
        }
        List<Long> seeds = merge.seeds();
        w.printf(Locale.ROOT, "lab %s: merged %d run(s) from %d director%s: %s%n", l.lab().name(),
            merge.pieces().size(), manifests.size(), manifests.size() == 1 ? "y" : "ies", describe(l.lab(), merge));
        SweepManifest template = new SweepManifest(m.rocelab(), m.lab(), m.file(), m.sha256(), m.mode(),
            m.durationNanos(), seeds, l.lab().variantNames(), List.of());
        SweepReport.Result r;
        try {
            r = new SweepReport(l.lab(), seeds, durations, false, template, merge.pieces()).write(dir);
        } catch (IOException e) {
            throw new UserError("cannot write the report to " + dir + ": " + e.getMessage());
        }
        for (String missing : r.missing()) {
            w.println("missing: " + missing);
        }
        for (LabReport.Outcome o : r.outcomes()) {
            w.printf(Locale.ROOT, "%s  %s  (%s)%n", o.pass() ? "PASS" : "FAIL", o.claim(), o.observed());
        }
        w.println("wrote " + dir.resolve("report.md") + " and " + (r.files().size() - 1) + " more file(s) in " + dir);
        w.flush();
        return r.allPass() ? 0 : LabCommand.CLAIM_FAILED;
    }

    /** @return "variants a, b at seeds 1, 2": what ran, in the lab's order and the seeds' */
    private static String describe(io.rocelab.lab.labfile.LabFile lab, SweepMerge merge) {
        List<String> variants = lab.variantNames().stream().filter(v -> !v.isEmpty()
            && merge.pieces().stream().anyMatch(p -> p.variant().equals(v))).toList();
        List<Long> seeds = merge.seeds().stream().filter(s -> merge.pieces().stream().anyMatch(p -> p.seed() == s))
            .toList();
        return (variants.isEmpty() ? "" : "variant" + (variants.size() == 1 ? " " : "s ") + String.join(", ", variants)
            + " at ") + "seed" + (seeds.size() == 1 ? " " : "s ")
            + String.join(", ", seeds.stream().map(String::valueOf).toList());
    }

    private static boolean same(Path a, Path b) {
        try {
            return Files.exists(b) && Files.isSameFile(a, b);
        } catch (IOException e) {
            return false;
        }
    }

    private static String abbrev(String sha) {
        return sha.length() > 12 ? sha.substring(0, 12) : sha;
    }

    private static int refuse(PrintWriter err, List<String> problems) {
        problems.forEach(err::println);
        err.flush();
        return CommandLines.USAGE_ERROR;
    }
}
