package io.rocelab.fabric.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.testing.RecordingPort;
import io.rocelab.fabric.testing.TestFrames;
import io.rocelab.fabric.time.PartitionedVirtualTime;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A link whose two ends are in two logical processes: the same frames arrive at the same times,
 * with the same faults, as on one scheduler, on one thread or two; a cable pulled at a barrier
 * drops what was on the wire.
 */
class CrossLpLinkTest {
    private final TestFrames frames = TestFrames.direct();

    @AfterEach
    void allBuffersReleased() {
        assertEquals(0, frames.unreleased(), "unreleased buffers");
    }

    @Test
    void framesArriveAsOnOneSchedulerWithTheSameFaults() {
        List<String> one = oneScheduler();
        assertTrue(one.size() > 150, "enough frames: " + one.size());
        assertEquals(one, partitioned(1));
        assertEquals(one, partitioned(2));
    }

    private List<String> oneScheduler() {
        VirtualTimeScheduler s = new VirtualTimeScheduler();
        return traffic(s, s, s, s::runUntil);
    }

    private List<String> partitioned(int threads) {
        try (PartitionedVirtualTime p = new PartitionedVirtualTime(2, 1_000, threads)) {
            List<String> out = traffic(p.lp(0), p.lp(1), p.global(), p.global()::runUntil);
            assertTrue(p.messages() > 0, "frames crossed at barriers");
            return out;
        }
    }

    /** 200 frames of mixed sizes from A's scheduler over a faulty 100 Gb/s, 1 us cable; what B saw and when. */
    private List<String> traffic(Scheduler a, Scheduler b, Scheduler driver, java.util.function.LongConsumer runUntil) {
        InProcessLink link = InProcessLink.builder().name("x").rateGbps(100).propagationDelayNanos(1_000).seed(9)
            .faultsAToB(FaultProfile.NONE.withLoss(0.05).withDuplication(0.05).withCorruption(0.05)
                .withReordering(0.1, 300, 2))
            .build(a, b);
        RecordingPort rx = new RecordingPort(b, frames, false);
        link.portB().setReceiver(rx);
        for (int i = 0; i < 200; i++) {
            int id = i;
            a.scheduleAt(i * 97L, () -> link.portA().send(frames.frame(id, 64 + (id * 131) % 1400)));
        }
        runUntil.accept(100_000);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < rx.count(); i++) {
            var d = rx.deliveries().get(i);
            out.add(d.timeNanos() + " ns: frame " + d.id() + ", " + d.length() + " bytes");
        }
        out.add(link.aToB().counters().toString());
        return out;
    }

    @Test
    void aCablePulledAtABarrierDropsWhatIsOnTheWire() {
        try (PartitionedVirtualTime p = new PartitionedVirtualTime(2, 1_000, 2)) {
            InProcessLink link = InProcessLink.builder().name("x").rateGbps(100).propagationDelayNanos(1_000)
                .build(p.lp(0), p.lp(1));
            assertTrue(link.aToB().crossesPartitions());
            RecordingPort rx = new RecordingPort(p.lp(1), frames, false);
            link.portB().setReceiver(rx);
            for (int i = 0; i < 10; i++) {
                int id = i;
                p.lp(0).scheduleAt(i * 100L, () -> link.portA().send(frames.frame(id, 1000)));
            }
            // at 950 ns: frames sent from 0 to 900 ns are on the wire (they arrive from 1,081 ns on)
            p.global().scheduleAt(950, () -> link.setUp(false));
            p.global().runUntil(10_000);
            assertEquals(0, rx.count(), "nothing arrives after the cut");
            assertEquals(10, link.aToB().counters().get(LinkCounter.DROPPED_LINK_DOWN));
            assertFalse(link.isUp());
        }
    }
}
