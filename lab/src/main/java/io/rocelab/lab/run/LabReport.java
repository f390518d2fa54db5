package io.rocelab.lab.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rocelab.lab.expect.Kind;
import io.rocelab.lab.expect.Series;
import io.rocelab.lab.labfile.LabFile;
import io.rocelab.lab.labfile.Quantity;
import io.rocelab.lab.report.Csv;
import io.rocelab.lab.report.FlowRatePlot;
import io.rocelab.lab.report.Plots;
import io.rocelab.lab.report.TimePlot;
import io.rocelab.lab.report.TimeSeries;
import io.rocelab.topology.workload.FlowResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Writes what a lab's runs measured under one folder: {@code report.md} (tables, checks, plots),
 * CSV time series and PNG plots per run, and {@code counters.json}. The CSVs and the JSON hold
 * only simulated quantities: one seed gives the same files.
 */
public final class LabReport {
    /** Most series drawn in one plot (the busiest); the CSV has them all. */
    static final int PLOT_SERIES = 16;
    /** Most rows of the port and NIC tables (those with activity first). */
    static final int TABLE_ROWS = 64;

    /**
     * One check's outcome.
     *
     * @param observed what its comparison compared, or why it could not be evaluated
     */
    public record Outcome(String claim, String check, boolean pass, String observed) {
    }

    private final LabFile lab;
    private final List<LabRun> runs;
    private final List<Outcome> outcomes;
    private final long seed;
    private final List<Path> written = new ArrayList<>();
    private List<String> preamble = List.of();

    public LabReport(LabFile lab, List<LabRun> runs, List<Outcome> outcomes, long seed) {
        this.lab = lab;
        this.runs = runs;
        this.outcomes = outcomes;
        this.seed = seed;
    }

    /**
     * Paragraphs after the header line, before the checks: what a merge of runs lacks, the claims a run of some
     * variants left to the merge ({@link SweepReport}). None by default.
     *
     * @return this
     */
    LabReport preamble(List<String> paragraphs) {
        this.preamble = List.copyOf(paragraphs);
        return this;
    }

    /** Writes everything to {@code dir} (created if needed). @return the files written */
    public List<Path> write(Path dir) throws IOException {
        Files.createDirectories(dir);
        StringBuilder md = new StringBuilder();
        md.append("# Lab ").append(lab.name()).append("\n\n");
        if (!lab.description().isEmpty()) {
            md.append(lab.description()).append("\n\n");
        }
        boolean virtual = runs.get(0).events() >= 0;
        md.append(virtual ? "Virtual time, seed " : "Wall clock, seed ").append(seed).append(", ")
            .append(Quantity.formatNanos(runs.get(0).data().durationNanos()))
            .append(virtual ? " simulated per run" : " per run");
        if (lab.hasVariants()) {
            md.append(", variants: ").append(String.join(", ", lab.variantNames()));
        }
        md.append(".\n\n");
        preamble.forEach(p -> md.append(p).append("\n\n"));
        if (!outcomes.isEmpty()) {
            md.append("## Checks\n\n| result | claim | check | observed |\n|---|---|---|---|\n");
            for (Outcome o : outcomes) {
                md.append("| ").append(o.pass() ? "PASS" : "**FAIL**").append(" | ").append(cell(o.claim()))
                    .append(" | `").append(o.check().replace("|", "\\|")).append("` | ").append(cell(o.observed()))
                    .append(" |\n");
            }
            md.append('\n');
        }
        for (LabRun run : runs) {
            String v = run.data().variant();
            String prefix = v.isEmpty() ? "" : v + "-";
            if (!v.isEmpty()) {
                md.append("## Variant ").append(v).append("\n\n");
            }
            if (run.events() >= 0) {
                md.append(String.format(Locale.ROOT, "Ran %s of virtual time in %.1f s of wall time (%d events).%n%n",
                    Quantity.formatNanos(run.data().durationNanos()), run.wallNanos() / 1e9, run.events()));
            } else {
                md.append(String.format(Locale.ROOT, "Ran %s on the wall clock in %.1f s.%n%n",
                    Quantity.formatNanos(run.data().durationNanos()), run.wallNanos() / 1e9));
            }
            flows(md, run);
            ports(md, run.data());
            nics(md, run.data());
            linkPause(md, run.data());
            CollectivesReport.write(dir, prefix, run.collectives(), md, written);
            if (!run.applied().isEmpty()) {
                md.append("### Timeline\n\n");
                run.applied().forEach(a -> md.append("- ").append(a).append('\n'));
                md.append('\n');
            }
            series(dir, prefix, run.data(), md);
            if (run.capture() != null) {
                md.append("Capture: [").append(dir.relativize(run.capture())).append("](")
                    .append(dir.relativize(run.capture())).append("), ").append(run.captured())
                    .append(" frames (the first of each port, and the switches' decisions: PFC, ECN marks, drops).\n\n");
                written.add(run.capture());
            }
            run.notes().forEach(n -> md.append(n).append("\n\n"));
        }
        if (runs.size() > 1) {
            sideBySide(dir, md);
            CollectivesReport.sideBySide(dir, runs, md, written);
        }
        Path json = dir.resolve("counters.json");
        counters(json);
        written.add(json);
        md.append("## Files\n\n");
        for (Path p : written) {
            md.append("- ").append(dir.relativize(p)).append('\n');
        }
        Path report = dir.resolve("report.md");
        Files.writeString(report, md, StandardCharsets.UTF_8);
        written.add(0, report);
        return written;
    }

    /**
     * The variants side by side ({@link VariantSummary}): a table, {@code variants.csv} and bars of the
     * convergence time and the standing queue per variant.
     */
    private void sideBySide(Path dir, StringBuilder md) throws IOException {
        List<VariantSummary> rows = runs.stream().map(r -> VariantSummary.of(r.data())).toList();
        md.append("## Variants side by side\n\nFair shares from: the first ")
            .append(Quantity.formatNanos(Math.round(VariantSummary.WINDOW_SECONDS * 1e9)))
            .append(" window from which the flows' mean rates have Jain's index at least ")
            .append(VariantSummary.FAIR).append(" in every window to the end (- if they never settle). "
                + "Standing queue: the deepest probed queue's mean over the second half. Longest gap: the longest "
                + "time any flow went without a successful completion (what a failure cost).\n\n"
                + "| variant | fair shares from | standing queue (KB) | total rate, 2nd half (Gb/s) | longest gap "
                + "| error completions |\n|---|---:|---:|---:|---:|---:|\n");
        StringBuilder csv = new StringBuilder("variant,converged_us,standing_queue_kb,rate_gbps,longest_gap_us,errors\n");
        List<String> names = new ArrayList<>();
        List<Double> converged = new ArrayList<>();
        List<Double> queues = new ArrayList<>();
        List<Double> gaps = new ArrayList<>();
        for (VariantSummary r : rows) {
            md.append("| ").append(r.variant()).append(" | ").append(time(r.convergedSeconds())).append(" | ")
                .append(number(r.standingQueueBytes() / 1e3)).append(" | ").append(number(r.rateBitsPerSecond() / 1e9))
                .append(" | ").append(time(r.gapSeconds())).append(" | ").append(Math.round(r.errors())).append(" |\n");
            csv.append(r.variant()).append(',').append(number(r.convergedSeconds() * 1e6)).append(',')
                .append(number(r.standingQueueBytes() / 1e3)).append(',').append(number(r.rateBitsPerSecond() / 1e9))
                .append(',').append(number(r.gapSeconds() * 1e6)).append(',').append(Math.round(r.errors()))
                .append('\n');
            names.add(r.variant());
            double duration = runs.get(names.size() - 1).data().durationNanos() / 1e3;
            converged.add(Double.isNaN(r.convergedSeconds()) ? duration : r.convergedSeconds() * 1e6);
            queues.add(Double.isNaN(r.standingQueueBytes()) ? 0 : r.standingQueueBytes() / 1e3);
            gaps.add(Double.isNaN(r.gapSeconds()) ? 0 : r.gapSeconds() * 1e3);
        }
        md.append('\n');
        Path f = dir.resolve("variants.csv");
        Files.writeString(f, csv.toString().replace(",-", ","), StandardCharsets.UTF_8);
        written.add(f);
        Plots.barChart(dir.resolve("variants-convergence.png"),
            "Fair shares from (a variant that never settles: its whole run)", "us", names, converged);
        Plots.barChart(dir.resolve("variants-queue.png"), "Standing queue over the second half", "KB", names, queues);
        Plots.barChart(dir.resolve("variants-gap.png"), "Longest traffic gap of any flow", "ms", names, gaps);
        for (String png : List.of("variants-convergence.png", "variants-queue.png", "variants-gap.png")) {
            written.add(dir.resolve(png));
            md.append("![").append(png).append("](").append(png).append(")\n\n");
        }
    }

    private static String number(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String cell(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }

    private static String gbps(double bps) {
        return String.format(Locale.ROOT, "%.2f", bps / 1e9);
    }

    private static String time(double seconds) {
        if (Double.isInfinite(seconds) || Double.isNaN(seconds)) {
            return "-";
        }
        return Quantity.formatNanos(Math.round(seconds * 1e9));
    }

    private static void flows(StringBuilder md, LabRun run) {
        if (run.flows().isEmpty() && run.background().isEmpty()) {
            return;
        }
        md.append("### Flows\n\n| flow | from | to | verb | outcome | messages | bytes | goodput (Gb/s) | FCT | "
            + "p99 latency | longest gap | error completions |\n|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (FlowResult r : run.flows()) {
            md.append("| ").append(r.name()).append(" | ").append(r.source()).append(" | ").append(r.destination())
                .append(" | ").append(r.verb() == null ? "TCP (iperf3)" : r.verb()).append(" | ").append(r.outcome()).append(" | ").append(r.messages())
                .append(" | ").append(r.bytes()).append(" | ").append(gbps(r.goodputBitsPerSecond())).append(" | ")
                .append(r.fctNanos() < 0 ? "-" : Quantity.formatNanos(r.fctNanos())).append(" | ")
                .append(r.latencyP99Nanos() < 0 ? "-" : Quantity.formatNanos(r.latencyP99Nanos())).append(" | ")
                .append(r.maxGapNanos() < 0 ? "-" : Quantity.formatNanos(r.maxGapNanos())).append(" | ")
                .append(r.errors() == 0 ? "0" : r.errorCompletions().toString()).append(" |\n");
        }
        md.append('\n');
        pathsAndMemory(md, run.flows());
        if (!run.background().isEmpty()) {
            List<FlowResult> bg = run.background();
            long done = bg.stream().filter(r -> r.outcome() == FlowResult.Outcome.COMPLETED).count();
            long[] fct = bg.stream().filter(r -> r.fctNanos() >= 0).mapToLong(FlowResult::fctNanos).sorted().toArray();
            long bytes = bg.stream().mapToLong(FlowResult::bytes).sum();
            long errors = bg.stream().mapToLong(FlowResult::errors).sum();
            md.append(String.format(Locale.ROOT, "Background load: %d flows, %d completed, %d bytes, FCT median %s, "
                    + "p99 %s, %d error completions.%n%n", bg.size(), done, bytes,
                fct.length == 0 ? "-" : Quantity.formatNanos(fct[fct.length / 2]),
                fct.length == 0 ? "-" : Quantity.formatNanos(fct[Math.min(fct.length - 1, (int) (fct.length * 0.99))]),
                errors));
        }
    }

    /** A line on the flows' path migrations and one on their checked memory, for the flows that have them. */
    private static void pathsAndMemory(StringBuilder md, List<FlowResult> flows) {
        List<String> migrated = new ArrayList<>();
        List<String> checked = new ArrayList<>();
        for (FlowResult r : flows) {
            if (r.migrations() > 0) {
                migrated.add(r.name() + " " + r.migrations());
            }
            if (r.verifiedBytes() > 0 || r.corruptBytes() > 0) {
                checked.add(r.name() + " " + r.verifiedBytes() + " bytes as sent, " + r.corruptBytes() + " corrupt");
            }
        }
        if (!migrated.isEmpty()) {
            md.append("Path migrations (IBV_EVENT_PATH_MIG on the source's QPs): ").append(String.join(", ", migrated))
                .append(".\n\n");
        }
        if (!checked.isEmpty()) {
            md.append("Memory checked (verify): ").append(String.join("; ", checked)).append(".\n\n");
        }
    }

    private static void ports(StringBuilder md, RunData d) {
        Map<String, Double> watermark = new LinkedHashMap<>();
        Map<String, String> queueOf = new LinkedHashMap<>();
        for (String q : d.names(Kind.QUEUE)) {
            String port = q.substring(0, q.lastIndexOf(':'));
            double w = d.total(Kind.QUEUE, q, "watermark");
            if (!watermark.containsKey(port) || w > watermark.get(port)) {
                watermark.put(port, w);
                queueOf.put(port, q.substring(q.lastIndexOf(':') + 1));
            }
        }
        List<String> rows = new ArrayList<>();
        int quiet = 0;
        for (String p : d.names(Kind.PORT)) {
            double activity = d.total(Kind.PORT, p, "pfc_tx") + d.total(Kind.PORT, p, "pfc_rx")
                + d.total(Kind.PORT, p, "ecn_marks") + d.total(Kind.PORT, p, "drops")
                + watermark.getOrDefault(p, 0.0) + d.total(Kind.PORT, p, "watchdog_storms");
            if (activity == 0 || rows.size() >= TABLE_ROWS) {
                quiet++;
                continue;
            }
            rows.add("| " + p + " | " + num(d.total(Kind.PORT, p, "pfc_tx")) + " | " + num(d.total(Kind.PORT, p, "pfc_rx"))
                + " | " + num(d.total(Kind.PORT, p, "ecn_marks")) + " | " + num(d.total(Kind.PORT, p, "drops")) + " | "
                + (watermark.containsKey(p) ? num(watermark.get(p)) + " (queue " + queueOf.get(p) + ")" : "-") + " | "
                + num(d.total(Kind.PORT, p, "watchdog_storms")) + "/" + num(d.total(Kind.PORT, p, "watchdog_restores"))
                + " |");
        }
        md.append("### Switch ports\n\n");
        if (!rows.isEmpty()) {
            md.append("| port | PFC sent | PFC received | ECN marks | drops | watermark (bytes) | watchdog storms/restores |\n"
                + "|---|---:|---:|---:|---:|---:|---:|\n");
            rows.forEach(r -> md.append(r).append('\n'));
            md.append('\n');
        }
        md.append(quiet == 0 ? "" : quiet + " port(s) with nothing to show (no PFC, ECN, drops or queue) are left out.\n\n");
    }

    private static void nics(StringBuilder md, RunData d) {
        md.append("### NICs\n\n| host | sent (bytes) | CNPs sent | CNPs handled | PFC received | PFC sent | "
            + "retransmissions | error completions |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
        int quiet = 0;
        int rows = 0;
        for (String h : d.names(Kind.NIC)) {
            double activity = d.total(Kind.NIC, h, "tx_bytes") + d.total(Kind.NIC, h, "cnps_sent")
                + d.total(Kind.NIC, h, "pfc_rx");
            if (activity == 0 || rows >= TABLE_ROWS) {
                quiet++;
                continue;
            }
            rows++;
            md.append("| ").append(h);
            for (String a : List.of("tx_bytes", "cnps_sent", "cnps_handled", "pfc_rx", "pfc_tx", "retransmissions",
                "errors")) {
                md.append(" | ").append(num(d.total(Kind.NIC, h, a)));
            }
            md.append(" |\n");
        }
        md.append('\n');
        md.append(quiet == 0 ? "" : quiet + " idle NIC(s) left out.\n\n");
        List<String> migrating = new ArrayList<>();
        for (String h : d.names(Kind.NIC)) {
            double m = d.total(Kind.NIC, h, "migrations");
            if (m > 0) {
                migrating.add(h + " " + num(m));
            }
        }
        if (!migrating.isEmpty()) {
            md.append("QPs migrated to their alternate path, per NIC (requesters and responders): ")
                .append(String.join(", ", migrating)).append(".\n\n");
        }
        dcb(md, d);
    }

    /** The NICs' DCB at work: pauses not acted on for want of PFC, and what DCBX took from the switch. */
    private static void dcb(StringBuilder md, RunData d) {
        List<String> ignoring = new ArrayList<>();
        List<String> adopting = new ArrayList<>();
        for (String h : d.names(Kind.NIC)) {
            double ignored = d.total(Kind.NIC, h, "pfc_ignored");
            if (ignored > 0) {
                ignoring.add(h + " " + num(ignored));
            }
            double adopted = d.total(Kind.NIC, h, "dcbx_adoptions");
            if (adopted > 0) {
                adopting.add(h + " " + num(adopted) + " (PFC vector " + pfcText(d.total(Kind.NIC, h, "pfc_enable")) + ")");
            }
        }
        if (!ignoring.isEmpty()) {
            md.append("PFC pauses not acted on, their priority's PFC off at the NIC (rx_pfc_ignored), per NIC: ")
                .append(String.join(", ", ignoring)).append(".\n\n");
        }
        if (!adopting.isEmpty()) {
            md.append("Times DCBX made a NIC take its switch port's settings, per NIC: ")
                .append(String.join(", ", adopting)).append(".\n\n");
        }
    }

    /** An enable vector as mlnx_qos --pfc spells it, or "-" when not known. */
    private static String pfcText(double mask) {
        return Double.isNaN(mask) ? "-" : io.rocelab.nic.dcb.DcbSettings.pfcText((int) mask);
    }

    /**
     * 802.3x PAUSE frames per switch port and NIC, when any was sent (SAI's {@code PAUSE_TX_PKTS} /
     * {@code PAUSE_RX_PKTS}, mlx5's {@code tx_pause_ctrl_phy} / {@code rx_pause_ctrl_phy}); nothing
     * for a fabric that runs PFC.
     */
    private static void linkPause(StringBuilder md, RunData d) {
        List<String> rows = new ArrayList<>();
        for (Kind k : List.of(Kind.PORT, Kind.NIC)) {
            for (String n : d.names(k)) {
                double tx = d.total(k, n, "pause_tx");
                double rx = d.total(k, n, "pause_rx");
                if ((tx > 0 || rx > 0) && rows.size() < TABLE_ROWS) {
                    rows.add("| " + (k == Kind.NIC ? "NIC " : "") + n + " | " + num(tx) + " | " + num(rx) + " |");
                }
            }
        }
        if (rows.isEmpty()) {
            return;
        }
        md.append("### 802.3x PAUSE\n\n| port | PAUSE sent | PAUSE received |\n|---|---:|---:|\n");
        rows.forEach(r -> md.append(r).append('\n'));
        md.append('\n');
    }

    private static String num(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.3f", v);
    }

    /** CSVs and plots of one run's samples. */
    private void series(Path dir, String prefix, RunData d, StringBuilder md) {
        double[] t = d.times();
        List<String> plots = new ArrayList<>();
        // per-flow rates: completed (the claims' rate), on the wire and congestion control's, plotted smoothed
        List<TimeSeries> rates = columns(d, Kind.FLOW, "rate", "rate_%s_gbps", 1e-9, t);
        if (!rates.isEmpty()) {
            List<TimeSeries> columns = new ArrayList<>(rates);
            columns.addAll(columns(d, Kind.FLOW, Probes.WIRE_RATE, "wire_%s_gbps", 1e-9, t));
            columns.addAll(columns(d, Kind.FLOW, Probes.CC_RATE, "cc_%s_gbps", 1e-9, t));
            csv(dir, prefix + "flow-rate.csv", columns);
            TimePlot zoom = FlowRatePlot.zoomed(micros(d), d.durationNanos() / 1e3, plotFlows(d));
            render(dir, prefix + "flow-rate.png", zoom == null ? List.of(flowRatePlot(d)) : List.of(flowRatePlot(d), zoom),
                plots);
        }
        double fromUs = plotStartUs(d); // every plot of the run over the same span
        List<TimeSeries> depth = columns(d, Kind.QUEUE, "depth", "depth_%s_kb", 1e-3, t);
        if (!depth.isEmpty()) {
            csv(dir, prefix + "queue-depth.csv", depth);
            List<TimeSeries> drawn = busiest(columns(d, Kind.QUEUE, "depth", "%s", 1e-3, t));
            render(dir, prefix + "queue-depth.png", TimePlot.of(drawn.size() < depth.size()
                    ? "Queue depth (the " + drawn.size() + " busiest of " + depth.size() + ")" : "Queue depth",
                "KB", fromUs, d.durationNanos() / 1e3, drawn, TimePlot.Style.SOLID, 0), plots);
        }
        List<TimeSeries> pause = columns(d, Kind.PORT, "paused", "paused_%s", 1, t);
        pause.addAll(columns(d, Kind.NIC, "paused", "paused_%s", 1, t));
        if (!pause.isEmpty()) {
            csv(dir, prefix + "pause.csv", pause);
            List<TimeSeries> counts = new ArrayList<>();
            counts.add(count("NICs paused", columns(d, Kind.NIC, "paused", "paused_%s", 1, t), t));
            counts.add(count("switch ports paused", columns(d, Kind.PORT, "paused", "paused_%s", 1, t), t));
            render(dir, prefix + "pause.png", TimePlot.of("Pause state: how many are paused by their peer", "paused",
                fromUs, d.durationNanos() / 1e3, counts, TimePlot.Style.STEP, 1), plots);
        }
        List<TimeSeries> counters = new ArrayList<>();
        for (String a : List.of("pfc_tx", "pfc_rx", "ecn_marks", "drops")) {
            counters.addAll(columns(d, Kind.SWITCH, a, a + "_%s", 1, t));
        }
        for (String a : List.of("pfc_tx", "pfc_rx", "cnps_sent", "cnps_handled", "ecn_marked")) {
            counters.addAll(columns(d, Kind.NIC, a, a + "_%s", 1, t));
        }
        if (!counters.isEmpty()) {
            csv(dir, prefix + "counters.csv", counters);
        }
        if (!plots.isEmpty()) {
            md.append("### Plots\n\n");
            for (String p : plots) {
                md.append("![").append(p).append("](").append(p).append(")\n\n");
            }
        }
    }

    private static List<TimeSeries> columns(RunData d, Kind kind, String attribute, String header, double scale,
                                            double[] times) {
        List<TimeSeries> out = new ArrayList<>();
        for (String n : d.names(kind)) {
            Series s = d.series(kind, n, attribute);
            if (s == null) {
                continue;
            }
            // a CSV header without colons; a legend (header "%s") names the queue or port as written
            TimeSeries ts = new TimeSeries("%s".equals(header) ? n : String.format(Locale.ROOT, header,
                n.replace(':', '_')), attribute);
            for (int i = 0; i < times.length; i++) {
                ts.add(times[i] * 1e6, s.values()[i] * scale);
            }
            out.add(ts);
        }
        return out;
    }

    /** The sum of 0/1 series: how many are in the state at each sample. */
    private static TimeSeries count(String name, List<TimeSeries> states, double[] times) {
        TimeSeries out = new TimeSeries(name, "count");
        for (int i = 0; i < times.length; i++) {
            double n = 0;
            for (TimeSeries s : states) {
                n += s.value(i);
            }
            out.add(times[i] * 1e6, n);
        }
        return out;
    }

    private void csv(Path dir, String name, List<TimeSeries> series) {
        Path f = dir.resolve(name);
        Csv.write(f, series);
        written.add(f);
    }

    /** The plot of a run's flow rates ({@link FlowRatePlot}): on the wire where known, with their CC rates. */
    static TimePlot flowRatePlot(RunData d) {
        return FlowRatePlot.of(micros(d), d.durationNanos() / 1e3, plotFlows(d));
    }

    /** Where the run's plots start ({@link FlowRatePlot#startUs}): where its flows begin, if that is late. */
    private static double plotStartUs(RunData d) {
        return FlowRatePlot.startUs(micros(d), d.durationNanos() / 1e3, plotFlows(d));
    }

    private static double[] micros(RunData d) {
        double[] t = d.times();
        double[] us = new double[t.length];
        for (int i = 0; i < t.length; i++) {
            us[i] = t[i] * 1e6;
        }
        return us;
    }

    private static List<FlowRatePlot.Flow> plotFlows(RunData d) {
        List<FlowRatePlot.Flow> flows = new ArrayList<>();
        for (String f : d.names(Kind.FLOW)) {
            Series completed = d.series(Kind.FLOW, f, "rate");
            if (completed == null) {
                continue;
            }
            Series wire = d.series(Kind.FLOW, f, Probes.WIRE_RATE);
            Series cc = d.series(Kind.FLOW, f, Probes.CC_RATE);
            flows.add(new FlowRatePlot.Flow(f, completed.values(), wire == null ? null : wire.values(),
                cc == null ? null : cc.values()));
        }
        return flows;
    }

    /** The {@link #PLOT_SERIES} busiest of {@code series} (all if no more), in their order. */
    private static List<TimeSeries> busiest(List<TimeSeries> series) {
        if (series.size() <= PLOT_SERIES) {
            return series;
        }
        ToDoubleFunction<TimeSeries> busy = s -> s.meanFrom(0);
        List<TimeSeries> top = series.stream().sorted(Comparator.comparingDouble(busy).reversed()).limit(PLOT_SERIES)
            .toList();
        return series.stream().filter(top::contains).toList();
    }

    private void render(Path dir, String name, TimePlot plot, List<String> plots) {
        render(dir, name, List.of(plot), plots);
    }

    private void render(Path dir, String name, List<TimePlot> panels, List<String> plots) {
        Path f = dir.resolve(name);
        Plots.render(panels, f);
        written.add(f);
        plots.add(name);
    }

    /** {@code counters.json}: per run, every flow's, port's, queue's, NIC's and switch's values at the end. */
    private void counters(Path file) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("lab", lab.name());
        root.put("seed", seed);
        Map<String, Object> byRun = new LinkedHashMap<>();
        for (LabRun run : runs) {
            RunData d = run.data();
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("duration_ns", d.durationNanos());
            r.put("events", run.events());
            for (Kind k : Kind.values()) {
                if (k == Kind.COLLECTIVE && d.names(k).isEmpty()) {
                    continue; // a lab without collectives: its file as it was
                }
                Map<String, Object> items = new LinkedHashMap<>();
                for (String n : d.names(k)) {
                    Map<String, Object> attrs = new LinkedHashMap<>();
                    for (var a : Schema.of(k).entrySet()) {
                        if (a.getValue().type() != Schema.Type.GAUGE) {
                            double v = d.total(k, n, a.getKey());
                            if (Double.isNaN(v) && a.getKey().startsWith("vxlan_")) {
                                continue; // a switch that is no VTEP: its entry as it was
                            }
                            attrs.put(a.getKey(), Double.isFinite(v) ? (v == Math.rint(v) ? (Object) (long) v : v) : null);
                        }
                    }
                    items.put(n, attrs);
                }
                r.put(k.many(), items);
            }
            r.put("timeline", run.applied());
            List<String> lldp = run.notes().stream().filter(n -> n.startsWith("LLDP: ")).toList();
            if (!lldp.isEmpty()) {
                // lldp: true: what each switch and NIC port heard (absent otherwise, so other labs' files stay as they were)
                r.put("lldp", lldp);
            }
            byRun.put(d.variant().isEmpty() ? "run" : d.variant(), r);
        }
        root.put("runs", byRun);
        try {
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), root);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
