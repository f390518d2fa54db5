package io.rocelab.sw.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.rocelab.sw.pipeline.PacketContext;
import io.rocelab.sw.testkit.ConfigBuilder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A lossless PG's headroom is whole again once the PG is back below XON, though the frames that
 * filled it still wait deep in a congested queue: a release empties the headroom first (as ns-3's
 * switch MMU and switch ASICs account it). Otherwise the next pause episode finds the headroom
 * half used and drops what is still on the cable after its XOFF.
 */
class HeadroomReleaseTest {
    private static final int FRAME = 4_000;
    /** The test kit's lossless profile: XOFF at 30,000 shared bytes (static_th), XON 15,000, headroom (xoff) 40,000 bytes. */
    private static final long PAUSE_AT = 30_000;
    private static final long HEADROOM = 40_000;

    private final List<String> signals = new ArrayList<>();
    private final Mmu mmu = new Mmu(new ConfigBuilder(2, 100).build(), new PfcSignal() {
        @Override
        public void xoff(int port, int pg) {
            signals.add("xoff");
        }

        @Override
        public void xon(int port, int pg) {
            signals.add("xon");
        }
    });
    private final ArrayDeque<PacketContext> queue = new ArrayDeque<>();

    private void arrive(int frames) {
        for (int i = 0; i < frames; i++) {
            PacketContext c = new PacketContext();
            c.ingressPort = 1;
            c.priorityGroup = 3;
            c.lossless = true;
            c.egressPort = 0;
            c.queue = 3;
            c.length = FRAME;
            assertNull(mmu.admit(c), "admitted frame " + i);
            queue.add(c);
        }
    }

    private void leave(int frames) {
        for (int i = 0; i < frames; i++) {
            mmu.release(queue.poll());
        }
    }

    @Test
    void theHeadroomIsWholeAgainAtXonSoTheNextEpisodeHasAllOfIt() {
        PgState pg = mmu.pg(1, 3);
        arrive(7); // 28,000 B in the shared part
        arrive(1 + (int) (HEADROOM / FRAME) - 1); // crosses XOFF; the rest goes to the headroom
        assertEquals(List.of("xoff"), signals);
        assertEquals(HEADROOM, pg.headroomUsed, "the frames after the XOFF went to the headroom");
        // drain to XON: the oldest frames leave; the newest, which the headroom took, are still queued
        while (signals.size() == 1) {
            leave(1);
        }
        assertEquals(List.of("xoff", "xon"), signals);
        assertEquals(3, queue.size(), "12,000 B left: three of the frames the headroom took");
        assertEquals(0, pg.headroomUsed, "the headroom was emptied first");
        // the next episode: up to XOFF again, then a full headroom's worth of frames still on the cable
        while (pg.used() + FRAME <= PAUSE_AT) {
            arrive(1);
        }
        arrive(1);
        arrive((int) (HEADROOM / FRAME) - 1);
        assertEquals(List.of("xoff", "xon", "xoff"), signals);
        leave(queue.size());
        assertEquals(0, pg.used());
    }
}
