package io.rocelab.lab.labfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.topology.timeline.FlowControl;
import io.rocelab.topology.timeline.LinkFaults;
import io.rocelab.topology.timeline.LinkState;
import io.rocelab.topology.timeline.PfcStorm;
import io.rocelab.topology.workload.AltPath;
import io.rocelab.topology.workload.Flow;
import io.rocelab.topology.workload.Verb;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The section readers build what runs: a flow is the workload engine's {@link Flow} with every value
 * the file gave, an event the timeline's {@code Event} and {@code Action}, each with where the file
 * writes it; what the engine's own check of a flow refuses is a mistake at its entry.
 */
class SectionReadersTest {
    private static final String FABRIC = """
        name: t
        duration: 4ms
        topology:
          hosts: [{name: h0, ports: 2}, {name: h1, ports: 2}, h2]
          switches: [{name: leaf0, ports: 3, speed: 100G}, {name: leaf1, ports: 3, speed: 100G}]
          links:
            - {a: h0:eth0, b: leaf0:Ethernet0}
            - {a: h1:eth0, b: leaf0:Ethernet4}
            - {a: h2, b: leaf0:Ethernet8}
            - {a: h0:eth1, b: leaf1:Ethernet0}
            - {a: h1:eth1, b: leaf1:Ethernet4}
        """;

    private static RunSpec read(String text) throws LabFileException {
        return LabReader.read("t.yaml", text, LabSources.directory(Path.of("."))).runs().get(0);
    }

    @Test
    void aFlowIsTheEnginesFlowWithEveryValueTheFileGave() throws LabFileException {
        RunSpec run = read(FABRIC + """
            flows:
              - {name: w, from: h1, to: h0, verb: read, size: 4KiB, messages: 10, qps: 2, window: 4, start: 1ms,
                 stop: 3ms, rate: 400Mb/s, dscp: 26, ack-timeout: 9, retry: 5, rnr-retry: 3, alt-path: {ack-timeout: 12},
                 verify: true}
              - {name: later, from: "h[1-2]", to: h0, start: event}
            """);
        assertEquals(List.of("w", "later-h1", "later-h2"), run.flows().stream().map(LabFlow::name).toList());
        LabFlow.Rdma w = assertInstanceOf(LabFlow.Rdma.class, run.flows().get(0));
        Flow f = w.flow();
        assertEquals(List.of("h1", "h0", Verb.READ, 4096L, 10L, 2, 4), List.of(f.source(), f.destination(), f.verb(),
            f.size().maxBytes(), f.messages(), f.qps(), f.window()));
        assertEquals(List.of(1_000_000L, 3_000_000L, 400_000_000L, 26, 9, 5, 3), List.of(f.startNanos(), f.stopNanos(),
            f.rateBitsPerSecond(), f.dscp(), f.ackTimeout(), f.retryCount(), f.rnrRetry()));
        assertEquals(new AltPath(2, 2, 12), f.altPath(), "each host's port 2 by default");
        assertEquals(true, f.verify());
        assertEquals("t.yaml:13:5", w.loc().toString());
        assertEquals("flows[0]", w.path());
        LabFlow.Rdma later = assertInstanceOf(LabFlow.Rdma.class, run.flows().get(2));
        assertEquals(Long.MAX_VALUE, later.flow().startNanos(), "start: event waits for a flow-start");
        assertEquals("later", later.group());
        assertNull(later.flow().altPath());
    }

    @Test
    void anEventIsTheTimelinesActionAndALinkFlapItsDownsAndUps() throws LabFileException {
        RunSpec run = read(FABRIC + """
            flows:
              - {name: later, from: "h[1-2]", to: h0, start: event}
            events:
              - {at: 500us, flow-start: later}
              - {at: 1ms, link-faults: {link: leaf0:Ethernet4, loss: 1%}}
              - {at: 1ms, pfc-storm: {host: h2, priority: 5}}
              - {at: 2ms, link-flap: {link: leaf0:Ethernet0, times: 2, down: 100us, up: 200us}}
            """);
        List<LabEvent> events = run.events();
        assertEquals(8, events.size(), "two flows started, the faults, the storm, two downs and two ups");
        assertEquals(new FlowControl("later-h1", true), events.get(0).event().action());
        assertEquals(new FlowControl("later-h2", true), events.get(1).event().action());
        String link = assertInstanceOf(LinkFaults.class, events.get(2).event().action()).link();
        assertEquals(new LinkFaults(link, FaultProfile.NONE.withLoss(0.01)), events.get(2).event().action());
        assertEquals(new PfcStorm("h2", 5, true), events.get(3).event().action());
        assertEquals(List.of(2_000_000L, 2_100_000L, 2_300_000L, 2_400_000L),
            events.subList(4, 8).stream().map(LabEvent::atNanos).toList());
        assertEquals(List.of(false, true, false, true), events.subList(4, 8).stream()
            .map(e -> ((LinkState) e.event().action()).up()).toList());
        assertEquals("events[3].link-flap", events.get(7).path());
        assertEquals("t=1ms pfc-storm h2 priority 5", events.get(3).describe());
        assertEquals("t=1ms link-faults " + link + " loss 0.01 corrupt 0.0 duplicate 0.0", events.get(2).describe());
        String flapped = ((LinkState) events.get(5).event().action()).link();
        assertEquals("t=2100us link-up " + flapped, events.get(5).describe());
    }

    @Test
    void whatTheEnginesCheckOfAFlowRefusesIsAMistakeAtItsEntry() {
        LabFileException e = assertThrows(LabFileException.class, () -> read(FABRIC + """
            flows:
              - {name: dgram, from: h1, to: h0, verb: ud-send, qps: 4}
            """));
        assertEquals(List.of("t.yaml:13:5: flows[0]: flow 'dgram': qps must be 1 for UD_SEND (one UD QP each side), "
            + "not 4"), e.problems());
    }

    @Test
    void aMistakenFlowStillNamesItsFlowsForTheEventsThatStartThem() {
        LabFileException e = assertThrows(LabFileException.class, () -> read(FABRIC + """
            flows:
              - {name: later, from: h1, to: h0, verb: bogus, start: event}
            events:
              - {at: 1ms, flow-start: later}
            """));
        assertEquals(1, e.problems().size(), "the verb, not an unknown flow too: " + e.problems());
    }
}
