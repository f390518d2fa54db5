package io.rocelab.fabric.udp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.testing.RecordingPort;
import io.rocelab.fabric.testing.Await;
import io.rocelab.fabric.testing.TestFrames;
import io.rocelab.fabric.time.RealTimeScheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The port's socket thread and transmit pacing: frames still cross whole, in order, and are handed
 * to the receiver on the owner loop; a paced port spaces a burst out at its rate instead of losing
 * any of it; what the kernel granted as receive buffer is visible.
 */
class UdpFramePortSocketThreadTest {
    private static final long WAIT_NANOS = 20_000_000_000L;
    private static RealTimeScheduler loopA;
    private static RealTimeScheduler loopB;
    private final TestFrames frames = TestFrames.direct();

    @BeforeAll
    static void startLoops() {
        loopA = RealTimeScheduler.start("udp-a");
        loopB = RealTimeScheduler.start("udp-b");
    }

    @AfterAll
    static void stopLoops() {
        loopA.close();
        loopB.close();
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        Await.until(condition, WAIT_NANOS, what);
    }

    @Test
    void aBurstCrossesInOrderAndReachesTheReceiverOnTheOwnerLoop() throws Exception {
        try (UdpFramePort a = UdpFramePort.builder().name("a").socketThread(true).open(loopA);
             UdpFramePort b = UdpFramePort.builder().name("b").socketThread(true).open(loopB)) {
            a.setRemoteAddress(b.localAddress());
            final RecordingPort atB = new RecordingPort(loopB, null, true);
            b.setReceiver(atB);
            final int n = 200;
            for (int i = 0; i < n; i++) {
                a.send(frames.frame(i, 1500));
            }
            await(() -> atB.count() == n, n + " frames at b");
            final List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                expected.add(i);
            }
            assertEquals(expected, atB.ids(), "in order");
            assertTrue(atB.deliveries().stream().allMatch(d -> d.thread().startsWith("udp-b")), "on b's loop");
            assertEquals(n, a.counters().get(UdpPortCounter.FRAMES_SENT));
            assertEquals(0, b.counters().get(UdpPortCounter.RX_DROPPED_BACKLOG));
        }
        await(() -> frames.unreleased() == 0, "all frames released");
    }

    @Test
    void aPacedPortSpacesABurstOutAtItsRateAndLosesNothing() throws Exception {
        // 100 frames of 4000 bytes at 0.032 Gb/s (4 MB/s), burst 40000: about 90 ms for the last 90
        try (UdpFramePort a = UdpFramePort.builder().name("a").transmitRate(0.032, 40_000).open(loopA);
             UdpFramePort b = UdpFramePort.builder().name("b").open(loopB)) {
            a.setRemoteAddress(b.localAddress());
            final RecordingPort atB = new RecordingPort(loopB, null, false);
            b.setReceiver(atB);
            final long start = System.nanoTime();
            for (int i = 0; i < 100; i++) {
                a.send(frames.frame(i, 4000));
            }
            await(() -> atB.count() == 100, "100 frames at b");
            final long elapsed = System.nanoTime() - start;
            assertTrue(elapsed >= 80_000_000L, "paced: took " + elapsed / 1_000_000 + " ms");
            assertEquals(100, a.counters().get(UdpPortCounter.FRAMES_SENT));
        }
        await(() -> frames.unreleased() == 0, "all frames released");
    }

    @Test
    void theGrantedReceiveBufferIsVisible() {
        try (UdpFramePort a = UdpFramePort.builder().name("a").socketBufferBytes(64 * 1024).open(loopA)) {
            assertTrue(a.receiveBufferBytes() >= 64 * 1024, "granted " + a.receiveBufferBytes());
            assertTrue(!a.receiveBufferCapped());
        }
        try (UdpFramePort a = UdpFramePort.builder().name("a").socketBufferBytes(Integer.MAX_VALUE / 2).open(loopA)) {
            assertTrue(a.receiveBufferCapped(), "rmem_max caps a 1 GB request: " + a);
        }
    }

    @Test
    void pacingNeedsABurstOfAtLeastOneFrame() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> UdpFramePort.builder().transmitRate(1, 100));
        assertTrue(e.getMessage().contains("burstBytes"), e.getMessage());
    }
}
