package io.rocelab.fabric.link;

import io.rocelab.fabric.testing.Await;
import io.rocelab.fabric.testing.RecordingPort;
import io.rocelab.fabric.testing.TestFrames;
import io.rocelab.fabric.time.BusyPollScheduler;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.fabric.time.Scheduler;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hand-off ring between the two ends of a link: frames sent from the other end's thread (and
 * from a third thread) all arrive, in each sender's order, on the receiver's thread, and every
 * buffer is released, including frames sent after the receiver's scheduler has shut down. Checked
 * with busy-polling owners and with a sleeping event loop on one end.
 */
class InProcessLinkBusyPollTest {

    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(20);
    private final TestFrames frames = TestFrames.direct();
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAndCheckReleased() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
        assertEquals(0, frames.unreleased(), "unreleased buffers");
    }

    private BusyPollScheduler polling(String name) {
        final BusyPollScheduler s = BusyPollScheduler.start(name, new YieldingIdleStrategy());
        toClose.add(s);
        return s;
    }

    private RealTimeScheduler sleeping(String name) {
        final RealTimeScheduler s = RealTimeScheduler.start(name);
        toClose.add(s);
        return s;
    }

    @Test
    void busyPollingEndsExchangeEveryFrameInOrderOnTheReceiversThread() throws Exception {
        exchange(polling("bp-a"), polling("bp-b"), "bp-a", "bp-b");
    }

    @Test
    void aPollingEndAndASleepingEndExchangeEveryFrameInOrder() throws Exception {
        exchange(polling("bp-a"), sleeping("ev-b"), "bp-a", "ev-b");
    }

    private void exchange(Scheduler a, Scheduler b, String threadA, String threadB) throws Exception {
        final InProcessLink link = InProcessLink.builder().name("ring").build(a, b);
        final RecordingPort atB = new RecordingPort(b, frames, false);
        final RecordingPort atA = new RecordingPort(a, frames, false);
        link.portB().setReceiver((port, frame) -> {
            final int id = TestFrames.id(frame);
            atB.onFrame(port, frame);
            if (id % 4 == 0) {
                port.send(frames.frame(id, 64)); // echoed from B's thread
            }
        });
        link.portA().setReceiver(atA);

        final int n = 20_000;
        final CountDownLatch sent = new CountDownLatch(1);
        a.execute(() -> {
            for (int i = 0; i < n; i++) {
                link.portA().send(frames.frame(i, 64 + (i & 255))); // from A's own thread
            }
            sent.countDown();
        });
        assertTrue(sent.await(20, TimeUnit.SECONDS));
        Await.until(() -> atB.count() == n && atA.count() == n / 4, WAIT_NANOS, "every frame");
        assertEquals(IntStream.range(0, n).boxed().toList(), atB.ids());
        assertEquals(IntStream.range(0, n / 4).map(i -> i * 4).boxed().toList(), atA.ids());
        assertTrue(atB.deliveries().stream().allMatch(d -> d.thread().startsWith(threadB)), "B's frames on B's thread (Netty names it prefix-1-1)");
        assertTrue(atA.deliveries().stream().allMatch(d -> d.thread().startsWith(threadA)), "A's frames on A's thread");
        assertEquals(n, link.aToB().counters().get(LinkCounter.FRAMES_DELIVERED));
    }

    @Test
    void framesSentFromAThirdThreadArriveInOrder() throws Exception {
        final BusyPollScheduler a = polling("bp-a");
        final BusyPollScheduler b = polling("bp-b");
        final InProcessLink link = InProcessLink.builder().build(a, b);
        final RecordingPort atB = new RecordingPort(b, frames, false);
        link.portB().setReceiver(atB);
        for (int i = 0; i < 5_000; i++) {
            link.portA().send(frames.frame(i, 64)); // the test thread owns neither end
        }
        Await.until(() -> atB.count() == 5_000, WAIT_NANOS, "every frame");
        assertEquals(IntStream.range(0, 5_000).boxed().toList(), atB.ids());
    }

    @Test
    void framesSentAfterTheReceiverShutDownAreReleased() throws Exception {
        final BusyPollScheduler a = polling("bp-a");
        final BusyPollScheduler b = polling("bp-b");
        final InProcessLink link = InProcessLink.builder().build(a, b);
        link.portB().setReceiver(new RecordingPort(b, frames, false));
        b.close();
        final CountDownLatch sent = new CountDownLatch(1);
        a.execute(() -> {
            for (int i = 0; i < 100; i++) {
                link.portA().send(frames.frame(i, 64));
            }
            sent.countDown();
        });
        assertTrue(sent.await(20, TimeUnit.SECONDS));
        assertEquals(0, frames.unreleased(), "frames nobody will receive are freed by the sender");
        assertEquals(0, link.aToB().counters().get(LinkCounter.FRAMES_SENT), "never reached the wire");
    }
}
