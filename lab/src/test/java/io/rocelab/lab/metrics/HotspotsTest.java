package io.rocelab.lab.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rocelab.sw.SwitchCounters;
import io.rocelab.sw.stats.FdbCounters;
import io.rocelab.sw.stats.PortCounters;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The progress line's hot spots: the ports most paused since the last look, and the deepest queue now. */
class HotspotsTest {
    private static Telemetry fabric(long[] rxPfc3, long[] depth3) {
        return fabric(rxPfc3, new long[4], depth3);
    }

    private static Telemetry fabric(long[] rxPfc3, long[] txPfc3, long[] depth3) {
        List<String> names = List.of("Ethernet0", "Ethernet4", "Ethernet8", "Ethernet12");
        PortCounters[] c = new PortCounters[names.size()];
        SwitchTelemetry.PortBuffers[] b = new SwitchTelemetry.PortBuffers[names.size()];
        for (int i = 0; i < names.size(); i++) {
            c[i] = new PortCounters();
            c[i].rxPfc[3] = rxPfc3[i];
            c[i].txPfc[3] = txPfc3[i];
            long[] depth = new long[8];
            depth[3] = depth3[i];
            b[i] = new SwitchTelemetry.PortBuffers(depth, new long[8], new boolean[8], false, new long[8], new long[8],
                new long[8], new long[8], new long[8]);
        }
        SwitchCounters counters = new SwitchCounters(0, names, List.of(true, true, true, true), List.of(c), List.of(),
            new FdbCounters(0, 0, 0, 0));
        return new Telemetry(List.of(new SwitchTelemetry("leaf0", counters, List.of(b), List.of())), List.of(), null);
    }

    @Test
    void theMostPausedPortsSinceTheLastLookAndTheDeepestQueue() {
        Hotspots h = new Hotspots();
        assertEquals("PFC leaf0:Ethernet4 p3 rx 40, leaf0:Ethernet0 p3 rx 10, leaf0:Ethernet8 p3 rx 5; "
                + "deepest leaf0:Ethernet0 q3 182 KB",
            h.describe(fabric(new long[] {10, 40, 5, 1}, new long[] {182_000, 0, 900, 0})));
        // the next look counts what came since: Ethernet12 now leads
        assertEquals("PFC leaf0:Ethernet12 p3 rx 99, leaf0:Ethernet0 p3 rx 2; deepest leaf0:Ethernet8 q3 900 B",
            h.describe(fabric(new long[] {12, 40, 5, 100}, new long[] {0, 0, 900, 0})));
        assertEquals("PFC none; deepest none",
            h.describe(fabric(new long[] {12, 40, 5, 100}, new long[] {0, 0, 0, 0})));
        // the pauses a port sends count as the ones it receives, told apart
        assertEquals("PFC leaf0:Ethernet8 p3 tx 30, leaf0:Ethernet0 p3 rx 1; deepest none",
            h.describe(fabric(new long[] {13, 40, 5, 100}, new long[] {0, 0, 30, 0}, new long[] {0, 0, 0, 0})));
        assertEquals("", new Hotspots().describe(Telemetry.EMPTY));
    }
}
