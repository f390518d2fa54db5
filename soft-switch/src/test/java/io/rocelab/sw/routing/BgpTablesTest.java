package io.rocelab.sw.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.sw.config.BgpConfig;
import io.rocelab.sw.config.ConfigException;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.sw.config.SwitchConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The config_db tables of the BGP speaker, as SONiC's bgpcfgd reads them. */
class BgpTablesTest {
    /** A T0 with two T1 neighbours, as a SONiC config_db holds them. */
    static String t0(String extraNeighbor) {
        return """
            {
              "DEVICE_METADATA": {"localhost": {"hostname": "t0", "mac": "02:00:00:00:00:f0", "bgp_asn": "65001"}},
              "PORT": {"Ethernet0": {"speed": "100000"}, "Ethernet4": {"speed": "100000"}, "Ethernet8": {"speed": "100000"}},
              "INTERFACE": {"Ethernet4": {}, "Ethernet4|10.0.0.1/31": {}, "Ethernet8": {}, "Ethernet8|10.0.0.3/31": {}},
              "LOOPBACK_INTERFACE": {"Loopback0": {}, "Loopback0|10.1.0.1/32": {}},
              "STATIC_ROUTE": {"192.168.0.1/32": {"ifname": "Ethernet0", "nexthop_mac": "02:00:00:00:00:01"}},
              "BGP_NEIGHBOR": {
                "10.0.0.0": {"asn": "65100", "name": "T1-1", "local_addr": "10.0.0.1", "holdtime": "9",
                             "keepalive": "3", "admin_status": "up"},
                "10.0.0.2": {"asn": "65100", "name": "T1-2", "local_addr": "10.0.0.3"%s}
              }
            }
            """.formatted(extraNeighbor);
    }

    @Test
    void theNeighboursTheirPortsTheRouterIdAndTheNetworks() {
        SwitchConfig c = ConfigLoader.parse(t0(""));
        BgpConfig bgp = c.bgp();
        assertEquals(65001, bgp.asn());
        assertEquals("10.1.0.1", Ipv4.toString(bgp.routerId()), "Loopback0");
        assertEquals(3_000_000_000L, bgp.keepaliveNanos());
        assertEquals(9_000_000_000L, bgp.holdNanos());
        assertNull(bgp.bfd());
        assertTrue(bgp.fastExternalFailover());
        assertEquals(List.of("10.1.0.1/32", "192.168.0.1/32"), bgp.networks());
        assertEquals(List.of(
            new BgpConfig.Neighbor("Ethernet4", Ipv4.parse("10.0.0.1"), Ipv4.parse("10.0.0.0"), 65100, "T1-1", true),
            new BgpConfig.Neighbor("Ethernet8", Ipv4.parse("10.0.0.3"), Ipv4.parse("10.0.0.2"), 65100, "T1-2", true)),
            bgp.neighbors());
    }

    @Test
    void withoutBgpAsnThereIsNoSpeaker() {
        SwitchConfig c = ConfigLoader.parse("""
            {"DEVICE_METADATA": {"localhost": {"hostname": "s", "mac": "02:00:00:00:00:f0"}},
             "PORT": {"Ethernet0": {"speed": "100000"}}}
            """);
        assertNull(c.bgp());
    }

    @Test
    void aNeighbourOnNoInterfaceAndAnUnknownKeyAreOneLineEach() {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse(
            t0(", \"bfd\": \"true\"").replace("\"Ethernet8|10.0.0.3/31\": {}", "\"Ethernet8|10.0.9.3/31\": {}")));
        assertEquals(List.of(
            "BGP_NEIGHBOR|10.0.0.2: unknown key 'bfd' (allowed: admin_status, asn, holdtime, keepalive, local_addr, "
                + "name, nhopself, peer_addr, rrclient)",
            "BGP_NEIGHBOR|10.0.0.2: no INTERFACE|<port>|<ip/len> holds local_addr 10.0.0.3 and the neighbour"),
            e.problems());
    }
}
