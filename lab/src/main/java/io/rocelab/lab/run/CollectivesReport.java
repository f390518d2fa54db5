package io.rocelab.lab.run;

import io.rocelab.lab.report.Plots;
import io.rocelab.topology.collective.Collective;
import io.rocelab.topology.collective.CollectiveKind;
import io.rocelab.topology.collective.CollectiveResult;
import io.rocelab.topology.collective.IterationResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A run's collectives in its report: nccl-tests' results table (its columns, as it prints them),
 * each iteration's time, bandwidths, slowest rank and slowest step; a CSV and a plot per collective.
 */
final class CollectivesReport {
    /** Most iterations listed in {@code report.md} per collective (the CSV has them all). */
    static final int TABLE_ROWS = 20;

    private CollectivesReport() {
    }

    /**
     * Appends the section to {@code md} and writes {@code PREFIXcollective-NAME.csv} and {@code .png}.
     *
     * @param written the files written, appended to
     */
    static void write(Path dir, String prefix, List<CollectiveResult> results, StringBuilder md, List<Path> written) {
        if (results.isEmpty()) {
            return;
        }
        md.append("### Collectives\n\n```\n").append(ncclTestsTable(results)).append("```\n\n");
        md.append("As nccl-tests prints its results (doc/PERFORMANCE.md), one row per collective: `size` the buffer "
            + "per rank in bytes (rounded to whole 4-byte floats per rank), `count` its elements (all-reduce: the "
            + "whole buffer; the others: per rank), `type` float and `root` -1 as nccl-tests prints for these "
            + "collectives, `redop` sum for the reductions (not computed here: the bytes move, the arithmetic is "
            + "left out), `time` the mean job completion time of the timed iterations in us, `algbw` size/time and "
            + "`busbw` algbw x nccl-tests' factor (all-reduce 2(n-1)/n, the others (n-1)/n), in GB/s (10^9 bytes "
            + "a second); `#wrong` N/A: no data is checked.\n\n");
        for (CollectiveResult r : results) {
            Collective c = r.collective();
            String name = c.name();
            md.append("Collective `").append(name).append("`: ").append(describe(c)).append(r.finished() ? ""
                : " **did not finish** (" + r.timed().size() + " of " + c.iterations() + " timed iterations)")
                .append(r.errors() > 0 ? ", " + r.errors() + " completions in error" : "").append(".\n\n");
            md.append("| iteration | time | algbw | busbw | slowest rank | slowest step |\n|---|---|---|---|---|---|\n");
            List<IterationResult> its = r.iterations();
            for (int i = 0; i < Math.min(its.size(), TABLE_ROWS); i++) {
                IterationResult it = its.get(i);
                md.append(String.format(Locale.ROOT, "| %s | %.1f us | %.2f Gb/s | %.2f Gb/s | %d (%s) | %d at rank %d, %.1f us |%n",
                    label(c, it), it.timeNanos() / 1e3, algbw(c, it) / 1e9, busbw(c, it) / 1e9, it.slowestRank(),
                    c.ranks().get(it.slowestRank()), it.slowestStep(), it.slowestStepRank(),
                    it.slowestStepNanos() / 1e3));
            }
            if (its.size() > TABLE_ROWS) {
                md.append("| ... | ").append(its.size() - TABLE_ROWS).append(" more in the CSV | | | | |\n");
            }
            md.append('\n');
            Path csv = dir.resolve(prefix + "collective-" + name + ".csv");
            write(csv, csv(c, its));
            written.add(csv);
            if (!its.isEmpty()) {
                String png = prefix + "collective-" + name + ".png";
                List<String> cats = new ArrayList<>();
                List<Double> values = new ArrayList<>();
                for (IterationResult it : its) {
                    cats.add(label(c, it));
                    values.add(busbw(c, it) / 1e9);
                }
                Plots.barChart(dir.resolve(png), "Collective " + name + ": busbw per iteration (" + c.kind().label()
                    + ", " + c.n() + " ranks; w: warm-up)", "iteration", "busbw, Gb/s", cats, values);
                written.add(dir.resolve(png));
                md.append("![").append(png).append("](").append(png).append(")\n\n");
            }
        }
    }

    /**
     * The variants' collectives side by side: a table of each one's time, bandwidths and p99 per
     * variant, {@code variants-collectives.csv}, and bars of each collective's busbw per variant
     * ({@code variants-collective-NAME.png}). Nothing for a lab without collectives.
     */
    static void sideBySide(Path dir, List<LabRun> runs, StringBuilder md, List<Path> written) {
        List<String> names = new ArrayList<>();
        for (LabRun r : runs) {
            for (CollectiveResult c : r.collectives()) {
                if (!names.contains(c.collective().name())) {
                    names.add(c.collective().name());
                }
            }
        }
        if (names.isEmpty()) {
            return;
        }
        md.append("### Collectives side by side\n\n| collective | variant | time | algbw | busbw | p99 iteration |\n"
            + "|---|---|---:|---:|---:|---:|\n");
        StringBuilder csv = new StringBuilder("collective,variant,time_us,algbw_gbps,busbw_gbps,jct_p99_us\n");
        for (String name : names) {
            List<String> variants = new ArrayList<>();
            List<Double> busbw = new ArrayList<>();
            for (LabRun r : runs) {
                for (CollectiveResult c : r.collectives()) {
                    if (!c.collective().name().equals(name)) {
                        continue;
                    }
                    String v = r.data().variant();
                    double t = c.meanTimeNanos() / 1e3;
                    md.append(String.format(Locale.ROOT, "| %s | %s | %s | %.2f Gb/s | %.2f Gb/s | %s |%n", name, v,
                        Double.isNaN(t) ? "did not finish" : String.format(Locale.ROOT, "%.1f us", t),
                        c.algBwBitsPerSecond() / 1e9, c.busBwBitsPerSecond() / 1e9,
                        Double.isInfinite(c.jctP99Nanos()) ? "-" : String.format(Locale.ROOT, "%.1f us",
                            c.jctP99Nanos() / 1e3)));
                    csv.append(String.format(Locale.ROOT, "%s,%s,%s,%.4f,%.4f,%s%n", name, v,
                        Double.isNaN(t) ? "" : String.format(Locale.ROOT, "%.3f", t), c.algBwBitsPerSecond() / 1e9,
                        c.busBwBitsPerSecond() / 1e9, Double.isInfinite(c.jctP99Nanos()) ? ""
                            : String.format(Locale.ROOT, "%.3f", c.jctP99Nanos() / 1e3)));
                    variants.add(v);
                    busbw.add(c.busBwBitsPerSecond() / 1e9);
                }
            }
            String png = "variants-collective-" + name + ".png";
            Plots.barChart(dir.resolve(png), "Collective " + name + ": busbw per variant", "busbw, Gb/s", variants,
                busbw);
            written.add(dir.resolve(png));
        }
        md.append('\n');
        for (String name : names) {
            String png = "variants-collective-" + name + ".png";
            md.append("![").append(png).append("](").append(png).append(")\n\n");
        }
        Path f = dir.resolve("variants-collectives.csv");
        write(f, csv.toString());
        written.add(f);
    }

    private static String describe(Collective c) {
        String how = c.kind() == CollectiveKind.ALL_TO_ALL ? "every rank to every other at once" : c.algorithm().label();
        return String.format(Locale.ROOT, "%s (%s), %d ranks (%s ... %s), %d B per rank in work requests of at most "
                + "%d B over %d QP%s per peer, %d warm-up and %d timed iterations", c.kind().label(),
            how, c.n(), c.ranks().get(0), c.ranks().get(c.n() - 1), c.effectiveBytes(),
            c.chunkBytes(), c.qps(), c.qps() == 1 ? "" : "s", c.warmup(), c.iterations());
    }

    /** w1, w2 ... for the warm-up iterations, 1, 2 ... for the timed ones. */
    private static String label(Collective c, IterationResult it) {
        return it.warmup() ? "w" + (it.index() + 1) : Integer.toString(number(c, it));
    }

    /** Its number among the warm-up or the timed iterations, from 1. */
    private static int number(Collective c, IterationResult it) {
        return it.warmup() ? it.index() + 1 : it.index() - c.warmup() + 1;
    }

    private static double algbw(Collective c, IterationResult it) {
        return c.effectiveBytes() * 8e9 / it.timeNanos();
    }

    private static double busbw(Collective c, IterationResult it) {
        return algbw(c, it) * c.kind().busBwFactor(c.n());
    }

    /** nccl-tests' table: its header lines and one row per collective, as its {@code PRINT}s format them. */
    static String ncclTestsTable(List<CollectiveResult> results) {
        StringBuilder t = new StringBuilder();
        t.append("#").append(" ".repeat(62)).append("out-of-place\n");
        t.append(String.format(Locale.ROOT, "#%11s  %12s  %8s  %6s  %6s  %7s  %6s  %6s %6s%n", "size", "count", "type",
            "redop", "root", "time", "algbw", "busbw", "#wrong"));
        t.append(String.format(Locale.ROOT, "#%11s  %12s  %8s  %6s  %6s  %7s  %6s  %6s%n", "(B)", "(elements)", "", "",
            "", "(us)", "(GB/s)", "(GB/s)"));
        for (CollectiveResult r : results) {
            Collective c = r.collective();
            double us = r.meanTimeNanos() / 1e3;
            String time = Double.isNaN(us) ? "inf" : us >= 10_000 ? String.format(Locale.ROOT, "%7.0f", us)
                : us >= 100 ? String.format(Locale.ROOT, "%7.1f", us) : String.format(Locale.ROOT, "%7.2f", us);
            t.append(String.format(Locale.ROOT, "%12d  %12d  %8s  %6s  %6d  %7s  %6.2f  %6.2f  %5s   # %s%n",
                c.effectiveBytes(), c.kind().count(c.effectiveBytes(), c.n()), "float", c.kind().redop(), -1, time,
                r.algBwBitsPerSecond() / 8e9, r.busBwBitsPerSecond() / 8e9, "N/A", c.name()));
        }
        return t.toString();
    }

    private static String csv(Collective c, List<IterationResult> its) {
        StringBuilder s = new StringBuilder("iteration,warmup,start_us,end_us,time_us,algbw_gbps,busbw_gbps,"
            + "slowest_rank,slowest_host,slowest_step,slowest_step_rank,slowest_step_us");
        for (String h : c.ranks()) {
            s.append(",end_").append(h).append("_us");
        }
        s.append('\n');
        for (IterationResult it : its) {
            s.append(String.format(Locale.ROOT, "%d,%d,%.3f,%.3f,%.3f,%.4f,%.4f,%d,%s,%d,%d,%.3f", number(c, it),
                it.warmup() ? 1 : 0, it.startNanos() / 1e3, it.endNanos() / 1e3, it.timeNanos() / 1e3,
                algbw(c, it) / 1e9, busbw(c, it) / 1e9, it.slowestRank(), c.ranks().get(it.slowestRank()),
                it.slowestStep(), it.slowestStepRank(), it.slowestStepNanos() / 1e3));
            for (long end : it.rankEndNanos()) {
                s.append(String.format(Locale.ROOT, ",%.3f", end / 1e3));
            }
            s.append('\n');
        }
        return s.toString();
    }

    private static void write(Path f, String text) {
        try {
            Files.writeString(f, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + f, e);
        }
    }
}
