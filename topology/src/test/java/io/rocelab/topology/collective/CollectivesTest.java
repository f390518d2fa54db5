package io.rocelab.topology.collective;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.sw.config.SwitchConfigBuilder;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.generate.FatTree;
import io.rocelab.topology.generate.LeafSpine;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.model.Topology;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Collectives on generated fabrics in virtual time: what each rank puts on the wire, that the times
 * obey the line rate and the algorithm's dependencies, and that a seed decides everything.
 */
class CollectivesTest {
    private static final long MS = 1_000_000;
    private static final double LINE = 100e9;

    private static Topology leafSpine(int leaves, int hostsPerLeaf) {
        return LeafSpine.builder().leaves(leaves).spines(2).hostsPerLeaf(hostsPerLeaf).build().topology();
    }

    private static List<String> hosts(int n) {
        List<String> h = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            h.add("h" + i);
        }
        return h;
    }

    static Collective collective(String name, CollectiveKind kind, Algorithm algo, int n, long size, int iterations) {
        return new Collective(name, kind, algo, hosts(n), size, iterations, 1, 1, 64 * 1024, 8, 0, -1);
    }

    private static List<CollectiveResult> run(Topology t, List<Collective> cs, long seed, long max) {
        try (Fabric f = Fabric.virtualTime(t, seed)) {
            Collectives c = Collectives.start(f, cs, seed);
            assertTrue(f.runUntil(c::finished, max), "the collectives finished within " + max + " ns");
            List<CollectiveResult> r = c.results();
            c.close();
            return r;
        }
    }

    /**
     * A ring all-reduce of 1 MiB on 4 ranks: every iteration finishes, and its time is at least what
     * the wire needs for 2(n-1)/n of the buffer at 100 Gb/s (busbw cannot beat the line rate) and no
     * more than twice that (an uncongested fabric: the pieces pipeline through the ring).
     */
    @Test
    void ringAllReduceRunsNearTheLineRate() {
        Collective ar = collective("ar", CollectiveKind.ALL_REDUCE, Algorithm.RING, 4, 1 << 20, 3);
        CollectiveResult r = run(leafSpine(2, 2), List.of(ar), 1, 50 * MS).get(0);
        assertTrue(r.finished(), r.toString());
        assertEquals(3, r.timed().size());
        assertEquals(4, r.iterations().size(), "a warm-up iteration, then three");
        assertEquals(0, r.errors());
        double busbw = r.busBwBitsPerSecond();
        assertTrue(busbw < LINE, "busbw " + busbw + " below the line rate");
        assertTrue(busbw > 0.5 * LINE, "busbw " + busbw + " above half the line rate");
        assertEquals(r.algBwBitsPerSecond() * 2 * 3 / 4, busbw, 1e-6 * busbw, "nccl-tests' factor 2(n-1)/n");
        for (IterationResult i : r.iterations()) {
            assertTrue(i.slowestStep() >= 0 && i.slowestStep() < 6, "a step of 2(n-1)");
            assertTrue(i.slowestStepNanos() > 0 && i.slowestStepNanos() <= i.timeNanos());
        }
        // back to back: each iteration starts when the one before ended
        for (int k = 1; k < r.iterations().size(); k++) {
            assertEquals(r.iterations().get(k - 1).endNanos(), r.iterations().get(k).startNanos());
        }
    }

    /**
     * What each rank sends is the algorithm's: a ring all-reduce sends 2(n-1)/n of the buffer per
     * rank, all-gather and reduce-scatter (n-1)/n, all-to-all (n-1)/n: the NICs' transmitted
     * payload is at least that, and less than that plus the headers and ACKs (10 %).
     */
    @Test
    void eachKindMovesItsBytes() {
        long size = 512 * 1024;
        int n = 4;
        for (Object[] k : new Object[][] {{CollectiveKind.ALL_REDUCE, Algorithm.RING, 2.0 * (n - 1) / n},
            {CollectiveKind.ALL_GATHER, Algorithm.RING, (n - 1.0) / n},
            {CollectiveKind.REDUCE_SCATTER, Algorithm.RING, (n - 1.0) / n},
            {CollectiveKind.ALL_TO_ALL, Algorithm.RING, (n - 1.0) / n},
            {CollectiveKind.ALL_REDUCE, Algorithm.HALVING_DOUBLING, 2.0 * (n - 1) / n}}) {
            Collective c = new Collective("c", (CollectiveKind) k[0], (Algorithm) k[1], hosts(n), size, 1, 0, 1,
                16 * 1024, 8, 0, -1);
            try (Fabric f = Fabric.virtualTime(leafSpine(2, 2), 3)) {
                Collectives engine = Collectives.start(f, List.of(c), 3);
                assertTrue(f.runUntil(engine::finished, 50 * MS), k[0] + " " + k[1] + " finished");
                double want = size * (double) k[2];
                for (String h : hosts(n)) {
                    long tx = f.nic(h).port(1).transmitter().bytesSent();
                    assertTrue(tx >= want && tx < want * 1.1, k[0] + " " + k[1] + " " + h + " sent " + tx
                        + " for " + want + " of payload");
                }
                CollectiveResult r = engine.results().get(0);
                assertTrue(r.busBwBitsPerSecond() < LINE && r.busBwBitsPerSecond() > 0.3 * LINE, r.toString());
                engine.close();
            }
        }
    }

    /** The same fabric, collectives and seed give the same iteration times, bit for bit; the ranks on 4 leaves. */
    @Test
    void aSeedDecidesEverything() {
        List<Collective> cs = List.of(collective("ar", CollectiveKind.ALL_REDUCE, Algorithm.RING, 8, 1 << 20, 2),
            collective("a2a", CollectiveKind.ALL_TO_ALL, Algorithm.RING, 8, 1 << 20, 2));
        List<CollectiveResult> a = run(leafSpine(4, 2), cs, 5, 100 * MS);
        List<CollectiveResult> b = run(leafSpine(4, 2), cs, 5, 100 * MS);
        for (int i = 0; i < a.size(); i++) {
            assertEquals(a.get(i).iterations(), b.get(i).iterations());
        }
    }

    /** A k=4 fat tree's 16 hosts run a 16-rank ring all-reduce (the fabric of the adaptive-routing labs). */
    @Test
    void sixteenRanksOnAFatTree() {
        Topology t = FatTree.builder().k(4).build().topology();
        List<String> ranks = t.hosts().stream().map(h -> h.name()).toList();
        assertEquals(16, ranks.size());
        Collective ar = new Collective("ar", CollectiveKind.ALL_REDUCE, Algorithm.RING, ranks, 4 << 20, 2, 0, 1,
            64 * 1024, 8, 0, -1);
        long wall = System.nanoTime();
        CollectiveResult r = run(t, List.of(ar), 1, 100 * MS).get(0);
        assertTrue(r.finished(), r.toString());
        assertTrue(r.busBwBitsPerSecond() < LINE, r.toString());
        System.out.println("16-rank ring all-reduce of 4 MiB x 2 on a k=4 fat tree: " + r + ", wall "
            + (System.nanoTime() - wall) / 1e9 + " s");
    }

    /**
     * Four hosts on one switch, h1's link at 25 Gb/s. The ring's dependencies pace every rank at
     * the slowest link: rank 3, whose own links are 100 Gb/s, cannot forward what has not come round
     * yet, so it finishes more than 3 times later than its own links would let it, one share's time
     * at 25 Gb/s before the last rank (its last share left rank 1 a step before the last rank's);
     * the iteration takes at least what 2(n-1)/n of the buffer takes at 25 Gb/s.
     */
    @Test
    void theRingIsPacedByItsSlowestLink() {
        SwitchConfigBuilder sw = new SwitchConfigBuilder().hostname("s").mac(0x02_00_00_00_f0_01L).ecmpHashSeed(1);
        Topology.Builder t = Topology.builder().qos("lossless");
        for (int i = 0; i < 4; i++) {
            sw.port("Ethernet" + 4 * i, i == 1 ? 25_000 : 100_000, 9100);
            t.host(Host.builder("h" + i).mac("02:00:00:00:00:1" + i).ipv4("10.0.0.1" + i).build());
        }
        t.switchNode("s", sw);
        for (int i = 0; i < 4; i++) {
            t.link(Link.between("h" + i + ":eth0", "s:Ethernet" + 4 * i).speedGbps(i == 1 ? 25 : 100).build());
        }
        long size = 1 << 20;
        Collective ar = new Collective("ar", CollectiveKind.ALL_REDUCE, Algorithm.RING, hosts(4), size, 1, 0, 1,
            64 * 1024, 8, 0, -1);
        CollectiveResult r = run(t.build(), List.of(ar), 1, 50 * MS).get(0);
        IterationResult it = r.timed().get(0);
        double bound = 2.0 * 3 / 4 * size * 8 / 25e9 * 1e9;
        assertTrue(it.timeNanos() >= bound, it.timeNanos() + " ns at least the 25 Gb/s bound " + bound);
        double share = size / 4.0 * 8 / 25e9 * 1e9;
        for (int k = 0; k < 4; k++) {
            assertTrue(it.rankEndNanos().get(k) >= it.endNanos() - 1.1 * share, "rank " + k + " ends within a 25 Gb/s"
                + " share's time of the last: " + it);
        }
        double own = 2.0 * 3 / 4 * size * 8 / 100e9 * 1e9;
        assertTrue(it.rankEndNanos().get(3) > 3 * own, "rank 3 waits for the ring, not its own links: " + it);
        assertEquals(it.endNanos(), (long) java.util.Collections.max(it.rankEndNanos()));
    }

    @Test
    void badCollectivesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Collective("x", CollectiveKind.ALL_GATHER,
            Algorithm.HALVING_DOUBLING, hosts(4), 1 << 20, 1, 0, 1, 65536, 8, 0, -1));
        assertThrows(IllegalArgumentException.class, () -> new Collective("x", CollectiveKind.ALL_REDUCE,
            Algorithm.HALVING_DOUBLING, hosts(6), 1 << 20, 1, 0, 1, 65536, 8, 0, -1));
        assertThrows(IllegalArgumentException.class, () -> new Collective("x", CollectiveKind.ALL_REDUCE,
            Algorithm.RING, List.of("h0"), 1 << 20, 1, 0, 1, 65536, 8, 0, -1));
        try (Fabric f = Fabric.virtualTime(leafSpine(2, 2), 1)) {
            assertThrows(IllegalArgumentException.class, () -> Collectives.start(f, List.of(new Collective("x",
                CollectiveKind.ALL_REDUCE, Algorithm.RING, List.of("h0", "nope"), 1 << 20, 1, 0, 1, 65536, 8, 0, -1)),
                1));
        }
    }
}
