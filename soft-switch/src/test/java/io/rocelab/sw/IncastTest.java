package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.sw.mmu.PgState;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.sw.stats.PortCounters;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.HostStub;
import io.rocelab.sw.testkit.Lab;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** N:1 incast at 100 Gb/s: lossless priority 3 loses nothing thanks to PFC; a lossy class tail-drops. */
class IncastTest {
    private static final long POOL = 4_000_000;

    private static Lab lab(int n) {
        ConfigBuilder b = Lab.routes(new ConfigBuilder(n + 1, 100), n + 1).pool(POOL);
        return new Lab(b.build());
    }

    @ParameterizedTest(name = "{0}:1 lossless")
    @ValueSource(ints = {2, 8, 32})
    void losslessIncastDropsNothing(int n) {
        Lab lab = lab(n);
        for (int i = 1; i <= n; i++) {
            lab.flow(i, 0, 26, 2, 0xC000 + i, 4096).start();
        }
        lab.time.runFor(1_000_000);
        long receivedInWindow = lab.hosts.get(0).rxBytes;
        long maxPoolSeen = lab.sw.mmu().poolWatermark(0);
        lab.drainAndClose();

        long sent = 0;
        long pausesHonoured = 0;
        for (int i = 1; i <= n; i++) {
            HostStub h = lab.hosts.get(i);
            sent += h.sentFrames;
            pausesHonoured += h.rxPfc > 0 && h.pausedNanos > 0 ? 1 : 0;
        }
        HostStub receiver = lab.hosts.get(0);
        long drops = 0;
        long pfcSent = 0;
        for (int p = 0; p <= n; p++) {
            PortCounters c = lab.sw.counters(p);
            drops += c.totalDrops();
            pfcSent += c.txPfc[3];
            PgState pg = lab.sw.mmu().pg(p, 3);
            assertTrue(pg.headroomWatermark() <= 40_000, "headroom overrun on port " + p);
        }
        System.out.printf("incast %d:1 lossless: sent %d, received %d, drops %d, PFC frames sent %d, "
                + "pool watermark %d of %d, receiver %.1f Gb/s%n", n, sent, receiver.rxFrames, drops, pfcSent,
            maxPoolSeen, POOL, receivedInWindow * 8.0 / 1_000_000);
        assertEquals(0, drops, "drops in a lossless class");
        assertEquals(sent, receiver.rxFrames, "every frame sent arrives");
        assertTrue(pfcSent > 0, "the switch paused its senders");
        assertEquals(n, pausesHonoured, "every sender received and obeyed PFC");
        assertTrue(lab.sw.mmu().poolWatermark(0) <= POOL, "buffer above its limit");
        assertEquals(0, lab.sw.mmu().poolUsed(0), "buffer drained");
        assertTrue(receivedInWindow * 8.0 / 1_000_000 > 90, "the bottleneck stays busy while senders are paused");
        // SONiC's views of the same numbers: the senders' PG 3 shared and headroom watermarks
        String shared = SonicViews.pgWatermark(lab.sw, false, false);
        String headroom = SonicViews.pgWatermark(lab.sw, true, false);
        assertTrue(shared.startsWith("Ingress shared pool occupancy per PG:\n") && headroom.startsWith(
            "Ingress headroom per PG:\n"), shared + headroom);
        String row = headroom.lines().filter(l -> l.trim().startsWith(ConfigBuilder.name(1) + " ")).findFirst().orElseThrow();
        assertEquals(String.valueOf(lab.sw.mmu().pg(1, 3).headroomWatermark()), row.trim().split("\\s+")[4], headroom);
        assertTrue(SonicViews.bufferPoolWatermark(lab.sw, false).contains(" " + lab.sw.mmu().poolWatermark(0) + "\n"));
    }

    @ParameterizedTest(name = "{0}:1 lossy")
    @ValueSource(ints = {2, 8, 32})
    void lossyIncastTailDrops(int n) {
        Lab lab = lab(n);
        for (int i = 1; i <= n; i++) {
            lab.flow(i, 0, 0, 2, 0xC000 + i, 4096).start();
        }
        lab.time.runFor(400_000);
        lab.drainAndClose();
        long sent = 0;
        long bufferFull = 0;
        long pfc = 0;
        for (int p = 0; p <= n; p++) {
            bufferFull += lab.sw.counters(p).drops(DropReason.BUFFER_FULL);
            pfc += lab.sw.counters(p).txPfc[0] + lab.sw.counters(p).txPfc[3];
        }
        for (int i = 1; i <= n; i++) {
            sent += lab.hosts.get(i).sentFrames;
        }
        long received = lab.hosts.get(0).rxFrames;
        System.out.printf("incast %d:1 lossy: sent %d, received %d, tail drops %d%n", n, sent, received, bufferFull);
        assertTrue(bufferFull > 0, "a lossy class must tail-drop under incast");
        assertEquals(sent, received + bufferFull, "every frame is either delivered or counted as dropped");
        assertEquals(0, pfc, "no PFC for a lossy class");
        assertTrue(lab.sw.mmu().poolWatermark(0) <= POOL);
        // show priority-group drop counters: the senders' PGs refused them
        long pgDrops = 0;
        for (int p = 0; p <= n; p++) {
            for (int g = 0; g < 8; g++) {
                pgDrops += lab.sw.mmu().pg(p, g).drops();
            }
        }
        assertEquals(bufferFull, pgDrops, "each tail drop is counted at its PG");
        String view = SonicViews.pgDropCounters(lab.sw);
        assertTrue(view.startsWith("Ingress PG dropped packets:\n"), view);
        String row = view.lines().filter(l -> l.trim().startsWith(ConfigBuilder.name(1) + " ")).findFirst().orElseThrow();
        assertEquals(String.valueOf(lab.sw.mmu().pg(1, 0).drops()), row.trim().split("\\s+")[1], view);
    }
}
