package io.rocelab.fabric.link;

import io.rocelab.fabric.testing.Delivery;
import io.rocelab.fabric.testing.RecordingPort;
import io.rocelab.fabric.testing.TestFrames;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.fabric.wire.EthernetFraming;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The wire model in virtual time. Expected times are computed here from the formula
 * (frame + 24) × 8 / rate + propagation, rounded up to the nanosecond, not taken from the code.
 */
class InProcessLinkTimingTest {

    private static final long GBPS_100 = 100_000_000_000L;

    private final VirtualTimeScheduler scheduler = new VirtualTimeScheduler();
    private TestFrames frames = TestFrames.direct();

    @AfterEach
    void allBuffersReleased() {
        assertEquals(0, frames.unreleased(), "unreleased buffers");
    }

    /** ceil(bytes * 8 * 1e9 / rate), in exact integer arithmetic. */
    private static long ceilNanos(long bytes, long rate) {
        final long bitNanos = bytes * 8 * 1_000_000_000L;
        return (bitNanos + rate - 1) / rate;
    }

    private InProcessLink link(long rate, long propagation) {
        return InProcessLink.builder().name("t").rateBitsPerSecond(rate).propagationDelayNanos(propagation)
            .build(scheduler);
    }

    @Test
    void aFullFrameAt100GbpsArrivesAfterSerializationOfFramePlusOverheadPlusPropagation() {
        final InProcessLink link = link(GBPS_100, 500);
        final RecordingPort rx = new RecordingPort(scheduler, frames, true);
        link.portB().setReceiver(rx);
        scheduler.runUntil(1_000);

        link.portA().send(frames.frame(1, 1500));
        scheduler.runUntilIdle();

        // (1500 + 24) * 8 / 100e9 s = 121.92 ns -> 122 ns
        assertEquals(122, ceilNanos(1524, GBPS_100));
        assertEquals(List.of(1_000L + 122 + 500), rx.times());
        assertArrayEquals(TestFrames.expectedBytes(1, 1500), rx.deliveries().get(0).bytes());
        assertEquals(1, link.aToB().counters().get(LinkCounter.FRAMES_DELIVERED));
        assertEquals(1500, link.aToB().counters().get(LinkCounter.BYTES_DELIVERED));
        assertEquals(0, link.bToA().counters().get(LinkCounter.FRAMES_SENT));
    }

    @Test
    void backToBackFramesArriveSpacedBySerializationTime() {
        final InProcessLink link = link(GBPS_100, 1_000);
        final RecordingPort rx = new RecordingPort(scheduler, frames, false);
        link.portB().setReceiver(rx);

        for (int i = 0; i < 10; i++) {
            link.portA().send(frames.frame(i, 1500));
        }
        assertEquals(0, rx.count(), "nothing is delivered inside send");
        scheduler.runUntilIdle();

        final List<Long> expected = new ArrayList<>();
        for (int k = 1; k <= 10; k++) {
            expected.add(ceilNanos(k * 1524L, GBPS_100) + 1_000);
        }
        assertEquals(expected, rx.times());
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), rx.ids());
    }

    @Test
    void framesSentWhileTheTransmitterIsBusyQueueBehindTheCurrentOne() {
        final InProcessLink link = link(10_000_000_000L, 0); // 10 Gb/s: 0.8 ns per byte
        final RecordingPort rx = new RecordingPort(scheduler, frames, false);
        link.portB().setReceiver(rx);

        link.portA().send(frames.frame(0, 1500)); // 1219.2 ns on the wire
        scheduler.runUntil(100);
        link.portA().send(frames.frame(1, 100)); // queued until 1219.2, then 99.2 ns
        scheduler.runUntil(5_000);
        link.portA().send(frames.frame(2, 100)); // idle again: starts at 5000
        scheduler.runUntilIdle();

        assertEquals(List.of(1_220L, 1_319L, 5_100L), rx.times());
    }

    @Test
    void throughputOverManyFramesEqualsTheLineRate() {
        frames = TestFrames.heap(); // 20000 frames: skip the leak tracer's stack traces
        final long rate = 25_000_000_000L;
        final InProcessLink link = link(rate, 2_000);
        final RecordingPort rx = new RecordingPort(scheduler, frames, false);
        link.portB().setReceiver(rx);
        final int n = 20_000;
        final int[] sizes = {64, 1024, 4096, 333};
        long wireBytes = 0;
        for (int i = 0; i < n; i++) {
            final int size = sizes[i % sizes.length];
            link.portA().send(frames.frame(i, size));
            wireBytes += size + EthernetFraming.DEFAULT_OVERHEAD_BYTES;
        }
        scheduler.runUntilIdle();

        assertEquals(n, rx.count());
        final long last = rx.times().get(n - 1);
        // the last bit leaves after exactly wireBytes * 8 / rate, rounded up once, not once per frame
        assertEquals(ceilNanos(wireBytes, rate) + 2_000, last);
        final double gbps = wireBytes * 8.0 / (last - 2_000);
        assertEquals(25.0, gbps, 1e-6);
    }

    @Test
    void shortFramesArePaddedToTheEthernetMinimumOnTheWire() {
        final InProcessLink link = link(GBPS_100, 0);
        final RecordingPort rx = new RecordingPort(scheduler, frames, true);
        link.portB().setReceiver(rx);

        link.portA().send(frames.frame(1, 42)); // an ARP-sized frame: 60 + 24 = 84 bytes on the wire
        link.portA().send(frames.frame(2, 60));
        scheduler.runUntilIdle();

        assertEquals(List.of(ceilNanos(84, GBPS_100), ceilNanos(168, GBPS_100)), rx.times());
        assertEquals(42, rx.deliveries().get(0).length(), "padding is a wire-time matter, the frame is unchanged");
    }

    @Test
    void overheadAndPaddingAreConfigurable() {
        final InProcessLink link = InProcessLink.builder().rateGbps(1).overheadBytes(0).minFrameBytes(0)
            .build(scheduler);
        final RecordingPort rx = new RecordingPort(scheduler, frames, false);
        link.portB().setReceiver(rx);
        link.portA().send(frames.frame(1, 20)); // 160 bits at 1 Gb/s
        scheduler.runUntilIdle();
        assertEquals(List.of(160L), rx.times());
    }

    @Test
    void bothDirectionsAreIndependent() {
        final InProcessLink link = link(GBPS_100, 100);
        final RecordingPort atA = new RecordingPort(scheduler, frames, false);
        final RecordingPort atB = new RecordingPort(scheduler, frames, false);
        link.portA().setReceiver(atA);
        link.portB().setReceiver(atB);

        link.portA().send(frames.frame(1, 1500));
        link.portB().send(frames.frame(2, 1500));
        scheduler.runUntilIdle();

        assertEquals(List.of(222L), atB.times());
        assertEquals(List.of(222L), atA.times(), "full duplex: B's frame does not wait for A's");
        assertEquals(List.of(2), atA.ids());
    }

    @Test
    void unlimitedRateWithoutDelayDeliversAtTheSameInstantButNotInsideSend() {
        final InProcessLink link = link(0, 0);
        final List<String> order = new ArrayList<>();
        link.portB().setReceiver((port, frame) -> {
            order.add("rx" + TestFrames.id(frame) + "@" + scheduler.nanoTime());
            frame.release();
        });
        scheduler.runUntil(77);
        for (int i = 0; i < 3; i++) {
            link.portA().send(frames.frame(i, 64));
            order.add("sent" + i);
        }
        scheduler.runUntilIdle();

        assertEquals(List.of("sent0", "sent1", "sent2", "rx0@77", "rx1@77", "rx2@77"), order);
        assertEquals(77, scheduler.nanoTime());
    }

    @Test
    void aReceiverCanAnswerAFrameWithAFrame() {
        final InProcessLink link = link(GBPS_100, 50);
        final RecordingPort atA = new RecordingPort(scheduler, frames, false);
        link.portA().setReceiver(atA);
        link.portB().setReceiver((port, frame) -> {
            final int id = TestFrames.id(frame);
            frame.release();
            port.send(frames.frame(id + 100, 64)); // reply from inside the callback
        });

        link.portA().send(frames.frame(1, 64));
        scheduler.runUntilIdle();

        final long oneWay = ceilNanos(64 + 24, GBPS_100) + 50;
        assertEquals(List.of(101), atA.ids());
        assertEquals(List.of(2 * oneWay), atA.times());
    }

    @Test
    void framesWithoutAReceiverAreCountedAndReleased() {
        final InProcessLink link = link(GBPS_100, 0);
        link.portA().send(frames.frame(1, 100));
        scheduler.runUntilIdle();
        assertEquals(1, link.aToB().counters().get(LinkCounter.DROPPED_NO_RECEIVER));
        assertEquals(0, link.aToB().counters().get(LinkCounter.FRAMES_DELIVERED));
    }

    @Test
    void framesSentBackToBackQueueOnTheWire() {
        final InProcessLink link = link(GBPS_100, 0);
        final RecordingPort atB = new RecordingPort(scheduler, frames, false);
        link.portB().setReceiver(atB);
        link.portA().send(frames.frame(1, 1500));
        link.portA().send(frames.frame(2, 1500));
        assertEquals(2, link.aToB().framesInFlight());
        scheduler.runUntilIdle();
        assertEquals(0, link.aToB().framesInFlight());
        assertEquals(List.of(ceilNanos(1524, GBPS_100), ceilNanos(2 * 1524, GBPS_100)), atB.times(),
            "a wire carries no more than its speed, whoever over-drives it");
    }
}
