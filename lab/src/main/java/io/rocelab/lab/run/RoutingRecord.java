package io.rocelab.lab.run;

import io.rocelab.lab.expect.Kind;
import io.rocelab.lab.labfile.Quantity;
import io.rocelab.sw.RoutingViews;
import io.rocelab.sw.SoftSwitch;
import io.rocelab.sw.routing.BgpSession;
import io.rocelab.sw.routing.BgpSpeaker;
import io.rocelab.sw.routing.RouteChange;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.model.SwitchNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run's routing control plane: before the workload starts, the fabric runs until every eBGP
 * speaker has settled (sessions Established, BFD Up, nothing being processed or waiting to be sent,
 * and no route changed for a settling time), so that time 0 of the lab is a converged fabric; at the
 * end, each switch's route changes during the run become its totals and the report's routing timeline,
 * followed by each switch's {@code show ip route} (small fabrics).
 * A fabric of static routes has nothing to wait for and nothing to report.
 */
final class RoutingRecord implements AutoCloseable {
    /** No route change for this long (after every speaker says it has settled): converged. */
    static final long SETTLE_NANOS = 1_000_000L;
    /** A fabric that has not converged in this long of its own time is reported, and the run goes on. */
    static final long MAX_CONVERGENCE_NANOS = 30_000_000_000L;
    /** The report lists at most this many route changes per run. */
    static final int MAX_LISTED = 200;
    /** The report shows each switch's routes at the end for fabrics of at most this many speakers. */
    static final int MAX_TABLES = 8;

    private final List<String> speakers;
    private final long startNanos;
    private final long convergedNanos;
    private final long lastChangeNanos;
    private final boolean converged;

    private RoutingRecord(List<String> speakers, long startNanos, long convergedNanos, long lastChangeNanos,
                          boolean converged) {
        this.speakers = speakers;
        this.startNanos = startNanos;
        this.convergedNanos = convergedNanos;
        this.lastChangeNanos = lastChangeNanos;
        this.converged = converged;
    }

    /** Runs {@code fabric} until its routing has converged (at once without BGP). */
    static RoutingRecord converge(RunClock clock, Fabric fabric) {
        List<String> speakers = new ArrayList<>();
        for (SwitchNode s : fabric.topology().switches()) {
            if (s.config().bgp() != null) {
                speakers.add(s.name());
            }
        }
        long start = clock.onFabric(fabric, () -> fabric.scheduler(speakers.isEmpty()
            ? fabric.topology().switches().isEmpty() ? fabric.topology().hosts().get(0).name()
            : fabric.topology().switches().get(0).name() : speakers.get(0)).nanoTime());
        if (speakers.isEmpty()) {
            return new RoutingRecord(speakers, start, start, -1, true);
        }
        boolean done = false;
        long now = start;
        long changes = -1;
        while (now - start < MAX_CONVERGENCE_NANOS) {
            clock.runUntil(fabric, () -> settled(fabric, speakers), start + MAX_CONVERGENCE_NANOS);
            long before = clock.onFabric(fabric, () -> changeCount(fabric, speakers));
            now = clock.onFabric(fabric, () -> fabric.scheduler(speakers.get(0)).nanoTime());
            clock.runUntil(fabric, now + SETTLE_NANOS);
            long after = clock.onFabric(fabric, () -> changeCount(fabric, speakers));
            now = clock.onFabric(fabric, () -> fabric.scheduler(speakers.get(0)).nanoTime());
            if (after == before && clock.onFabric(fabric, () -> settled(fabric, speakers))) {
                done = true;
                changes = after;
                break;
            }
        }
        long last = clock.onFabric(fabric, () -> {
            long l = -1;
            for (String s : speakers) {
                l = Math.max(l, fabric.softSwitch(s).bgp().lastChangeNanos());
            }
            return l;
        });
        return new RoutingRecord(speakers, start, now, last, done && changes >= 0);
    }

    private static boolean settled(Fabric fabric, List<String> speakers) {
        for (String s : speakers) {
            if (!fabric.softSwitch(s).bgp().converged()) {
                return false;
            }
        }
        return true;
    }

    private static long changeCount(Fabric fabric, List<String> speakers) {
        long n = 0;
        for (String s : speakers) {
            n += fabric.softSwitch(s).bgp().changes().size();
        }
        return n;
    }

    /**
     * Records each switch's routing totals of the run (changes from {@code epochNanos} on): {@code
     * route_changes}, {@code route_withdrawals} (a route removed or left with fewer next hops),
     * {@code bgp_session_downs}, {@code last_route_change} (seconds from the run's start, 0 if none).
     * Call on the fabric.
     *
     * @return the report's lines
     */
    List<String> finish(Fabric fabric, RunData data, long epochNanos) {
        List<String> lines = new ArrayList<>();
        if (speakers.isEmpty()) {
            for (String s : data.names(Kind.SWITCH)) {
                data.total(Kind.SWITCH, s, "route_changes", 0);
                data.total(Kind.SWITCH, s, "route_withdrawals", 0);
                data.total(Kind.SWITCH, s, "bgp_session_downs", 0);
                data.total(Kind.SWITCH, s, "last_route_change", 0);
                data.total(Kind.SWITCH, s, "bgp_retransmissions", 0);
            }
            return lines;
        }
        StringBuilder md = new StringBuilder("### Routing\n\n");
        md.append(converged
            ? "eBGP converged before the workload started: the last route was programmed "
                + Quantity.formatNanos(Math.max(0, lastChangeNanos - startNanos)) + " after the fabric came up (time 0 is "
                + Quantity.formatNanos(convergedNanos - startNanos) + " after it).\n\n"
            : "eBGP had not converged " + Quantity.formatNanos(convergedNanos - startNanos)
                + " after the fabric came up; the workload started anyway.\n\n");
        Map<String, List<RouteChange>> during = new LinkedHashMap<>();
        for (String s : data.names(Kind.SWITCH)) {
            SoftSwitch sw = fabric.softSwitch(s);
            BgpSpeaker bgp = sw.bgp();
            List<RouteChange> mine = new ArrayList<>();
            long withdrawals = 0;
            long downs = 0;
            long resent = 0;
            if (bgp != null) {
                Map<io.rocelab.codec.routing.RoutePrefix, Integer> hops = new LinkedHashMap<>();
                for (RouteChange c : bgp.changes()) {
                    int before = hops.getOrDefault(c.prefix(), 0);
                    if (c.nanos() >= epochNanos) {
                        mine.add(c);
                        if (c.nextHops().size() < before) {
                            withdrawals++;
                        }
                    }
                    hops.put(c.prefix(), c.nextHops().size());
                }
                for (BgpSession session : bgp.sessions()) {
                    downs += session.drops();
                    resent += session.retransmissions();
                }
            }
            during.put(s, mine);
            data.total(Kind.SWITCH, s, "route_changes", mine.size());
            data.total(Kind.SWITCH, s, "route_withdrawals", withdrawals);
            data.total(Kind.SWITCH, s, "bgp_session_downs", downs);
            data.total(Kind.SWITCH, s, "bgp_retransmissions", resent);
            data.total(Kind.SWITCH, s, "last_route_change",
                mine.isEmpty() ? 0 : (mine.get(mine.size() - 1).nanos() - epochNanos) / 1e9);
        }
        List<String[]> rows = new ArrayList<>();
        during.forEach((s, cs) -> cs.forEach(c -> rows.add(new String[] {String.valueOf(c.nanos()), s,
            c.prefix().toString(), c.withdrawn() ? "(removed)" : String.join(", ", c.nextHops())})));
        rows.sort((a, b) -> Long.compare(Long.parseLong(a[0]), Long.parseLong(b[0])));
        if (rows.isEmpty()) {
            md.append("No route changed during the run.\n");
        } else {
            md.append("Route changes during the run (time from its start, switch, prefix, next hops now):\n\n");
            md.append("| time | switch | prefix | next hops |\n|---|---|---|---|\n");
            for (int i = 0; i < Math.min(rows.size(), MAX_LISTED); i++) {
                String[] r = rows.get(i);
                md.append("| ").append(Quantity.formatNanos(Long.parseLong(r[0]) - epochNanos)).append(" | ")
                    .append(r[1]).append(" | ").append(r[2]).append(" | ").append(r[3]).append(" |\n");
            }
            if (rows.size() > MAX_LISTED) {
                md.append("\n(").append(rows.size() - MAX_LISTED).append(" more not listed)\n");
            }
        }
        if (speakers.size() <= MAX_TABLES) {
            md.append("\nRoutes at the end of the run (`show ip route`, FRR's codes):\n");
            for (String s : speakers) {
                String table = RoutingViews.ipRoute(fabric.softSwitch(s));
                md.append("\n").append(s).append(":\n\n```\n")
                    .append(table.substring(table.indexOf(System.lineSeparator() + System.lineSeparator()) + 2))
                    .append("```\n");
            }
        }
        long last = rows.isEmpty() ? -1 : Long.parseLong(rows.get(rows.size() - 1)[0]) - epochNanos;
        lines.add("routing: eBGP " + (converged ? "converged " + Quantity.formatNanos(Math.max(0, lastChangeNanos
            - startNanos)) + " after the fabric came up" : "had not converged when the workload started") + "; "
            + rows.size() + " route change" + (rows.size() == 1 ? "" : "s") + " during the run"
            + (last < 0 ? "" : ", the last at " + Quantity.formatNanos(last)));
        lines.add(md.toString().stripTrailing());
        return lines;
    }

    /** @return whether the routing had converged when the workload started */
    boolean converged() {
        return converged;
    }

    @Override
    public void close() {
    }
}
