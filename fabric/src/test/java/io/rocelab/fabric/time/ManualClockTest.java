package io.rocelab.fabric.time;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ManualClockTest {

    @Test
    void movesOnlyWhenTold() {
        final ManualClock clock = new ManualClock(100);
        assertEquals(100, clock.nanoTime());
        assertEquals(100, clock.nanoTime());
        assertEquals(150, clock.advance(50));
        clock.set(1_000);
        assertEquals(1_000, clock.nanoTime());
        clock.set(1_000);
        assertEquals(1_000, clock.nanoTime());
    }

    @Test
    void neverGoesBack() {
        final ManualClock clock = new ManualClock();
        clock.advance(10);
        assertThrows(IllegalArgumentException.class, () -> clock.advance(-1));
        assertThrows(IllegalArgumentException.class, () -> clock.set(9));
        assertEquals(10, clock.nanoTime());
    }
}
