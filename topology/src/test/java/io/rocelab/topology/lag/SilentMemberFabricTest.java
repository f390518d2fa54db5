package io.rocelab.topology.lag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.model.Topology;
import io.rocelab.topology.timeline.Event;
import io.rocelab.topology.timeline.SilentPort;
import io.rocelab.topology.timeline.Timeline;
import io.rocelab.topology.workload.Flow;
import io.rocelab.topology.workload.FlowResult;
import io.rocelab.topology.workload.Workload;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The silent member failure with RC traffic on it, through a Fabric and the timeline's
 * {@code port-silent} drill: s2's transmitter on one member of the port channel dies with its link
 * up. With LACP (fast rate) the member is out within 3 s and QPs whose ACK timeout outlasts that
 * (1.07 s x 7 retries) finish with no error completion; with a static port channel nothing notices,
 * and the QPs whose ACKs hash onto the dead member exhaust their retries.
 */
class SilentMemberFabricTest {
    private static final long SECOND = 1_000_000_000L;

    private static Topology topology(boolean lacp) {
        Topology.Builder t = Topology.builder();
        for (int i = 1; i <= 2; i++) {
            String json = PortChannelFabricTest.configDb(i);
            if (!lacp) {
                json = json.replace("\"fast_rate\": \"true\"", "\"fast_rate\": \"true\", \"static\": \"true\"");
            }
            t.host(Host.builder("h" + i).mac("02:00:00:00:00:0" + i).ipv4("10.0.0." + i).build());
            t.switchNode("s" + i, ConfigLoader.parse(json));
            t.link(Link.between("h" + i, "s" + i + ":Ethernet0").build());
        }
        t.link(Link.between("s1:Ethernet4", "s2:Ethernet4").name("m4").build());
        t.link(Link.between("s1:Ethernet8", "s2:Ethernet8").name("m8").build());
        return t.build();
    }

    private static FlowResult run(boolean lacp) {
        try (Fabric f = Fabric.virtualTime(topology(lacp), 1)) {
            f.runFor(5 * SECOND);
            Workload w = Workload.start(f, List.of(Flow.builder("w", "h1", "h2").messageBytes(65_536).messages(400)
                .qps(8).ackTimeout(18).retryCount(7).build()), 1);
            Timeline t = Timeline.schedule(List.of(new Event(100_000, new SilentPort("s2:Ethernet8", true))), f, w);
            assertTrue(f.runUntil(w::finished, 20 * SECOND), "the flow ends, one way or the other");
            FlowResult r = w.result("w");
            System.out.printf("%s: %s, %d error completions, done at %.2f s, %s%n", lacp ? "LACP" : "static",
                r.outcome(), r.errors(), r.endNanos() / 1e9, t.applied());
            t.close();
            w.close();
            return r;
        }
    }

    @Test
    void withLacpTheQpsOutlastTheRemovalAndFinish() {
        FlowResult r = run(true);
        assertEquals(FlowResult.Outcome.COMPLETED, r.outcome());
        assertEquals(0, r.errors(), "no error completion: LACP took the member out in time");
        assertEquals(400L * 65_536, r.bytesDelivered());
        assertTrue(r.endNanos() > 2 * SECOND && r.endNanos() < 5 * SECOND,
            "the QPs on the silent member waited for the removal (<= 3 s) and an ACK timeout: " + r.endNanos());
    }

    @Test
    void withAStaticPortChannelTheQpsOnTheSilentMemberExhaustTheirRetries() {
        FlowResult r = run(false);
        assertTrue(r.errors() > 0, "retry exhaustion on the QPs whose ACKs take the dead member: " + r);
    }
}
