package io.rocelab.topology.workload;

import io.rocelab.fabric.random.SplitMix64;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.fabric.FabricMode;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.qos.QosProfile;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The workload engine: runs {@link Flow}s on a {@link Fabric}'s soft NICs, event-driven, in virtual
 * or real time.
 *
 * <p>How a flow runs: on the owner threads of its source's and destination's NICs (virtual time:
 * the one scheduler; real time: each NIC's event loop), its QPs are created and connected with
 * {@code QueuePair.modify} (RC for WRITE, READ and SEND, one UD QP each side with a Q_Key for
 * UD_SEND); the destination posts receive work requests for SEND and UD_SEND and reposts one from
 * its receive CQ's notification for each it consumed; the source posts its messages from its send
 * CQ's notification, keeping {@link Flow#window()} work requests outstanding per QP. No wall clock,
 * no parking, no polling loop: every step is a CQ event or a timer of the NIC's scheduler.
 *
 * <p>Memory: each NIC has one protection domain and one scratch region for all its flows, sources
 * and sinks alike, as long as the largest work request any of its flows posts (at most
 * {@link #MAX_WR_BYTES}); WRITEs land in the destination's, READs read from it, SENDs are received
 * into it. The bytes are not checked (they overlap); the counts are. A verified flow
 * ({@link Flow#verify()}) has a region of its own on each side instead, a slot per outstanding work
 * request per QP, and its bytes are checked ({@link DataPattern}).
 *
 * <p>Alternate paths: a flow's {@link AltPath} is loaded into its QPs on both sides once connected
 * and armed (REARM); the source's IBV_EVENT_PATH_MIG events are counted
 * ({@link FlowResult#migrations()}).
 *
 * <p>Errors: a flow whose QP goes to the error state (retries exhausted, say) stops posting, its
 * work requests complete in error, and it ends {@link FlowResult.Outcome#FAILED} with the count of
 * each status: data for the report, not an exception.
 *
 * <p>Time: every flow time (start, stop, duration) and every result time counts from the moment
 * {@link #start} was called on the fabric's clock; in virtual time on a fresh fabric, that is 0.
 *
 * <p>Determinism: in virtual time, the same topology, flows and seeds give the same results and the
 * same NIC and switch counters, bit for bit. Each flow's sizes come from a generator derived from
 * the seed and the flow's place in the list.
 *
 * <p>Threading: {@link #start}, {@link #results} and {@link #close} from the thread that built the
 * fabric; in virtual time that thread also runs the scheduler ({@code fabric.runFor},
 * {@code fabric.runUntil(workload::finished, ...)}). {@link #startFlow}, {@link #stopFlow} and
 * {@link #setDraining} may be called from any thread, and from a virtual-time event.
 */
public final class Workload implements AutoCloseable {
    /** The largest work request the engine posts: a NIC's scratch region is at most this long. */
    public static final int MAX_WR_BYTES = 256 * 1024;

    private final Fabric fabric;
    private final List<Flow> flows;
    private final long epoch;
    private final Map<String, HostEnd> hosts = new LinkedHashMap<>();
    private final Map<String, FlowRun> runs = new LinkedHashMap<>();
    /** Bounded flows not yet finished. */
    private final AtomicInteger unfinished = new AtomicInteger();
    /** The flows with a start time, in start order (ties in list order), and the next to start. */
    private final FlowRun[] schedule;
    private int nextStart;
    private final Scheduler starter;
    /** Seeds the flows' sizes and PSNs, and each host's rdma_cm (IDs, PSNs, ports). */
    private final long seed;
    private volatile boolean running = true;

    private Workload(Fabric fabric, List<Flow> flows, long seed) {
        this.fabric = fabric;
        this.seed = seed;
        this.flows = List.copyOf(flows);
        List<String> problems = new ArrayList<>();
        Map<String, Flow> byName = new LinkedHashMap<>();
        for (Flow f : this.flows) {
            if (byName.putIfAbsent(f.name(), f) != null) {
                problems.add("flow '" + f.name() + "': the name is used twice");
            }
            for (String h : List.of(f.source(), f.destination())) {
                if (!(fabric.topology().node(h) instanceof Host)) {
                    problems.add("flow '" + f.name() + "': no host '" + h + "' in the fabric");
                } else {
                    try {
                        fabric.nic(h);
                    } catch (IllegalArgumentException e) {
                        problems.add("flow '" + f.name() + "': " + e.getMessage());
                    }
                }
            }
            if (problems.isEmpty()) {
                problems.addAll(hostProblems(fabric, f));
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidFlowException(problems);
        }
        String first = fabric.topology().hosts().get(0).name();
        // split into logical processes, flows start from global events (every LP stopped), not from one host's LP
        this.starter = fabric.partition() != null ? fabric.virtualTime() : fabric.scheduler(first);
        this.epoch = starter.nanoTime();
        QosProfile qos = fabric.topology().qos();
        int fabricDscp = qos != null ? qos.roceDscp() : 0;
        int i = 0;
        for (Flow f : this.flows) {
            HostEnd s = host(f.source());
            HostEnd d = host(f.destination());
            int dscp = f.dscp() >= 0 ? f.dscp() : fabricDscp;
            FlowRun run = new FlowRun(f, i++, this, s, d, seed, dscp << 2);
            s.scratchBytes = Math.max(s.scratchBytes, run.wrBytes);
            d.scratchBytes = Math.max(d.scratchBytes, run.destinationScratch());
            runs.put(f.name(), run);
            if (f.bounded()) {
                unfinished.incrementAndGet();
            }
        }
        List<FlowRun> timed = new ArrayList<>();
        for (FlowRun r : runs.values()) {
            if (!r.flow.onDemand()) {
                r.setup();
            }
            if (r.flow.startNanos() != Long.MAX_VALUE) {
                timed.add(r);
            }
        }
        timed.sort(Comparator.comparingLong(r -> r.flow.startNanos()));
        schedule = timed.toArray(new FlowRun[0]);
        if (schedule.length > 0) {
            starter.scheduleAt(epoch + schedule[0].flow.startNanos(), this::startDue);
        }
    }

    /** What a flow asks of its hosts that they cannot give: an alternate path's port, one owner thread. */
    private static List<String> hostProblems(Fabric fabric, Flow f) {
        List<String> p = new ArrayList<>();
        AltPath alt = f.altPath();
        if (alt != null) {
            int[][] ends = {{0, alt.port()}, {1, alt.remotePort()}};
            for (int[] e : ends) {
                String h = e[0] == 0 ? f.source() : f.destination();
                Host host = fabric.topology().host(h);
                if (host.bonded()) {
                    p.add("flow '" + f.name() + "': an alternate path on " + h + ", whose ports are bonded (one"
                        + " port to verbs; the bond fails over by itself)");
                } else if (e[1] > host.portCount()) {
                    p.add("flow '" + f.name() + "': the alternate path uses port " + e[1] + " of " + h
                        + ", which has " + host.portCount());
                }
            }
        }
        if (f.verify() && f.verb() == Verb.WRITE && fabric.scheduler(f.source()) != fabric.scheduler(f.destination())) {
            p.add("flow '" + f.name() + "': verify of WRITE reads the destination's memory as each write completes:"
                + " its NICs must share one owner thread (virtual time, or one event loop)");
        }
        return p;
    }

    private HostEnd host(String name) {
        return hosts.computeIfAbsent(name, h -> new HostEnd(h, fabric.nic(h), fabric.scheduler(h),
            fabric.nic(h).activeMtu(), SplitMix64.derive(seed, 0x434D_0000L + hosts.size())));
    }

    /** The starter's timer: starts every flow due now (on its source's thread), then waits for the next. */
    private void startDue() {
        if (!running) {
            return;
        }
        long now = starter.nanoTime();
        while (nextStart < schedule.length && epoch + schedule[nextStart].flow.startNanos() <= now) {
            FlowRun r = schedule[nextStart++];
            r.src.owner.execute(r::requestStart);
        }
        if (nextStart < schedule.length) {
            starter.scheduleAt(epoch + schedule[nextStart].flow.startNanos(), this::startDue);
        }
    }

    /**
     * Creates the flows' QPs, CQs and MRs on the fabric's NICs (on their owner threads; on-demand
     * flows' QPs when they start) and schedules each flow's start.
     *
     * @param fabric the running fabric
     * @param flows  the flows, unique names, hosts of the fabric
     * @param seed   the seed of the flows' message sizes
     * @throws InvalidFlowException for a repeated flow name, a host the fabric does not have or one
     *                              it opened no NIC on ({@code Fabric.Builder.bareHosts}), one line each
     */
    public static Workload start(Fabric fabric, List<Flow> flows, long seed) {
        return new Workload(fabric, flows, seed);
    }

    /** @return the fabric it runs on */
    public Fabric fabric() {
        return fabric;
    }

    /** @return the flows, in the order given */
    public List<Flow> flows() {
        return flows;
    }

    /** @return the clock of the fabric when {@link #start} was called: time 0 of the flows and results */
    public long epochNanos() {
        return epoch;
    }

    /** @return the live progress of {@code flow} */
    public FlowProgress progress(String flow) {
        return run(flow);
    }

    private FlowRun run(String flow) {
        FlowRun r = runs.get(flow);
        if (r == null) {
            throw new IllegalArgumentException("no flow '" + flow + "' in the workload");
        }
        return r;
    }

    /** Starts a flow now (one given start {@code Long.MAX_VALUE} waits for this); a flow already started is left alone. */
    public void startFlow(String flow) {
        FlowRun r = run(flow);
        r.src.owner.execute(r::requestStart);
    }

    /** Stops posting {@code flow}'s messages; outstanding ones still complete. A flow not yet started never starts. */
    public void stopFlow(String flow) {
        FlowRun r = run(flow);
        r.src.owner.execute(r::stop);
    }

    /**
     * {@code false}: the host's receivers stop reposting receive work requests, so SEND flows to it
     * meet RNR (and retry, up to their {@code rnrRetry}) and UD datagrams to it are dropped once the
     * posted ones are used up; {@code true} (the default): they repost, and the ones held back are
     * posted at once.
     */
    public void setDraining(String host, boolean draining) {
        if (!(fabric.topology().node(host) instanceof Host)) {
            throw new IllegalArgumentException("no host '" + host + "' in the fabric");
        }
        HostEnd h;
        synchronized (hosts) {
            h = host(host);
        }
        h.owner.execute(() -> h.setDraining(draining));
    }

    /**
     * @return whether every bounded flow ({@link Flow#bounded()}) has finished (a bounded flow that
     *         waits for {@link #startFlow} and is never started keeps this false)
     */
    public boolean finished() {
        return unfinished.get() == 0;
    }

    void flowFinished(FlowRun r) {
        if (r.flow.bounded()) {
            unfinished.decrementAndGet();
        }
    }

    /** @return whether the workload is still running (not closed) */
    boolean running() {
        return running;
    }

    /** @return every flow's result, in the order of {@link #flows()} */
    public List<FlowResult> results() {
        List<FlowResult> out = new ArrayList<>(runs.size());
        for (FlowRun r : runs.values()) {
            out.add(result(r));
        }
        return out;
    }

    /** @return the result of one flow */
    public FlowResult result(String flow) {
        return result(run(flow));
    }

    private FlowResult result(FlowRun r) {
        return fabric.onOwner(r.flow.source(), r::result);
    }

    /**
     * Stops every flow's posting and destroys the QPs it made; the fabric keeps running (in virtual
     * time, run it on a little for what is in flight to land). The results stay readable.
     */
    @Override
    public void close() {
        if (!running) {
            return;
        }
        running = false;
        for (FlowRun r : runs.values()) {
            fabric.onOwner(r.flow.source(), () -> {
                r.tearDownSource();
                return null;
            });
        }
    }

    @Override
    public String toString() {
        return "Workload[" + flows.size() + " flows, " + (fabric.mode() == FabricMode.VIRTUAL ? "virtual" : "real")
            + " time]";
    }
}
