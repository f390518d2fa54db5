package io.rocelab.lab.labfile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rocelab.fabric.pfc.PauseResponse;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.model.Topology;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code nics: {pause-response: ...}} reaches every host's NIC, whichever way the lab gives its
 * topology; without it each NIC takes IEEE 802.3 31B.3.7's bound for its link speed.
 */
class NicPauseResponseKeyTest {
    private static final String SPELLED_OUT = """
        name: spelled-out
        duration: 1ms
        topology:
          hosts: [h0, h1]
          switches: [{name: leaf0, ports: 2, speed: 100G, port-speed: {Ethernet4: 25G}}]
          links:
            - {a: h0, b: leaf0:Ethernet0}
            - {a: h1, b: leaf0:Ethernet4}
        flows:
          - {from: h1, to: h0}
        """;

    private static Topology topology(String text) throws LabFileException {
        return LabReader.read("t.yaml", text, LabSources.directory(Path.of("."))).runs().get(0).topology();
    }

    /** The response, in nanoseconds, each named host's NIC was built with. */
    private static long[] built(Topology t, String... hosts) {
        Fabric f = Fabric.virtualTime(t, 1);
        try {
            long[] out = new long[hosts.length];
            for (int i = 0; i < hosts.length; i++) {
                out[i] = f.nic(hosts[i]).port(1).pauseResponseNanos();
            }
            return out;
        } finally {
            f.close();
        }
    }

    @Test
    void byDefaultTheStandardsBoundForEachLinksSpeed() throws LabFileException {
        Topology t = topology(SPELLED_OUT);
        assertEquals(PauseResponse.IEEE, t.host("h0").pauseResponse());
        long[] ns = built(t, "h0", "h1");
        assertEquals(2_018, ns[0], "394 quanta at 100 Gb/s");
        assertEquals(1_639, ns[1], "80 quanta at 25 Gb/s");
    }

    @Test
    void theKeyReachesEveryNicOfASpelledOutFabric() throws LabFileException {
        Topology t = topology(SPELLED_OUT.replace("flows:", "nics: {pause-response: 394q}\nflows:"));
        long[] ns = built(t, "h0", "h1");
        assertEquals(2_018, ns[0]);
        assertEquals(8_070, ns[1], "394 quanta counted at 25 Gb/s: 201,728 bit times");
    }

    @Test
    void theKeyReachesTheGeneratedFabricsNics() throws LabFileException {
        String leafSpine = """
            name: ls
            duration: 1ms
            topology:
              leaf-spine: {leaves: 1, spines: 1, hosts-per-leaf: 2}
            nics: {cc: dcqcn, pause-response: 0}
            flows:
              - {from: h1, to: h0}
            """;
        assertEquals(0, built(topology(leafSpine), "h0", "h1")[1]);
        String fatTree = leafSpine.replace("leaf-spine: {leaves: 1, spines: 1, hosts-per-leaf: 2}", "fat-tree: {k: 2}")
            .replace("pause-response: 0", "pause-response: 5us");
        assertEquals(5_000, built(topology(fatTree), "h0")[0]);
    }
}
