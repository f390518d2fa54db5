package io.rocelab.lab.labfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.model.Topology;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code nics: {out-of-order: true}} (out-of-order data placement, mlx5dv's
 * {@code MLX5DV_QP_CREATE_OOO_DP}) reaches every host's NIC, whichever way the lab gives its
 * topology; a host of a spelled-out fabric may say otherwise; a bad value is one mistake at its key.
 */
class OutOfOrderKeysTest {
    private static final String SPELLED_OUT = """
        name: spelled-out
        duration: 1ms
        topology:
          hosts: [h0, {name: h1, out-of-order: false}]
          switches: [{name: leaf0, ports: 2}]
          links:
            - {a: h0, b: leaf0:Ethernet0}
            - {a: h1, b: leaf0:Ethernet4}
        nics: {out-of-order: true}
        flows:
          - {from: h1, to: h0}
        """;

    private static Topology topology(String text) throws LabFileException {
        return LabReader.read("t.yaml", text, LabSources.directory(Path.of("."))).runs().get(0).topology();
    }

    private static boolean ooo(Topology t, String host) {
        Fabric f = Fabric.virtualTime(t, 1);
        try {
            return f.nic(host).oooDataPlacement();
        } finally {
            f.close();
        }
    }

    @Test
    void theNicsKeyReachesEveryNicAndAHostMaySayOtherwise() throws LabFileException {
        Topology t = topology(SPELLED_OUT);
        assertTrue(ooo(t, "h0"));
        assertFalse(ooo(t, "h1"), "its own out-of-order: false");
        Topology own = topology(SPELLED_OUT.replace("nics: {out-of-order: true}\n", "")
            .replace("{name: h1, out-of-order: false}", "{name: h1, out-of-order: true}"));
        assertFalse(ooo(own, "h0"), "in order by default, as rxe");
        assertTrue(ooo(own, "h1"), "a host alone");
    }

    @Test
    void theKeyReachesTheGeneratedFabricsNics() throws LabFileException {
        String leafSpine = """
            name: ls
            duration: 1ms
            topology:
              leaf-spine: {leaves: 1, spines: 1, hosts-per-leaf: 2}
            nics:
              out-of-order: true
            flows:
              - {from: h1, to: h0}
            """;
        assertTrue(ooo(topology(leafSpine), "h1"));
        assertTrue(ooo(topology(leafSpine.replace("leaf-spine: {leaves: 1, spines: 1, hosts-per-leaf: 2}",
            "fat-tree: {k: 2}")), "h0"));
        assertFalse(ooo(topology(leafSpine.replace("  out-of-order: true\n", "  cc: none\n")), "h0"));
    }

    @Test
    void badValuesAreOneMistakeEachAtTheirKey() {
        LabFileException e = assertThrows(LabFileException.class, () -> topology(SPELLED_OUT
            .replace("nics: {out-of-order: true}", "nics: {out-of-order: sometimes}")
            .replace("out-of-order: false}", "out-of-order: 3}")));
        List<String> p = e.problems();
        assertEquals(2, p.size(), p.toString());
        assertTrue(p.stream().anyMatch(s -> s.startsWith("t.yaml:9:")
            && s.contains("nics.out-of-order: must be true or false, not 'sometimes'")), p.toString());
        assertTrue(p.stream().anyMatch(s -> s.contains("topology.hosts[1].out-of-order: must be true or false")),
            p.toString());
    }
}
