package io.rocelab.lab.metrics;

import io.rocelab.sw.SwitchCounters;
import io.rocelab.sw.stats.PortCounters;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where a running fabric hurts, in a few words for a progress line: the ports whose PFC frames grew
 * most since the last look, sent ({@code tx}: the switch pauses the neighbour on that port, its
 * ingress is filling) or received ({@code rx}: the neighbour pauses the port), as
 * {@code show pfc counters} would grow, and the deepest egress queue now, e.g.
 * {@code PFC leaf0:Ethernet4 p3 tx 412, spine1:Ethernet8 p3 rx 96; deepest leaf0:Ethernet0 q3 182 KB}.
 * Keeps the previous counts between looks: one per progress line.
 */
public final class Hotspots {
    /** Ports named at most. */
    static final int TOP = 3;

    private final Map<String, Long> last = new HashMap<>();

    private record Paused(String port, int priority, String direction, long frames) {
    }

    /** @return the line's detail for {@code t}, or "" for a fabric with no switch */
    public String describe(Telemetry t) {
        List<Paused> paused = new ArrayList<>();
        String deepest = null;
        long deepestBytes = 0;
        for (SwitchTelemetry s : t.switches()) {
            SwitchCounters c = s.counters();
            for (int i = 0; i < c.ports().size(); i++) {
                String port = s.name() + ":" + c.portNames().get(i);
                PortCounters p = c.ports().get(i);
                for (int pr = 0; pr < 8; pr++) {
                    long tx = grown(port + "/tx/" + pr, p.txPfc[pr]);
                    long rx = grown(port + "/rx/" + pr, p.rxPfc[pr]);
                    if (tx > 0) {
                        paused.add(new Paused(port, pr, "tx", tx));
                    }
                    if (rx > 0) {
                        paused.add(new Paused(port, pr, "rx", rx));
                    }
                }
                long[] depth = s.ports().get(i).queueDepthBytes();
                for (int q = 0; q < depth.length; q++) {
                    if (depth[q] > deepestBytes) {
                        deepestBytes = depth[q];
                        deepest = port + " q" + q;
                    }
                }
            }
        }
        if (t.switches().isEmpty()) {
            return "";
        }
        paused.sort(Comparator.comparingLong(Paused::frames).reversed().thenComparing(Paused::port));
        StringBuilder sb = new StringBuilder("PFC ");
        if (paused.isEmpty()) {
            sb.append("none");
        }
        for (int i = 0; i < Math.min(TOP, paused.size()); i++) {
            Paused p = paused.get(i);
            sb.append(i == 0 ? "" : ", ").append(p.port).append(" p").append(p.priority).append(' ')
                .append(p.direction).append(' ').append(p.frames);
        }
        sb.append("; deepest ").append(deepest == null ? "none" : deepest + " " + kb(deepestBytes));
        return sb.toString();
    }

    /** @return how much {@code key}'s count grew since the last look */
    private long grown(String key, long now) {
        Long before = last.put(key, now);
        return now - (before == null ? 0 : before);
    }

    private static String kb(long bytes) {
        return bytes < 10_000 ? bytes + " B" : String.format(Locale.ROOT, "%.0f KB", bytes / 1000.0);
    }
}
