package io.rocelab.topology.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.topology.generate.LeafSpine;
import io.rocelab.topology.model.Topology;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Poisson background flows offer the load asked for, between the hosts given, reproducibly. */
class PoissonFlowsTest {
    private static final Topology FABRIC = LeafSpine.builder().leaves(2).hostsPerLeaf(4).build().topology();
    private static final List<String> HOSTS = List.of("h0", "h1", "h2", "h3", "h4", "h5", "h6", "h7");

    /**
     * 30 % of eight 100 Gb/s hosts for 100 ms with 1 MB flows: 3,750 flows a host, 30,000 in all, a
     * Poisson count whose relative standard deviation is 1/sqrt(30,000) = 0.6 %; the offered load
     * lands within 3 % (5 standard deviations), each host's count within 5 of its own.
     */
    @Test
    void theOfferedLoadIsTheLoadAskedFor() {
        long start = 1_000_000;
        long end = start + 100_000_000;
        List<Flow> flows = PoissonFlows.generate(FABRIC, HOSTS, 0.3, SizeDistribution.fixed(1_000_000), start, end,
            Verb.WRITE, 11, "bg");
        double offered = PoissonFlows.offeredBytes(flows) * 8.0 / ((end - start) / 1e9) / (HOSTS.size() * 100e9);
        assertEquals(0.3, offered, 0.3 * 0.03, "offered load");
        Map<String, Integer> perSource = new HashMap<>();
        long last = 0;
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            assertEquals("bg" + i, f.name());
            assertNotEquals(f.source(), f.destination());
            assertTrue(HOSTS.contains(f.destination()));
            assertTrue(f.startNanos() >= start && f.startNanos() < end);
            assertTrue(f.startNanos() >= last, "in start order");
            last = f.startNanos();
            assertEquals(1, f.messages());
            assertTrue(f.onDemand(), "QPs only while it runs");
            perSource.merge(f.source(), 1, Integer::sum);
        }
        double perHost = 0.3 * 100e9 / 8 / 1_000_000 * 0.1;
        for (String h : HOSTS) {
            // a Poisson count of mean 3,750 has a standard deviation of ~61
            assertEquals(perHost, perSource.get(h), 5 * Math.sqrt(perHost), h + "'s flows");
        }
    }

    /**
     * Web-search sizes spread the bytes: E[X^2] is about 6.3 x mean^2, so the offered bytes of N
     * flows (a compound Poisson sum) have a relative standard deviation of sqrt(6.3 / N). Over 1 s
     * of eight hosts at 30 %, N is about 17,500 and that is 1.9 %: the load lands within 10 %.
     */
    @Test
    void webSearchSizesOfferTheLoadOverALongerRun() {
        List<Flow> flows = PoissonFlows.generate(FABRIC, HOSTS, 0.3, SizeDistribution.webSearch(), 0, 1_000_000_000,
            Verb.WRITE, 11, "bg");
        double offered = PoissonFlows.offeredBytes(flows) * 8.0 / 1.0 / (HOSTS.size() * 100e9);
        assertEquals(0.3, offered, 0.3 * 0.10, "offered load");
        double expectedFlows = HOSTS.size() * 0.3 * 100e9 / 8 / SizeDistribution.webSearch().meanBytes();
        assertEquals(expectedFlows, flows.size(), 5 * Math.sqrt(expectedFlows), "flows started");
    }

    @Test
    void theSameSeedGivesTheSameFlows() {
        SizeDistribution sizes = SizeDistribution.webSearch();
        List<Flow> a = PoissonFlows.generate(FABRIC, HOSTS, 0.5, sizes, 0, 10_000_000, Verb.SEND, 5, "p");
        List<Flow> b = PoissonFlows.generate(FABRIC, HOSTS, 0.5, sizes, 0, 10_000_000, Verb.SEND, 5, "p");
        List<Flow> c = PoissonFlows.generate(FABRIC, HOSTS, 0.5, sizes, 0, 10_000_000, Verb.SEND, 6, "p");
        assertEquals(a, b);
        assertNotEquals(a, c);
    }

    @Test
    void badArgumentsAreNamed() {
        SizeDistribution s = SizeDistribution.fixed(1000);
        assertEquals("poisson flows need at least two hosts, not 1", assertThrows(IllegalArgumentException.class,
            () -> PoissonFlows.generate(FABRIC, List.of("h0"), 0.3, s, 0, 10, Verb.WRITE, 1, "x")).getMessage());
        assertEquals("poisson flows: load must be > 0 (a fraction of the link rate), not 0.0",
            assertThrows(IllegalArgumentException.class,
                () -> PoissonFlows.generate(FABRIC, HOSTS, 0, s, 0, 10, Verb.WRITE, 1, "x")).getMessage());
        assertEquals("no host 'h99' in the topology", assertThrows(IllegalArgumentException.class,
            () -> PoissonFlows.generate(FABRIC, List.of("h0", "h99"), 0.3, s, 0, 10, Verb.WRITE, 1, "x")).getMessage());
        assertEquals("poisson flows: need 0 <= start < end, not 10 .. 10", assertThrows(IllegalArgumentException.class,
            () -> PoissonFlows.generate(FABRIC, HOSTS, 0.3, s, 10, 10, Verb.WRITE, 1, "x")).getMessage());
    }
}
