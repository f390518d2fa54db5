package io.rocelab.fabric.pfc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A received pause's timeline with a response time: 10 Gb/s, one quantum is 51.2 ns, so 1000
 * quanta are 51,200 ns; the response is 1,000 ns.
 */
class PauseTimersTest {
    private final PauseTimers timers = new PauseTimers(10_000_000_000L, 1_000);

    @Test
    void anXoffHoldsFromTheResponseTimeUntilItsTimerRunsOut() {
        timers.receive(3, 1000, 0);
        assertFalse(timers.paused(3, 999), "not yet acted on");
        assertEquals(0, timers.pausedMask(999));
        assertTrue(timers.paused(3, 1_000));
        assertEquals(1 << 3, timers.pausedMask(1_000));
        assertTrue(timers.paused(3, 51_199));
        assertFalse(timers.paused(3, 51_200), "the timer started when the frame arrived");
        assertEquals(51_200, timers.resumesAt(3));
        assertEquals(50_200, timers.pausedNanos(3), "the response time is not time paused");
        assertFalse(timers.paused(2, 10_000), "only the priority named");
    }

    @Test
    void anXoffWhilePausedExtendsWithoutANewResponseDelay() {
        timers.receive(3, 1000, 0);
        timers.receive(3, 1000, 20_000);
        assertTrue(timers.paused(3, 20_000));
        assertEquals(71_200, timers.resumesAt(3));
        assertEquals(70_200, timers.pausedNanos(3));
    }

    @Test
    void anXoffWhileTheFirstIsStillToTakeEffectKeepsItsStart() {
        timers.receive(3, 1000, 0);
        timers.receive(3, 1000, 500);
        assertFalse(timers.paused(3, 999));
        assertTrue(timers.paused(3, 1_000));
        assertEquals(51_700, timers.resumesAt(3));
        assertEquals(50_700, timers.pausedNanos(3));
    }

    @Test
    void anXonResumesAtOnceAndCountsOnlyTheTimePaused() {
        timers.receive(3, 1000, 0);
        assertTrue(timers.receive(3, 0, 11_000), "a pause in effect ended");
        assertFalse(timers.paused(3, 11_000));
        assertEquals(10_000, timers.pausedNanos(3));
        timers.receive(3, 1000, 20_000);
        assertFalse(timers.paused(3, 20_500), "after a resume, a new XOFF has its response time again");
        assertTrue(timers.paused(3, 21_000));
    }

    @Test
    void anXonBeforeTheXoffTookEffectCancelsIt() {
        timers.receive(3, 1000, 0);
        assertFalse(timers.receive(3, 0, 500), "nothing was paused yet");
        assertFalse(timers.paused(3, 1_000));
        assertEquals(0, timers.pausedNanos(3));
    }

    @Test
    void aPauseNoLongerThanTheResponseHoldsNothing() {
        timers.receive(3, 10, 0); // 512 ns
        assertEquals(0, timers.pausedMask(600));
        assertEquals(0, timers.pausedNanos(3));
    }

    @Test
    void withoutAResponseTimeAnXoffHoldsAtOnce() {
        PauseTimers instant = new PauseTimers(10_000_000_000L, 0);
        instant.receive(5, 1000, 100);
        assertTrue(instant.paused(5, 100));
        assertEquals(51_200, instant.pausedNanos(5));
    }
}
