package io.rocelab.sw;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.routing.Ipv4Prefix;
import io.rocelab.codec.routing.Ipv6Prefix;
import io.rocelab.codec.routing.RoutePrefix;
import io.rocelab.sw.config.BgpConfig;
import io.rocelab.sw.config.Route6Config;
import io.rocelab.sw.config.RouteConfig;
import io.rocelab.sw.routing.BgpSession;
import io.rocelab.sw.routing.BgpSpeaker;
import io.rocelab.sw.routing.RouteChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * FRR's {@code show ip route} and SONiC's {@code show ip bgp summary} of a switch, as their text
 * reads (codes, {@code [distance/metric]}, {@code via}, the route's age; the summary's header and
 * neighbour table). Call on the switch's owner thread.
 */
public final class RoutingViews {
    private static final String NL = System.lineSeparator();
    private static final String CODES = "Codes: K - kernel route, C - connected, S - static, R - RIP," + NL
        + "       O - OSPF, I - IS-IS, B - BGP, E - EIGRP, N - NHRP," + NL
        + "       T - Table, v - VNC, V - VNC-Direct, A - Babel, F - PBR," + NL
        + "       f - OpenFabric," + NL
        + "       > - selected route, * - FIB route, q - queued, r - rejected, b - backup" + NL
        + "       t - trapped, o - offload failure" + NL + NL;

    private RoutingViews() {
    }

    /** {@code show ip route}: connected /31s (of interfaces that are up), static routes and BGP routes, by prefix. */
    public static String ipRoute(SoftSwitch sw) {
        return routes(sw, false);
    }

    /** {@code show ipv6 route}: static routes and BGP routes (MP-BGP), by prefix. */
    public static String ipv6Route(SoftSwitch sw) {
        return routes(sw, true);
    }

    private static String routes(SoftSwitch sw, boolean v6) {
        long now = sw.scheduler().nanoTime();
        BgpSpeaker bgp = sw.bgp();
        Map<RoutePrefix, List<String>> lines = new TreeMap<>();
        if (bgp != null && !v6) {
            for (BgpSession s : bgp.sessions()) {
                BgpConfig.Neighbor n = s.neighbor();
                if (!sw.isUp(s.port())) {
                    continue; // an interface that is down has no connected route
                }
                Ipv4Prefix p = new Ipv4Prefix(n.localAddr(), 31);
                lines.computeIfAbsent(p, x -> new ArrayList<>()).add("C>* " + p + " is directly connected, " + n.port()
                    + ", " + age(now));
            }
        }
        Map<RoutePrefix, List<RouteConfig.NextHop>> statics = new TreeMap<>();
        if (v6) {
            for (Route6Config r : sw.config().routes6()) {
                statics.put(new Ipv6Prefix(r.prefixHigh(), r.prefixLow(), r.length()), r.nextHops());
            }
        } else {
            for (RouteConfig r : sw.config().routes()) {
                statics.put(new Ipv4Prefix(r.prefix(), r.length()), r.nextHops());
            }
        }
        statics.forEach((p, hops) -> {
            List<String> out = lines.computeIfAbsent(p, x -> new ArrayList<>());
            String head = "S>* " + p + " [" + BgpSpeaker.DISTANCE_STATIC + "/0]";
            for (int i = 0; i < hops.size(); i++) {
                out.add((i == 0 ? head : "  *" + " ".repeat(head.length() - 3)) + " is directly connected, "
                    + hops.get(i).port() + ", weight 1, " + age(now));
            }
        });
        if (bgp != null) {
            Map<RoutePrefix, RouteChange> since = new TreeMap<>();
            for (RouteChange c : bgp.changes()) {
                since.put(c.prefix(), c);
            }
            for (Map.Entry<RoutePrefix, BgpSpeaker.Best> e : bgp.locRib().entrySet()) {
                BgpSpeaker.Best best = e.getValue();
                if (best.local() || e.getKey().v6() != v6) {
                    continue;
                }
                RoutePrefix p = e.getKey();
                boolean fib = bgp.inFib(p);
                RouteChange c = since.get(p);
                String when = age(c == null ? now : now - c.nanos());
                String head = (fib ? "B>* " : "B   ") + p + " [" + BgpSpeaker.DISTANCE_EBGP + "/0]";
                List<String> out = lines.computeIfAbsent(p, x -> new ArrayList<>());
                for (int i = 0; i < best.via().size(); i++) {
                    BgpSession s = best.via().get(i);
                    out.add((i == 0 ? head : (fib ? "  *" : "   ") + " ".repeat(head.length() - 3)) + " via "
                        + (v6 ? "::ffff:" : "") + Ipv4.toString(s.neighbor().peerAddr()) + ", " + s.neighbor().port()
                        + (fib ? ", weight 1, " : ", inactive, ") + when);
                }
            }
        }
        StringBuilder b = new StringBuilder(CODES);
        lines.values().forEach(ls -> ls.forEach(l -> b.append(l).append(NL)));
        return b.toString();
    }

    /** {@code show ip bgp summary} as SONiC prints it (FRR's summary with SONiC's neighbour names). */
    public static String bgpSummary(SoftSwitch sw) {
        BgpSpeaker bgp = sw.bgp();
        if (bgp == null) {
            return "% BGP instance not found" + NL;
        }
        long now = sw.scheduler().nanoTime();
        BgpConfig c = bgp.config();
        StringBuilder b = new StringBuilder(NL + "IPv4 Unicast Summary:" + NL);
        b.append("BGP router identifier ").append(Ipv4.toString(c.routerId())).append(", local AS number ")
            .append(c.asn()).append(" vrf-id 0").append(NL);
        b.append("BGP table version ").append(bgp.changes().size()).append(NL);
        b.append("RIB entries ").append(bgp.locRib().size()).append(NL);
        b.append("Peers ").append(bgp.sessions().size()).append(NL).append(NL).append(NL);
        String format = "%-15s %2s %10s %10s %10s %8s %5s %6s %9s %-15s %s" + NL;
        b.append(String.format(Locale.ROOT, format, "Neighbhor", "V", "AS", "MsgRcvd", "MsgSent", "TblVer", "InQ",
            "OutQ", "Up/Down", "State/PfxRcd", "NeighborName"));
        b.append(String.format(Locale.ROOT, format, "-".repeat(15), "--", "-".repeat(10), "-".repeat(10),
            "-".repeat(10), "-".repeat(8), "-".repeat(5), "-".repeat(6), "-".repeat(9), "-".repeat(15), "-".repeat(12)));
        for (BgpSession s : bgp.sessions()) {
            BgpConfig.Neighbor n = s.neighbor();
            String state = s.state() == BgpSession.State.Established ? String.valueOf(s.prefixesReceived())
                : s.neighbor().adminUp() ? s.state().name() : "Idle (Admin)";
            String upDown = s.timesEstablished() == 0 && s.state() != BgpSession.State.Established ? "never"
                : age(now - s.upDownSinceNanos());
            b.append(String.format(Locale.ROOT, format, Ipv4.toString(n.peerAddr()), "4", n.peerAsn(),
                s.messagesReceived(), s.messagesSent(), 0, 0, 0, upDown, state, n.name()));
        }
        b.append(NL).append("Total number of neighbors ").append(bgp.sessions().size()).append(NL);
        return b.toString();
    }

    /** FRR's {@code show bfd peers brief}: each session's discriminator, addresses and state. */
    public static String bfdPeersBrief(SoftSwitch sw) {
        BgpSpeaker bgp = sw.bgp();
        List<BgpSession> withBfd = new ArrayList<>();
        if (bgp != null) {
            bgp.sessions().stream().filter(x -> x.bfd() != null).forEach(withBfd::add);
        }
        String format = "%-10s %-40s %-40s %-15s" + NL;
        StringBuilder b = new StringBuilder("Session count: " + withBfd.size() + NL);
        b.append(String.format(Locale.ROOT, format, "SessionId", "LocalAddress", "PeerAddress", "Status"));
        b.append(String.format(Locale.ROOT, format, "=========", "============", "===========", "======"));
        for (BgpSession s : withBfd) {
            b.append(String.format(Locale.ROOT, format, s.bfd().discriminator(), Ipv4.toString(s.neighbor().localAddr()),
                Ipv4.toString(s.neighbor().peerAddr()), s.bfd().isUp() ? "up" : s.bfd().state() == 2 ? "init" : "down"));
        }
        return b.toString();
    }

    /** FRR's uptime: hh:mm:ss under a day. */
    static String age(long nanos) {
        long s = Math.max(0, nanos) / 1_000_000_000L;
        if (s >= 86_400) {
            return String.format(Locale.ROOT, "%dd%02dh%02dm", s / 86_400, s / 3600 % 24, s / 60 % 60);
        }
        return String.format(Locale.ROOT, "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
    }
}
