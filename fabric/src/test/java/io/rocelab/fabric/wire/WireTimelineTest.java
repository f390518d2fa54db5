package io.rocelab.fabric.wire;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class WireTimelineTest {

    @Test
    void anIdleTransmitterStartsNowAndRoundsTheEndUp() {
        final WireTimeline t = new WireTimeline(100_000_000_000L);
        // 1524 bytes = 12192 bits = 121.92 ns at 100 Gb/s
        assertEquals(1_000 + 122, t.transmit(1_000, 1524));
        assertEquals(122, t.serializationNanos(1524));
    }

    @Test
    void backToBackFramesKeepTheExactFractionalTimeline() {
        final WireTimeline t = new WireTimeline(100_000_000_000L);
        long end = 0;
        for (int k = 1; k <= 1_000; k++) {
            end = t.transmit(0, 1524);
            // exact end of frame k: k * 121.92 ns, rounded up
            assertEquals((k * 12_192L + 99) / 100, end, "frame " + k);
        }
        assertEquals(121_920, end);
    }

    @Test
    void aFrameArrivingAfterTheQueueDrainedStartsWhenItArrives() {
        final WireTimeline t = new WireTimeline(10_000_000_000L); // 10 Gb/s: 0.8 ns per byte
        assertEquals(68, t.transmit(0, 84)); // 67.2 ns
        assertEquals(500 + 68, t.transmit(500, 84));
        // handed over at 567: the previous frame ends at 567.2, so this one starts then
        assertEquals(635, t.transmit(567, 84)); // 567.2 + 67.2 = 634.4
    }

    @Test
    void unlimitedRateHasNoSerializationDelay() {
        final WireTimeline t = new WireTimeline(0);
        assertEquals(7, t.transmit(7, 9_000));
        assertEquals(7, t.transmit(7, 9_000));
        assertEquals(0, t.serializationNanos(9_000));
    }

    @Test
    void resetForgetsTheBacklog() {
        final WireTimeline t = new WireTimeline(1_000_000_000L); // 8 ns per byte
        assertEquals(8_000, t.transmit(0, 1_000));
        t.reset();
        assertEquals(10 + 8_000, t.transmit(10, 1_000));
    }
}
