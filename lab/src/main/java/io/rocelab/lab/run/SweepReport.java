package io.rocelab.lab.run;

import io.rocelab.lab.labfile.LabFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The report over a lab's runs of its variants at its seeds, whoever ran them: {@code lab run} in one process, or
 * {@code lab report} merging the directories of runs made apart ({@code --variant}, {@code --seed}, on other
 * machines). The same runs give the same files either way (but for the wall time each took).
 *
 * <p>At one seed the directory is what a run has always written ({@link LabReport}). At several, each seed's report
 * goes to {@code seed-N/} and {@code report.md} above them holds the claims over every seed and the seeds side by
 * side ({@link SeedsReport}). Beside either, {@code lab-run.json} ({@link SweepManifest}) and one {@link RunArchive}
 * per run under {@code lab-run/}: what a later merge reads.
 */
public final class SweepReport {
    /**
     * One run: a variant at a seed.
     *
     * @param variant its name, empty for a lab without variants
     */
    public record Piece(String variant, long seed, LabRun run) {
    }

    /**
     * What the report says.
     *
     * @param outcomes     the claims over every seed, those not evaluated left out
     * @param notEvaluated claims left to a merge, one line each ({@link SweepClaims})
     * @param missing      the runs a merge lacks, one line each ("variant lossy at seed 2")
     * @param files        the report's files, {@code report.md} first (not the manifest and the archives)
     */
    public record Result(List<LabReport.Outcome> outcomes, List<String> notEvaluated, List<String> missing,
                         List<Path> files) {
        /** @return whether every claim evaluated holds */
        public boolean allPass() {
            return outcomes.stream().allMatch(LabReport.Outcome::pass);
        }
    }

    private final LabFile lab;
    private final List<Long> seeds;
    private final Map<String, Long> durations;
    private final boolean partial;
    private final SweepManifest manifest;
    private final List<Piece> pieces;

    /**
     * @param seeds     the seeds reported, in order (several: one directory each)
     * @param durations each variant's duration as planned, ns
     * @param partial   a run of some variants only: claims over the others are left to a merge, and nothing is
     *                  said to be missing
     * @param manifest  what ran (its pieces are filled in here)
     * @param pieces    the runs there are
     */
    public SweepReport(LabFile lab, List<Long> seeds, Map<String, Long> durations, boolean partial,
                       SweepManifest manifest, List<Piece> pieces) {
        this.lab = lab;
        this.seeds = List.copyOf(seeds);
        this.durations = Map.copyOf(durations);
        this.partial = partial;
        this.manifest = manifest;
        this.pieces = List.copyOf(pieces);
    }

    /** @return whether the seeds go to a directory each */
    public static boolean perSeedDirectories(List<Long> seeds) {
        return seeds.size() > 1;
    }

    /** @return the directory a seed's report goes to, under the report's */
    public static Path seedDir(Path dir, List<Long> seeds, long seed) {
        return perSeedDirectories(seeds) ? dir.resolve("seed-" + seed) : dir;
    }

    /** @return a run's capture's name, beside its report ({@code PREFIXcapture.pcapng}) */
    public static String captureName(String variant) {
        return (variant.isEmpty() ? "" : variant + "-") + "capture.pcapng";
    }

    /** @return the runs at {@code seed}, in the lab's variant order */
    List<LabRun> runsAt(long seed) {
        List<LabRun> out = new ArrayList<>();
        for (String v : lab.variantNames()) {
            for (Piece p : pieces) {
                if (p.seed() == seed && p.variant().equals(v)) {
                    out.add(p.run());
                }
            }
        }
        return out;
    }

    /** @return the lab's variants that did not run at {@code seed} (none for a partial run) */
    private List<String> missingAt(long seed) {
        List<String> out = new ArrayList<>();
        if (partial) {
            return out;
        }
        for (String v : lab.variantNames()) {
            if (pieces.stream().noneMatch(p -> p.seed() == seed && p.variant().equals(v))) {
                out.add(v);
            }
        }
        return out;
    }

    /** @return the runs missing, one line each: "variant lossy at seed 2", "seed 3" when none ran there */
    List<String> missing() {
        List<String> out = new ArrayList<>();
        for (long seed : seeds) {
            List<String> absent = missingAt(seed);
            if (absent.isEmpty()) {
                continue;
            }
            if (absent.size() == lab.variantNames().size()) {
                out.add("seed " + seed + (lab.hasVariants() ? " (every variant)" : ""));
            } else {
                absent.forEach(v -> out.add("variant " + v + " at seed " + seed));
            }
        }
        return out;
    }

    /** Writes the report, the manifest and the archives to {@code dir}. */
    public Result write(Path dir) throws IOException {
        Map<Long, Map<String, RunData>> present = new LinkedHashMap<>();
        for (long seed : seeds) {
            Map<String, RunData> at = new LinkedHashMap<>();
            for (LabRun r : runsAt(seed)) {
                at.put(r.data().variant(), r.data());
            }
            present.put(seed, at);
        }
        SweepClaims.Evaluation ev = SweepClaims.evaluate(lab, seeds, present, durations, partial);
        List<String> missing = missing();
        List<String> preamble = new ArrayList<>();
        if (!missing.isEmpty()) {
            preamble.add("**Missing** from the runs merged: " + String.join(", ", missing)
                + ". Claims over them fail.");
        }
        if (!ev.notEvaluated().isEmpty()) {
            preamble.add("Not evaluated here, their variants did not run (`rocelab lab report` evaluates them over the "
                + "merged runs): " + String.join("; ", ev.notEvaluated()) + ".");
        }
        List<Path> files = new ArrayList<>();
        Files.createDirectories(dir);
        if (!perSeedDirectories(seeds)) {
            long seed = seeds.get(0);
            files.addAll(new LabReport(lab, runsAt(seed), ev.combined(), seed).preamble(preamble).write(dir));
        } else {
            for (long seed : seeds) {
                List<LabRun> runs = runsAt(seed);
                if (runs.isEmpty()) {
                    continue;
                }
                List<String> here = new ArrayList<>();
                List<String> absent = missingAt(seed);
                if (!absent.isEmpty()) {
                    here.add("**Missing** at this seed: variant " + String.join(", ", absent) + ". Claims over "
                        + (absent.size() == 1 ? "it" : "them") + " fail.");
                }
                if (!ev.notEvaluated().isEmpty()) {
                    here.add(preamble.get(preamble.size() - 1));
                }
                files.addAll(new LabReport(lab, runs, ev.perSeed().get(seed), seed).preamble(here)
                    .write(seedDir(dir, seeds, seed)));
            }
            files.addAll(0, new SeedsReport(lab, seeds, pieces, ev, preamble).write(dir));
        }
        List<SweepManifest.Piece> archived = new ArrayList<>();
        for (long seed : seeds) {
            for (LabRun run : runsAt(seed)) {
                String v = run.data().variant();
                String archive = SweepManifest.archiveName(v, seed);
                String at = perSeedDirectories(seeds) ? "seed-" + seed + "/" : "";
                String capture = run.capture() == null ? null : at + captureName(v);
                String sflowName = at + LabSflow.file(Path.of(captureName(v))).getFileName();
                String sflow = Files.isRegularFile(dir.resolve(sflowName)) ? sflowName : null;
                RunArchive.write(dir.resolve(archive), run, seed, capture);
                archived.add(new SweepManifest.Piece(v, seed, archive, capture, sflow));
            }
        }
        new SweepManifest(manifest.rocelab(), manifest.lab(), manifest.file(), manifest.sha256(), manifest.mode(),
            manifest.durationNanos(), manifest.seeds(), manifest.variants(), archived).write(dir);
        return new Result(ev.combined(), ev.notEvaluated(), missing, files);
    }
}
