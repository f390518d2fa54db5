package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two hosts may share an IPv4 address only in two tenants' overlays: each on an access port of a
 * VLAN its switch maps to a VNI (VXLAN_TUNNEL_MAP), the VNIs different. The same address in one
 * VNI, or outside any, stays one line naming the host, exit 2.
 */
class VxlanTenantAddressesTest {
    @TempDir
    Path dir;

    private static final String LAB = """
        name: tenants
        description: two hosts, one address
        duration: 100us
        topology:
          hosts:
            - {name: a0, ip: 192.168.0.1}
            - {name: b0, ip: 192.168.0.1}
          switches:
            - name: leaf0
              ports: 2
              tables:
                VLAN: {Vlan100: {vlanid: "100"}, Vlan200: {vlanid: "200"}}
                VLAN_MEMBER: {"Vlan100|Ethernet0": {tagging_mode: untagged}, "%s|Ethernet4": {tagging_mode: untagged}}
                VXLAN_TUNNEL: {vtep: {src_ip: 10.1.0.1}}
                VXLAN_TUNNEL_MAP:
                  "vtep|map_10100_Vlan100": {vni: "10100", vlan: Vlan100}
                  "vtep|map_10200_Vlan200": {vni: "10200", vlan: Vlan200}
          links:
            - {a: a0, b: leaf0:Ethernet0}
            - {a: b0, b: leaf0:Ethernet4}
        expect:
          - switch("leaf0").vxlan_drops == 0
        """;

    @Test
    void theSameAddressInTwoVnisIsNoMistake() throws Exception {
        Path f = dir.resolve("two-vnis.yaml");
        Files.writeString(f, LAB.formatted("Vlan200"));
        CliRun check = CliRun.of("lab", "check", f.toString());
        assertEquals(0, check.exitCode(), check.out() + check.err());
    }

    @Test
    void theSameAddressInOneVniIsOneLineAndExitCode2() throws Exception {
        Path f = dir.resolve("one-vni.yaml");
        Files.writeString(f, LAB.formatted("Vlan100"));
        CliRun check = CliRun.of("lab", "check", f.toString());
        assertEquals(2, check.exitCode(), check.out() + check.err());
        assertTrue(check.err().contains("host 'b0': ipv4 192.168.0.1 is also host 'a0''s"), check.err());
        assertTrue(check.err().lines().noneMatch(l -> l.contains("Exception")), check.err());
    }
}
