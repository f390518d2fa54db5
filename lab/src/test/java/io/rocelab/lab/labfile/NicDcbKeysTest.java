package io.rocelab.lab.labfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.nic.dcb.DcbSettings;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.model.Topology;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code nics: {trust, pfc, dcbx}} (mlnx_qos's settings) reach every host's NIC, whichever way the
 * lab gives its topology; a host of a spelled-out fabric may have its own; a bad value is one
 * mistake at its key.
 */
class NicDcbKeysTest {
    private static final String SPELLED_OUT = """
        name: spelled-out
        duration: 1ms
        topology:
          hosts: [h0, {name: h1, trust: dscp, pfc: "0,0,0,1,1,0,0,0"}]
          switches: [{name: leaf0, ports: 2}]
          links:
            - {a: h0, b: leaf0:Ethernet0}
            - {a: h1, b: leaf0:Ethernet4}
        nics: {trust: pcp, pfc: [0, 0, 0, 1, 0, 0, 0, 0], dcbx: off}
        flows:
          - {from: h1, to: h0}
        """;

    private static Topology topology(String text) throws LabFileException {
        return LabReader.read("t.yaml", text, LabSources.directory(Path.of("."))).runs().get(0).topology();
    }

    private static DcbSettings built(Topology t, String host) {
        Fabric f = Fabric.virtualTime(t, 1);
        try {
            return f.nic(host).dcb().settings();
        } finally {
            f.close();
        }
    }

    @Test
    void theNicsKeysReachEveryNicAndAHostMayHaveItsOwn() throws LabFileException {
        Topology t = topology(SPELLED_OUT);
        DcbSettings h0 = built(t, "h0");
        assertEquals(DcbSettings.Trust.PCP, h0.trust());
        assertEquals(0x08, h0.pfcEnable());
        assertEquals(DcbSettings.DcbxMode.OFF, h0.dcbx());
        DcbSettings h1 = built(t, "h1");
        assertEquals(DcbSettings.Trust.DSCP, h1.trust(), "its own trust");
        assertEquals(0x18, h1.pfcEnable(), "its own pfc");
        assertEquals(DcbSettings.DcbxMode.OFF, h1.dcbx(), "the nics: section's dcbx");
    }

    @Test
    void withoutTheKeysTheDefaults() throws LabFileException {
        Topology t = topology(SPELLED_OUT.replace("nics: {trust: pcp, pfc: [0, 0, 0, 1, 0, 0, 0, 0], dcbx: off}\n", "")
            .replace("{name: h1, trust: dscp, pfc: \"0,0,0,1,1,0,0,0\"}", "h1"));
        assertEquals(DcbSettings.DEFAULTS, built(t, "h0"));
    }

    @Test
    void theKeysReachTheGeneratedFabricsNics() throws LabFileException {
        String leafSpine = """
            name: ls
            duration: 1ms
            topology:
              leaf-spine: {leaves: 1, spines: 1, hosts-per-leaf: 2}
            nics:
              pfc: 0,0,0,0,1,0,0,0
            flows:
              - {from: h1, to: h0}
            """;
        assertEquals(0x10, built(topology(leafSpine), "h1").pfcEnable());
        String fatTree = leafSpine.replace("leaf-spine: {leaves: 1, spines: 1, hosts-per-leaf: 2}", "fat-tree: {k: 2}")
            .replace("pfc: 0,0,0,0,1,0,0,0", "trust: pcp");
        assertEquals(DcbSettings.Trust.PCP, built(topology(fatTree), "h0").trust());
    }

    @Test
    void badValuesAreOneMistakeEachAtTheirKey() {
        LabFileException e = assertThrows(LabFileException.class, () -> topology(SPELLED_OUT
            .replace("nics: {trust: pcp, pfc: [0, 0, 0, 1, 0, 0, 0, 0], dcbx: off}", "nics: {trust: dot1p, pfc: 3, dcbx: always}")
            .replace("trust: dscp, pfc: \"0,0,0,1,1,0,0,0\"", "pfc: \"0,0,0,1\"")));
        List<String> p = e.problems();
        assertEquals(4, p.size(), p.toString());
        assertTrue(p.stream().anyMatch(s -> s.startsWith("t.yaml:9:") && s.contains("nics.trust: trust is dscp or pcp")),
            p.toString());
        assertTrue(p.stream().anyMatch(s -> s.contains("nics.pfc: pfc is eight comma-separated 0/1")), p.toString());
        assertTrue(p.stream().anyMatch(s -> s.contains("nics.dcbx: dcbx is willing or off")), p.toString());
        assertTrue(p.stream().anyMatch(s -> s.contains("topology.hosts[1].pfc")), p.toString());
    }
}
