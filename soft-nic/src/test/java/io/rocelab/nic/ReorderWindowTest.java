package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.rocelab.codec.ib.Psn;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The reorder window's PSN bitmap and held packets, across the 24-bit PSN wrap. */
class ReorderWindowTest {
    private static RxPacket packet(int psn) {
        RxPacket p = new RxPacket();
        p.psn = psn;
        p.buf = Unpooled.buffer(4);
        return p;
    }

    @Test
    void theWindowSpansItsSizeAheadOfEpsn() {
        ReorderWindow w = new ReorderWindow(128);
        assertFalse(w.fits(0), "ePSN itself is in order, not held");
        assertTrue(w.fits(1));
        assertTrue(w.fits(127));
        assertFalse(w.fits(128));
        assertFalse(w.fits(-1));
        assertThrows(IllegalArgumentException.class, () -> new ReorderWindow(1));
    }

    @Test
    void aSlotLeftBehindIsOverwrittenAndAPsnIsKnownByAllItsBits() {
        ReorderWindow w = new ReorderWindow(4);
        RxPacket old = packet(0xFFFFFE);
        w.put(old);
        assertTrue(w.has(0xFFFFFE));
        assertFalse(w.has(0xFFFFFE + 4 & 0xFFFFFF), "same slot, another PSN");
        RxPacket next = packet(Psn.add(0xFFFFFE, 4)); // the same slot once ePSN moved past the old one
        w.put(next);
        assertEquals(1, w.count());
        assertEquals(0, old.buf.refCnt(), "the packet overwritten is released");
        assertSame(next, w.take(Psn.add(0xFFFFFE, 4)));
        assertNull(w.take(Psn.add(0xFFFFFE, 4)));
        assertEquals(0, w.count());
    }

    @Property(tries = 200)
    void whatIsPutWithinTheWindowIsHeldUntilTakenOrCleared(@ForAll @IntRange(min = 2, max = 300) int size,
                                                          @ForAll @IntRange(min = 0, max = 0xFFFFFF) int ePsn,
                                                          @ForAll long seed) {
        ReorderWindow w = new ReorderWindow(size);
        Random rnd = new Random(seed);
        Set<Integer> held = new HashSet<>();
        for (int i = 0; i < size; i++) {
            int d = 1 + rnd.nextInt(size - 1);
            int psn = Psn.add(ePsn, d);
            if (!w.has(psn)) {
                w.put(packet(psn));
                held.add(psn);
            }
        }
        assertEquals(held.size(), w.count());
        for (int d = 1; d < size; d++) {
            int psn = Psn.add(ePsn, d);
            assertEquals(held.contains(psn), w.has(psn), "PSN " + psn);
        }
        int first = held.iterator().next();
        assertEquals(first, w.take(first).psn);
        assertFalse(w.has(first));
        w.clear();
        assertEquals(0, w.count());
        for (int psn : held) {
            assertFalse(w.has(psn));
        }
    }
}
