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
 * Where a running fabric hurts, in a few words for a progress line: the ports that received the
 * most PFC frames since the last look (the ones their neighbours pause, as {@code show pfc counters}
 * Rx would grow) and the deepest egress queue now, e.g.
 * {@code paused leaf0:Ethernet0 p3 (412), spine1:Ethernet8 p3 (96); deepest leaf0:Ethernet0 q3 182 KB}.
 * Keeps the previous counts between looks: one per progress line.
 */
public final class Hotspots {
    /** Ports named at most. */
    static final int TOP = 3;

    private final Map<String, Long> lastRx = new HashMap<>();

    private record Paused(String port, int priority, long frames) {
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
                long most = 0;
                int prio = -1;
                for (int pr = 0; pr < 8; pr++) {
                    String key = port + "/" + pr;
                    long now = p.rxPfc[pr];
                    Long before = lastRx.put(key, now);
                    long d = now - (before == null ? 0 : before);
                    if (d > most) {
                        most = d;
                        prio = pr;
                    }
                }
                if (prio >= 0) {
                    paused.add(new Paused(port, prio, most));
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
        StringBuilder sb = new StringBuilder("paused ");
        if (paused.isEmpty()) {
            sb.append("none");
        }
        for (int i = 0; i < Math.min(TOP, paused.size()); i++) {
            Paused p = paused.get(i);
            sb.append(i == 0 ? "" : ", ").append(p.port).append(" p").append(p.priority)
                .append(" (").append(p.frames).append(')');
        }
        sb.append("; deepest ").append(deepest == null ? "none" : deepest + " " + kb(deepestBytes));
        return sb.toString();
    }

    private static String kb(long bytes) {
        return bytes < 10_000 ? bytes + " B" : String.format(Locale.ROOT, "%.0f KB", bytes / 1000.0);
    }
}
