package io.rocelab.sw.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.sw.RoutingViews;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code show ip route} and {@code show ip bgp summary} of a converged leaf, and after a cable is cut. */
class RoutingViewsTest {

    @Test
    void showIpRouteListsConnectedStaticAndBgpRoutesAsFrrDoes() {
        LeafSpineBgp f = new LeafSpineBgp(LeafSpineBgp.Timers.datacenter());
        f.converge();
        f.time.runFor(5_000_000_000L);
        String text = RoutingViews.ipRoute(f.leaves[1]);
        assertTrue(text.startsWith("Codes: K - kernel route, C - connected, S - static, R - RIP,"), text);
        List<String> routes = text.lines().filter(l -> !l.isEmpty() && !l.startsWith(" ") && !l.startsWith("Codes")
            || l.startsWith("  *")).toList();
        assertEquals(List.of(
            "B>* 10.0.0.0/24 [20/0] via 10.1.0.4, Ethernet4, weight 1, 00:00:05",
            "  *                    via 10.1.0.6, Ethernet8, weight 1, 00:00:05",
            "S>* 10.0.1.1/32 [1/0] is directly connected, Ethernet0, weight 1, 00:00:05",
            "C>* 10.1.0.4/31 is directly connected, Ethernet4, 00:00:05",
            "C>* 10.1.0.6/31 is directly connected, Ethernet8, 00:00:05"), routes);
        f.links[1][0].setUp(false);
        f.time.runFor(1_000_000_000L);
        String after = RoutingViews.ipRoute(f.leaves[1]);
        assertTrue(after.contains("B>* 10.0.0.0/24 [20/0] via 10.1.0.6, Ethernet8, weight 1, 00:00:00\n"), after);
        assertTrue(!after.contains("10.1.0.4/31"), "no connected route on the interface that is down: " + after);
    }

    @Test
    void showIpBgpSummaryListsTheNeighboursAsSonicDoes() {
        LeafSpineBgp f = new LeafSpineBgp(LeafSpineBgp.Timers.datacenter());
        f.converge();
        f.time.runFor(62_000_000_000L);
        f.links[1][1].setUp(false);
        f.time.runFor(1_000_000_000L);
        String text = RoutingViews.bgpSummary(f.leaves[1]);
        List<String> lines = text.lines().toList();
        assertEquals("IPv4 Unicast Summary:", lines.get(1));
        assertEquals("BGP router identifier 10.255.0.2, local AS number 65002 vrf-id 0", lines.get(2));
        int header = lines.indexOf(lines.stream().filter(l -> l.startsWith("Neighbhor")).findFirst().orElseThrow());
        assertTrue(lines.get(header).matches("Neighbhor +V +AS +MsgRcvd +MsgSent +TblVer +InQ +OutQ +Up/Down"
            + " +State/PfxRcd +NeighborName"), lines.get(header));
        String up = lines.get(header + 2);
        assertTrue(up.matches("10\\.1\\.0\\.4 +4 +65100 +\\d+ +\\d+ +0 +0 +0 +00:01:03 +1 +spine0"), up);
        String down = lines.get(header + 3);
        assertTrue(down.matches("10\\.1\\.0\\.6 +4 +65100 +\\d+ +\\d+ +0 +0 +0 +00:00:01 +Idle +spine1"), down);
        assertEquals("Total number of neighbors 2", lines.get(lines.size() - 1));
    }

    @Test
    void showBfdPeersBriefListsEachSessionAndItsState() {
        LeafSpineBgp f = new LeafSpineBgp(LeafSpineBgp.Timers.datacenter().withBfd(new io.rocelab.sw.config.BgpConfig.Bfd(
            1_000_000L, 3)));
        f.converge();
        f.links[1][1].aToB().setFaults(io.rocelab.fabric.link.FaultProfile.NONE.withLoss(1.0));
        f.time.runFor(10_000_000L);
        List<String> lines = RoutingViews.bfdPeersBrief(f.leaves[1]).lines().toList();
        assertEquals("Session count: 2", lines.get(0));
        assertTrue(lines.get(1).matches("SessionId +LocalAddress +PeerAddress +Status *"), lines.get(1));
        assertTrue(lines.get(3).matches("1 +10\\.1\\.0\\.5 +10\\.1\\.0\\.4 +up *"), lines.get(3));
        assertTrue(lines.get(4).matches("2 +10\\.1\\.0\\.7 +10\\.1\\.0\\.6 +down *"), lines.get(4));
    }
}
