package io.rocelab.lab.labfile;

import io.rocelab.topology.model.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code background:}: Poisson load, one-message flows between random pairs of {@code hosts} (all
 * of them unless named) at a {@code load}, a fraction of each host's link rate, with fixed sizes or
 * sizes from a CDF file. The flows are drawn when the run starts, from its seed.
 */
final class BackgroundReader {
    private BackgroundReader() {
    }

    /**
     * @param duration  the run's duration (the load stops there unless it stops before)
     * @param sizeFiles where the size CDFs are read
     * @return the loads in file order (mistakes reported)
     */
    static List<BackgroundSpec> read(Section top, Topology topology, long duration, SizeFiles sizeFiles) {
        List<BackgroundSpec> out = new ArrayList<>();
        List<YNode> items = top.list("background");
        for (int i = 0; i < items.size(); i++) {
            String path = "background[" + i + "]";
            Section b = Section.of(items.get(i), path, top.problems(), "name", "hosts", "load", "size", "size-cdf", "verb",
                "start", "stop");
            if (b == null) {
                continue;
            }
            if (!b.has("load")) {
                b.missing("load", "the offered load, a fraction of each host's link rate, e.g. 30%");
            }
            double load = b.fraction("load", 0.3);
            String verb = b.string("verb", "write").toLowerCase(Locale.ROOT);
            if (!FlowsReader.VERBS.contains(verb)) {
                b.mistake("verb", "no verb '" + verb + "' (known: " + String.join(", ", FlowsReader.VERBS) + ")");
            }
            String cdf = b.text("size-cdf");
            long size = cdf == null ? b.bytes("size", 65_536) : 0;
            if (cdf != null) {
                sizeFiles.cdf(b, "size-cdf", cdf);
            }
            long start = b.time("start", 0);
            long stop = b.has("stop") ? b.time("stop", duration) : duration;
            if (topology == null) {
                continue;
            }
            List<String> hosts = b.has("hosts") ? TopologyRefs.hosts(b, "hosts", topology)
                : TopologyRefs.hostNames(topology);
            if (hosts.size() < 2 && b.has("hosts")) {
                b.mistake("hosts", "background load needs at least two hosts");
            }
            out.add(new BackgroundSpec(b.string("name", "bg" + i), hosts, load, size, cdf, verb, start, stop,
                b.map().loc(), path));
        }
        return out;
    }
}
