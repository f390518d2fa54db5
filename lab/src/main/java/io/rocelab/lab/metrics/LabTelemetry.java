package io.rocelab.lab.metrics;

import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.model.SwitchNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;

/**
 * The telemetry of a lab's runs, one after the other, for a {@code /metrics} endpoint and a live
 * progress line. Live (and on namespaces) a read copies the fabric on its event loop at once, as a
 * lab's probes do. In virtual time the fabric's one thread is the runner's, busy running events: a
 * read returns what the runner last published between samples (at most every
 * {@value #VIRTUAL_PUBLISH_MILLIS} ms of wall time, and at the end of the run), so the scrape never
 * touches the fabric and the run stays the same bit for bit. After a run (and until the next one
 * starts) a read returns the run's last values, taken where {@code counters.json}'s are.
 */
public final class LabTelemetry implements TelemetrySource {
    static final long VIRTUAL_PUBLISH_MILLIS = 500;

    private final String lab;
    private volatile TelemetrySource current = () -> Telemetry.EMPTY;
    private volatile Telemetry published = Telemetry.EMPTY;
    private Run run;

    /** @param lab the lab's name (the {@code lab} label of its run's clock) */
    public LabTelemetry(String lab) {
        this.lab = lab;
    }

    @Override
    public Telemetry read() {
        return current.read();
    }

    /**
     * A run starts on {@code fabric}.
     *
     * @param variant  the run's variant, or ""
     * @param nicHosts the hosts with soft NICs
     * @param live     true where the fabric runs by itself on its own loop (live, netns)
     * @param epoch    the fabric clock's time at the run's start
     * @param duration how long it lasts
     * @param onFabric runs a task where it may read every node, and waits for it
     */
    public void started(String variant, Fabric fabric, List<String> nicHosts, boolean live, long epoch, long duration,
                        Function<Callable<Telemetry>, Telemetry> onFabric) {
        Run r = new Run(variant, fabric, List.copyOf(nicHosts), live, epoch, duration);
        this.run = r;
        if (live) {
            current = () -> onFabric.apply(r::take);
        } else {
            current = () -> published;
        }
    }

    /**
     * A sample of the run at {@code atNanos} from its start, on the fabric's thread: in virtual time,
     * publishes the fabric's state for readers now and then.
     */
    public void sampled(long atNanos) {
        Run r = run;
        if (r == null || r.live) {
            return;
        }
        long wall = System.nanoTime();
        if (wall - r.lastPublished >= VIRTUAL_PUBLISH_MILLIS * 1_000_000L) {
            r.lastPublished = wall;
            published = r.take();
        }
    }

    /**
     * The run has ended, on the fabric's thread, where its totals are read: from now on readers get
     * these last values (the fabric is about to close).
     */
    public void finished() {
        Run r = run;
        if (r == null) {
            return;
        }
        Telemetry last = r.take();
        published = last;
        current = () -> published;
        run = null;
    }

    /** One run's fabric and what to read of it. */
    private final class Run {
        final String variant;
        final Fabric fabric;
        final List<String> nicHosts;
        final boolean live;
        final long epoch;
        final long duration;
        long lastPublished = System.nanoTime();

        Run(String variant, Fabric fabric, List<String> nicHosts, boolean live, long epoch, long duration) {
            this.variant = variant;
            this.fabric = fabric;
            this.nicHosts = nicHosts;
            this.live = live;
            this.epoch = epoch;
            this.duration = duration;
        }

        /** Copies every switch and NIC; on the fabric's thread. */
        Telemetry take() {
            List<SwitchTelemetry> switches = new ArrayList<>();
            long now = 0;
            for (SwitchNode s : fabric.topology().switches()) {
                var sw = fabric.softSwitch(s.name());
                switches.add(SwitchTelemetry.take(s.name(), sw));
                now = sw.scheduler().nanoTime();
            }
            List<NicTelemetry> nics = new ArrayList<>();
            for (String h : nicHosts) {
                var nic = fabric.nic(h);
                nics.addAll(NicTelemetry.take(h, nic));
                if (switches.isEmpty()) {
                    now = nic.scheduler().nanoTime();
                }
            }
            double seconds = Math.min(Math.max(0, now - epoch), duration) / 1e9;
            return new Telemetry(List.copyOf(switches), List.copyOf(nics),
                new Telemetry.RunProgress(lab, variant, seconds, duration / 1e9));
        }
    }
}
