package io.rocelab.fabric.link;

import io.netty.buffer.ByteBuf;
import io.rocelab.fabric.testing.Delivery;
import io.rocelab.fabric.testing.RecordingPort;
import io.rocelab.fabric.testing.TestFrames;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fault injection in virtual time. Every link here has an explicit seed, printed in the failure
 * messages, so a failure can be replayed.
 */
class InProcessLinkFaultTest {

    private static final long GBPS_100 = 100_000_000_000L;
    private static final long SER_1500 = 122; // ceil(1524 * 8 / 100e9 s)

    private final VirtualTimeScheduler scheduler = new VirtualTimeScheduler();
    private TestFrames frames = TestFrames.direct();

    @AfterEach
    void allBuffersReleased() {
        assertEquals(0, frames.unreleased(), "unreleased buffers");
    }

    private InProcessLink link(long seed, FaultProfile faults) {
        return InProcessLink.builder().name("f").seed(seed).rateBitsPerSecond(GBPS_100)
            .propagationDelayNanos(1_000).faultsAToB(faults).build(scheduler);
    }

    /** Sends n frames of the given size from A, runs to idle, returns what B received. */
    private RecordingPort sendAndRun(InProcessLink link, int n, int size, boolean keepBytes) {
        final RecordingPort rx = new RecordingPort(scheduler, frames, keepBytes);
        link.portB().setReceiver(rx);
        for (int i = 0; i < n; i++) {
            link.portA().send(frames.frame(i, size));
        }
        scheduler.runUntilIdle();
        return rx;
    }

    private static void assertAccounted(LinkDirection d) {
        final var c = d.counters();
        assertEquals(c.get(LinkCounter.FRAMES_SENT) + c.get(LinkCounter.DUPLICATED),
            c.get(LinkCounter.FRAMES_DELIVERED) + c.get(LinkCounter.DROPPED_LOSS)
                + c.get(LinkCounter.DROPPED_LINK_DOWN) + c.get(LinkCounter.DROPPED_NO_RECEIVER)
                + d.framesInFlight(),
            "every frame accounted for on " + d);
    }

    @Test
    void fivePercentLossDropsCloseToFivePercent() {
        frames = TestFrames.heap();
        final long seed = 20240501L;
        final int n = 100_000;
        final InProcessLink link = link(seed, FaultProfile.NONE.withLoss(0.05));

        final RecordingPort rx = sendAndRun(link, n, 64, false);

        final long dropped = link.aToB().counters().get(LinkCounter.DROPPED_LOSS);
        // binomial(100000, 0.05): mean 5000, standard deviation 68.9; allow 5 of them
        final double sd = Math.sqrt(n * 0.05 * 0.95);
        assertTrue(Math.abs(dropped - 5_000) < 5 * sd, "dropped " + dropped + " with seed " + seed);
        assertEquals(n - dropped, rx.count());
        assertEquals(n, link.aToB().counters().get(LinkCounter.FRAMES_SENT));
        assertAccounted(link.aToB());
        assertEquals(seed, link.seed());
        // loss never reorders: the survivors arrive in sending order
        final List<Integer> ids = rx.ids();
        for (int i = 1; i < ids.size(); i++) {
            assertTrue(ids.get(i - 1) < ids.get(i), "order at " + i);
        }
    }

    @Test
    void theSameSeedDropsTheSameFramesAndAnotherSeedOthers() {
        frames = TestFrames.heap();
        final List<Integer> first = sendAndRun(link(7, FaultProfile.NONE.withLoss(0.1)), 5_000, 64, false).ids();
        final List<Integer> again = sendAndRun(link(7, FaultProfile.NONE.withLoss(0.1)), 5_000, 64, false).ids();
        final List<Integer> other = sendAndRun(link(8, FaultProfile.NONE.withLoss(0.1)), 5_000, 64, false).ids();

        assertEquals(first, again);
        assertNotEquals(first, other);
    }

    @Test
    void lostFramesStillOccupyTheWire() {
        final InProcessLink link = link(3, FaultProfile.NONE.withLoss(1.0));
        link.portA().send(frames.frame(0, 1500));
        link.aToB().setFaults(FaultProfile.NONE);
        final RecordingPort rx = sendAndRun(link, 1, 1500, false);
        // the second frame waited for the lost first one
        assertEquals(List.of(2 * SER_1500 + 1_000), rx.times());
    }

    @Test
    void duplicatesAreIdenticalIndependentCopiesDeliveredRightAfterTheOriginal() {
        final long seed = 99;
        final InProcessLink link = link(seed, FaultProfile.NONE.withDuplication(0.2));
        final RecordingPort rx = sendAndRun(link, 2_000, 200, true);

        final long duplicated = link.aToB().counters().get(LinkCounter.DUPLICATED);
        final double sd = Math.sqrt(2_000 * 0.2 * 0.8);
        assertTrue(Math.abs(duplicated - 400) < 5 * sd, "duplicated " + duplicated + " with seed " + seed);
        assertEquals(2_000 + duplicated, rx.count());

        final List<Delivery> d = rx.deliveries();
        int pairs = 0;
        for (int i = 1; i < d.size(); i++) {
            if (d.get(i).id() == d.get(i - 1).id()) {
                pairs++;
                assertArrayEquals(d.get(i - 1).bytes(), d.get(i).bytes());
                assertEquals(d.get(i - 1).timeNanos(), d.get(i).timeNanos());
            }
        }
        assertEquals(duplicated, pairs);
        for (Delivery delivery : d) {
            assertArrayEquals(TestFrames.expectedBytes(delivery.id(), 200), delivery.bytes());
        }
        assertAccounted(link.aToB());
    }

    @Test
    void corruptionFlipsExactlyOneBitOfACopyAndLeavesTheSendersBufferIntact() {
        final long seed = 1234;
        final InProcessLink link = link(seed, FaultProfile.NONE.withCorruption(0.3));
        final RecordingPort rx = new RecordingPort(scheduler, frames, true);
        link.portB().setReceiver(rx);
        final List<ByteBuf> kept = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            final ByteBuf frame = frames.frame(i, 300);
            kept.add(frame);
            link.portA().send(frame.retainedDuplicate()); // a sender keeping a retransmission copy
        }
        scheduler.runUntilIdle();

        // no reordering: the i-th delivery is the i-th frame sent (its id field may be the flipped bit)
        assertEquals(1_000, rx.count());
        int corrupted = 0;
        final byte[] original = new byte[300];
        final List<Delivery> deliveries = rx.deliveries();
        for (int i = 0; i < deliveries.size(); i++) {
            kept.get(i).getBytes(0, original);
            final int bits = differingBits(original, deliveries.get(i).bytes());
            assertTrue(bits <= 1, "frame " + i + ": " + bits + " bits flipped, seed " + seed);
            corrupted += bits;
        }
        final long counted = link.aToB().counters().get(LinkCounter.CORRUPTED);
        assertEquals(counted, corrupted);
        assertTrue(Math.abs(counted - 300) < 5 * Math.sqrt(1_000 * 0.3 * 0.7), "corrupted " + counted + ", seed " + seed);
        for (int i = 0; i < kept.size(); i++) {
            kept.get(i).getBytes(0, original);
            assertArrayEquals(TestFrames.expectedBytes(i, 300), original, "sender's buffer " + i + " modified");
            kept.get(i).release();
        }
    }

    @Test
    void everyCorruptedFrameDiffersInOneBitSomewhereInTheFrame() {
        // frames of one byte make the flipped position fully observable
        final InProcessLink link = InProcessLink.builder().seed(5).faults(FaultProfile.NONE.withCorruption(1.0))
            .build(scheduler);
        final int[] bitHits = new int[8];
        link.portB().setReceiver((port, frame) -> {
            final int value = frame.getByte(frame.readerIndex()) & 0xFF;
            assertEquals(1, Integer.bitCount(value), "one bit of a zero byte");
            bitHits[Integer.numberOfTrailingZeros(value)]++;
            frame.release();
        });
        for (int i = 0; i < 800; i++) {
            final ByteBuf zero = frames.allocator().directBuffer(1).writeByte(0);
            frames.track(zero);
            link.portA().send(zero);
        }
        scheduler.runUntilIdle();
        for (int hits : bitHits) {
            assertTrue(hits > 50, Arrays.toString(bitHits));
        }
    }

    @Test
    void reorderedFramesAreHeldBackByTheirDelayAndOvertaken() {
        final long seed = 31;
        final InProcessLink link = InProcessLink.builder().seed(seed).rateBitsPerSecond(GBPS_100)
            .propagationDelayNanos(1_000).faultsAToB(FaultProfile.NONE.withReordering(0.1, 7, 3))
            .build(scheduler);
        final RecordingPort rx = sendAndRun(link, 1_000, 1500, false);

        final long reordered = link.aToB().counters().get(LinkCounter.REORDERED);
        assertTrue(reordered > 50 && reordered < 150, "reordered " + reordered + ", seed " + seed);
        assertEquals(1_000, rx.count());
        assertEquals(1_000, rx.ids().stream().distinct().count(), "each frame exactly once");

        int late = 0;
        for (Delivery d : rx.deliveries()) {
            final long natural = (d.id() + 1) * 12_192L;
            final long naturalArrival = (natural + 99) / 100 + 1_000;
            if (d.timeNanos() != naturalArrival) {
                assertEquals(naturalArrival + 7 + 3 * SER_1500, d.timeNanos(), "frame " + d.id());
                late++;
            }
        }
        assertEquals(reordered, late);
        final List<Integer> ids = rx.ids();
        int inversions = 0;
        for (int i = 1; i < ids.size(); i++) {
            if (ids.get(i) < ids.get(i - 1)) {
                inversions++;
            }
        }
        assertTrue(inversions > 0, "no frame was overtaken");
    }

    @Test
    void faultsApplyOnlyToTheirDirection() {
        final InProcessLink link = InProcessLink.builder().seed(1).faultsAToB(FaultProfile.NONE.withLoss(1.0))
            .build(scheduler);
        final RecordingPort atA = new RecordingPort(scheduler, frames, false);
        link.portA().setReceiver(atA);
        sendAndRun(link, 10, 64, false);
        for (int i = 0; i < 10; i++) {
            link.portB().send(frames.frame(i, 64));
        }
        scheduler.runUntilIdle();

        assertEquals(10, link.aToB().counters().get(LinkCounter.DROPPED_LOSS));
        assertEquals(10, atA.count());
        assertEquals(0, link.bToA().counters().get(LinkCounter.DROPPED_LOSS));
        assertNotEquals(link.aToB().seed(), link.bToA().seed());
    }

    @Test
    void linkDownDropsFramesInFlightAndNewOnesAndTellsBothEnds() {
        final InProcessLink link = InProcessLink.builder().name("f").seed(2).rateBitsPerSecond(GBPS_100)
            .propagationDelayNanos(10_000).faultsAToB(FaultProfile.NONE.withReordering(0.5, 50_000, 0))
            .build(scheduler);
        final RecordingPort rx = new RecordingPort(scheduler, frames, false);
        link.portB().setReceiver(rx);
        final List<String> events = new ArrayList<>();
        link.portA().addLinkStateListener((port, up) -> events.add(port.name() + (up ? " up@" : " down@") + scheduler.nanoTime()));
        link.portB().addLinkStateListener((port, up) -> events.add(port.name() + (up ? " up@" : " down@") + scheduler.nanoTime()));

        for (int i = 0; i < 10; i++) {
            link.portA().send(frames.frame(i, 1500));
        }
        scheduler.runUntil(5_000);
        assertEquals(10, link.aToB().framesInFlight());
        link.setUp(false);

        assertEquals(List.of("f.a down@5000", "f.b down@5000"), events);
        assertFalse(link.isUp());
        assertFalse(link.portA().isUp());
        assertFalse(link.portB().isUp());
        assertEquals(10, link.aToB().counters().get(LinkCounter.DROPPED_LINK_DOWN));
        assertEquals(0, link.aToB().framesInFlight());

        link.portA().send(frames.frame(10, 100));
        link.portB().send(frames.frame(11, 100));
        scheduler.runUntil(200_000);
        assertEquals(0, rx.count(), "nothing arrives on a down link, not even held-back frames");
        assertEquals(11, link.aToB().counters().get(LinkCounter.DROPPED_LINK_DOWN));
        assertEquals(1, link.bToA().counters().get(LinkCounter.DROPPED_LINK_DOWN));

        link.aToB().setFaults(FaultProfile.NONE);
        link.setUp(true);
        assertEquals(List.of("f.a down@5000", "f.b down@5000", "f.a up@200000", "f.b up@200000"), events);
        assertTrue(link.portA().isUp() && link.portB().isUp());
        link.portA().send(frames.frame(12, 1500));
        scheduler.runUntilIdle();

        assertEquals(List.of(12), rx.ids());
        assertEquals(List.of(200_000 + SER_1500 + 10_000), rx.times(), "the old backlog is forgotten");
        assertAccounted(link.aToB());
        assertAccounted(link.bToA());
    }

    @Test
    void aFlapDuringALongFrameDoesNotDelayTheNextFrame() {
        // 1 Gb/s: a 9000-byte frame takes 72.192 us; a 64-byte one 0.704 us
        final InProcessLink link = InProcessLink.builder().rateGbps(1).propagationDelayNanos(100).build(scheduler);
        final RecordingPort rx = new RecordingPort(scheduler, frames, false);
        link.portB().setReceiver(rx);

        link.portA().send(frames.frame(0, 9000));
        scheduler.runUntil(1_000);
        link.setUp(false);
        link.setUp(true);
        link.portA().send(frames.frame(1, 64));
        scheduler.runUntilIdle();

        assertEquals(List.of(1), rx.ids());
        assertEquals(List.of(1_000L + 704 + 100), rx.times());
        assertEquals(1, link.aToB().counters().get(LinkCounter.DROPPED_LINK_DOWN));
    }

    @Test
    void settingTheSameStateTwiceNotifiesOnce() {
        final InProcessLink link = link(1, FaultProfile.NONE);
        final Map<String, Integer> calls = new HashMap<>();
        link.portA().addLinkStateListener((port, up) -> calls.merge(port.name() + up, 1, Integer::sum));
        link.setUp(true);
        link.setUp(false);
        link.setUp(false);
        link.setUp(true);
        assertEquals(Map.of("f.afalse", 1, "f.atrue", 1), calls);
    }

    @Test
    void aLinkCanStartDown() {
        final InProcessLink link = InProcessLink.builder().up(false).build(scheduler);
        assertFalse(link.portA().isUp());
        final RecordingPort rx = sendAndRun(link, 3, 64, false);
        assertEquals(0, rx.count());
        assertEquals(3, link.aToB().counters().get(LinkCounter.DROPPED_LINK_DOWN));
    }

    @Test
    void badFaultProfilesAreRejectedNamingTheArgument() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> FaultProfile.NONE.withLoss(1.5));
        assertTrue(e.getMessage().contains("lossProbability"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> FaultProfile.NONE.withDuplication(-0.1));
        assertThrows(IllegalArgumentException.class, () -> FaultProfile.NONE.withCorruption(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> FaultProfile.NONE.withReordering(0.1, -1, 0));
        assertThrows(IllegalArgumentException.class, () -> InProcessLink.builder().rateBitsPerSecond(-1));
        assertTrue(FaultProfile.NONE.isNone());
        assertFalse(FaultProfile.NONE.withLoss(0.5).isNone());
    }

    private static int differingBits(byte[] a, byte[] b) {
        int bits = 0;
        for (int i = 0; i < a.length; i++) {
            bits += Integer.bitCount((a[i] ^ b[i]) & 0xFF);
        }
        return bits;
    }
}
