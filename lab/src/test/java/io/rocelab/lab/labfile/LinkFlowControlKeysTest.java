package io.rocelab.lab.labfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.nic.FlowControlMode;
import io.rocelab.sw.config.GlobalFlowControl;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.model.Topology;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code nics: {flow-control: pfc|pause}} and {@code qos: {flow-control: pfc|pause}}: the NICs built
 * in 802.3x PAUSE, the generated switches' ports with rocelab's {@code PORT global_flow_control both}
 * and no {@code pfc_enable}; a bad value, a lossy profile with PAUSE, or NICs and switch ports that
 * disagree, one line each at the key.
 */
class LinkFlowControlKeysTest {
    private static final String LAB = """
        name: t
        duration: 1ms
        topology:
          leaf-spine: {leaves: 1, spines: 1, hosts-per-leaf: 2}
        qos: {flow-control: pause}
        nics: {flow-control: pause}
        flows:
          - {from: h1, to: h0}
        """;

    private static Topology topology(String text) throws LabFileException {
        return LabReader.read("t.yaml", text, LabSources.directory(Path.of("."))).runs().get(0).topology();
    }

    @Test
    void pauseReachesEveryNicAndEverySwitchPort() throws LabFileException {
        Topology t = topology(LAB);
        for (PortConfig p : t.switchNode("leaf0").config().ports()) {
            assertEquals(GlobalFlowControl.BOTH, p.globalFlowControl(), p.name());
            assertEquals(0, p.pfcEnableMask(), "no PFC on " + p.name());
        }
        Fabric f = Fabric.virtualTime(t, 1);
        try {
            assertEquals(FlowControlMode.PAUSE, f.nic("h0").flowControl());
            assertEquals(FlowControlMode.PAUSE, f.nic("h1").flowControl());
        } finally {
            f.close();
        }
    }

    @Test
    void byDefaultPfc() throws LabFileException {
        Topology t = topology(LAB.replace("qos: {flow-control: pause}\n", "").replace("nics: {flow-control: pause}\n",
            ""));
        assertEquals(FlowControlMode.PFC, t.host("h0").flowControl());
        PortConfig p = t.switchNode("leaf0").config().ports().get(0);
        assertEquals(GlobalFlowControl.OFF, p.globalFlowControl());
        assertEquals(1 << 3, p.pfcEnableMask());
    }

    @Test
    void mistakesAreOneLineEachAtTheKey() {
        assertEquals(List.of("t.yaml:6:22: nics.flow-control: the NICs run 802.3x PAUSE but the switch ports run PFC: "
            + "add qos: {flow-control: pause} (a link runs PFC or PAUSE, not both)"),
            problems(LAB.replace("qos: {flow-control: pause}\n", "qos: {profile: lossless}\n")));
        assertEquals(List.of("t.yaml:5:21: qos.flow-control: the switch ports run 802.3x PAUSE but the NICs run PFC: "
            + "add nics: {flow-control: pause} (a link runs PFC or PAUSE, not both)"),
            problems(LAB.replace("nics: {flow-control: pause}\n", "")));
        List<String> bad = problems(LAB.replace("qos: {flow-control: pause}", "qos: {flow-control: xon}")
            .replace("nics: {flow-control: pause}", "nics: {flow-control: global}"));
        assertEquals(2, bad.size(), bad.toString());
        assertTrue(bad.get(0).contains("qos.flow-control: link flow control is pfc or pause (IEEE 802.3x), not 'xon'")
            || bad.get(1).contains("qos.flow-control: link flow control is pfc or pause"), bad.toString());
        assertTrue(bad.stream().anyMatch(l -> l.contains("nics.flow-control: a NIC's link flow control is pfc")),
            bad.toString());
        assertEquals(List.of("t.yaml:5:21: qos.flow-control: 802.3x PAUSE takes its thresholds from the lossless PG; "
            + "'lossy' has none"), problems(LAB.replace("qos: {flow-control: pause}",
            "qos: {flow-control: pause, profile: lossy}").replace("nics: {flow-control: pause}\n", "")));
    }

    private static List<String> problems(String text) {
        LabFileException e = assertThrows(LabFileException.class,
            () -> LabReader.read("t.yaml", text, LabSources.directory(Path.of("."))));
        return e.problems();
    }
}
