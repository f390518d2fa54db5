package io.rocelab.lab.run;

import io.rocelab.lab.labfile.LabFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The runs of directories made apart ({@code lab run --variant --seed}), gathered for one {@link SweepReport}: each
 * {@link SweepManifest}'s runs read back from their {@link RunArchive}s, their captures copied to where the merged
 * report names them.
 *
 * @param seeds  the sweep's seeds: the seeds the manifests name, in their order when they agree, else ascending
 * @param pieces the runs, in the order found
 */
public record SweepMerge(List<Long> seeds, List<SweepReport.Piece> pieces) {
    /** Directories that do not merge: one line each. */
    public static final class Refusal extends Exception {
        private final List<String> problems;

        Refusal(List<String> problems) {
            super(String.join("; ", problems), null, false, false);
            this.problems = List.copyOf(problems);
        }

        public List<String> problems() {
            return problems;
        }
    }

    /**
     * @return one line per directory whose runs are not of the first's lab file (its SHA-256), mode or
     *         {@code --duration}: such runs do not merge
     */
    public static List<String> mixing(Map<Path, SweepManifest> manifests) {
        List<String> out = new ArrayList<>();
        Path first = manifests.keySet().iterator().next();
        SweepManifest m = manifests.get(first);
        for (Map.Entry<Path, SweepManifest> e : manifests.entrySet()) {
            SweepManifest o = e.getValue();
            if (!o.sha256().equals(m.sha256())) {
                out.add(e.getKey() + ": runs of " + o.file() + " (lab " + o.lab() + ", SHA-256 " + abbrev(o.sha256())
                    + "), not of " + first + "'s " + m.file() + " (lab " + m.lab() + ", SHA-256 " + abbrev(m.sha256())
                    + "): runs of different lab files do not merge");
            } else if (!o.mode().equals(m.mode())) {
                out.add(e.getKey() + ": ran in " + o.mode() + " mode, " + first + " in " + m.mode()
                    + ": runs in different modes do not merge");
            } else if (o.durationNanos() != m.durationNanos()) {
                out.add(e.getKey() + ": ran " + duration(o) + ", " + first + " " + duration(m)
                    + ": runs of different durations do not merge");
            }
        }
        return out;
    }

    private static String duration(SweepManifest m) {
        return m.durationNanos() > 0 ? "--duration " + io.rocelab.lab.labfile.Quantity.formatNanos(m.durationNanos())
            : "the file's duration";
    }

    private static String abbrev(String sha) {
        return sha.length() > 12 ? sha.substring(0, 12) : sha;
    }

    /**
     * Reads the runs and copies their captures (and sFlow pcaps) under {@code out}, where the merged report names
     * them.
     *
     * @throws Refusal a run of a variant the lab does not have, or a variant at a seed run twice, differently
     */
    public static SweepMerge of(LabFile lab, Map<Path, SweepManifest> manifests, Path out)
        throws Refusal, IOException {
        List<Long> seeds = seeds(manifests);
        List<String> problems = new ArrayList<>();
        Map<String, Path> seen = new LinkedHashMap<>();
        List<SweepReport.Piece> pieces = new ArrayList<>();
        List<Copy> copies = new ArrayList<>();
        for (Map.Entry<Path, SweepManifest> e : manifests.entrySet()) {
            Path dir = e.getKey();
            for (SweepManifest.Piece p : e.getValue().pieces()) {
                if (!lab.variantNames().contains(p.variant())) {
                    problems.add(dir + ": a run of variant '" + p.variant() + "', which lab " + lab.name()
                        + " does not have");
                    continue;
                }
                String key = p.variant() + "\u0000" + p.seed();
                Path archive = dir.resolve(p.archive());
                Path before = seen.get(key);
                if (before != null) {
                    try {
                        if (!RunArchive.sameRun(before, archive)) {
                            problems.add(dir + ": " + p.describe() + " ran here and in " + before.getParent().getParent()
                                + ", differently: merge one of them");
                        }
                    } catch (IOException x) {
                        problems.add(x.getMessage().lines().findFirst().orElse(archive.toString()));
                    }
                    continue; // the same run twice (a merged directory among its runs): the first one's wall time
                }
                seen.put(key, archive);
                Path at = SweepReport.seedDir(out, seeds, p.seed());
                Path capture = at.resolve(SweepReport.captureName(p.variant()));
                RunArchive.Archived a;
                try {
                    a = RunArchive.read(archive, name -> capture);
                } catch (IOException x) {
                    problems.add(x.getMessage().lines().findFirst().orElse(archive.toString()));
                    continue;
                }
                pieces.add(new SweepReport.Piece(p.variant(), p.seed(), a.run()));
                copies.add(() -> {
                    copy(dir, p.capture(), capture);
                    if (p.sflow() != null) {
                        copy(dir, p.sflow(), at.resolve(LabSflow.file(Path.of(SweepReport.captureName(p.variant())))
                            .getFileName()));
                    }
                });
            }
        }
        if (!problems.isEmpty()) {
            throw new Refusal(problems);
        }
        for (Copy c : copies) {
            c.run(); // nothing is written before every run has been read
        }
        return new SweepMerge(seeds, pieces);
    }

    /** @return the seeds the manifests name: theirs when they all agree, else all of them ascending */
    static List<Long> seeds(Map<Path, SweepManifest> manifests) {
        List<Long> first = manifests.values().iterator().next().seeds();
        if (manifests.values().stream().allMatch(m -> m.seeds().equals(first))) {
            return first;
        }
        TreeSet<Long> all = new TreeSet<>();
        manifests.values().forEach(m -> all.addAll(m.seeds()));
        manifests.values().forEach(m -> m.pieces().forEach(p -> all.add(p.seed())));
        return List.copyOf(all);
    }

    /** A file to copy once the merge is known to go ahead. */
    private interface Copy {
        void run() throws IOException;
    }

    private static void copy(Path dir, String name, Path to) throws IOException {
        if (name == null) {
            return;
        }
        Path from = dir.resolve(name);
        if (!Files.isRegularFile(from)) {
            return;
        }
        Files.createDirectories(to.toAbsolutePath().getParent());
        if (Files.exists(to) && Files.isSameFile(from, to)) {
            return;
        }
        Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
}
