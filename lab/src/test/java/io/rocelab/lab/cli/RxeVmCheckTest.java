package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rocelab lab check} on labs with {@code kind: rxe-vm} hosts (no root, no VM needed): what
 * such a host can be and do is checked before anything boots, one line per mistake at its place.
 */
class RxeVmCheckTest {
    private static final String VMS = """
        name: vms
        duration: 30s
        modes: [netns]
        topology:
          hosts:
            - {name: v1, kind: rxe-vm}
            - {name: v2, kind: rxe-vm}
            - {name: n1, kind: nic}
            - {name: n2, kind: nic}
          switches: [{name: sw0, ports: 4, speed: 1G}]
          links:
            - {a: v1, b: "sw0:Ethernet0"}
            - {a: v2, b: "sw0:Ethernet4"}
            - {a: n1, b: "sw0:Ethernet8"}
            - {a: n2, b: "sw0:Ethernet12"}
        flows:
          - {name: to-nic, from: v1, to: n1, verb: read, size: 4KiB, messages: 50}
          - {name: to-vm, from: v2, to: v1, verb: send}
        expect:
          - flow("to-nic").errors == 0 and flow("to-vm").messages == 100
        """;

    @TempDir
    Path tmp;

    private CliRun check(String text) throws IOException {
        Path f = tmp.resolve("lab.yaml");
        Files.writeString(f, text);
        return CliRun.of("lab", "check", f.toString());
    }

    private void mistakes(String text, String expected) throws IOException {
        CliRun c = check(text);
        assertEquals(2, c.exitCode(), c.out());
        assertEquals(tmp.resolve("lab.yaml") + ":" + expected + "\n", c.err());
    }

    @Test
    void vmFlowsToANicAndToAVmCheck() throws IOException {
        CliRun c = check(VMS);
        assertEquals(0, c.exitCode(), c.err());
        assertTrue(c.out().contains("ok: lab vms, 1 run, 30s, 4 host(s), 1 switch(es), 2 flow(s)"), c.out());
    }

    @Test
    void theShippedLabChecks() {
        CliRun c = CliRun.of("lab", "check", "rxe-behind-the-switch");
        assertEquals(0, c.exitCode(), c.err());
        assertTrue(c.out().contains("5 host(s), 2 switch(es), 3 flow(s)"), c.out());
    }

    @Test
    void anRxeVmOutsideNetnsModeIsAMistakeAtItsKind() throws IOException {
        mistakes(VMS.replace("modes: [netns]", "modes: [virtual, netns]"),
            "6:24: topology.hosts: host 'v1' is kind rxe-vm, a qemu VM on a switch port: the lab runs only in netns "
                + "mode then (modes: [netns])\n" + tmp.resolve("lab.yaml") + ":7:24: topology.hosts: host 'v2' is "
                + "kind rxe-vm, a qemu VM on a switch port: the lab runs only in netns mode then (modes: [netns])");
    }

    @Test
    void aVmRunsPerftestsRcVerbsOnly() throws IOException {
        mistakes(VMS.replace("verb: send}", "verb: ud-send}"), "18:43: flows[1].verb: a flow from an rxe-vm host is "
            + "perftest in the VM over rdma_cm: write, read or send, not 'ud-send'");
        mistakes(VMS.replace("verb: send}", "verb: send, qps: 2}"), "18:49: flows[1].qps: unknown key 'qps' (known: "
            + "name, from, to, verb, size, messages)");
    }

    @Test
    void aFlowToAVmStartsInAVm() throws IOException {
        mistakes(VMS.replace("from: v2, to: v1, verb: send}", "from: n2, to: v1}"), "18:25: flows[1].from: a flow to "
            + "an rxe-vm host starts in an rxe-vm host (perftest's client in the VM); 'n2' is kind nic");
    }

    @Test
    void aNicHostServingAVmServesNothingElse() throws IOException {
        mistakes(VMS.replace("verb: send}\n", "verb: send}\n  - {name: more, from: n2, to: n1}\n"),
            "19:5: flows[2]: host 'n1' serves a flow from an rxe-vm host: its NIC runs perftest's server for it and "
                + "takes no other flow");
        mistakes(VMS.replace("verb: send}\n", "verb: send}\n  - {name: again, from: v2, to: n1}\n"),
            "19:5: flows[2].to: host 'n1' already serves a flow from an rxe-vm host: its NIC runs one perftest server");
    }
}
