package io.rocelab.topology.lag;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * A spelled-out fabric whose two switches' config_db has a PORTCHANNEL over their two cables:
 * nothing more is needed for the fabric to bring it up (LACP in virtual time) and for RC WRITEs
 * between the hosts to cross it, over both members, and over the one left when a cable is cut.
 */
class PortChannelFabricTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long MS = 1_000_000L;

    /** Switch {@code self} (1 or 2): Ethernet0 to its host, Ethernet4 and Ethernet8 in PortChannel0001 to the other switch. */
    static String configDb(int self) {
        int other = 3 - self;
        return """
            {
              "DEVICE_METADATA": {"localhost": {"hostname": "s%1$d", "mac": "02:00:00:00:5%1$d:fe"}},
              "PORT": {"Ethernet0": {"speed": "100000"}, "Ethernet4": {"speed": "100000"}, "Ethernet8": {"speed": "100000"}},
              "PORTCHANNEL": {"PortChannel0001": {"admin_status": "up", "mtu": "9100", "min_links": "1",
                                                  "lacp_key": "auto", "fallback": "false", "fast_rate": "true"}},
              "PORTCHANNEL_MEMBER": {"PortChannel0001|Ethernet4": {}, "PortChannel0001|Ethernet8": {}},
              "STATIC_ROUTE": {
                "10.0.0.%1$d/32": {"ifname": "Ethernet0", "nexthop_mac": "02:00:00:00:00:0%1$d"},
                "10.0.0.%2$d/32": {"ifname": "PortChannel0001", "nexthop_mac": "02:00:00:00:5%2$d:fe"}
              }
            }
            """.formatted(self, other);
    }

    static Topology topology() {
        Topology.Builder t = Topology.builder();
        for (int i = 1; i <= 2; i++) {
            t.host(Host.builder("h" + i).mac("02:00:00:00:00:0" + i).ipv4("10.0.0." + i).build());
            t.switchNode("s" + i, ConfigLoader.parse(configDb(i)));
            t.link(Link.between("h" + i, "s" + i + ":Ethernet0").build());
        }
        t.link(Link.between("s1:Ethernet4", "s2:Ethernet4").name("m4").build());
        t.link(Link.between("s1:Ethernet8", "s2:Ethernet8").name("m8").build());
        return t.build();
    }

    private static FlowResult write(Fabric f, String name, String from, String to) {
        Workload w = Workload.start(f, List.of(Flow.builder(name, from, to).messageBytes(65_536).messages(50).qps(8)
            .build()), 1);
        assertTrue(f.runUntil(w::finished, 100 * MS), name + " finished");
        FlowResult r = w.result(name);
        w.close();
        return r;
    }

    @Test
    void aConfigDbWithAPortChannelIsAllTheFabricNeeds() {
        try (Fabric f = Fabric.virtualTime(topology(), 1)) {
            f.runFor(5 * SECOND);
            SoftSwitch s1 = f.softSwitch("s1");
            LagGroup g = f.onOwner("s1", () -> s1.portChannels().groups().get(0));
            assertTrue(g.isUp(), "LACP brought PortChannel0001 up");
            assertEquals(2, g.distributingCount());
            long[] before = {s1.counters(1).txFrames, s1.counters(2).txFrames};
            FlowResult r = write(f, "w1", "h1", "h2");
            assertEquals(FlowResult.Outcome.COMPLETED, r.outcome());
            assertEquals(0, r.errors());
            assertEquals(50L * 65_536, r.bytesDelivered());
            long on4 = s1.counters(1).txFrames - before[0];
            long on8 = s1.counters(2).txFrames - before[1];
            assertTrue(on4 > 100 && on8 > 100, "8 QPs spread over both members: " + on4 + " / " + on8);

            f.setLinkUp("m8", false);
            f.runFor(1_000);
            assertEquals(1, g.distributingCount(), "a cut cable leaves the port channel at once");
            FlowResult r2 = write(f, "w2", "h2", "h1");
            assertEquals(FlowResult.Outcome.COMPLETED, r2.outcome());
            assertEquals(0, r2.errors(), "the member left carries every QP");
            assertEquals(50L * 65_536, r2.bytesDelivered());
        }
    }
}
