package io.rocelab.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.nic.WorkCompletion;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.generate.FatTree;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Topology;
import io.rocelab.topology.model.TopologyException;
import io.rocelab.topology.qos.QosProfiles;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A generated k-ary fat tree: its size, its routes, and every host reaching every other. */
class FatTreeTest {

    @Test
    void aFourAryFatTreeHasFourPodsFourCoresAndSixteenHosts() {
        FatTree ft = FatTree.builder().k(4).build();
        Topology t = ft.topology();
        assertEquals(16, t.hosts().size(), "k^3/4");
        assertEquals(4 * 4 + 4, t.switches().size(), "k pods of k/2 edge and k/2 aggregation switches, (k/2)^2 cores");
        assertEquals(16 + 16 + 16, t.links().size(), "host-edge, edge-aggregation, aggregation-core");
        for (var s : t.switches()) {
            assertEquals(4, s.config().ports().size(), s.name() + " has k ports");
            long cabled = s.config().ports().stream()
                .filter(p -> t.linkAt(new io.rocelab.topology.model.Attachment(s.name(), p.name())) != null).count();
            assertEquals(4, cabled, s.name() + " uses every port");
        }
        assertEquals("10.3.1.3", Ipv4.toString(t.host(ft.host(3, 1, 1)).ipv4()), "Al-Fares: 10.pod.switch.id");
        assertEquals("h15", ft.host(3, 1, 1));
        TopologyException odd = assertThrows(TopologyException.class, () -> FatTree.builder().k(5).build());
        assertEquals(List.of("fat tree: k must be even and 2..64, not 5"), odd.problems());
    }

    @Test
    void theSizesFollowK() {
        for (int k : new int[] {2, 4, 8, 16}) {
            Topology t = FatTree.builder().k(k).build().topology();
            assertEquals(k * k * k / 4, t.hosts().size(), "k^3/4 hosts at k = " + k);
            assertEquals(k * k + k * k / 4, t.switches().size(), "k^2 pod switches and (k/2)^2 cores at k = " + k);
            assertEquals(3 * k * k * k / 4, t.links().size(), "three tiers of k^3/4 cables at k = " + k);
        }
    }

    @Test
    void upIsEcmpDownIsOnePath() {
        Topology t = FatTree.builder().k(4).build().topology();
        assertEquals(List.of("10.0.0.2/32 -> Ethernet0", "10.0.0.3/32 -> Ethernet4", "0.0.0.0/0 -> Ethernet8,Ethernet12"),
            LeafSpineTest.routes(t.switchNode(FatTree.edge(0, 0)).config()),
            "an edge switch: its hosts, and a default over its pod's aggregation switches");
        assertEquals(List.of("10.1.0.0/24 -> Ethernet0", "10.1.1.0/24 -> Ethernet4", "0.0.0.0/0 -> Ethernet8,Ethernet12"),
            LeafSpineTest.routes(t.switchNode(FatTree.agg(1, 0)).config()),
            "an aggregation switch: its pod's racks, and a default over its cores");
        assertEquals(List.of("10.0.0.0/16 -> Ethernet0", "10.1.0.0/16 -> Ethernet4", "10.2.0.0/16 -> Ethernet8",
            "10.3.0.0/16 -> Ethernet12"), LeafSpineTest.routes(t.switchNode(FatTree.core(3)).config()),
            "a core: one route per pod");
    }

    @Test
    void everyHostSendsToEveryOtherHostOverUd() {
        FatTree ft = FatTree.builder().k(4).build();
        List<String> hosts = ft.topology().hosts().stream().map(Host::name).toList();
        try (Fabric f = Fabric.virtualTime(ft.topology(), 3)) {
            Verbs v = new Verbs(f, QosProfiles.LOSSLESS.roceTrafficClass());
            Verbs.Ud ud = v.new Ud(hosts, 256);
            int sent = 0;
            for (int a = 0; a < hosts.size(); a++) {
                for (int b = 0; b < hosts.size(); b++) {
                    if (a != b) {
                        ud.send(hosts.get(a), hosts.get(b), payload(a, b), sent++);
                    }
                }
            }
            int expected = 2 * sent;
            assertTrue(f.runUntil(() -> {
                ud.poll();
                return v.completions().size() == expected;
            }, 100_000_000L), () -> v.completions().size() + " of " + expected + " completions");
            assertTrue(v.completions().stream().allMatch(WorkCompletion::isSuccess));
            for (int b = 0; b < hosts.size(); b++) {
                Set<String> from = new HashSet<>();
                for (byte[] got : ud.received.get(hosts.get(b))) {
                    int a = ByteBuffer.wrap(got).getInt();
                    assertArrayEquals(payload(a, b), got, "the datagram from " + hosts.get(a) + " to " + hosts.get(b));
                    from.add(hosts.get(a));
                }
                assertEquals(hosts.size() - 1, from.size(), hosts.get(b) + " heard from every other host");
            }
        }
    }

    /** 256 bytes: the sender's index, the receiver's, then bytes of both. */
    static byte[] payload(int a, int b) {
        ByteBuffer p = ByteBuffer.allocate(256).putInt(a).putInt(b);
        while (p.hasRemaining()) {
            p.put((byte) (a * 31 + b * 7 + p.position()));
        }
        return p.array();
    }

    @Test
    void ipv6HostsWriteToEachOtherAcrossTheCore() {
        FatTree ft = FatTree.builder().k(2).ipv6(true).build();
        assertEquals(List.of("fd00:1::2"), ft.topology().host("h1").ipv6(), "fd00:pod:edge::id, canonical");
        assertEquals(2, ft.topology().switchNode(FatTree.core(0)).config().routes6().size(), "a /32 per pod");
        try (Fabric f = Fabric.virtualTime(ft.topology(), 5)) {
            Verbs v = new Verbs(f, QosProfiles.LOSSLESS.roceTrafficClass());
            List<Verbs.Write> writes = List.of(v.new Write("h0", "h1", 20_000, 1, true), v.new Write("h1", "h0", 20_000, 2, true));
            writes.get(0).post(1);
            writes.get(1).post(2);
            assertTrue(f.runUntil(() -> {
                v.pollAll();
                return v.completions().size() == 2;
            }, 10_000_000L));
            assertTrue(v.completions().stream().allMatch(WorkCompletion::isSuccess), v.completions()::toString);
            assertTrue(writes.stream().allMatch(Verbs.Write::arrived));
            assertTrue(f.link("h0:eth0--pod0-edge0:Ethernet0").aToB().counters()
                .get(io.rocelab.fabric.link.LinkCounter.FRAMES_SENT) >= 5, "20 KB in 4 KB packets");
        }
    }
}
