package io.rocelab.topology.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.nic.BondMode;
import io.rocelab.nic.SoftNic;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.model.Topology;
import io.rocelab.topology.workload.Flow;
import io.rocelab.topology.workload.FlowResult;
import io.rocelab.topology.workload.Verb;
import io.rocelab.topology.workload.Workload;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A host whose NIC bonds its two ports (802.3ad) to an MLAG pair, built from the topology alone: the
 * fabric gives the NIC both links and the bond, LACP converges with both leaves as one partner, and a
 * leaf failing mid-transfer costs no error completion.
 */
class DualHomedHostTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long MS = 1_000_000L;

    static String leaf(int i) {
        return """
            {
              "DEVICE_METADATA": {"localhost": {"hostname": "leaf%1$d", "mac": "02:00:00:00:6%1$d:fe"}},
              "SWITCH": {"switch": {"fdb_aging_time": "600"}},
              "PORT": {"Ethernet0": {"speed": "100000"}, "Ethernet4": {"speed": "100000"}, "Ethernet8": {"speed": "100000"}},
              "PORTCHANNEL": {"PortChannel0001": {"fast_rate": "true"}, "PortChannel0002": {"fast_rate": "true"}},
              "PORTCHANNEL_MEMBER": {"PortChannel0001|Ethernet0": {}, "PortChannel0002|Ethernet4": {}},
              "MCLAG_DOMAIN": {"1": {"source_ip": "10.255.0.%1$d", "peer_ip": "10.255.0.%2$d", "peer_link": "Ethernet8",
                                     "keepalive_interval": "1", "session_timeout": "3"}},
              "MCLAG_INTERFACE": {"1|PortChannel0001": {"if_type": "PortChannel"}, "1|PortChannel0002": {"if_type": "PortChannel"}}
            }
            """.formatted(i, 3 - i);
    }

    static final String CORE = """
        {
          "DEVICE_METADATA": {"localhost": {"hostname": "core", "mac": "02:00:00:00:60:fe"}},
          "PORT": {"Ethernet0": {"speed": "100000"}, "Ethernet4": {"speed": "100000"}, "Ethernet8": {"speed": "100000"},
                   "Ethernet12": {"speed": "100000"}},
          "PORTCHANNEL": {"PortChannel0001": {"fast_rate": "true"}},
          "PORTCHANNEL_MEMBER": {"PortChannel0001|Ethernet8": {}, "PortChannel0001|Ethernet12": {}}
        }
        """;

    static Topology topology() {
        Topology.Builder t = Topology.builder();
        t.host(Host.builder("h0").mac("02:00:00:00:00:10").ipv4("10.1.0.10").bond(BondMode.LACP).lacpRate("fast")
            .build());
        t.host(Host.builder("h1").mac("02:00:00:00:00:11").ipv4("10.1.0.11").build());
        t.host(Host.builder("h2").mac("02:00:00:00:00:12").ipv4("10.1.0.12").build());
        t.switchNode("leaf1", ConfigLoader.parse(leaf(1)));
        t.switchNode("leaf2", ConfigLoader.parse(leaf(2)));
        t.switchNode("core", ConfigLoader.parse(CORE));
        t.link(Link.between("h0:eth0", "leaf1:Ethernet0").name("h0-leaf1").build());
        t.link(Link.between("h0:eth1", "leaf2:Ethernet0").name("h0-leaf2").build());
        t.link(Link.between("leaf1:Ethernet8", "leaf2:Ethernet8").name("peer").build());
        t.link(Link.between("core:Ethernet8", "leaf1:Ethernet4").name("core-leaf1").build());
        t.link(Link.between("core:Ethernet12", "leaf2:Ethernet4").name("core-leaf2").build());
        t.link(Link.between("h1", "core:Ethernet0").build());
        t.link(Link.between("h2", "core:Ethernet4").build());
        return t.build();
    }

    @Test
    void aBondedHostKeepsItsTransfersWhenALeafFails() {
        try (Fabric f = Fabric.virtualTime(topology(), 1)) {
            SoftNic h0 = f.nic("h0");
            assertEquals(2, h0.portCount());
            assertEquals(BondMode.LACP, h0.bond().mode());
            f.runFor(5 * SECOND);
            assertTrue(h0.bond().lacp(1).distributing() && h0.bond().lacp(2).distributing(),
                "both ports distribute: the two leaves answer LACP as one partner");
            assertEquals(h0.bond().lacp(1).partner().system(), h0.bond().lacp(2).partner().system());
            Workload w = Workload.start(f, List.of(
                Flow.builder("write", "h0", "h1").messageBytes(65_536).messages(400).qps(8).ackTimeout(8).build(),
                Flow.builder("read", "h0", "h2").verb(Verb.READ).messageBytes(65_536).messages(400).qps(8).ackTimeout(8)
                    .build(),
                Flow.builder("back", "h2", "h0").messageBytes(65_536).messages(400).qps(8).ackTimeout(8).build()), 1);
            f.runFor(300_000);
            assertFalse(w.finished());
            long eth1 = h0.port(2).transmitter().bytesSent();
            assertTrue(eth1 > 1_000_000 && h0.port(1).transmitter().bytesSent() > 1_000_000,
                "the bond hashes QPs onto both ports (ARP resolved by either): " + eth1);
            for (String l : List.of("h0-leaf2", "core-leaf2", "peer")) {
                f.setLinkUp(l, false);
            }
            assertTrue(f.runUntil(w::finished, 200 * MS), "the transfers finish through leaf1 alone");
            for (FlowResult r : w.results()) {
                assertEquals(FlowResult.Outcome.COMPLETED, r.outcome(), r.name());
                assertEquals(0, r.errors(), r.name());
                assertEquals(400L * 65_536, r.bytesDelivered(), r.name());
                assertTrue(r.maxGapNanos() < 1_050_000, r.name() + ": stood still less than an ACK timeout: " + r);
            }
            assertTrue(h0.bond().failovers() > 0, "eth1's QPs moved to eth0");
            assertFalse(h0.bond().lacp(2).distributing());
            w.close();
        }
    }
}
