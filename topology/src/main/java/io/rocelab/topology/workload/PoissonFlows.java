package io.rocelab.topology.workload;

import io.rocelab.fabric.random.SplitMix64;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.model.Topology;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Background traffic as in the HPCC/ns-3 traffic generator: every host of a set starts flows as a
 * Poisson process, each to a destination drawn uniformly from the other hosts of the set, with a
 * size drawn from a distribution, at a mean rate that offers {@code load} of the host's link rate:
 * flows per second = load x link rate / (8 x mean size).
 *
 * <p>Each flow is one message of its drawn size (fixed in the flow, so the offered load can be
 * read off the list before the run), one QP with a window of {@value #WINDOW} work requests, and
 * {@linkplain Flow#onDemand() on demand}: its QPs exist only while it runs, so a long run does not
 * accumulate them.
 */
public final class PoissonFlows {
    /** Work requests outstanding per flow (with 256 KB work requests, 2 MB in flight: more than a 100 Gb/s fabric's BDP). */
    public static final int WINDOW = 8;

    private PoissonFlows() {
    }

    /**
     * @param topology   the fabric (for the hosts' link rates)
     * @param hosts      the hosts that send and receive, at least two, each once
     * @param load       the offered load per source, a fraction of its link rate, {@code > 0}
     * @param sizes      flow sizes
     * @param startNanos when arrivals begin
     * @param endNanos   no flow starts at or after this
     * @param verb       the flows' verb
     * @param seed       arrivals, destinations and sizes all derive from it
     * @param namePrefix flows are called prefix + a number, in start order ({@code bg0}, {@code bg1}, ...)
     * @return the flows, in start order (ties in the order of {@code hosts})
     * @throws IllegalArgumentException for an unknown or repeated host, fewer than two hosts, a load
     *                                  that is not positive, or an empty interval
     */
    public static List<Flow> generate(Topology topology, List<String> hosts, double load, SizeDistribution sizes,
                                      long startNanos, long endNanos, Verb verb, long seed, String namePrefix) {
        if (hosts.size() < 2) {
            throw new IllegalArgumentException("poisson flows need at least two hosts, not " + hosts.size());
        }
        if (!(load > 0) || Double.isInfinite(load)) {
            throw new IllegalArgumentException("poisson flows: load must be > 0 (a fraction of the link rate), not "
                + load);
        }
        if (startNanos < 0 || endNanos <= startNanos) {
            throw new IllegalArgumentException("poisson flows: need 0 <= start < end, not " + startNanos + " .. "
                + endNanos);
        }
        java.util.Objects.requireNonNull(sizes, "sizes");
        java.util.Objects.requireNonNull(verb, "verb");
        java.util.Objects.requireNonNull(namePrefix, "namePrefix");
        if (new java.util.HashSet<>(hosts).size() != hosts.size()) {
            throw new IllegalArgumentException("poisson flows: a host is listed twice in " + hosts);
        }
        record Arrival(long at, int host, int dest, long bytes) {
        }
        List<Arrival> arrivals = new ArrayList<>();
        for (int i = 0; i < hosts.size(); i++) {
            Host h = topology.host(hosts.get(i));
            Link l = topology.linkAt(h.port());
            long rate = l != null ? l.speedBitsPerSecond() : h.linkSpeedBitsPerSecond();
            if (rate <= 0) {
                throw new IllegalArgumentException("poisson flows: host '" + h.name() + "' has no link speed");
            }
            double flowsPerNano = load * rate / (8 * sizes.meanBytes()) / 1e9;
            SplitMix64 random = new SplitMix64(SplitMix64.derive(seed, i));
            double t = startNanos;
            while (true) {
                t += -Math.log(1 - random.nextDouble()) / flowsPerNano;
                if (t >= endNanos) {
                    break;
                }
                int d = random.nextInt(hosts.size() - 1);
                if (d >= i) {
                    d++;
                }
                arrivals.add(new Arrival((long) t, i, d, sizes.sample(random)));
            }
        }
        arrivals.sort(Comparator.comparingLong(Arrival::at).thenComparingInt(Arrival::host));
        List<Flow> flows = new ArrayList<>(arrivals.size());
        int n = 0;
        for (Arrival a : arrivals) {
            flows.add(Flow.builder(namePrefix + n++, hosts.get(a.host), hosts.get(a.dest)).verb(verb)
                .messageBytes(a.bytes).messages(1).window(WINDOW).startNanos(a.at).onDemand(true).build());
        }
        return flows;
    }

    /** @return the bytes the flows offer, over all of them */
    public static long offeredBytes(List<Flow> flows) {
        long n = 0;
        for (Flow f : flows) {
            n += f.size().maxBytes() * Math.max(1, f.messages());
        }
        return n;
    }
}
