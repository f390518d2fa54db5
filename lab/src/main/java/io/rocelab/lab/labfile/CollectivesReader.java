package io.rocelab.lab.labfile;

import io.rocelab.topology.collective.Algorithm;
import io.rocelab.topology.collective.Collective;
import io.rocelab.topology.collective.CollectiveKind;
import io.rocelab.topology.model.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code collectives:}: AI training's collective operations as workloads beside the flows,
 * {@code {name, kind, algorithm, ranks, size, iterations, warmup, qps, chunk, window, start, dscp}}
 * ({@code labs/README.md}). {@code ranks} names hosts as a flow's {@code from} does (a list, a
 * pattern {@code h[0-7]}); {@code size} is the buffer per rank as nccl-tests' {@code -b} means it;
 * {@code warmup} is nccl-tests' {@code -w}; {@code qps} NCCL's {@code NCCL_IB_QPS_PER_CONNECTION}.
 */
final class CollectivesReader {
    static final String KEY = "collectives";

    private CollectivesReader() {
    }

    /**
     * @param duration  the run's duration (a collective must start before it)
     * @param notNics   hosts without a soft NIC (linux, rxe-vm): not ranks
     * @return the collectives in file order (mistakes reported)
     */
    static List<CollectiveSpec> read(Section top, Topology topology, long duration, Set<String> notNics) {
        List<CollectiveSpec> out = new ArrayList<>();
        List<YNode> items = top.list(KEY);
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < items.size(); i++) {
            String path = KEY + "[" + i + "]";
            Section c = Section.of(items.get(i), path, top.problems(), "name", "kind", "algorithm", "ranks", "size",
                "iterations", "warmup", "qps", "chunk", "window", "start", "dscp");
            if (c == null) {
                continue;
            }
            int mistakes = top.problems().reported();
            String name = c.text("name");
            if (name == null) {
                c.missing("name", "the collective's name, e.g. ar (claims say collective(\"ar\"))");
            } else if (!LabReader.NAME.matcher(name).matches()) {
                c.mistake("name", "lower-case letters, digits and '-' only: '" + name + "'");
            } else if (!names.add(name)) {
                c.mistake("name", "the name '" + name + "' is used twice");
            }
            String kindText = c.text("kind");
            CollectiveKind kind = kindText == null ? null : CollectiveKind.of(kindText);
            if (kindText == null) {
                c.missing("kind", "all-reduce, all-gather, reduce-scatter or all-to-all");
            } else if (kind == null) {
                c.mistake("kind", "no kind '" + kindText + "' (known: " + String.join(", ",
                    Arrays.stream(CollectiveKind.values()).map(CollectiveKind::label).toList()) + ")");
            }
            String algoText = c.string("algorithm", "ring");
            Algorithm algorithm = Algorithm.of(algoText);
            if (algorithm == null) {
                c.mistake("algorithm", "no algorithm '" + algoText + "' (known: ring, halving-doubling)");
            }
            if (!c.has("ranks")) {
                c.missing("ranks", "the hosts taking part, in ring order: a list or a pattern, e.g. h[0-7]");
            }
            if (!c.has("size")) {
                c.missing("size", "the buffer per rank, as nccl-tests' -b, e.g. 4MiB");
            }
            long size = c.bytes("size", 1 << 20);
            int iterations = (int) c.integer("iterations", 1, 1, 100_000);
            int warmup = (int) c.integer("warmup", 0, 0, 100_000);
            int qps = (int) c.integer("qps", Collective.DEFAULT_QPS, 1, Collective.MAX_QPS);
            long chunk = c.bytes("chunk", Collective.DEFAULT_CHUNK);
            if (chunk < 1 || chunk > Collective.MAX_CHUNK) {
                c.mistake("chunk", "a work request of 1 B to 1 MiB, not " + chunk + " B");
            }
            int window = (int) c.integer("window", Collective.DEFAULT_WINDOW, 1, Collective.MAX_WINDOW);
            long start = c.time("start", 0);
            if (duration > 0 && start >= duration) {
                c.mistake("start", "starts at " + Quantity.formatNanos(start) + ", when the run is over (duration "
                    + Quantity.formatNanos(duration) + ")");
            }
            int dscp = (int) c.integer("dscp", -1, 0, 63);
            if (topology == null || !c.has("ranks")) {
                continue;
            }
            List<String> ranks = TopologyRefs.hosts(c, "ranks", topology);
            for (String h : ranks) {
                if (notNics.contains(h)) {
                    c.mistake("ranks", "host '" + h + "' has no soft NIC (kind linux or rxe-vm): ranks are nic hosts");
                    break;
                }
            }
            if (top.problems().reported() > mistakes || kind == null || algorithm == null || name == null) {
                continue;
            }
            List<String> wrong = Collective.problems(kind, algorithm, ranks, size, iterations, warmup, qps,
                (int) chunk, window, start, dscp);
            if (!wrong.isEmpty()) {
                c.mistake(wrong.get(0).startsWith("size") ? "size" : wrong.get(0).startsWith("halving") ? "algorithm"
                    : "ranks", String.join("; ", wrong));
                continue;
            }
            out.add(new CollectiveSpec(new Collective(name, kind, algorithm, ranks, size, iterations, warmup, qps,
                (int) chunk, window, start, dscp), c.map().loc(), path));
        }
        return out;
    }
}
