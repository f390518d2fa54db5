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
 * <p>Threading: {@link #start}, {@link #results} and {@link #close} from the thread that built the
 * fabric (in virtual time, the one that runs the scheduler).
 */
public final class Collectives implements AutoCloseable {
    private final Fabric fabric;
    private final List<CollectiveRun> runs = new ArrayList<>();
    private final long epoch;
    private final AtomicInteger unfinished = new AtomicInteger();
    private volatile boolean running = true;

    private Collectives(Fabric fabric, List<Collective> collectives, long seed, long epochNanos) {
        this.fabric = fabric;
        this.epoch = epochNanos;
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
        if (!runs.isEmpty()) {
            Scheduler starter = fabric.scheduler(fabric.topology().hosts().get(0).name());
            for (CollectiveRun r : runs) {
                starter.scheduleAt(epoch + r.collective.startNanos(), () -> {
                    if (running) {
                        r.start(starter.nanoTime());
                    }
                });
            }
        }
    }

    /**
     * Connects every collective's QPs (receives posted) and schedules each one's first iteration.
     *
     * @param epochNanos time 0 of the collectives' starts and results, on the fabric's clock
     * @throws IllegalArgumentException for a repeated name, or a rank that is not a host with a NIC
     */
    public static Collectives start(Fabric fabric, List<Collective> collectives, long seed, long epochNanos) {
        return new Collectives(fabric, collectives, seed, epochNanos);
    }

    /** Like {@link #start(Fabric, List, long, long)} with time 0 now. */
    public static Collectives start(Fabric fabric, List<Collective> collectives, long seed) {
        Scheduler s = fabric.scheduler(fabric.topology().hosts().get(0).name());
        return start(fabric, collectives, seed, s.nanoTime());
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
