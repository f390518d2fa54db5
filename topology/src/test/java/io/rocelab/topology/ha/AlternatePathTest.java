package io.rocelab.topology.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.nic.BondMode;
import io.rocelab.sw.config.SwitchConfigBuilder;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.model.Topology;
import io.rocelab.topology.workload.AltPath;
import io.rocelab.topology.workload.Flow;
import io.rocelab.topology.workload.FlowResult;
import io.rocelab.topology.workload.InvalidFlowException;
import io.rocelab.topology.workload.Verb;
import io.rocelab.topology.workload.Workload;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A workload's alternate paths (IBA 17.2.8) on two planes: h0 and h1 have eth0 on s1 and eth1 on
 * s2; the flows' QPs load eth1-to-eth1 as their alternate path and arm it. Pulling h0's eth0 makes
 * the requesters' retries run out, and they migrate instead of failing.
 */
class AlternatePathTest {
    private static final long MS = 1_000_000;

    private static SwitchConfigBuilder plainSwitch(String name, int index) {
        SwitchConfigBuilder b = new SwitchConfigBuilder().hostname(name).mac(0x02_00_00_00_f0_00L | index)
            .ecmpHashSeed(index);
        for (int p = 0; p < 2; p++) {
            b.port("Ethernet" + 4 * p, 100_000, 9100);
        }
        return b;
    }

    static Topology planes(boolean bonded) {
        Topology.Builder t = Topology.builder();
        Host.Builder h0 = Host.builder("h0").mac("02:00:00:00:00:10").ipv4("10.0.0.10").secondPort();
        t.host((bonded ? h0.bond(BondMode.ACTIVE_BACKUP) : h0).build());
        t.host(Host.builder("h1").mac("02:00:00:00:00:11").ipv4("10.0.0.11").secondPort().build());
        t.switchNode("s1", plainSwitch("s1", 1));
        t.switchNode("s2", plainSwitch("s2", 2));
        t.link(Link.between("h0:eth0", "s1:Ethernet0").name("h0-s1").build());
        t.link(Link.between("h1:eth0", "s1:Ethernet4").build());
        t.link(Link.between("h0:eth1", "s2:Ethernet0").build());
        t.link(Link.between("h1:eth1", "s2:Ethernet4").build());
        return t.build();
    }

    @Test
    void armedQpsMigrateWhenTheirPrimaryPathDiesAndTheFlowsFinish() {
        try (Fabric f = Fabric.virtualTime(planes(false), 1)) {
            Workload w = Workload.start(f, List.of(
                Flow.builder("write", "h0", "h1").messages(200).qps(3).ackTimeout(8).retryCount(2)
                    .altPath(AltPath.secondPorts()).verify(true).build(),
                Flow.builder("read", "h0", "h1").verb(Verb.READ).messages(200).qps(2).ackTimeout(8).retryCount(2)
                    .altPath(new AltPath(2, 2, 9)).verify(true).build()), 1);
            f.runFor(300_000);
            f.setLinkUp("h0-s1", false);
            assertTrue(f.runUntil(w::finished, 40 * MS));
            for (FlowResult r : w.results()) {
                assertEquals(FlowResult.Outcome.COMPLETED, r.outcome(), r.name());
                assertEquals(0, r.errors(), r.name());
                assertEquals(r.bytes(), r.verifiedBytes(), r.name());
            }
            assertEquals(3, w.result("write").migrations(), "each of the write's QPs migrated once");
            assertEquals(2, w.result("read").migrations());
            assertEquals(5, f.nic("h0").pathMigrations());
            assertEquals(5, f.nic("h1").pathMigrations(), "the responders followed (MigReq 1)");
            assertEquals(2, f.nic("h0").port(2).number());
            w.close();
        }
    }

    @Test
    void withoutTheAlternatePathTheSameFailureIsRetryExceeded() {
        try (Fabric f = Fabric.virtualTime(planes(false), 1)) {
            Workload w = Workload.start(f, List.of(Flow.builder("write", "h0", "h1").messages(200).qps(3).ackTimeout(8)
                .retryCount(2).build()), 1);
            f.runFor(300_000);
            f.setLinkUp("h0-s1", false);
            assertTrue(f.runUntil(w::finished, 40 * MS));
            FlowResult r = w.result("write");
            assertEquals(FlowResult.Outcome.FAILED, r.outcome());
            assertTrue(r.errorCompletions().get("IBV_WC_RETRY_EXC_ERR") > 0, r.errorCompletions().toString());
            assertEquals(0, r.migrations());
            assertEquals(0, f.nic("h0").pathMigrations());
            w.close();
        }
    }

    @Test
    void aPathTheHostsCannotGiveIsRefusedOneLineEach() {
        InvalidFlowException primary = assertThrows(InvalidFlowException.class, () -> new AltPath(1, 1, -1));
        assertEquals(List.of("alternate path: port 1 to the destination's port 1 is the primary path"),
            primary.problems());
        InvalidFlowException ud = assertThrows(InvalidFlowException.class, () -> Flow.builder("u", "h0", "h1")
            .verb(Verb.UD_SEND).altPath(AltPath.secondPorts()).build());
        assertEquals(List.of("flow 'u': an alternate path is for RC QPs (IBA 17.2.8), not UD_SEND"), ud.problems());
        try (Fabric f = Fabric.virtualTime(planes(true), 1)) {
            InvalidFlowException bonded = assertThrows(InvalidFlowException.class, () -> Workload.start(f,
                List.of(Flow.builder("w", "h0", "h1").altPath(AltPath.secondPorts()).build()), 1));
            assertEquals(List.of("flow 'w': an alternate path on h0, whose ports are bonded (one port to verbs; the"
                + " bond fails over by itself)"), bonded.problems());
        }
    }
}
