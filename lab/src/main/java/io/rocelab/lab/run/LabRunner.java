package io.rocelab.lab.run;

import io.rocelab.codec.capture.PcapngWriter;
import io.rocelab.lab.demo.BoundedCapture;
import io.rocelab.lab.labfile.BackgroundSpec;
import io.rocelab.lab.labfile.CaptureSpec;
import io.rocelab.topology.model.Attachment;
import io.rocelab.lab.labfile.LabEvent;
import io.rocelab.lab.labfile.LabFlow;
import io.rocelab.lab.labfile.LabSources;
import io.rocelab.lab.labfile.Mode;
import io.rocelab.lab.labfile.RunSpec;
import io.rocelab.lab.labfile.CollectiveSpec;
import io.rocelab.topology.collective.CollectiveResult;
import io.rocelab.topology.collective.Collectives;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.timeline.Timeline;
import io.rocelab.topology.workload.Flow;
import io.rocelab.topology.workload.FlowResult;
import io.rocelab.topology.workload.PoissonFlows;
import io.rocelab.topology.workload.SizeDistribution;
import io.rocelab.topology.workload.Verb;
import io.rocelab.topology.workload.Workload;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs one {@link RunSpec}: builds the fabric, starts the workload and the timeline, samples the
 * probes every interval until the run's duration, and collects what it measured. In virtual time
 * (the default) one seed gives one result, bit for bit; live ({@link RunClock.Live}) the same file
 * runs on the wall clock.
 */
public final class LabRunner {
    /** Told how far a run has got. */
    public interface Progress {
        /** @param simulatedNanos virtual time reached, of {@code durationNanos} */
        void at(long simulatedNanos, long durationNanos);
    }

    private final LabSources sources;
    private io.rocelab.lab.metrics.LabTelemetry telemetry;
    /** Virtual time: the threads of a run split into logical processes; 0 for one scheduler. */
    private int threads;

    public LabRunner(LabSources sources) {
        this.sources = sources;
    }

    /**
     * Publishes each run's switches and NICs to {@code telemetry} ({@code lab run --metrics}, a live
     * run's progress line): read on demand live, published between samples in virtual time.
     *
     * @return this
     */
    public LabRunner telemetry(io.rocelab.lab.metrics.LabTelemetry telemetry) {
        this.telemetry = telemetry;
        return this;
    }

    /**
     * Virtual time: splits each run's fabric into logical processes (a leaf and its hosts, a spine
     * alone) run by {@code n} threads, the same result on any {@code n}; 0 (the default) for one
     * scheduler. A run that uses what is not yet safe in parallel ({@link #oneSchedulerReason}) runs on
     * one scheduler whatever {@code n} is, and its notes say why.
     *
     * @return this
     */
    public LabRunner threads(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("threads must be >= 0: " + n);
        }
        this.threads = n;
        return this;
    }

    /**
     * @return why {@code run} must run on one scheduler (what it uses writes state of several nodes
     *         from their events, or reads one node's memory from another's), or null if it may be split
     */
    static String oneSchedulerReason(RunSpec run) {
        if (run.capture() != null) {
            return "a capture (one file written from every port)";
        }
        if (LabSflow.wanted(run)) {
            return "sFlow (one collector fed by every switch)";
        }
        if (!run.collectives().isEmpty()) {
            return "collectives (a step starts from another rank's completion)";
        }
        if (run.lldp()) {
            return "LLDP";
        }
        if (!run.rxeVms().isEmpty()) {
            return "rxe VMs";
        }
        for (LabFlow f : run.flows()) {
            if (f instanceof LabFlow.Rdma r && r.flow().verify()) {
                return "flow '" + f.name() + "' verifies its data (reads the destination's memory at each completion)";
            }
        }
        return null;
    }

    /** Runs {@code run} and returns what it measured. */
    public LabRun run(RunSpec run, Progress progress) {
        return run(run, progress, null);
    }

    /**
     * Runs {@code run} and returns what it measured.
     *
     * @param captureFile where the run's capture ({@code capture:}) goes, or null for none
     */
    public LabRun run(RunSpec run, Progress progress, java.nio.file.Path captureFile) {
        return run(run, progress, captureFile, Mode.VIRTUAL);
    }

    /**
     * Runs {@code run} in {@code mode} and returns what it measured.
     *
     * @param captureFile where the run's capture ({@code capture:}) goes, or null for none
     */
    public LabRun run(RunSpec run, Progress progress, java.nio.file.Path captureFile, Mode mode) {
        long wall = System.nanoTime();
        List<Flow> flows = new ArrayList<>();
        List<LabFlow> programFlows = new ArrayList<>();
        for (LabFlow f : run.flows()) {
            if (f instanceof LabFlow.Rdma r && !run.rxeVms().contains(f.source())) {
                flows.add(r.flow());
            } else {
                programFlows.add(f);
            }
        }
        List<Flow> background = new ArrayList<>();
        int stream = 0;
        for (BackgroundSpec b : run.background()) {
            background.addAll(PoissonFlows.generate(run.topology(), b.hosts(), b.load(), sizes(b.sizeBytes(),
                b.sizeCdf()), b.startNanos(), b.stopNanos(), Verb.parse(b.verb()), run.seed() + 7919L * ++stream,
                b.name()));
        }
        List<Flow> all = new ArrayList<>(flows);
        all.addAll(background);
        RunData data = new RunData(run.variant(), run.durationNanos(), run.probes().kinds(), Probes.names(run));
        BoundedCapture[] tap = new BoundedCapture[1];
        LabRun result;
        String oneScheduler = mode == Mode.VIRTUAL && threads > 0
            && io.rocelab.topology.fabric.LogicalProcesses.of(run.topology()).parallel() ? oneSchedulerReason(run) : null;
        RunClock clock = RunClock.of(mode, run, captureFile, oneScheduler == null ? threads : 0);
        String[] parallelNote = new String[1];
        try (clock;
             Fabric fabric = clock.start(run.topology(), run.seed());
             AutoCloseable attached = clock.attach(fabric);
             AutoCloseable lldp = startLldp(clock, fabric, run);
             AutoCloseable sflow = LabSflow.start(clock, fabric, run, mode, captureFile);
             RoutingRecord routing = RoutingRecord.converge(clock, fabric);
             Collectives collectives = Collectives.connect(fabric, run.collectives().stream()
                 .map(CollectiveSpec::collective).toList(), run.seed());
             Workload workload = Workload.start(fabric, all, run.seed());
             ProgramFlows programs = clock.programs(fabric, programFlows, workload.epochNanos());
             Timeline timeline = Timeline.schedule(run.events().stream().map(LabEvent::event).toList(), fabric,
                 workload)) {
            if (captureFile != null && run.capture() != null && !run.capture().ports().isEmpty()) {
                tap[0] = clock.onFabric(fabric, () -> capture(fabric, run.capture(), captureFile));
            }
            if (mode == Mode.VIRTUAL && threads > 0) {
                var p = fabric.partition();
                parallelNote[0] = p != null ? String.format(java.util.Locale.ROOT,
                    "parallel: %d logical processes, lookahead %s, %d threads", p.lpCount(),
                    io.rocelab.lab.labfile.Quantity.formatNanos(p.lookaheadNanos()), p.threads())
                    : oneScheduler != null ? "one scheduler: the lab uses " + oneScheduler
                    : "one scheduler: the fabric is one logical process (cables under 100 ns join their ends)";
            }
            long epoch = workload.epochNanos();
            collectives.start(epoch);
            java.util.function.Function<String, io.rocelab.topology.workload.FlowProgress> progressOf = f -> {
                var p = programs.progress(f);
                return p != null ? p : workload.progress(f);
            };
            Probes probes = clock.onFabric(fabric, () -> new Probes(fabric, progressOf, run, data));
            if (telemetry != null) {
                telemetry.started(run.variant(), fabric, run.nicHosts(), mode != Mode.VIRTUAL, epoch,
                    run.durationNanos(), what -> clock.onFabric(fabric, what));
            }
            long interval = run.probes().intervalNanos();
            long duration = run.durationNanos();
            for (long t = Math.min(interval, duration); ; t = Math.min(t + interval, duration)) {
                clock.runUntil(fabric, epoch + t);
                long at = t;
                clock.onFabric(fabric, () -> {
                    probes.sample(at);
                    if (telemetry != null) {
                        telemetry.sampled(at);
                    }
                    return null;
                });
                progress.at(t, duration);
                if (t >= duration) {
                    break;
                }
            }
            List<FlowResult> results = new ArrayList<>(workload.results());
            results.addAll(programs.results());
            List<String> lldpLines = LabLldp.lines(clock, fabric, run);
            List<String> routingLines = clock.onFabric(fabric, () -> {
                probes.finish(results);
                if (telemetry != null) {
                    telemetry.finished(); // the values counters.json gets, as the fabric is about to close
                }
                return notes(routing.finish(fabric, data, epoch), lldpLines);
            });
            Set<String> named = new HashSet<>();
            flows.forEach(f -> named.add(f.name()));
            programFlows.forEach(f -> named.add(f.name()));
            List<FlowResult> mine = results.stream().filter(r -> named.contains(r.name())).toList();
            List<FlowResult> rest = results.stream().filter(r -> !named.contains(r.name())).toList();
            List<CollectiveResult> collectiveResults = collectives.results();
            CollectiveRecord.record(data, collectiveResults);
            result = new LabRun(data, mine, rest, timeline.applied(), clock.events(fabric), System.nanoTime() - wall,
                null, 0, routingLines, collectiveResults);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e.getMessage(), e);
        } finally {
            if (tap[0] != null) {
                try {
                    tap[0].close(); // after the fabric: its last frames have landed
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot write " + captureFile, e);
                }
            }
        }
        return new LabRun(result.data(), result.flows(), result.background(), result.applied(), result.events(),
            result.wallNanos(), tap[0] == null ? null : captureFile, tap[0] == null ? 0 : tap[0].written(),
            notes(notes(result.notes(), clock.notes()), parallelNote[0] == null ? List.of() : List.of(parallelNote[0])),
            result.collectives());
    }

    /** LLDP on the fabric when the lab asks for it (lldp: true), and what the clock runs beside it. */
    private static AutoCloseable startLldp(RunClock clock, Fabric fabric, RunSpec run) {
        LabLldp.start(clock, fabric, run);
        return run.lldp() ? clock.lldpStarted(fabric) : () -> { };
    }

    private static List<String> notes(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** Taps the capture's ports into one bounded pcapng: the first frames of each, and the switches' decisions. */
    private static BoundedCapture capture(Fabric fabric, CaptureSpec spec, java.nio.file.Path file) {
        try {
            BoundedCapture c = new BoundedCapture(PcapngWriter.create(file), spec.frames(), spec.frames());
            for (String port : spec.ports()) {
                Attachment a = Attachment.parse(port);
                fabric.softSwitch(a.node()).capturePort(a.port(), c, 0);
            }
            return c;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private final Map<String, SizeDistribution> cdfs = new HashMap<>();

    private SizeDistribution sizes(long bytes, String cdf) {
        if (cdf == null) {
            return SizeDistribution.fixed(bytes);
        }
        return cdfs.computeIfAbsent(cdf, c -> {
            try {
                return SizeDistribution.cdf(c, new StringReader(sources.read(c)));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + c, e);
            }
        });
    }
}
