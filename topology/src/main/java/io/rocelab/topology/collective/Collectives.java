package io.rocelab.topology.collective;

import io.rocelab.fabric.time.Scheduler;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.fabric.FabricMode;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.qos.QosProfile;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The collectives engine: runs {@link Collective}s on a {@link Fabric}'s soft NICs, event-driven
 * from CQ notifications on each NIC's owner thread, in virtual or real time, beside (and on the same
 * NICs, queues and priorities as) a {@code Workload}'s flows. How a collective moves its data is
 * {@link Schedule}'s; how it runs, {@link CollectiveRun}'s.
 *
 * <p>Time: results count from {@code epochNanos} (the workload's epoch in a lab, so a collective's
 * start and a flow's mean the same instant). Determinism: in virtual time the same fabric,
 * collectives and seed give the same results, bit for bit (every decision is a CQ event or a timer
 * of the one scheduler; PSNs come from the seed).
 *
 * <p>Threading: {@link #connect}, {@link #start}, {@link #results} and {@link #close} from the thread
 * that built the fabric (in virtual time, the one that runs the scheduler).
 */
public final class Collectives implements AutoCloseable {
    private final Fabric fabric;
    private final List<CollectiveRun> runs = new ArrayList<>();
    /** Time 0 of the starts and results; {@code Long.MIN_VALUE} until {@link #start(long)}. */
    private volatile long epoch = Long.MIN_VALUE;
    private final AtomicInteger unfinished = new AtomicInteger();
    private volatile boolean running = true;

    private Collectives(Fabric fabric, List<Collective> collectives, long seed) {
        this.fabric = fabric;
        List<String> problems = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Collective c : collectives) {
            if (!names.add(c.name())) {
                problems.add("collective '" + c.name() + "': the name is used twice");
            }
            for (String h : c.ranks()) {
                if (!(fabric.topology().node(h) instanceof Host)) {
                    problems.add("collective '" + c.name() + "': no host '" + h + "' in the fabric");
                } else {
                    try {
                        fabric.nic(h);
                    } catch (IllegalArgumentException e) {
                        problems.add("collective '" + c.name() + "': " + e.getMessage());
                    }
                }
            }
        }
        if (!collectives.isEmpty() && fabric.partition() != null) {
            // a step starts from another rank's completion: not audited for a run split into logical processes
            problems.add("collectives run on one scheduler: build the fabric without Fabric.Builder.threads");
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n", problems));
        }
        QosProfile qos = fabric.topology().qos();
        int fabricDscp = qos != null ? qos.roceDscp() : 0;
        int i = 0;
        for (Collective c : collectives) {
            CollectiveRun run = new CollectiveRun(c, i++, this, fabric, c.dscp() >= 0 ? c.dscp() : fabricDscp, seed);
            run.setup(fabric);
            runs.add(run);
            unfinished.incrementAndGet();
        }
    }

    /**
     * Connects every collective's QPs (receives posted), on the NICs' owner threads, waiting for
     * each; nothing is sent until {@link #start(long)}. Connecting takes no virtual time; live, it
     * takes what the event loop needs, which is why it comes before the run's time 0.
     *
     * @throws IllegalArgumentException for a repeated name, or a rank that is not a host with a NIC
     */
    public static Collectives connect(Fabric fabric, List<Collective> collectives, long seed) {
        return new Collectives(fabric, collectives, seed);
    }

    /** {@link #connect} then {@link #start(long)} with time 0 now. */
    public static Collectives start(Fabric fabric, List<Collective> collectives, long seed) {
        Collectives c = connect(fabric, collectives, seed);
        c.start(fabric.scheduler(fabric.topology().hosts().get(0).name()).nanoTime());
        return c;
    }

    /**
     * Schedules each collective's first iteration at its start, counted from {@code epochNanos}
     * (once; a second call is refused).
     *
     * @param epochNanos time 0 of the collectives' starts and results, on the fabric's clock
     */
    public synchronized void start(long epochNanos) {
        if (epoch != Long.MIN_VALUE) {
            throw new IllegalStateException("the collectives have started");
        }
        epoch = epochNanos;
        if (runs.isEmpty()) {
            return;
        }
        Scheduler starter = fabric.scheduler(fabric.topology().hosts().get(0).name());
        for (CollectiveRun r : runs) {
            starter.scheduleAt(epoch + r.collective.startNanos(), () -> {
                if (running) {
                    r.start(starter.nanoTime());
                }
            });
        }
    }

    long epochNanos() {
        return epoch;
    }

    void collectiveFinished(CollectiveRun r) {
        unfinished.decrementAndGet();
    }

    /** @return whether every collective ran all its iterations */
    public boolean finished() {
        return unfinished.get() == 0;
    }

    /** @return each collective's result, in the order given */
    public List<CollectiveResult> results() {
        return runs.stream().map(CollectiveRun::result).toList();
    }

    /** Stops the collectives (no iteration starts after) and destroys their QPs; results stay readable. */
    @Override
    public void close() {
        if (!running) {
            return;
        }
        running = false;
        for (CollectiveRun r : runs) {
            r.close(fabric);
        }
    }

    @Override
    public String toString() {
        return "Collectives[" + runs.size() + ", " + (fabric.mode() == FabricMode.VIRTUAL ? "virtual" : "real")
            + " time]";
    }
}
