package io.rocelab.fabric.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.testing.Await;
import io.rocelab.fabric.testing.RecordingPort;
import io.rocelab.fabric.testing.TestFrames;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A link port's flow control: it reports the link's speed for the sender's transmitter; on one
 * thread it is always writable (the sender's transmitter paces what the wire holds); between two
 * threads it stops being writable when the receiver's loop falls a hand-off ring behind, and tells
 * the sender on the sender's thread when the receiver has caught up.
 */
class LinkWritabilityTest {
    private final TestFrames frames = TestFrames.direct();

    @AfterEach
    void released() {
        assertEquals(0, frames.unreleased(), "unreleased buffers");
    }

    @Test
    void aPortReportsItsLinksSpeed() {
        InProcessLink link = InProcessLink.builder().rateGbps(25).build(new VirtualTimeScheduler());
        assertEquals(25_000_000_000L, link.portA().speedBitsPerSecond());
        assertEquals(25_000_000_000L, link.portB().speedBitsPerSecond());
    }

    @Test
    void onOneThreadThePortIsAlwaysWritable() {
        VirtualTimeScheduler time = new VirtualTimeScheduler();
        InProcessLink link = InProcessLink.builder().rateGbps(1).build(time);
        link.portB().setReceiver(new RecordingPort(time, frames, false));
        for (int i = 0; i < 3 * LinkDirection.HAND_OFF_HIGH_WATER; i++) {
            link.portA().send(frames.frame(i, 100));
        }
        assertTrue(link.portA().isWritable());
        time.runUntilIdle();
    }

    @Test
    void aReceiverThatFallsBehindMakesTheSenderWaitAndThenTellsItOnItsThread() throws Exception {
        try (RealTimeScheduler sender = RealTimeScheduler.start("sender");
             RealTimeScheduler receiver = RealTimeScheduler.start("receiver")) {
            InProcessLink link = InProcessLink.builder().build(sender, receiver);
            RecordingPort atB = new RecordingPort(receiver, frames, false);
            link.portB().setReceiver(atB);
            CountDownLatch hold = new CountDownLatch(1);
            receiver.execute(() -> {
                try {
                    hold.await(10, TimeUnit.SECONDS); // the receiver's loop is busy elsewhere
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            AtomicReference<String> listenerThread = new AtomicReference<>();
            CountDownLatch writable = new CountDownLatch(1);
            link.portA().setWritabilityListener(() -> {
                listenerThread.set(Thread.currentThread().getName());
                writable.countDown();
            });
            int[] sent = {0};
            CountDownLatch filled = new CountDownLatch(1);
            sender.execute(() -> {
                while (link.portA().isWritable()) {
                    link.portA().send(frames.frame(sent[0]++, 100));
                }
                filled.countDown();
            });
            assertTrue(filled.await(10, TimeUnit.SECONDS));
            assertEquals(LinkDirection.HAND_OFF_HIGH_WATER, sent[0], "writable until the ring holds the high water");
            assertFalse(link.portA().isWritable());
            hold.countDown();
            assertTrue(writable.await(10, TimeUnit.SECONDS), "the sender is told once the receiver took the frames");
            assertTrue(listenerThread.get().startsWith("sender"), listenerThread.get());
            assertTrue(link.portA().isWritable());
            Await.until(() -> atB.count() == sent[0], TimeUnit.SECONDS.toNanos(10), "every frame delivered");
        }
    }
}
