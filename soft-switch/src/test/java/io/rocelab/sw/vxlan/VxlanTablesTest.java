package io.rocelab.sw.vxlan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.sw.config.ConfigException;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.sw.config.LoadedConfig;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.config.TunnelDscpMode;
import io.rocelab.sw.config.TunnelEcnMode;
import io.rocelab.sw.config.VxlanConfig;
import io.rocelab.sw.testkit.ConfigBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * SONiC's VXLAN tables read from a config_db (sonic-vxlan.yang's fields, rocelab's QoS fields and
 * static flood list), every mistake one line naming TABLE|key, and {@code show vxlan tunnel} and
 * {@code show vxlan vlanvnimap} in sonic-utilities' layout, checked against the expected output of
 * its tests/vxlan_test.py for the same tables (vtep1 1.1.1.1, VLANs 100-102 and 200 mapped to VNIs
 * of the same numbers).
 */
class VxlanTablesTest {
    /** The tables of sonic-utilities' mock config_db for its vxlan tests, on a rocelab switch. */
    static ObjectNode sonicUtilitiesTables() {
        ConfigBuilder b = new ConfigBuilder(2, 100);
        for (int v : new int[] {100, 101, 102, 200}) {
            b.tables().vlan("Vlan" + v, v);
        }
        ObjectNode root = b.root();
        root.putObject("VXLAN_TUNNEL").putObject("vtep1").put("src_ip", "1.1.1.1");
        ObjectNode maps = root.putObject("VXLAN_TUNNEL_MAP");
        for (int v : new int[] {200, 100, 101, 102}) {
            maps.putObject("vtep1|map_" + v + "_Vlan" + v).put("vlan", "Vlan" + v).put("vni", String.valueOf(v));
        }
        root.putObject("VXLAN_EVPN_NVO").putObject("nvo1").put("source_vtep", "vtep1");
        return root;
    }

    @Test
    void readsTheTablesAsSonicWritesThem() {
        SwitchConfig c = ConfigLoader.parse(sonicUtilitiesTables().toPrettyString());
        VxlanConfig v = c.vxlan();
        assertEquals("vtep1", v.tunnel().name());
        assertEquals(Ipv4.parse("1.1.1.1"), v.tunnel().srcIp());
        assertEquals(TunnelDscpMode.UNIFORM, v.tunnel().dscpMode(), "SAI's default");
        assertEquals(TunnelEcnMode.STANDARD, v.tunnel().ecnMode(), "SAI's default");
        assertEquals(4, v.maps().size());
        assertEquals(200, v.vniOfVlan(200));
        assertEquals(101, v.vlanOfVni(101));
        assertEquals("nvo1", v.nvo());
        assertTrue(v.remoteVnis().isEmpty());
    }

    @Test
    void showVxlanTunnelAsSonicUtilitiesPrintsIt() {
        SwitchConfig c = ConfigLoader.parse(sonicUtilitiesTables().toPrettyString());
        assertEquals("""
            vxlan tunnel name    source ip    destination ip    tunnel map name    tunnel map mapping(vni -> vlan)
            -------------------  -----------  ----------------  -----------------  ---------------------------------
            vtep1                1.1.1.1                        map_100_Vlan100    100 -> Vlan100
                                                                map_101_Vlan101    101 -> Vlan101
                                                                map_102_Vlan102    102 -> Vlan102
                                                                map_200_Vlan200    200 -> Vlan200
            """, VxlanViews.tunnel(c.vxlan()));
    }

    @Test
    void showVxlanVlanvnimapAsSonicUtilitiesPrintsIt() {
        SwitchConfig c = ConfigLoader.parse(sonicUtilitiesTables().toPrettyString());
        assertEquals("""
            +---------+-------+
            | VLAN    |   VNI |
            +=========+=======+
            | Vlan100 |   100 |
            +---------+-------+
            | Vlan101 |   101 |
            +---------+-------+
            | Vlan102 |   102 |
            +---------+-------+
            | Vlan200 |   200 |
            +---------+-------+
            Total count : 4

            """, VxlanViews.vlanVniMap(c.vxlan()));
    }

    @Test
    void staticFloodListsAndPointToPointTunnels() {
        ObjectNode root = sonicUtilitiesTables();
        root.putObject("VXLAN_REMOTE_VNI").putObject("Vlan200|25.25.25.25").put("vni", "200");
        ((ObjectNode) root.get("VXLAN_TUNNEL").get("vtep1")).put("dst_ip", "25.25.25.26").put("dscp_mode", "pipe")
            .put("encap_dscp", "8").put("ecn_mode", "ignore_outer");
        VxlanConfig v = ConfigLoader.parse(root.toPrettyString()).vxlan();
        assertEquals(List.of(Ipv4.parse("25.25.25.25"), Ipv4.parse("25.25.25.26")), v.floodList(200));
        assertEquals(List.of(Ipv4.parse("25.25.25.26")), v.floodList(100), "dst_ip: every mapped VLAN floods to it");
        assertEquals(TunnelDscpMode.PIPE, v.tunnel().dscpMode());
        assertEquals(8, v.tunnel().encapDscp());
        assertEquals(TunnelEcnMode.IGNORE_OUTER, v.tunnel().ecnMode());
    }

    @Test
    void everyMistakeIsOneLineNamingItsEntry() {
        ObjectNode root = sonicUtilitiesTables();
        ((ObjectNode) root.get("VXLAN_TUNNEL").get("vtep1")).put("dscp_mode", "unform").put("ecn_mode", "rfc6040")
            .put("srcip", "1.1.1.1");
        root.with("VXLAN_TUNNEL").putObject("vtep2").put("src_ip", "fe80::1");
        root.with("VXLAN_TUNNEL_MAP").putObject("vtep1|map_300_Vlan300").put("vlan", "Vlan300").put("vni", "300");
        root.with("VXLAN_TUNNEL_MAP").putObject("vtep1|map_100_again").put("vlan", "Vlan101").put("vni", "100");
        root.with("VXLAN_TUNNEL_MAP").putObject("vtep1|map_big").put("vlan", "Vlan102").put("vni", "16777216");
        root.with("VXLAN_EVPN_NVO").putObject("nvo1").put("source_vtep", "vtep9");
        root.putObject("VXLAN_REMOTE_VNI").putObject("Vlan100|not-an-ip");
        root.with("VXLAN_REMOTE_VNI").putObject("Vlan200|2.2.2.2").put("vni", "201");
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse(root.toPrettyString()));
        List<String> p = e.problems();
        String all = String.join("\n", p);
        for (String expected : List.of(
                "VXLAN_TUNNEL: rocelab models one VTEP per switch, not 2",
                "VXLAN_TUNNEL|vtep1: unknown field 'srcip'",
                "VXLAN_TUNNEL|vtep2: src_ip must be an IPv4 address (IPv6 VTEPs are not modelled), not 'fe80::1'",
                "VXLAN_TUNNEL_MAP|vtep1|map_300_Vlan300: vlan 'Vlan300' is no VLAN of this switch",
                "VXLAN_TUNNEL_MAP|vtep1|map_100_again: vni 100 is also mapped by vtep1|map_100_Vlan100",
                "VXLAN_TUNNEL_MAP|vtep1|map_100_again: Vlan101 is also mapped by vtep1|map_101_Vlan101",
                "VXLAN_TUNNEL_MAP|vtep1|map_big: vni 16777216 is out of range 1-16777215",
                "VXLAN_EVPN_NVO|nvo1: source_vtep 'vtep9' is no VXLAN_TUNNEL",
                "VXLAN_REMOTE_VNI|Vlan100|not-an-ip: the key must be VLAN|REMOTE_VTEP_IPV4, e.g. Vlan100|10.1.0.2",
                "VXLAN_REMOTE_VNI|Vlan200|2.2.2.2: vni 201 is not Vlan200's VNI 200 (rocelab uses one VNI a VLAN at both ends)")) {
            assertTrue(p.contains(expected), "missing: " + expected + "\n" + all);
        }
        assertTrue(all.contains("VXLAN_TUNNEL|vtep1: unknown field 'srcip'"), all);
    }

    @Test
    void aFieldThatIsNoNumberIsOneLineAndNothingElse() {
        ObjectNode root = sonicUtilitiesTables();
        root.putObject("VXLAN_REMOTE_VNI").putObject("Vlan100|2.2.2.2").put("vni", "ten");
        ((ObjectNode) root.get("VXLAN_TUNNEL").get("vtep1")).put("dscp_mode", "pipe").put("encap_dscp", "64");
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse(root.toPrettyString()));
        assertEquals(List.of("VXLAN_TUNNEL|vtep1: encap_dscp 64 is out of range 0-63",
            "VXLAN_REMOTE_VNI|Vlan100|2.2.2.2: vni must be a number, not 'ten'"), e.problems(),
            "a wrong vni is not also told as a VNI other than the VLAN's");
    }

    @Test
    void badModesAreNamed() {
        ObjectNode root = sonicUtilitiesTables();
        ((ObjectNode) root.get("VXLAN_TUNNEL").get("vtep1")).put("dscp_mode", "unform").put("ecn_mode", "rfc6040");
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse(root.toPrettyString()));
        assertEquals(List.of("VXLAN_TUNNEL|vtep1: dscp_mode must be uniform or pipe, not 'unform'",
            "VXLAN_TUNNEL|vtep1: ecn_mode must be standard, copy_from_outer or ignore_outer, not 'rfc6040'"),
            e.problems());
    }

    @Test
    void aTtlModeUniformIsNoted() {
        ObjectNode root = sonicUtilitiesTables();
        ((ObjectNode) root.get("VXLAN_TUNNEL").get("vtep1")).put("ttl_mode", "uniform");
        LoadedConfig l = ConfigLoader.read(root.toPrettyString());
        assertTrue(String.join("\n", l.notes()).contains("ttl_mode uniform"), String.join("\n", l.notes()));
    }
}
