package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.lab.netns.NetnsNames;
import io.rocelab.lab.netns.Privileges;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The netns mode's keys as {@code rocelab lab check} reads them: host kinds and tcp flows belong to
 * labs that run in netns mode only, and a mistake with them is one line with its place, exit 2;
 * the shipped netns lab checks; a user who is not root is told so in one line.
 */
class NetnsCheckTest {
    private static final String NETNS = """
        name: two-kinds
        duration: 2s
        modes: [netns]
        topology:
          hosts:
            - {name: r1, kind: nic}
            - {name: r2, kind: nic}
            - {name: t1, kind: linux}
            - {name: t2, kind: linux}
          switches: [{name: sw0, ports: 4, speed: 1G}]
          links:
            - {a: r1, b: "sw0:Ethernet0"}
            - {a: r2, b: "sw0:Ethernet4"}
            - {a: t1, b: "sw0:Ethernet8"}
            - {a: t2, b: "sw0:Ethernet12"}
        flows:
          - {name: roce, from: r1, to: r2}
          - {name: tcp, from: t1, to: t2, verb: tcp, streams: 2}
        capture: {tshark: [r2]}
        expect:
          - flow("tcp").goodput > 0 and flow("roce").errors == 0
        """;

    @TempDir
    Path tmp;

    private CliRun check(String text) throws IOException {
        Path f = tmp.resolve("lab.yaml");
        Files.writeString(f, text);
        return CliRun.of("lab", "check", f.toString());
    }

    private void oneMistake(String text, String expected) throws IOException {
        CliRun c = check(text);
        assertEquals(2, c.exitCode(), c.out());
        assertEquals(tmp.resolve("lab.yaml") + ":" + expected + "\n", c.err());
    }

    @Test
    void aNetnsLabWithBothKindsChecks() throws IOException {
        CliRun c = check(NETNS);
        assertEquals(0, c.exitCode(), c.err());
        assertTrue(c.out().contains("ok: lab two-kinds, 1 run, 2s, 4 host(s), 1 switch(es), 2 flow(s)"), c.out());
    }

    @Test
    void theShippedConvergenceLabChecks() {
        CliRun c = CliRun.of("lab", "check", "roce-tcp-convergence");
        assertEquals(0, c.exitCode(), c.err());
    }

    @Test
    void aLinuxHostOutsideNetnsModeIsAMistakeAtItsKind() throws IOException {
        oneMistake(NETNS.replace("modes: [netns]", "modes: [virtual, netns]").replace(
                "  - {name: tcp, from: t1, to: t2, verb: tcp, streams: 2}\n", "").replace("capture: {tshark: [r2]}\n",
                "").replace("flow(\"tcp\").goodput > 0 and ", ""),
            "8:24: topology.hosts: host 't1' is kind linux, a plain network namespace: the lab runs only in netns mode "
                + "then (modes: [netns])\n" + tmp.resolve("lab.yaml")
                + ":9:24: topology.hosts: host 't2' is kind linux, a plain network namespace: the lab runs only in "
                + "netns mode then (modes: [netns])");
    }

    @Test
    void aTcpFlowWithoutNetnsModeIsAMistakeAtItsVerb() throws IOException {
        String text = NETNS.replace("modes: [netns]\n", "").replace("kind: linux", "kind: nic")
            .replace("capture: {tshark: [r2]}\n", "");
        oneMistake(text, "17:41: flows[1].verb: verb tcp runs iperf3 between linux hosts: the lab runs only in "
            + "netns mode then (modes: [netns])\n" + tmp.resolve("lab.yaml")
            + ":17:23: flows[1].from: a tcp flow runs between linux hosts; 't1' is a nic host");
    }

    @Test
    void anRdmaFlowToALinuxHostAndAnUnknownKindAreMistakes() throws IOException {
        oneMistake(NETNS.replace("to: r2}", "to: t2}"), "17:32: flows[0].to: an RDMA flow (write) runs between nic "
            + "hosts; 't2' is kind linux (verb: tcp)");
        oneMistake(NETNS.replace("{name: r2, kind: nic}", "{name: r2, kind: vm}"), "7:24: topology.hosts[1].kind: "
            + "a host is a nic (a rocelab soft NIC), linux (a plain network namespace, netns mode) or rxe-vm (a qemu "
            + "VM with Linux rdma_rxe, netns mode), not 'vm'");
    }

    @Test
    void aTcpFlowTakesNoRdmaKeysAndWholeSeconds() throws IOException {
        oneMistake(NETNS.replace("verb: tcp, streams: 2}", "verb: tcp, window: 2}"),
            "18:46: flows[1].window: unknown key 'window' (known: name, from, to, verb, duration, start, stop, streams, "
                + "rate)");
        oneMistake(NETNS.replace("verb: tcp, streams: 2}", "verb: tcp, duration: 1500ms}"),
            "18:56: flows[1].duration: a tcp flow lasts whole seconds (iperf3 -t): 1500ms");
    }

    @Test
    void aPortSpeedNamesAPortOfTheSwitch() throws IOException {
        oneMistake(NETNS.replace("{name: sw0, ports: 4, speed: 1G}", "{name: sw0, ports: 4, speed: 1G, port-speed: "
            + "{Ethernet16: 500M}}"), "10:72: topology.switches[0].port-speed.Ethernet16: the switch has no port "
            + "'Ethernet16' (its ports are Ethernet0 to Ethernet12)");
        // a port at its own speed: the host's link takes it (and the file checks)
        CliRun c = check(NETNS.replace("{name: sw0, ports: 4, speed: 1G}",
            "{name: sw0, ports: 4, speed: 1G, port-speed: {Ethernet12: 500M}}"));
        assertEquals(0, c.exitCode(), c.err());
    }

    @Test
    void netnsLabsHaveNoLinkEvents() throws IOException {
        oneMistake(NETNS.replace("expect:", "events:\n  - {at: 1s, link-down: r1}\nexpect:"),
            "21:25: events[0].link-down: a lab that runs in netns mode has no link, port or switch failures: its links "
                + "are veth pairs (take netns out of modes)");
    }

    /** The netns runner lays out eth0 only: a second port is one line at the host's {@code ports}, exit 2. */
    @Test
    void aDualPortHostIsRefusedInNetnsMode() throws IOException {
        String dual = NETNS.replace("{name: r1, kind: nic}", "{name: r1, kind: nic, ports: 2, bond: 802.3ad}")
            .replace("  switches: [{name: sw0, ports: 4, speed: 1G}]", "  switches: [{name: sw0, ports: 5, speed: 1G}]")
            .replace("    - {a: t2, b: \"sw0:Ethernet12\"}\n",
                "    - {a: t2, b: \"sw0:Ethernet12\"}\n    - {a: \"r1:eth1\", b: \"sw0:Ethernet16\"}\n");
        oneMistake(dual, "6:36: topology.hosts[0].ports: in netns mode a host has one port: the runner lays out eth0 "
            + "only (take netns out of modes)");
        // the same host where the lab runs in virtual time checks
        String virtual = dual.replace("modes: [netns]", "modes: [virtual]").replace(
            "  - {name: tcp, from: t1, to: t2, verb: tcp, streams: 2}\n", "").replace("capture: {tshark: [r2]}\n", "")
            .replace("flow(\"tcp\").goodput > 0 and ", "").replace("kind: linux", "kind: nic");
        CliRun c = check(virtual);
        assertEquals(0, c.exitCode(), c.err());
    }

    /** What a veth pair or a namespace's kernel cannot be given is one line each, at its key. */
    @Test
    void keysTheNetnsRunnerIgnoresAreMistakes() throws IOException {
        oneMistake(NETNS.replace("{a: r1, b: \"sw0:Ethernet0\"}", "{a: r1, b: \"sw0:Ethernet0\", loss: 0.01}"),
            "12:41: topology.links[0].loss: a veth pair loses nothing in netns mode: no loss (take netns out of modes)");
        oneMistake(NETNS.replace("{a: r1, b: \"sw0:Ethernet0\"}", "{a: r1, b: \"sw0:Ethernet0\", delay: 1us}"),
            "12:42: topology.links[0].delay: a veth pair has no length in netns mode: no delay (take netns out of modes)");
        oneMistake(NETNS.replace("{a: r1, b: \"sw0:Ethernet0\"}", "{a: r1, b: \"sw0:Ethernet0\", up: false}"),
            "12:39: topology.links[0].up: every veth pair is up in netns mode: no up: false (take netns out of modes)");
        oneMistake(NETNS.replace("{name: t1, kind: linux}", "{name: t1, kind: linux, mtu: 1024}"),
            "8:36: topology.hosts[2].mtu: a linux host's kernel gets its ip and mac only: no mtu (take netns out of "
                + "modes)");
        oneMistake(NETNS.replace("    - {name: t2, kind: linux}\n", "    - {name: t2, kind: linux}\n    - x1\n    - x2\n")
                .replace("    - {a: t2, b: \"sw0:Ethernet12\"}\n", "    - {a: t2, b: \"sw0:Ethernet12\"}\n    - {a: x1, b: x2}\n"),
            "18:18: topology.links[4].b: in netns mode every host is cabled to a switch, not to host 'x2' (take netns "
                + "out of modes)");
    }

    @Test
    void notRootIsOneLine() {
        assertNull(Privileges.refusal(0, "lab run --mode netns"));
        assertEquals("lab run --mode netns needs root: it makes network namespaces and veth pairs (run it with sudo; "
            + "you are uid 1000)", Privileges.refusal(1000, "lab run --mode netns"));
        assertTrue(Privileges.effectiveUid() >= 0);
    }

    @Test
    void namesCarryThePrefixAndTheOwnersPid() {
        NetnsNames n = NetnsNames.ofThisProcess();
        assertTrue(n.fabric().startsWith(NetnsNames.PREFIX), n.fabric());
        assertEquals(ProcessHandle.current().pid(), NetnsNames.ownerPid(n.host("t1")));
        assertEquals(ProcessHandle.current().pid(), NetnsNames.ownerPid(n.fabric()));
        assertEquals(-1, NetnsNames.ownerPid("blue"));
        assertFalse(NetnsNames.ours("rl-"));
    }
}
