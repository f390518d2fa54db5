package io.rocelab.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.link.LinkCounter;
import io.rocelab.nic.WorkCompletion;
import io.rocelab.sw.config.RouteConfig;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.generate.LeafSpine;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Topology;
import io.rocelab.topology.model.TopologyException;
import io.rocelab.topology.qos.QosProfiles;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A generated leaf-spine fabric: what it is made of, that every host reaches every other, and ECMP over the spines. */
class LeafSpineTest {
    private static final int TC = QosProfiles.LOSSLESS.roceTrafficClass();

    @Test
    void twoLeavesTwoSpinesTwoHostsEach() {
        LeafSpine ls = LeafSpine.builder().leaves(2).spines(2).hostsPerLeaf(2).build();
        Topology t = ls.topology();
        assertEquals(4, t.hosts().size());
        assertEquals(4, t.switches().size());
        assertEquals(4 + 4, t.links().size(), "a cable per host, and leaf x spine");
        Host h3 = t.host("h3");
        assertEquals("10.0.1.2", Ipv4.toString(h3.ipv4()), "host 1 of leaf 1");
        assertEquals("leaf1:Ethernet4", t.peerOf(h3).toString());
        assertEquals("spine1:Ethernet0", t.linkAt(new io.rocelab.topology.model.Attachment("leaf0", ls.uplink(1)))
            .other(new io.rocelab.topology.model.Attachment("leaf0", ls.uplink(1))).toString());
        assertEquals(1.0, ls.oversubscription());
        assertEquals("lossless", t.qos().name());
        assertTrue(t.switchNode("spine0").config().ports().get(0).pfcEnabled(3), "the QoS profile on every switch");
    }

    @Test
    void theQosProfileIsNamedOnceForTheFabric() {
        Topology lossy = LeafSpine.builder().qos("lossy").build().topology();
        assertTrue(lossy.switches().stream().allMatch(s -> s.config().ports().stream().allMatch(p -> p.pfcEnableMask() == 0)),
            "no PFC anywhere");
        Topology noWatchdog = LeafSpine.builder().qos(QosProfiles.LOSSLESS.withWatchdog(null)).build().topology();
        assertTrue(noWatchdog.switchNode("spine1").config().ports().stream().allMatch(p -> p.pfcWd() == null
            && p.pfcEnabled(3)), "a tuned profile: PFC without the watchdog");
        TopologyException e = assertThrows(TopologyException.class, () -> LeafSpine.builder().qos("lossles").build());
        assertEquals(List.of("qos: no profile 'lossles' (known: lossless, lossy)"), e.problems());
    }

    @Test
    void aLeafRoutesItsHostsAndOneRouteOverEverySpine() {
        LeafSpine ls = LeafSpine.builder().leaves(4).spines(2).hostsPerLeaf(2).build();
        SwitchConfig leaf0 = ls.topology().switchNode("leaf0").config();
        Host h1 = ls.topology().host("h1");
        assertEquals(List.of("10.0.0.1/32 -> Ethernet0", "10.0.0.2/32 -> Ethernet4", "10.0.0.0/16 -> Ethernet8,Ethernet12"),
            routes(leaf0), "the other leaves' racks share one /16 and every spine");
        RouteConfig toH1 = leaf0.routes().get(1);
        assertEquals(h1.mac(), toH1.nextHops().get(0).mac(), "a host route rewrites to the host's MAC");
        RouteConfig up = leaf0.routes().get(2);
        assertEquals(List.of(ls.topology().switchNode("spine0").routerMac(), ls.topology().switchNode("spine1").routerMac()),
            up.nextHops().stream().map(RouteConfig.NextHop::mac).toList(), "an ECMP group of the spines' router MACs");
        assertEquals(List.of("10.0.0.0/24 -> Ethernet0", "10.0.1.0/24 -> Ethernet4", "10.0.2.0/24 -> Ethernet8",
            "10.0.3.0/24 -> Ethernet12"), routes(ls.topology().switchNode("spine1").config()), "a spine: one rack per leaf");
    }

    @Test
    void ipv6RoutesFollowTheSamePlan() {
        LeafSpine ls = LeafSpine.builder().leaves(2).spines(2).hostsPerLeaf(1).ipv6(true).build();
        SwitchConfig spine0 = ls.topology().switchNode("spine0").config();
        assertEquals(2, spine0.routes6().size(), "a /64 per leaf");
        assertEquals(List.of("fd00:0:1::1"), ls.topology().host("h1").ipv6());
        assertEquals(64, spine0.routes6().get(1).length());
    }

    @Test
    void oversubscriptionIsHostFacingOverSpineFacingBandwidth() {
        LeafSpine ls = LeafSpine.builder().spines(2).hostsPerLeaf(4).hostLinkGbps(100).oversubscription(4).build();
        assertEquals(50_000_000_000L, ls.spineLinkBitsPerSecond(), "4 x 100 Gb/s over 2 spines at 4:1");
        assertEquals(4.0, ls.oversubscription());
        assertEquals(50_000_000_000L, ls.topology().link("leaf0:Ethernet16--spine0:Ethernet0").speedBitsPerSecond());
        assertEquals(50_000_000_000L, ls.topology().switchNode("spine1").config().ports().get(1).speedBitsPerSecond());
        TopologyException e = assertThrows(TopologyException.class,
            () -> LeafSpine.builder().spines(2).hostsPerLeaf(4).oversubscription(4).spineLinkGbps(100).build());
        assertEquals(List.of("leaf-spine: oversubscription 4.0 with 4 x 100 Gb/s hosts and 2 spines needs 50000.0 Mb/s"
            + " spine links, not 100000"), e.problems());
        TopologyException bad = assertThrows(TopologyException.class,
            () -> LeafSpine.builder().leaves(0).spines(2).hostsPerLeaf(3).oversubscription(7).qos("lossless").build());
        assertEquals(List.of("leaf-spine: leaves must be 1..256, not 0"), bad.problems());
    }

    @Test
    void everyHostWritesToEveryOtherHost() {
        LeafSpine ls = LeafSpine.builder().leaves(2).spines(2).hostsPerLeaf(2).build();
        try (Fabric f = Fabric.virtualTime(ls.topology(), 1)) {
            Verbs v = new Verbs(f, TC);
            List<Verbs.Write> writes = new ArrayList<>();
            for (Host a : ls.topology().hosts()) {
                for (Host b : ls.topology().hosts()) {
                    if (a != b) {
                        writes.add(v.new Write(a.name(), b.name(), 16_384, writes.size()));
                    }
                }
            }
            for (int i = 0; i < writes.size(); i++) {
                writes.get(i).post(i);
            }
            assertTrue(f.runUntil(() -> {
                v.pollAll();
                return v.completions().size() == writes.size();
            }, 100_000_000L), () -> v.completions().size() + " of " + writes.size() + " WRITEs completed");
            assertTrue(v.completions().stream().allMatch(WorkCompletion::isSuccess), v.completions()::toString);
            for (Verbs.Write w : writes) {
                assertTrue(w.arrived(), () -> w.from + " -> " + w.to + ": the bytes differ");
            }
        }
    }

    /** Frames each leaf0 uplink carried towards the spines, after 32 QPs from leaf0 to leaf1 wrote 64 KiB each. */
    static long[] uplinkFrames(long seed) {
        LeafSpine ls = LeafSpine.builder().leaves(2).spines(2).hostsPerLeaf(2).build();
        try (Fabric f = Fabric.virtualTime(ls.topology(), seed)) {
            Verbs v = new Verbs(f, TC);
            List<Verbs.Write> writes = new ArrayList<>();
            for (int q = 0; q < 32; q++) {
                writes.add(v.new Write(ls.host(0, q % 2), ls.host(1, q / 2 % 2), 65_536, q));
            }
            for (int i = 0; i < writes.size(); i++) {
                writes.get(i).post(i);
            }
            assertTrue(f.runUntil(() -> {
                v.pollAll();
                return v.completions().size() == writes.size();
            }, 100_000_000L));
            assertTrue(writes.stream().allMatch(Verbs.Write::arrived));
            long[] frames = new long[3];
            for (int j = 0; j < 2; j++) {
                InProcessLink up = f.linkAt("leaf0:" + ls.uplink(j));
                frames[j] = up.aToB().counters().get(LinkCounter.FRAMES_SENT);
            }
            frames[2] = f.virtualTime().nanoTime();
            return frames;
        }
    }

    @Test
    void ecmpSpreadsTheQpsOverBothSpines() {
        long[] frames = uplinkFrames(7);
        long total = frames[0] + frames[1];
        System.out.println("leaf0 uplinks: " + frames[0] + " frames to spine0, " + frames[1] + " to spine1");
        assertTrue(total >= 32 * 16, "32 WRITEs of 16 packets went up: " + total);
        assertTrue(frames[0] > total / 4 && frames[1] > total / 4,
            "each spine carries at least a quarter: " + frames[0] + " / " + frames[1]);
    }

    @Test
    void theSameSeedRunsTheSameFabric() {
        assertEquals(java.util.Arrays.toString(uplinkFrames(11)), java.util.Arrays.toString(uplinkFrames(11)),
            "frames per uplink and the time the last WRITE completed");
    }

    static List<String> routes(SwitchConfig c) {
        List<String> out = new ArrayList<>();
        for (RouteConfig r : c.routes()) {
            out.add(Ipv4.toString(r.prefix()) + "/" + r.length() + " -> "
                + String.join(",", r.nextHops().stream().map(RouteConfig.NextHop::port).toList()));
        }
        return out;
    }
}
