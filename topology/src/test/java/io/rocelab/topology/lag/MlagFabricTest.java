package io.rocelab.topology.lag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.sw.SoftSwitch;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.sw.lag.LagGroup;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.model.Topology;
import io.rocelab.topology.workload.Flow;
import io.rocelab.topology.workload.FlowResult;
import io.rocelab.topology.workload.Workload;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An MLAG pair as a spelled-out fabric, from config_db alone: leaf1 and leaf2 in MCLAG_DOMAIN 1
 * with a peer link, a core switch dual-homed to both by one ordinary LACP port channel (it sees one
 * partner system), a host on each leaf and one on the core, all bridged in one subnet. RC WRITEs
 * from the core's host to the leaves' hosts cross whichever leaf the core's hash picks (and the
 * peer link when that is the other leaf); a whole leaf failing mid-transfer leaves the other
 * leaf's host reachable, with no error completion; when the leaf comes back the pair and the core's
 * bond take it in again.
 */
class MlagFabricTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long MS = 1_000_000L;

    /** Leaf {@code i} (1 or 2): Ethernet0 its host, Ethernet4 to the core (PortChannel0001, shared), Ethernet8 the peer link. */
    static String leaf(int i) {
        return """
            {
              "DEVICE_METADATA": {"localhost": {"hostname": "leaf%1$d", "mac": "02:00:00:00:6%1$d:fe"}},
              "SWITCH": {"switch": {"fdb_aging_time": "600"}},
              "PORT": {"Ethernet0": {"speed": "100000"}, "Ethernet4": {"speed": "100000"}, "Ethernet8": {"speed": "100000"}},
              "PORTCHANNEL": {"PortChannel0001": {"fast_rate": "true"}},
              "PORTCHANNEL_MEMBER": {"PortChannel0001|Ethernet4": {}},
              "MCLAG_DOMAIN": {"1": {"source_ip": "10.255.0.%1$d", "peer_ip": "10.255.0.%2$d", "peer_link": "Ethernet8",
                                     "keepalive_interval": "1", "session_timeout": "3"}},
              "MCLAG_INTERFACE": {"1|PortChannel0001": {"if_type": "PortChannel"}}
            }
            """.formatted(i, 3 - i);
    }

    /** The core: Ethernet0 its host, Ethernet4 to leaf1 and Ethernet8 to leaf2, both in PortChannel0001. */
    static final String CORE = """
        {
          "DEVICE_METADATA": {"localhost": {"hostname": "core", "mac": "02:00:00:00:60:fe"}},
          "PORT": {"Ethernet0": {"speed": "100000"}, "Ethernet4": {"speed": "100000"}, "Ethernet8": {"speed": "100000"}},
          "PORTCHANNEL": {"PortChannel0001": {"fast_rate": "true"}},
          "PORTCHANNEL_MEMBER": {"PortChannel0001|Ethernet4": {}, "PortChannel0001|Ethernet8": {}}
        }
        """;

    static Topology topology() {
        Topology.Builder t = Topology.builder();
        t.switchNode("core", ConfigLoader.parse(CORE));
        t.host(Host.builder("h0").mac("02:00:00:00:00:10").ipv4("10.1.0.10").build());
        t.link(Link.between("h0", "core:Ethernet0").build());
        for (int i = 1; i <= 2; i++) {
            t.switchNode("leaf" + i, ConfigLoader.parse(leaf(i)));
            t.host(Host.builder("h" + i).mac("02:00:00:00:00:1" + i).ipv4("10.1.0.1" + i).build());
            t.link(Link.between("h" + i, "leaf" + i + ":Ethernet0").name("h" + i + "-leaf" + i).build());
            t.link(Link.between("core:Ethernet" + 4 * i, "leaf" + i + ":Ethernet4").name("core-leaf" + i).build());
        }
        t.link(Link.between("leaf1:Ethernet8", "leaf2:Ethernet8").name("peer").build());
        return t.build();
    }

    private static Workload start(Fabric f, Flow... flows) {
        return Workload.start(f, List.of(flows), 1);
    }

    @Test
    void theCoreSeesOnePartnerAndALeafFailingMidTransferLosesNothing() {
        try (Fabric f = Fabric.virtualTime(topology(), 1)) {
            f.runFor(5 * SECOND);
            SoftSwitch core = f.softSwitch("core");
            LagGroup uplink = f.onOwner("core", () -> core.portChannels().groups().get(0));
            assertEquals(2, uplink.distributingCount(), "the core bonds one link to each leaf: one partner system");
            assertEquals(core.lacpActor(1).partner().system(), core.lacpActor(2).partner().system());
            assertTrue(f.softSwitch("leaf1").mlag().peerAlive() && f.softSwitch("leaf2").mlag().peerAlive());

            long toLeaf2 = core.counters(2).txFrames;
            long overPeer = f.softSwitch("leaf2").counters(2).txFrames;
            Workload w = start(f, Flow.builder("to-h1", "h0", "h1").messageBytes(65_536).messages(200).qps(8).build(),
                Flow.builder("from-h1", "h1", "h0").messageBytes(65_536).messages(200).qps(8).build());
            f.runFor(300_000);
            assertFalse(w.finished(), "the transfers are under way when leaf2 fails");
            long viaLeaf2 = core.counters(2).txFrames - toLeaf2;
            long crossed = f.softSwitch("leaf2").counters(2).txFrames - overPeer;
            System.out.printf("before the failure: %d frames from the core by leaf2, %d over the peer link%n", viaLeaf2,
                crossed);
            assertTrue(viaLeaf2 > 50 && crossed > 50, "some QPs hash to leaf2 and cross the peer link to h1");
            for (String l : List.of("h2-leaf2", "core-leaf2", "peer")) {
                f.setLinkUp(l, false);
            }
            assertTrue(f.runUntil(w::finished, 200 * MS), "the transfers finish through leaf1 alone");
            for (FlowResult r : w.results()) {
                assertEquals(FlowResult.Outcome.COMPLETED, r.outcome(), r.name());
                assertEquals(0, r.errors(), r.name() + ": no error completion");
                assertEquals(200L * 65_536, r.bytesDelivered(), r.name());
            }
            assertEquals(1, uplink.distributingCount(), "the core's bond is down to its link to leaf1");
            assertFalse(f.softSwitch("leaf1").mlag().peerAlive(), "leaf1 serves alone");
            w.close();

            for (String l : List.of("h2-leaf2", "core-leaf2", "peer")) {
                f.setLinkUp(l, true);
            }
            f.runFor(5 * SECOND);
            assertEquals(2, uplink.distributingCount(), "leaf2 back: the core's bond takes its link again");
            assertTrue(f.softSwitch("leaf1").mlag().peerAlive() && f.softSwitch("leaf2").mlag().peerAlive());
            Workload again = start(f, Flow.builder("to-h2", "h0", "h2").messageBytes(65_536).messages(100).qps(8).build(),
                Flow.builder("h1-h2", "h1", "h2").messageBytes(65_536).messages(100).qps(8).build());
            assertTrue(f.runUntil(again::finished, 100 * MS));
            for (FlowResult r : again.results()) {
                assertEquals(0, r.errors(), r.name());
                assertEquals(100L * 65_536, r.bytesDelivered(), r.name());
            }
            again.close();
        }
    }
}
