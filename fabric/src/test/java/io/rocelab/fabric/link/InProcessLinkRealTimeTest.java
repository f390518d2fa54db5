package io.rocelab.fabric.link;

import io.rocelab.fabric.testing.RecordingPort;
import io.rocelab.fabric.testing.Await;
import io.rocelab.fabric.testing.TestFrames;
import io.rocelab.fabric.time.RealTimeScheduler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The same link between two real event loops: frames cross from one loop to the other, in order,
 * and only lower bounds on timing are checked.
 */
class InProcessLinkRealTimeTest {

    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static RealTimeScheduler loopA;
    private static RealTimeScheduler loopB;
    private final TestFrames frames = TestFrames.direct();

    @BeforeAll
    static void start() {
        loopA = RealTimeScheduler.start("link-a");
        loopB = RealTimeScheduler.start("link-b");
    }

    @AfterAll
    static void stop() {
        loopA.close();
        loopB.close();
    }

    @AfterEach
    void allBuffersReleased() {
        assertEquals(0, frames.unreleased(), "unreleased buffers");
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        Await.until(condition, WAIT_NANOS, what);
    }

    @Test
    void anUnlimitedLinkHandsFramesOverOnTheReceiversLoopInOrder() throws Exception {
        final InProcessLink link = InProcessLink.builder().name("rt").build(loopA, loopB);
        final RecordingPort atB = new RecordingPort(loopB, frames, false);
        final RecordingPort atA = new RecordingPort(loopA, frames, false);
        link.portB().setReceiver((port, frame) -> {
            final int id = TestFrames.id(frame);
            atB.onFrame(port, frame);
            if (id % 10 == 0) {
                port.send(frames.frame(id, 64)); // echo from B's loop
            }
        });
        link.portA().setReceiver(atA);

        for (int i = 0; i < 500; i++) {
            link.portA().send(frames.frame(i, 64 + i)); // from the test thread
        }

        await(() -> atB.count() == 500 && atA.count() == 50, "all frames");
        assertEquals(IntStream.range(0, 500).boxed().toList(), atB.ids());
        assertEquals(IntStream.range(0, 50).map(i -> i * 10).boxed().toList(), atA.ids());
        assertTrue(atB.deliveries().stream().allMatch(d -> d.thread().startsWith("link-b")), "B's frames on B's loop");
        assertTrue(atA.deliveries().stream().allMatch(d -> d.thread().startsWith("link-a")), "A's frames on A's loop");
        await(() -> link.aToB().counters().get(LinkCounter.FRAMES_DELIVERED) == 500, "counters");
    }

    @Test
    void aRateLimitedLinkTakesAtLeastTheSerializationTime() throws Exception {
        // 100 Mb/s: a 1500-byte frame takes 121.92 us on the wire
        final InProcessLink link = InProcessLink.builder().rateBitsPerSecond(100_000_000L)
            .propagationDelayNanos(50_000).build(loopA, loopB);
        final RecordingPort atB = new RecordingPort(loopB, frames, false);
        link.portB().setReceiver(atB);

        final CountDownLatch sent = new CountDownLatch(1);
        final long[] start = new long[1];
        loopA.execute(() -> {
            start[0] = loopA.nanoTime();
            for (int i = 0; i < 10; i++) {
                link.portA().send(frames.frame(i, 1500));
            }
            sent.countDown();
        });
        assertTrue(sent.await(10, TimeUnit.SECONDS));
        await(() -> atB.count() == 10, "10 frames");

        final List<Long> times = atB.times();
        for (int k = 1; k <= 10; k++) {
            final long earliest = start[0] + k * 121_920L + 50_000;
            assertTrue(times.get(k - 1) >= earliest, "frame " + k + " early by " + (earliest - times.get(k - 1)) + " ns");
        }
        assertEquals(IntStream.range(0, 10).boxed().toList(), atB.ids());
    }

    @Test
    void linkStateChangesReachEachEndOnItsOwnLoop() throws Exception {
        final InProcessLink link = InProcessLink.builder().build(loopA, loopB);
        final BlockingQueue<String> events = new LinkedBlockingQueue<>();
        link.portA().addLinkStateListener((port, up) -> events.add("a " + up + " " + Thread.currentThread().getName().startsWith("link-a")));
        link.portB().addLinkStateListener((port, up) -> events.add("b " + up + " " + Thread.currentThread().getName().startsWith("link-b")));

        link.setUp(false);
        final String first = events.poll(10, TimeUnit.SECONDS);
        final String second = events.poll(10, TimeUnit.SECONDS);
        assertEquals(List.of("a false true", "b false true"), List.of(first, second).stream().sorted().toList());

        link.portA().send(frames.frame(1, 64));
        await(() -> link.aToB().counters().get(LinkCounter.DROPPED_LINK_DOWN) == 1, "drop while down");

        link.setUp(true);
        final String third = events.poll(10, TimeUnit.SECONDS);
        final String fourth = events.poll(10, TimeUnit.SECONDS);
        assertEquals(List.of("a true true", "b true true"), List.of(third, fourth).stream().sorted().toList());
    }
}
