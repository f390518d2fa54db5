package io.rocelab.lab.labfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rocelab.sw.config.ArsConfig;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.topology.model.Topology;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code load-balancing} of the fabric ({@code topology:}) and of one switch: each mode becomes the
 * switch configuration SONiC would carry for it ({@code SWITCH|switch flowlet_timeout}, or an ARS
 * object over every next-hop group); {@code flowlet-timeout} alone still means queue-only flowlets.
 */
class LoadBalancingKeyTest {
    private static final String LEAF_SPINE = """
        name: lb
        duration: 1ms
        topology:
          leaf-spine: {leaves: 2, spines: 2}
        flows:
          - {from: h0, to: h2}
        """;
    private static final String SPELLED_OUT = """
        name: lb
        duration: 1ms
        topology:
          hosts: [h0, h1]
          switches:
            - {name: leaf0, ports: 2}
            - {name: leaf1, ports: 2, load-balancing: per-packet}
          links:
            - {a: h0, b: leaf0:Ethernet0}
            - {a: leaf0:Ethernet4, b: leaf1:Ethernet0}
            - {a: h1, b: leaf1:Ethernet4}
        flows:
          - {from: h0, to: h1}
        """;

    private static Topology topology(String text) throws LabFileException {
        return LabReader.read("t.yaml", text, LabSources.directory(Path.of("."))).runs().get(0).topology();
    }

    private static String withTopologyKey(String text, String key) {
        return text.replace("topology:\n", "topology:\n  " + key + "\n");
    }

    @Test
    void eachModeOfTheFabricReachesEverySwitch() throws LabFileException {
        for (SwitchConfig c : configs(topology(LEAF_SPINE))) {
            assertEquals(0, c.flowletTimeoutNanos());
            assertEquals(ArsConfig.NONE, c.ars(), "static hashing by default");
        }
        for (SwitchConfig c : configs(topology(withTopologyKey(LEAF_SPINE, "flowlet-timeout: 5us")))) {
            assertEquals(5_000, c.flowletTimeoutNanos(), "flowlet-timeout alone: queue-only flowlets, as before");
            assertEquals(ArsConfig.NONE, c.ars());
        }
        for (SwitchConfig c : configs(topology(withTopologyKey(LEAF_SPINE, "load-balancing: flowlet")))) {
            assertEquals(256_000, c.flowletTimeoutNanos(), "SAI_ARS_ATTR_IDLE_TIME's default");
        }
        for (SwitchConfig c : configs(topology(withTopologyKey(LEAF_SPINE,
                "load-balancing: flowlet-quality\n  flowlet-timeout: 20us")))) {
            assertEquals(0, c.flowletTimeoutNanos());
            ArsConfig.ArsObject o = c.ars().objects().get(c.ars().defaultObject());
            assertEquals(ArsConfig.AssignMode.PER_FLOWLET_QUALITY, o.mode());
            assertEquals(20_000, o.idleTimeNanos());
        }
        for (SwitchConfig c : configs(topology(withTopologyKey(LEAF_SPINE, "load-balancing: per-packet")))) {
            assertEquals(ArsConfig.AssignMode.PER_PACKET_QUALITY,
                c.ars().objects().get(c.ars().defaultObject()).mode());
        }
    }

    private static List<SwitchConfig> configs(Topology t) {
        return t.switches().stream().map(s -> s.config()).toList();
    }

    @Test
    void aSwitchsOwnKeyOverridesTheFabrics() throws LabFileException {
        Topology t = topology(withTopologyKey(SPELLED_OUT, "load-balancing: flowlet-quality"));
        assertEquals(ArsConfig.AssignMode.PER_FLOWLET_QUALITY, mode(t, "leaf0"));
        assertEquals(ArsConfig.AssignMode.PER_PACKET_QUALITY, mode(t, "leaf1"));
        Topology alone = topology(SPELLED_OUT);
        assertNull(alone.switchNode("leaf0").config().ars().defaultObject(), "no fabric key: leaf0 hashes");
        assertEquals(ArsConfig.AssignMode.PER_PACKET_QUALITY, mode(alone, "leaf1"));
    }

    @Test
    void aSwitchsTablesMayCarrySonicsArsTables() throws LabFileException {
        Topology t = topology(SPELLED_OUT.replace("{name: leaf0, ports: 2}", "{name: leaf0, ports: 2, tables: "
            + "{ARS_PROFILE: {p: {ars_nhg_path_selector_mode: global, default_ars_object: dlb}}, "
            + "ARS_OBJECT: {dlb: {assign_mode: per_flowlet_quality, flowlet_idle_time: '64'}}}}"));
        assertEquals(ArsConfig.AssignMode.PER_FLOWLET_QUALITY, mode(t, "leaf0"));
        ArsConfig a = t.switchNode("leaf0").config().ars();
        assertEquals(64_000, a.objects().get("dlb").idleTimeNanos());
        LabFileException e = assertThrows(LabFileException.class, () -> topology(SPELLED_OUT.replace(
            "{name: leaf0, ports: 2}", "{name: leaf0, ports: 2, tables: {ARS_OBJECT: {dlb: {assign_mode: dlb}}}}")));
        assertEquals(1, e.problems().size(), e.problems().toString());
        assertEquals(1, e.problems().stream().filter(p -> p.contains("ARS_OBJECT|dlb: assign_mode must be "
            + "per_flowlet_quality or per_packet_quality, not 'dlb'")).count(), e.problems().toString());
    }

    private static ArsConfig.AssignMode mode(Topology t, String sw) {
        ArsConfig a = t.switchNode(sw).config().ars();
        return a.objects().get(a.defaultObject()).mode();
    }

    @Test
    void mistakesNameTheirKey() {
        LabFileException e = assertThrows(LabFileException.class, () -> topology(withTopologyKey(
            SPELLED_OUT.replace("load-balancing: per-packet", "load-balancing: spray"),
            "load-balancing: per-packet\n  flowlet-timeout: 5us")));
        assertEquals(2, e.problems().size(), e.problems().toString());
        assertEquals(1, e.problems().stream().filter(p -> p.contains("topology.flowlet-timeout: the flowlet timeout is "
            + "the idle time of flowlets: give it with load-balancing flowlet or flowlet-quality, not per-packet")).count(),
            e.problems().toString());
        assertEquals(1, e.problems().stream().filter(p -> p.contains("load-balancing: must be ecmp, flowlet, "
            + "flowlet-quality or per-packet, not 'spray'")).count(), e.problems().toString());
    }
}
