package io.rocelab.bench.fabric;

import io.rocelab.fabric.time.BareSchedulerFloor;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.nic.cc.DcqcnParams;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.generate.FatTree;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Topology;
import io.rocelab.topology.workload.Flow;
import io.rocelab.topology.workload.FlowResult;
import io.rocelab.topology.workload.PoissonFlows;
import io.rocelab.topology.workload.SizeDistribution;
import io.rocelab.topology.workload.Verb;
import io.rocelab.topology.workload.Workload;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How fast virtual time runs a k-ary fat tree of soft NICs and soft switches (issue 16 §5): 100 Gb/s
 * links of 1 us, the lossless QoS profile, DCQCN on every NIC; a 16:1 incast (16 hosts spread
 * over the tree write to host 0, 64 KB messages, for the whole run) plus background load
 * (Poisson WRITE flows between all hosts, web-search sizes, at {@code bench.load} of each host's
 * link). Printed per k: the build time, simulated microseconds per wall second, events per wall
 * and per CPU second, beside the bare {@link VirtualTimeScheduler}'s events per second in the same
 * run with as many events pending as the fabric kept on average, and the heap in use after the run
 * (after a full GC, the fabric still alive). A benchmark: it reports, it does not gate.
 *
 * <p>Parallel: {@code bench.threads} (list, default {@code 1,<cores>}) runs each k once per thread
 * count, the fabric split into logical processes ({@code Fabric.Builder.threads}: a leaf and its
 * hosts, a spine, a core switch each) on that many threads; 0 is the fabric on one scheduler, as
 * before the split. Each line says the LPs, the lookahead, the windows, the CPU time of every worker
 * thread, and beside the first thread count the wall-time speed-up; a digest of the flows' results
 * and the event count show that every thread count ran the same events.
 *
 * <p>Properties: {@code bench.k} (list, {@code 4,8}), {@code bench.us} (simulated microseconds,
 * 10000: the 10 ms), {@code bench.load} (0.3), {@code bench.cc} ({@code dcqcn} or {@code none}),
 * {@code bench.seed} (1), {@code bench.threads}. Run with {@code bench/run-fattree.sh}.
 */
public final class FatTreeScaleBench {
    private static final long US = 1_000;
    /** Senders of the incast (16:1, the dcqcn lab's; fewer on a tree with fewer hosts). */
    static final int INCAST_SENDERS = 16;
    /** Wall time the bare scheduler runs for its rate. */
    private static final long BARE_WALL_NANOS = 2_000_000_000L;

    private FatTreeScaleBench() {
    }

    public static void main(String[] args) {
        String ks = System.getProperty("bench.k", "4,8");
        long us = Long.getLong("bench.us", 10_000);
        double load = Double.parseDouble(System.getProperty("bench.load", "0.3"));
        boolean dcqcn = !"none".equals(System.getProperty("bench.cc", "dcqcn"));
        long seed = Long.getLong("bench.seed", 1);
        int cores = Runtime.getRuntime().availableProcessors();
        String threadList = System.getProperty("bench.threads", cores > 1 ? "1," + cores : "1");
        System.out.printf(Locale.ROOT, "FatTreeScaleBench: 100 Gb/s, 1 us links, lossless, %s, incast to h0 + "
                + "web-search background at %.0f %% load, %d us simulated, max heap %d MiB%n",
            dcqcn ? "DCQCN" : "no CC", load * 100, us, Runtime.getRuntime().maxMemory() >> 20);
        System.out.println("(warm-up: k=4 for 1000 us, not printed)");
        run(4, 1_000, load, dcqcn, seed, false, 1, null);
        for (String k : ks.split(",")) {
            Result first = null;
            for (String n : threadList.split(",")) {
                Result r = run(Integer.parseInt(k.trim()), us, load, dcqcn, seed, true, Integer.parseInt(n.trim()),
                    first);
                first = first == null && r.threads() > 0 ? r : first;
            }
        }
    }

    /** What one run measured, for the next thread count's comparison. */
    private record Result(int threads, double wall, double cpu, long events, long digest) {
    }

    private static Result run(int k, long us, double load, boolean dcqcn, long seed, boolean print, int threads,
                              Result first) {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long base = usedAfterGc(memory);
        long b0 = System.nanoTime();
        FatTree ft = FatTree.builder().k(k).linkGbps(100).propagationDelayNanos(1_000)
            .dcqcn(dcqcn ? DcqcnParams.defaults() : null).build();
        Topology t = ft.topology();
        Fabric fabric = Fabric.builder(t).seed(seed).threads(threads).start();
        List<Flow> flows = flows(ft, us * US, load, seed);
        int incast = (int) flows.stream().filter(f -> f.name().startsWith("incast")).count();
        Workload w = Workload.start(fabric, flows, seed);
        double build = (System.nanoTime() - b0) / 1e9;
        VirtualTimeScheduler v = fabric.virtualTime();
        long events0 = v.eventsExecuted();
        long cpu0 = mx.getCurrentThreadCpuTime() + helperCpu(mx, fabric);
        long wall0 = System.nanoTime();
        long slices = 0;
        long pendingSum = 0;
        long slice = Math.max(1, us / 100) * US;
        long end = v.nanoTime() + us * US;
        while (v.nanoTime() < end) {
            v.runUntil(Math.min(end, v.nanoTime() + slice));
            pendingSum += v.pendingEvents();
            slices++;
        }
        double wall = (System.nanoTime() - wall0) / 1e9;
        double cpu = (mx.getCurrentThreadCpuTime() + helperCpu(mx, fabric) - cpu0) / 1e9;
        long events = v.eventsExecuted() - events0;
        long heap = usedAfterGc(memory) - base;
        long bytes = 0;
        int finished = 0;
        int started = 0;
        long digest = 17;
        for (FlowResult r : w.results()) {
            digest = digest * 31 + r.toString().hashCode();
            bytes += r.bytes();
            finished += r.outcome() == FlowResult.Outcome.COMPLETED ? 1 : 0;
            started += r.startNanos() >= 0 ? 1 : 0;
        }
        int pending = (int) (pendingSum / slices);
        if (!print) {
            w.close();
            fabric.close();
            return null;
        }
        double[] bare = BareSchedulerFloor.eventsPerSecond(pending, BARE_WALL_NANOS);
        System.out.printf(Locale.ROOT, "k=%d: %d hosts, %d switches, %d links; %d incast + %d background flows "
                + "(%d started, %d completed); built in %.1f s%n", k, t.hosts().size(), t.switches().size(),
            t.links().size(), incast, flows.size() - incast, started, finished, build);
        System.out.printf(Locale.ROOT, "  %d us simulated in %.2f s wall (%.2f s CPU): %.0f simulated us per wall s; "
                + "%d events, %.2f M events per wall s, %.2f M per CPU s; %.1f Gb/s completed on average%n", us,
            wall, cpu, us / wall, events, events / wall / 1e6, events / cpu / 1e6, bytes * 8.0 / (us * 1e3));
        System.out.printf(Locale.ROOT, "  bare scheduler, %d pending: %.2f M events per wall s, %.2f M per CPU s; "
                + "ratio (per CPU s) %.3f; heap in use after the run %.0f MiB%n", pending, bare[0] / 1e6,
            bare[1] / 1e6, events / cpu / bare[1], heap / 1048576.0);
        var p = fabric.partition();
        String split = p == null ? "one scheduler (no LPs)"
            : String.format(Locale.ROOT, "%d LPs, lookahead %d ns, %d windows, %d messages between LPs", p.lpCount(),
                p.lookaheadNanos(), p.windows(), p.messages());
        System.out.printf(Locale.ROOT, "  threads %d: %s; %.3f us CPU per event, %.0f simulated us per wall s, "
                + "bare %.2f M events per CPU s%n", threads, split, cpu * 1e6 / events, us / wall, bare[1] / 1e6);
        if (first != null) {
            System.out.printf(Locale.ROOT, "  %d threads over %d: wall speed-up %.2f, CPU %.2f x; same events %s, "
                    + "same flow results %s%n", threads, first.threads(), first.wall() / wall, cpu / first.cpu(),
                events == first.events() ? "yes" : "NO (" + first.events() + ")",
                digest == first.digest() ? "yes" : "NO");
        }
        w.close();
        fabric.close();
        return new Result(threads, wall, cpu, events, digest);
    }

    /** The CPU time of the partitioned run's worker threads besides this one. */
    private static long helperCpu(ThreadMXBean mx, Fabric fabric) {
        long sum = 0;
        if (fabric.partition() != null) {
            for (long id : fabric.partition().helperThreadIds()) {
                sum += Math.max(0, mx.getThreadCpuTime(id));
            }
        }
        return sum;
    }

    /**
     * The incast (up to {@value #INCAST_SENDERS} hosts spread over the tree write to host 0 for the
     * whole run, 64 KB messages) and the background (Poisson web-search WRITEs between all hosts).
     */
    static List<Flow> flows(FatTree ft, long nanos, double load, long seed) {
        List<String> hosts = ft.topology().hosts().stream().map(Host::name).toList();
        List<Flow> flows = new ArrayList<>();
        int senders = Math.min(INCAST_SENDERS, hosts.size() - 1);
        int stride = Math.max(1, hosts.size() / (senders + 1));
        for (int j = 1; j <= senders; j++) {
            flows.add(Flow.builder("incast" + j, hosts.get(j * stride), hosts.get(0)).durationNanos(nanos).build());
        }
        flows.addAll(PoissonFlows.generate(ft.topology(), hosts, load, SizeDistribution.webSearch(), 0, nanos,
            Verb.WRITE, seed, "bg"));
        return flows;
    }

    private static long usedAfterGc(MemoryMXBean memory) {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
