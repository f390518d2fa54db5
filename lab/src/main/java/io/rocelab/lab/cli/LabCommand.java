package io.rocelab.lab.cli;

import io.rocelab.lab.check.LabFabric;
import io.rocelab.lab.check.LosslessCheck;
import io.rocelab.lab.labfile.LabFile;
import io.rocelab.lab.labfile.LabFileException;
import io.rocelab.lab.labfile.LabReader;
import io.rocelab.lab.labfile.LabSources;
import io.rocelab.lab.labfile.Mode;
import io.rocelab.lab.labfile.Quantity;
import io.rocelab.lab.labfile.RunSpec;
import io.rocelab.lab.netns.NetnsCleaner;
import io.rocelab.lab.netns.NetnsException;
import io.rocelab.lab.netns.NetnsNames;
import io.rocelab.lab.netns.Privileges;
import io.rocelab.lab.run.LabChecks;
import io.rocelab.lab.run.LabReport;
import io.rocelab.lab.run.LabRun;
import io.rocelab.lab.run.LabRunner;
import io.rocelab.lab.run.ProgressLine;
import io.rocelab.lab.run.ShippedLabs;
import io.rocelab.lab.run.SweepManifest;
import io.rocelab.lab.run.SweepReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code rocelab lab}: run, check and list lab files (labs/README.md). */
@Command(name = "lab", mixinStandardHelpOptions = true,
        description = "Labs: a fabric, traffic, a timeline of events, probes and claims in one YAML file, run in "
            + "virtual time, with a report, CSVs and plots (labs/README.md).",
        subcommands = {LabCommand.Run.class, LabCommand.Check.class, LabCommand.ListLabs.class,
            LabCommand.Clean.class, LabReportCommand.class})
public final class LabCommand implements Runnable {
    /** Exit code of a run whose claims do not all hold. */
    public static final int CLAIM_FAILED = 1;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** A lab file read and checked, claims included; {@code sha256} of its text ({@link SweepManifest}). */
    record Loaded(String shown, LabFile lab, LabSources sources, String sha256) {
    }

    /**
     * Reads FILE, or the shipped lab called NAME, and checks it whole.
     *
     * @throws LabFileException with one line per mistake
     */
    static Loaded load(String fileOrName) throws LabFileException {
        Path p = Path.of(fileOrName);
        String text;
        LabSources sources;
        if (Files.isRegularFile(p)) {
            try {
                text = Files.readString(p, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UserError("cannot read " + fileOrName + ": " + e.getMessage());
            }
            Path dir = p.toAbsolutePath().getParent();
            sources = LabSources.directory(dir);
        } else {
            text = ShippedLabs.text(fileOrName);
            if (text == null) {
                throw new UserError("no lab file '" + fileOrName + "', and no shipped lab of that name ("
                    + "'rocelab lab list' shows them)");
            }
            sources = LabSources.resources(ShippedLabs.PREFIX);
        }
        LabFile lab = LabReader.read(fileOrName, text, sources);
        List<String> problems = LabChecks.problems(lab);
        if (!problems.isEmpty()) {
            throw new LabFileException(problems);
        }
        return new Loaded(fileOrName, lab, sources, SweepManifest.sha256(text));
    }

    /** What the lab's switch configurations carry that rocelab leaves alone: on stderr, once, not a mistake. */
    private static void notes(PrintWriter err, LabFile lab) {
        for (String line : lab.notes()) {
            err.println(line);
        }
        err.flush();
    }

    private static int mistakes(PrintWriter err, LabFileException e) {
        for (String line : e.problems()) {
            err.println(line);
        }
        err.flush();
        return CommandLines.USAGE_ERROR;
    }

    /** {@code rocelab lab check FILE [--lossless]}. */
    @Command(name = "check", mixinStandardHelpOptions = true,
            description = {"Checks a lab file without running it: one line per mistake (FILE:LINE:COL: key: what is "
                + "wrong) and exit code 2, or a line saying what it would run. Writes nothing.",
                "With --lossless, then checks the lossless class of each variant's fabric along its paths (PFC at both "
                + "ends of each cable, DSCP to TC, PG and queue hop by hop, lossless queues, headroom for the real "
                + "cables, ECN before PFC, the CNP class, the PFC watchdog, PCP trust on untagged links): one line per "
                + "finding (FILE: variant: switch: TABLE|key: what), a count, exit code 1 if something is found."})
    public static final class Check implements Callable<Integer> {
        @Parameters(paramLabel = "FILE|NAME", description = "a lab file, or a shipped lab's name")
        String file;

        @Option(names = "--lossless", description = "also check the fabric's lossless class (docs/cli.md)")
        boolean lossless;

        @Option(names = "--incast", paramLabel = "N", description = "the incast the ECN-before-PFC check assumes "
            + "(default: the lab's largest fan-in, at least 2)")
        Integer incast;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            if (incast != null && incast < 1) {
                throw new UserError("--incast must be at least 1: " + incast);
            }
            if (incast != null && !lossless) {
                throw new UserError("--incast is an assumption of --lossless's ECN check; give both");
            }
            Loaded l;
            try {
                l = load(file);
            } catch (LabFileException e) {
                return mistakes(spec.commandLine().getErr(), e);
            }
            LabFile lab = l.lab();
            notes(spec.commandLine().getErr(), lab);
            RunSpec first = lab.runs().get(0);
            PrintWriter out = spec.commandLine().getOut();
            out.printf(Locale.ROOT, "%s: ok: lab %s, %s, %s, %d host(s), %d switch(es), %d flow(s), %s%d event(s), "
                    + "%d check(s)%n", file, lab.name(),
                (lab.hasVariants() ? lab.runs().size() + " variants (" + String.join(", ", lab.variantNames()) + ")"
                    : "1 run") + (lab.seeds().isEmpty() ? "" : " at seeds "
                    + String.join(", ", lab.seeds().stream().map(String::valueOf).toList())),
                Quantity.formatNanos(first.durationNanos()), first.topology().hosts().size(),
                first.topology().switches().size(), first.flows().size(),
                first.collectives().isEmpty() ? "" : first.collectives().size() + " collective(s), ",
                first.events().size(), lab.expect().size());
            out.flush();
            if (!lossless) {
                return 0;
            }
            List<String> lines = new ArrayList<>();
            boolean anyLossless = false;
            for (RunSpec r : lab.runs()) {
                String label = file + (r.variant().isEmpty() ? "" : ": " + r.variant());
                var fabric = LabFabric.of(r, label, incast == null ? 0 : incast);
                anyLossless |= LosslessCheck.hasLosslessPort(fabric);
                lines.addAll(LosslessCheck.lines(LosslessCheck.findings(fabric)));
            }
            lines.forEach(out::println);
            out.println(LosslessCheck.countLine(lines.size(), anyLossless));
            out.flush();
            return lines.isEmpty() ? 0 : 1;
        }
    }

    /** {@code rocelab lab list}. */
    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "The shipped labs, one line each: name and what it shows ('rocelab lab run NAME' runs one).")
    public static final class ListLabs implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            for (String name : ShippedLabs.names()) {
                String description;
                try {
                    description = LabReader.read(name, ShippedLabs.text(name), LabSources.resources(ShippedLabs.PREFIX))
                        .description();
                } catch (LabFileException e) {
                    description = "(does not read: " + e.problems().get(0) + ")";
                }
                out.printf(Locale.ROOT, "%-22s %s%n", name, description);
            }
            out.flush();
            return 0;
        }
    }

    /** {@code rocelab lab clean [RUN_ID...]}. */
    @Command(name = "clean", mixinStandardHelpOptions = true,
            description = {"Removes what netns runs left (root): every network namespace named rl-... with the "
                + "processes in it (iperf3, tshark) and its veth pairs, one line each; with run ids, only those "
                + "runs' (rl-ID, rl-ID-HOST), so that other runs on the machine keep theirs. A run killed with "
                + "kill -9 leaves them; the next netns run removes those of runs that are gone by itself.",
                "Exit code 0: removed (or nothing to remove); 2: not root, or not a run id."})
    public static final class Clean implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "RUN_ID", arity = "0..*",
            description = "a run's id, as its first line says ('run id 2ikw'): only that run's namespaces")
        List<String> runIds = new ArrayList<>();

        @Override
        public Integer call() {
            String refusal = Privileges.refusal(Privileges.effectiveUid(), "lab clean");
            if (refusal != null) {
                throw new UserError(refusal);
            }
            List<String> bad = runIds.stream().filter(id -> !NetnsNames.isRunId(id)).toList();
            if (!bad.isEmpty()) {
                throw new UserError("lab clean: not a run id (the base-36 id a netns run prints, e.g. 2ikw): "
                    + String.join(", ", bad));
            }
            PrintWriter out = spec.commandLine().getOut();
            List<String> removed;
            try {
                removed = NetnsCleaner.clean(runIds.isEmpty() ? ns -> true
                    : ns -> runIds.stream().anyMatch(id -> NetnsNames.ofRun(ns, id)));
            } catch (NetnsException e) {
                throw new UserError(e.getMessage());
            }
            for (String r : removed) {
                out.println("removed " + r);
            }
            if (removed.isEmpty()) {
                out.println("nothing to remove: no namespace named " + NetnsNames.PREFIX
                    + (runIds.isEmpty() ? "..." : String.join("..., " + NetnsNames.PREFIX, runIds) + "..."));
            }
            out.flush();
            return 0;
        }
    }

    /** {@code rocelab lab run}. */
    @Command(name = "run", mixinStandardHelpOptions = true,
            description = {"Runs a lab: builds its fabric, starts its flows and its timeline, samples its probes, "
                + "prints a PASS or FAIL line per claim, and writes report.md, CSV time series, PNG plots and "
                + "counters.json to --out.",
                "Exit code 0: every claim holds; 1: one does not; 2: a mistake in the file or the options."})
    public static final class Run implements Callable<Integer> {
        @Parameters(paramLabel = "FILE|NAME", description = "a lab file, or a shipped lab's name ('rocelab lab list')")
        String file;

        @Option(names = "--mode", defaultValue = "virtual", description = "virtual (default), live, or netns (root: "
            + "the fabric on network namespaces and veth pairs, labs/README.md)")
        String mode;

        @Option(names = "--out", paramLabel = "DIR", description = "where the report goes (default lab-out/NAME)")
        Path out;

        @Option(names = "--seed", paramLabel = "N", description = "the seed of every random decision (default: the "
            + "file's, else 1); of a lab with several (seeds:, --seeds), run that one only")
        Long seed;

        @Option(names = "--seeds", paramLabel = "LIST", description = "run every variant at each of these seeds, e.g. "
            + "1,2,5-7 (default: the file's seeds:, else its one seed); a report per seed in seed-N/, the claims over "
            + "all of them")
        String seeds;

        @Option(names = "--variant", paramLabel = "NAME", split = ",", description = "run only this variant "
            + "(repeatable, or a comma list); 'rocelab lab report' merges such runs (labs/README.md)")
        List<String> variants;

        @Option(names = "--duration", paramLabel = "T", description = "how long each run lasts, e.g. 2ms (default: "
            + "the file's)")
        String duration;

        @Option(names = "--metrics", paramLabel = "HOST:PORT", description = "serve Prometheus metrics of the running "
            + "fabric at http://HOST:PORT/metrics (port 0: any free one, printed): every switch's port, queue, PFC and "
            + "watchdog counters, queue depths and watermarks, every NIC's counters; live and netns read at each "
            + "scrape, virtual time publishes between samples; after a run its last values")
        String metrics;

        @Option(names = "--threads", paramLabel = "N", description = "virtual time: run the fabric split into logical "
            + "processes (a leaf and its hosts, a spine alone) on N threads; the same result on any N (default: the "
            + "machine's cores; 1: the same split on one thread)")
        Integer threads;

        @Option(names = "--metrics-hold", paramLabel = "T", description = "with --metrics, keep serving the last "
            + "run's values this long after the report is written (e.g. 30s: a last scrape), then exit")
        String metricsHold;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            Mode m = Mode.of(mode);
            if (m == null) {
                throw new UserError("--mode must be virtual, live or netns: '" + mode + "'");
            }
            if (m == Mode.NETNS) {
                String refusal = Privileges.refusal(Privileges.effectiveUid(), "lab run --mode netns");
                if (refusal != null) {
                    throw new UserError(refusal);
                }
            }
            if (threads != null && threads < 1) {
                throw new UserError("--threads must be 1 or more: " + threads);
            }
            if (threads != null && m != Mode.VIRTUAL) {
                throw new UserError("--threads is for virtual time; --mode " + m.key() + " runs on the wall clock");
            }
            long nanos = -1;
            if (duration != null) {
                try {
                    nanos = Quantity.nanos(duration);
                } catch (IllegalArgumentException e) {
                    throw new UserError("--duration: " + e.getMessage());
                }
                if (nanos <= 0) {
                    throw new UserError("--duration must be more than 0: '" + duration + "'");
                }
            }
            io.rocelab.lab.metrics.MetricsAddress metricsAt = null;
            if (metrics != null) {
                try {
                    metricsAt = io.rocelab.lab.metrics.MetricsAddress.parse(metrics);
                } catch (IllegalArgumentException e) {
                    throw new UserError(e.getMessage());
                }
            }
            long holdNanos = 0;
            if (metricsHold != null) {
                if (metrics == null) {
                    throw new UserError("--metrics-hold goes with --metrics HOST:PORT");
                }
                try {
                    holdNanos = Quantity.nanos(metricsHold);
                } catch (IllegalArgumentException e) {
                    throw new UserError("--metrics-hold: " + e.getMessage());
                }
            }
            Loaded l;
            try {
                l = load(file);
            } catch (LabFileException e) {
                return mistakes(spec.commandLine().getErr(), e);
            }
            LabFile lab = l.lab();
            notes(spec.commandLine().getErr(), lab);
            if (!lab.modes().contains(m)) {
                throw new UserError(file + ": lab " + lab.name() + " runs in "
                    + String.join(", ", lab.modes().stream().map(Mode::key).toList()) + " mode only, not " + m.key());
            }
            List<RunSpec> runs = new ArrayList<>();
            java.util.Map<String, Long> durations = new java.util.LinkedHashMap<>();
            List<String> wrong = new ArrayList<>();
            List<RunSpec> chosen = List.of();
            List<Long> planned = List.of();
            try {
                chosen = chosen(lab);
            } catch (UserError e) {
                wrong.add(e.getMessage());
            }
            try {
                planned = plannedSeeds(lab);
            } catch (UserError e) {
                wrong.add(e.getMessage());
            }
            if (!wrong.isEmpty()) {
                throw new UserError(String.join("; ", wrong));
            }
            for (RunSpec r : chosen) {
                RunSpec x = r;
                if (nanos > 0) {
                    x = x.withDuration(nanos);
                    for (var e : x.events()) {
                        if (e.atNanos() >= nanos) {
                            throw new UserError("--duration " + duration + " ends the run before the event " + e.describe()
                                + " (" + e.loc() + ")");
                        }
                    }
                }
                runs.add(x);
            }
            for (RunSpec r : lab.runs()) {
                durations.put(r.variant(), nanos > 0 ? nanos : r.durationNanos());
            }
            List<Long> runSeeds = seed != null ? List.of(seed) : planned;
            boolean seeded = seed != null || seeds != null || !lab.seeds().isEmpty();
            Path dir = out != null ? out : Path.of("lab-out", lab.name());
            PrintWriter w = spec.commandLine().getOut();
            if (m == Mode.NETNS) {
                // what runs killed with kill -9 left behind (a running lab's namespaces stay)
                try {
                    for (String removed : NetnsCleaner.clean(NetnsCleaner::orphaned)) {
                        w.println("removed a killed run's " + removed);
                    }
                } catch (NetnsException e) {
                    throw new UserError(e.getMessage());
                }
            }
            w.printf(Locale.ROOT, "lab %s: %s, %s, %s, %s, probes every %s%n", lab.name(),
                !lab.hasVariants() ? "1 run" : runs.size() < lab.runs().size() ? runs.size() + " of "
                    + lab.runs().size() + " variants (" + String.join(", ", runs.stream().map(RunSpec::variant).toList())
                    + ")" : runs.size() + " variants (" + String.join(", ", lab.variantNames()) + ")",
                m == Mode.LIVE ? "live (real time, one event loop)" : m == Mode.NETNS
                    ? "netns (real time, namespaces and veth pairs, run id " + NetnsNames.ofThisProcess().id() + ")"
                    : "virtual time", runSeeds.size() == 1 ? "seed " + runSeeds.get(0)
                    : "seeds " + String.join(", ", runSeeds.stream().map(String::valueOf).toList()),
                Quantity.formatNanos(runs.get(0).durationNanos()),
                Quantity.formatNanos(runs.get(0).probes().intervalNanos()));
            w.flush();
            boolean terminal = ProgressLine.stdoutIsTerminal();
            LabRunner runner = new LabRunner(l.sources());
            if (m == Mode.VIRTUAL) {
                runner.threads(threads != null ? threads : Runtime.getRuntime().availableProcessors());
            }
            // live: the progress line names the ports most paused and the deepest queue; --metrics: /metrics
            io.rocelab.lab.metrics.LabTelemetry telemetry = metricsAt != null || m != Mode.VIRTUAL
                ? new io.rocelab.lab.metrics.LabTelemetry(lab.name()) : null;
            runner.telemetry(telemetry);
            try (io.rocelab.lab.metrics.MetricsEndpoint endpoint = metricsAt == null ? null
                     : startMetrics(metricsAt, telemetry, w)) {
                SweepManifest manifest = new SweepManifest(spec.root().version().length == 0 ? ""
                    : spec.root().version()[0], lab.name(), file, l.sha256(), m.key(), Math.max(nanos, 0), planned,
                    lab.variantNames(), List.of());
                int code = runAll(lab, runs, runSeeds, seeded, durations, manifest, m, dir, runner, telemetry, terminal,
                    w);
                if (endpoint != null && holdNanos > 0) {
                    w.printf(Locale.ROOT, "serving the last values at %s for %s%n", endpoint.url(),
                        Quantity.formatNanos(holdNanos));
                    w.flush();
                    try {
                        Thread.sleep(holdNanos / 1_000_000L);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return code;
            }
        }

        private static io.rocelab.lab.metrics.MetricsEndpoint startMetrics(io.rocelab.lab.metrics.MetricsAddress at,
                                                                          io.rocelab.lab.metrics.LabTelemetry telemetry,
                                                                          PrintWriter w) {
            try {
                io.rocelab.lab.metrics.MetricsEndpoint e = io.rocelab.lab.metrics.MetricsEndpoint.start(at, telemetry);
                w.println("metrics at " + e.url());
                w.flush();
                return e;
            } catch (IllegalArgumentException e) {
                throw new UserError(e.getMessage());
            }
        }

        /** @return the lab's variants {@code --variant} names, in file order (all without it) */
        private List<RunSpec> chosen(LabFile lab) {
            if (variants == null || variants.isEmpty()) {
                return lab.runs();
            }
            if (!lab.hasVariants()) {
                throw new UserError("--variant " + String.join(",", variants) + ": lab " + lab.name()
                    + " has no variants");
            }
            List<String> unknown = variants.stream().filter(v -> !lab.variantNames().contains(v)).toList();
            if (!unknown.isEmpty()) {
                throw new UserError("--variant: lab " + lab.name() + " has no variant " + String.join(", ", unknown)
                    + " (its variants: " + String.join(", ", lab.variantNames()) + ")");
            }
            return lab.runs().stream().filter(r -> variants.contains(r.variant())).toList();
        }

        /**
         * @return the seeds of the whole sweep: {@code --seeds}, else the file's {@code seeds:}, else {@code --seed}
         *         or the file's one seed
         */
        private List<Long> plannedSeeds(LabFile lab) {
            List<Long> planned;
            if (seeds != null) {
                try {
                    planned = io.rocelab.lab.labfile.Seeds.parse(seeds);
                } catch (IllegalArgumentException e) {
                    throw new UserError("--seeds: " + e.getMessage());
                }
            } else if (!lab.seeds().isEmpty()) {
                planned = lab.seeds();
            } else {
                return List.of(seed != null ? seed : lab.sweepSeeds().get(0));
            }
            if (seed != null && !planned.contains(seed)) {
                throw new UserError("--seed " + seed + ": lab " + lab.name() + " runs seeds "
                    + String.join(", ", planned.stream().map(String::valueOf).toList())
                    + (seeds != null ? " (--seeds)" : " (its seeds:; --seeds LIST runs others)"));
            }
            return planned;
        }

        private int runAll(LabFile lab, List<RunSpec> runs, List<Long> runSeeds, boolean seeded,
                           java.util.Map<String, Long> durations, SweepManifest manifest, Mode m, Path dir,
                           LabRunner runner, io.rocelab.lab.metrics.LabTelemetry telemetry, boolean terminal,
                           PrintWriter w)
            throws IOException {
            List<SweepReport.Piece> results = new ArrayList<>();
            for (long s : runSeeds) {
                Path at = SweepReport.seedDir(dir, runSeeds, s);
                for (RunSpec v : runs) {
                    RunSpec r = seeded ? v.withSeed(s) : v;
                    String label = (runSeeds.size() > 1 ? "seed " + s + ": " : "")
                        + (r.variant().isEmpty() ? "" : r.variant() + ": ");
                    Path capture = null;
                    if (r.capture() != null || !r.rxeVms().isEmpty() || io.rocelab.lab.run.LabSflow.wanted(r)) {
                        // an rxe-vm lab keeps its VMs' files beside the capture, an sFlow lab its sflow.pcap
                        Files.createDirectories(at);
                        capture = at.resolve(SweepReport.captureName(r.variant()));
                    }
                    LabRun run;
                    try {
                        ProgressLine line = new ProgressLine(w, terminal, label);
                        if (m != Mode.VIRTUAL) {
                            io.rocelab.lab.metrics.Hotspots hot = new io.rocelab.lab.metrics.Hotspots();
                            line.withDetail(() -> hot.describe(telemetry.read()));
                        }
                        run = runner.run(r, line, capture, m);
                    } catch (IllegalArgumentException e) {
                        // what only the fabric can tell (a flow on a host without a NIC, an event it cannot apply)
                        throw new UserError(file + ": " + e.getMessage().lines().findFirst().orElse(""));
                    } catch (NetnsException e) {
                        throw new UserError(file + ": netns: " + e.getMessage().lines().findFirst().orElse(""));
                    }
                    results.add(new SweepReport.Piece(r.variant(), s, run));
                    w.printf(Locale.ROOT, "  %sran %s in %.1f s wall (%s)%n", label,
                        Quantity.formatNanos(r.durationNanos()), run.wallNanos() / 1e9,
                        run.events() >= 0 ? run.events() + " events" : "live");
                    // a note of several lines (the routing section) is for the report alone
                    run.notes().stream().filter(n -> !n.contains("\n")).forEach(n -> w.println("  " + label + n));
                    w.flush();
                }
            }
            SweepReport.Result report = new SweepReport(lab, runSeeds, durations, runs.size() < lab.runs().size(),
                manifest, results).write(dir);
            for (LabReport.Outcome o : report.outcomes()) {
                w.printf(Locale.ROOT, "%s  %s  (%s)%n", o.pass() ? "PASS" : "FAIL", o.claim(), o.observed());
            }
            for (String n : report.notEvaluated()) {
                w.printf(Locale.ROOT, "SKIP  %s: 'rocelab lab report' evaluates it over the merged runs%n", n);
            }
            List<Path> files = report.files();
            w.println("wrote " + dir.resolve("report.md") + " and " + (files.size() - 1) + " more file(s) in " + dir);
            w.flush();
            return report.allPass() ? 0 : CLAIM_FAILED;
        }
    }
}
