package io.rocelab.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.routing.Ipv4Prefix;
import io.rocelab.nic.WorkCompletion;
import io.rocelab.sw.config.BgpConfig;
import io.rocelab.sw.routing.BgpSpeaker;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.generate.FatTree;
import io.rocelab.topology.generate.LeafSpine;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Topology;
import io.rocelab.topology.qos.QosProfiles;
import io.rocelab.topology.route.Routing;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Generated fabrics with {@code routing: bgp}: RFC 7938's ASNs and /31s, convergence, and traffic over the learnt routes. */
class BgpFabricTest {

    @Test
    void aLeafSpineGetsALeafAsnEachOneForTheSpinesAndA31PerCable() {
        Topology t = LeafSpine.builder().leaves(2).spines(2).routing(Routing.bgp()).build().topology();
        BgpConfig leaf0 = t.switchNode("leaf0").config().bgp();
        BgpConfig leaf1 = t.switchNode("leaf1").config().bgp();
        BgpConfig spine0 = t.switchNode("spine0").config().bgp();
        assertEquals(65001, leaf0.asn());
        assertEquals(65002, leaf1.asn());
        assertEquals(65100, spine0.asn());
        assertEquals(65100, t.switchNode("spine1").config().bgp().asn());
        assertEquals(List.of("10.0.0.0/24"), leaf0.networks(), "the rack's /24");
        assertEquals(2, leaf0.neighbors().size());
        BgpConfig.Neighbor up = leaf0.neighbors().get(0);
        assertEquals("Ethernet8", up.port());
        assertEquals("spine0", up.name());
        assertEquals(65100, up.peerAsn());
        assertEquals(up.localAddr() ^ 1, up.peerAddr(), "the two ends of one /31");
        assertEquals(0, up.peerAddr() & 1, "the spine (upper tier) has the even address, as SONiC's T1 side");
        assertEquals(Ipv4.toString(up.peerAddr()), Ipv4.toString(spine0.neighbors().get(0).localAddr()));
        // static routes: the hosts only
        assertEquals(List.of("10.0.0.1/32 -> Ethernet0", "10.0.0.2/32 -> Ethernet4"),
            LeafSpineTest.routes(t.switchNode("leaf0").config()));
        assertEquals(List.of(), LeafSpineTest.routes(t.switchNode("spine0").config()));
    }

    @Test
    void aFatTreesPodSharesAnAsnAndItsCoresAnother() {
        Topology t = FatTree.builder().k(4).routing(Routing.bgp()).build().topology();
        long core = t.switchNode(FatTree.core(0)).config().bgp().asn();
        for (int c = 0; c < 4; c++) {
            assertEquals(core, t.switchNode(FatTree.core(c)).config().bgp().asn());
        }
        for (int p = 0; p < 4; p++) {
            long agg = t.switchNode(FatTree.agg(p, 0)).config().bgp().asn();
            assertEquals(agg, t.switchNode(FatTree.agg(p, 1)).config().bgp().asn(), "pod " + p + "'s aggregation layer");
            assertTrue(agg != core && (p == 0 || agg != t.switchNode(FatTree.agg(0, 0)).config().bgp().asn()));
            assertTrue(t.switchNode(FatTree.edge(p, 0)).config().bgp().asn()
                != t.switchNode(FatTree.edge(p, 1)).config().bgp().asn(), "each edge its own");
        }
    }

    @Test
    void aFatTreeConvergesWithEcmpUpAndEveryHostReachesEveryOther() {
        FatTree ft = FatTree.builder().k(4).routing(Routing.bgp()).build();
        List<String> hosts = ft.topology().hosts().stream().map(Host::name).toList();
        try (Fabric f = Fabric.virtualTime(ft.topology(), 3)) {
            long took = f.awaitRouting(1_000_000_000L);
            assertTrue(took > 0 && took < 10_000_000L, "converged in " + took + " ns");
            // pod0's edge0 reaches pod 3's edge1 rack over both of its aggregation switches,
            // through pod0's aggregation AS, the cores' and pod 3's
            BgpSpeaker edge = f.softSwitch(FatTree.edge(0, 0)).bgp();
            BgpSpeaker.Best best = edge.locRib().get(Ipv4Prefix.parse("10.3.1.0/24"));
            assertNotNull(best);
            assertEquals(2, best.via().size());
            assertEquals(List.of(asn(ft, FatTree.agg(0, 0)), asn(ft, FatTree.core(0)), asn(ft, FatTree.agg(3, 0)),
                asn(ft, FatTree.edge(3, 1))), best.asPath());
            // an aggregation switch: both of its cores
            assertEquals(2, f.softSwitch(FatTree.agg(0, 0)).bgp().locRib().get(Ipv4Prefix.parse("10.3.1.0/24")).via()
                .size());
            Verbs v = new Verbs(f, QosProfiles.LOSSLESS.roceTrafficClass());
            Verbs.Ud ud = v.new Ud(hosts, 256);
            int sent = 0;
            for (int a = 0; a < hosts.size(); a++) {
                for (int b = 0; b < hosts.size(); b++) {
                    if (a != b) {
                        ud.send(hosts.get(a), hosts.get(b), FatTreeTest.payload(a, b), sent++);
                    }
                }
            }
            int expected = 2 * sent;
            assertTrue(f.runUntil(() -> {
                ud.poll();
                return v.completions().size() == expected;
            }, 100_000_000L), () -> v.completions().size() + " of " + expected + " completions");
            assertTrue(v.completions().stream().allMatch(WorkCompletion::isSuccess));
            int received = 0;
            for (int b = 0; b < hosts.size(); b++) {
                for (byte[] got : ud.received.get(hosts.get(b))) {
                    int a = ByteBuffer.wrap(got).getInt();
                    assertArrayEquals(FatTreeTest.payload(a, b), got);
                    received++;
                }
            }
            assertEquals(sent, received, "every datagram arrived over the routes BGP learnt");
        }
    }

    @Test
    void ipv6RacksAreLearntOverMpBgpAndCarryAWrite() {
        LeafSpine ls = LeafSpine.builder().leaves(2).spines(2).ipv6(true).routing(Routing.bgp()).build();
        assertEquals(List.of("10.0.0.0/24", "fd00::/64"), ls.topology().switchNode("leaf0").config().bgp().networks());
        assertEquals(0, ls.topology().switchNode("spine0").config().routes6().size(), "no static IPv6 fabric routes");
        try (Fabric f = Fabric.virtualTime(ls.topology(), 5)) {
            assertTrue(f.awaitRouting(1_000_000_000L) > 0);
            BgpSpeaker.Best best = f.softSwitch("leaf1").bgp().locRib().get(io.rocelab.codec.routing.Ipv6Prefix.parse(
                "fd00::/64"));
            assertNotNull(best);
            assertEquals(2, best.via().size(), "over both spines");
            Verbs v = new Verbs(f, QosProfiles.LOSSLESS.roceTrafficClass());
            List<Verbs.Write> writes = List.of(v.new Write("h0", "h2", 20_000, 1, true), v.new Write("h2", "h0", 20_000, 2,
                true));
            writes.get(0).post(1);
            writes.get(1).post(2);
            assertTrue(f.runUntil(() -> {
                v.pollAll();
                return v.completions().size() == 2;
            }, 10_000_000L));
            assertTrue(v.completions().stream().allMatch(WorkCompletion::isSuccess), v.completions()::toString);
            assertTrue(writes.stream().allMatch(Verbs.Write::arrived));
        }
    }

    private static long asn(FatTree ft, String sw) {
        return ft.topology().switchNode(sw).config().bgp().asn();
    }
}
