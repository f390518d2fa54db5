package io.rocelab.topology.bench;

import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.generate.FatTree;
import io.rocelab.topology.model.Topology;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * How long generating and building a k-ary fat tree takes, and how much heap the built fabric
 * holds: for k = 4, 8 and 16 (16 hosts / 20 switches up to 1,024 hosts / 320 switches), the
 * topology (generator, ECMP routes, QoS, validation) and then the virtual-time fabric (1,024 soft
 * NICs with a static neighbour for every other host, 320 soft switches, 3,072 links). Not a test:
 * run it by hand, e.g.
 *
 * <pre>
 * mvn -pl topology test-compile
 * java -cp topology/target/test-classes:$(cat cp.txt) io.rocelab.topology.bench.FatTreeBuildBench
 * </pre>
 *
 * (with {@code cp.txt} from {@code mvn -pl topology dependency:build-classpath -Dmdep.outputFile=cp.txt}).
 * Each size is built {@code runs} times (argument 1, default 3) after one warm-up; the best wall
 * time is printed beside the heap the topology and then the fabric hold (in use after a full GC,
 * less what was in use before).
 */
public final class FatTreeBuildBench {
    private FatTreeBuildBench() {
    }

    public static void main(String[] args) {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.out.printf("%4s %6s %8s %6s %12s %10s %16s %14s%n", "k", "hosts", "switches", "links",
            "topology ms", "fabric ms", "topology MiB", "fabric MiB");
        for (int k : new int[] {4, 8, 16}) {
            build(k);
            long bestTopology = Long.MAX_VALUE;
            long bestFabric = Long.MAX_VALUE;
            long topologyBytes = 0;
            long fabricBytes = 0;
            int[] size = new int[3];
            for (int r = 0; r < runs; r++) {
                long base = usedAfterGc(memory);
                long t0 = System.nanoTime();
                Topology t = FatTree.builder().k(k).linkGbps(100).propagationDelayNanos(1_000).build().topology();
                long t1 = System.nanoTime();
                long withTopology = usedAfterGc(memory);
                long t2 = System.nanoTime();
                Fabric f = Fabric.virtualTime(t, r);
                long t3 = System.nanoTime();
                long withFabric = usedAfterGc(memory);
                bestTopology = Math.min(bestTopology, t1 - t0);
                bestFabric = Math.min(bestFabric, t3 - t2);
                topologyBytes = withTopology - base;
                fabricBytes = withFabric - withTopology;
                size = new int[] {t.hosts().size(), t.switches().size(), t.links().size()};
                f.close();
            }
            System.out.printf("%4d %6d %8d %6d %12.1f %10.1f %16.1f %14.1f%n", k, size[0], size[1], size[2],
                bestTopology / 1e6, bestFabric / 1e6, topologyBytes / 1048576.0, fabricBytes / 1048576.0);
        }
    }

    private static void build(int k) {
        try (Fabric f = Fabric.virtualTime(FatTree.builder().k(k).build().topology(), 0)) {
            f.runFor(1_000);
        }
    }

    private static long usedAfterGc(MemoryMXBean memory) {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
