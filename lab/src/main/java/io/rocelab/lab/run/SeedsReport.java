package io.rocelab.lab.run;

import io.rocelab.lab.labfile.LabFile;
import io.rocelab.lab.labfile.Quantity;
import io.rocelab.topology.collective.CollectiveResult;
import io.rocelab.topology.workload.FlowResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleFunction;
import java.util.function.ToDoubleFunction;

/**
 * The report above a lab's seeds ({@link SweepReport}, several seeds): the claims over every seed, each variant's
 * summary ({@link VariantSummary}), flows and collectives as a spread over the seeds (the median, the smallest and
 * the largest), and a line per seed linking its own report in {@code seed-N/}. Writes {@code report.md} and
 * {@code seeds.csv} (a row per variant and seed). Only simulated quantities: no wall time.
 */
final class SeedsReport {
    private final LabFile lab;
    private final List<Long> seeds;
    private final List<SweepReport.Piece> pieces;
    private final SweepClaims.Evaluation ev;
    private final List<String> preamble;

    SeedsReport(LabFile lab, List<Long> seeds, List<SweepReport.Piece> pieces, SweepClaims.Evaluation ev,
                List<String> preamble) {
        this.lab = lab;
        this.seeds = seeds;
        this.pieces = pieces;
        this.ev = ev;
        this.preamble = preamble;
    }

    /** @return the files written, {@code report.md} first */
    List<Path> write(Path dir) throws IOException {
        StringBuilder md = new StringBuilder();
        md.append("# Lab ").append(lab.name()).append("\n\n");
        if (!lab.description().isEmpty()) {
            md.append(lab.description()).append("\n\n");
        }
        LabRun first = pieces.get(0).run();
        boolean virtual = first.events() >= 0;
        md.append(virtual ? "Virtual time, seeds " : "Wall clock, seeds ")
            .append(String.join(", ", seeds.stream().map(String::valueOf).toList())).append(", ")
            .append(Quantity.formatNanos(first.data().durationNanos()))
            .append(virtual ? " simulated per run" : " per run");
        if (lab.hasVariants()) {
            md.append(", variants: ").append(String.join(", ", lab.variantNames()));
        }
        md.append(".\n\n");
        preamble.forEach(p -> md.append(p).append("\n\n"));
        if (!ev.combined().isEmpty()) {
            md.append("## Checks\n\nA claim holds when it holds at every seed.\n\n"
                + "| result | claim | check | observed |\n|---|---|---|---|\n");
            for (LabReport.Outcome o : ev.combined()) {
                md.append("| ").append(o.pass() ? "PASS" : "**FAIL**").append(" | ").append(cell(o.claim()))
                    .append(" | `").append(o.check().replace("|", "\\|")).append("` | ").append(cell(o.observed()))
                    .append(" |\n");
            }
            md.append('\n');
        }
        List<Path> written = new ArrayList<>();
        summaries(dir, md, written);
        flows(md);
        collectives(md);
        perSeed(md);
        md.append("## Files\n\n");
        for (Path p : written) {
            md.append("- ").append(dir.relativize(p)).append('\n');
        }
        for (long seed : seeds) {
            if (!runsAt(seed).isEmpty()) {
                md.append("- seed-").append(seed).append("/report.md\n");
            }
        }
        Path report = dir.resolve("report.md");
        Files.writeString(report, md, StandardCharsets.UTF_8);
        written.add(0, report);
        return written;
    }

    private List<LabRun> runsAt(long seed) {
        List<LabRun> out = new ArrayList<>();
        for (String v : lab.variantNames()) {
            for (SweepReport.Piece p : pieces) {
                if (p.seed() == seed && p.variant().equals(v)) {
                    out.add(p.run());
                }
            }
        }
        return out;
    }

    /** @return each variant's runs over the seeds, in seed order (those that ran) */
    private Map<String, List<LabRun>> byVariant() {
        Map<String, List<LabRun>> out = new LinkedHashMap<>();
        for (String v : lab.variantNames()) {
            List<LabRun> runs = new ArrayList<>();
            for (long seed : seeds) {
                for (SweepReport.Piece p : pieces) {
                    if (p.seed() == seed && p.variant().equals(v)) {
                        runs.add(p.run());
                    }
                }
            }
            if (!runs.isEmpty()) {
                out.put(v, runs);
            }
        }
        return out;
    }

    /** The variants' summaries over the seeds, and {@code seeds.csv}. */
    private void summaries(Path dir, StringBuilder md, List<Path> written) throws IOException {
        md.append("## Seeds side by side\n\nEach ").append(lab.hasVariants() ? "variant's" : "")
            .append(lab.hasVariants() ? " runs" : "run").append(" over the seeds: the median, then the smallest and "
                + "the largest in brackets (- : never, or not measured; a run that never settles counts as the "
                + "slowest). Fair shares from, standing queue, rate and gap as each seed's report defines them (its "
                + "\"Variants side by side\").\n\n")
            .append(lab.hasVariants() ? "| variant " : "").append("| seeds | fair shares from | standing queue (KB) "
                + "| total rate, 2nd half (Gb/s) | longest gap | error completions |\n")
            .append(lab.hasVariants() ? "|---" : "").append("|---:|---:|---:|---:|---:|---:|\n");
        StringBuilder csv = new StringBuilder("variant,seed,converged_us,standing_queue_kb,rate_gbps,longest_gap_us,"
            + "errors\n");
        for (Map.Entry<String, List<LabRun>> e : byVariant().entrySet()) {
            List<VariantSummary> rows = new ArrayList<>();
            for (LabRun r : e.getValue()) {
                rows.add(VariantSummary.of(r.data()));
            }
            if (lab.hasVariants()) {
                md.append("| ").append(e.getKey()).append(' ');
            }
            md.append("| ").append(rows.size())
                .append(" | ").append(spread(rows, VariantSummary::convergedSeconds, SeedsReport::time))
                .append(" | ").append(spread(rows, r -> r.standingQueueBytes() / 1e3, SeedsReport::number))
                .append(" | ").append(spread(rows, r -> r.rateBitsPerSecond() / 1e9, SeedsReport::number))
                .append(" | ").append(spread(rows, VariantSummary::gapSeconds, SeedsReport::time))
                .append(" | ").append(spread(rows, VariantSummary::errors, v -> Long.toString(Math.round(v))))
                .append(" |\n");
        }
        md.append('\n');
        for (long seed : seeds) {
            for (LabRun r : runsAt(seed)) {
                VariantSummary s = VariantSummary.of(r.data());
                csv.append(s.variant()).append(',').append(seed).append(',')
                    .append(number(s.convergedSeconds() * 1e6)).append(',')
                    .append(number(s.standingQueueBytes() / 1e3)).append(',')
                    .append(number(s.rateBitsPerSecond() / 1e9)).append(',')
                    .append(number(s.gapSeconds() * 1e6)).append(',').append(Math.round(s.errors())).append('\n');
            }
        }
        Path f = dir.resolve("seeds.csv");
        Files.writeString(f, csv.toString().replace(",-", ","), StandardCharsets.UTF_8);
        written.add(f);
    }

    /** The lab's flows over the seeds: goodput, FCT, p99 latency and error completions. */
    private void flows(StringBuilder md) {
        Map<String, List<LabRun>> runs = byVariant();
        if (runs.values().stream().allMatch(l -> l.get(0).flows().isEmpty())) {
            return;
        }
        md.append("### Flows over the seeds\n\n").append(lab.hasVariants() ? "| variant " : "")
            .append("| flow | seeds | goodput (Gb/s) | FCT | p99 latency | error completions |\n")
            .append(lab.hasVariants() ? "|---" : "").append("|---|---:|---:|---:|---:|---:|\n");
        int left = 0;
        for (Map.Entry<String, List<LabRun>> e : runs.entrySet()) {
            int rows = 0;
            for (FlowResult f : e.getValue().get(0).flows()) {
                if (rows++ >= LabReport.TABLE_ROWS) {
                    left++;
                    continue;
                }
                List<FlowResult> over = new ArrayList<>();
                for (LabRun r : e.getValue()) {
                    r.flows().stream().filter(x -> x.name().equals(f.name())).findFirst().ifPresent(over::add);
                }
                if (lab.hasVariants()) {
                    md.append("| ").append(e.getKey()).append(' ');
                }
                md.append("| ").append(f.name()).append(" | ").append(over.size())
                    .append(" | ").append(spread(over, FlowResult::goodputBitsPerSecond,
                        v -> String.format(Locale.ROOT, "%.2f", v / 1e9)))
                    .append(" | ").append(spread(over, x -> x.fctNanos() < 0 ? Double.NaN : x.fctNanos(),
                        SeedsReport::nanos))
                    .append(" | ").append(spread(over, x -> x.latencyP99Nanos() < 0 ? Double.NaN : x.latencyP99Nanos(),
                        SeedsReport::nanos))
                    .append(" | ").append(spread(over, x -> x.errors(), v -> Long.toString(Math.round(v))))
                    .append(" |\n");
            }
        }
        md.append('\n');
        if (left > 0) {
            md.append(left).append(" more flow(s) in the seeds' reports.\n\n");
        }
    }

    /** The lab's collectives over the seeds: nccl-tests' time and busbw. */
    private void collectives(StringBuilder md) {
        Map<String, List<LabRun>> runs = byVariant();
        if (runs.values().stream().allMatch(l -> l.get(0).collectives().isEmpty())) {
            return;
        }
        md.append("### Collectives over the seeds\n\n").append(lab.hasVariants() ? "| variant " : "")
            .append("| collective | seeds | time | busbw (Gb/s) |\n")
            .append(lab.hasVariants() ? "|---" : "").append("|---|---:|---:|---:|\n");
        for (Map.Entry<String, List<LabRun>> e : runs.entrySet()) {
            for (CollectiveResult c : e.getValue().get(0).collectives()) {
                String name = c.collective().name();
                List<CollectiveResult> over = new ArrayList<>();
                for (LabRun r : e.getValue()) {
                    r.collectives().stream().filter(x -> x.collective().name().equals(name)).findFirst()
                        .ifPresent(over::add);
                }
                if (lab.hasVariants()) {
                    md.append("| ").append(e.getKey()).append(' ');
                }
                md.append("| ").append(name).append(" | ").append(over.size())
                    .append(" | ").append(spread(over, CollectiveResult::meanTimeNanos, SeedsReport::nanos))
                    .append(" | ").append(spread(over, CollectiveResult::busBwBitsPerSecond,
                        v -> String.format(Locale.ROOT, "%.2f", v / 1e9)))
                    .append(" |\n");
            }
        }
        md.append('\n');
    }

    /** A line per seed: its claims and a link to its report. */
    private void perSeed(StringBuilder md) {
        md.append("## Per seed\n\n| seed | claims that hold | report |\n|---:|---|---|\n");
        for (long seed : seeds) {
            List<LabRun> runs = runsAt(seed);
            List<LabReport.Outcome> at = ev.perSeed().get(seed);
            long held = at.stream().filter(LabReport.Outcome::pass).count();
            md.append("| ").append(seed).append(" | ").append(held).append(" of ").append(at.size()).append(" | ")
                .append(runs.isEmpty() ? "missing" : "[seed-" + seed + "/report.md](seed-" + seed + "/report.md)")
                .append(" |\n");
        }
        md.append('\n');
    }

    /**
     * @return "median [smallest, largest]" of {@code f} over {@code items} (NaN counts as the largest, shown "-");
     *         one value alone when every item has it; "-" for none
     */
    static <T> String spread(List<T> items, ToDoubleFunction<T> f, DoubleFunction<String> format) {
        if (items.isEmpty()) {
            return "-";
        }
        double[] v = new double[items.size()];
        for (int i = 0; i < v.length; i++) {
            double x = f.applyAsDouble(items.get(i));
            v[i] = Double.isNaN(x) ? Double.POSITIVE_INFINITY : x;
        }
        Arrays.sort(v);
        DoubleFunction<String> shown = x -> Double.isInfinite(x) ? "-" : format.apply(x);
        if (v[0] == v[v.length - 1]) {
            return shown.apply(v[0]); // one value, or every seed the same
        }
        int n = v.length;
        double median = n % 2 == 1 ? v[n / 2] : Double.isInfinite(v[n / 2]) ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        return shown.apply(median) + " [" + shown.apply(v[0]) + ", " + shown.apply(v[n - 1]) + "]";
    }

    private static String cell(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }

    private static String number(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String time(double seconds) {
        return Double.isNaN(seconds) || Double.isInfinite(seconds) ? "-" : Quantity.formatNanos(Math.round(seconds * 1e9));
    }

    private static String nanos(double ns) {
        return Quantity.formatNanos(Math.round(ns));
    }
}
