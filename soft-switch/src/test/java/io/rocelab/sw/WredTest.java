package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.sw.config.WredProfile;
import io.rocelab.sw.egress.Wred;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.Lab;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** WRED/ECN at dequeue follows SONiC WRED_PROFILE: probability versus depth, marking vs dropping. */
class WredTest {
    private static final WredProfile PROFILE = new WredProfile("w", true, true, 20_000, 100_000, 0.20);

    @Test
    void markingProbabilityFollowsTheProfile() {
        int n = 40_000;
        for (long depth : new long[] {10_000, 20_000, 40_000, 60_000, 80_000, 99_999, 100_000, 200_000}) {
            Wred wred = new Wred(PROFILE, depth);
            int marked = 0;
            for (int i = 0; i < n; i++) {
                Wred.Verdict v = wred.decide(depth, 2);
                assertTrue(v != Wred.Verdict.DROP, "ECT is never dropped when ecn covers green");
                marked += v == Wred.Verdict.MARK ? 1 : 0;
            }
            double expected = PROFILE.probability(depth);
            double measured = marked / (double) n;
            double sigma = Math.sqrt(expected * (1 - expected) / n);
            System.out.printf("depth %6d B: expected %.4f, measured %.4f%n", depth, expected, measured);
            assertTrue(Math.abs(measured - expected) <= 5 * sigma + 1e-9,
                "depth " + depth + ": measured " + measured + " vs " + expected);
        }
        assertEquals(0.10, PROFILE.probability(60_000), 1e-12);
    }

    @Property(tries = 200)
    void nonEctIsDroppedNeverMarked(@ForAll @LongRange(min = 0, max = 300_000) long depth,
                                    @ForAll @IntRange(min = 0, max = 1) int notIp) {
        Wred wred = new Wred(PROFILE, depth);
        for (int i = 0; i < 50; i++) {
            Wred.Verdict v = wred.decide(depth, notIp == 1 ? -1 : 0);
            assertTrue(v != Wred.Verdict.MARK);
            if (depth >= 100_000) {
                assertEquals(Wred.Verdict.DROP, v);
            }
            if (depth < 20_000) {
                assertEquals(Wred.Verdict.PASS, v);
            }
        }
    }

    @Test
    void ecnNoneDropsEctAndStepMarkingIsDctcp() {
        Wred drop = new Wred(new WredProfile("d", true, false, 0, 1, 1.0), 1);
        assertEquals(Wred.Verdict.DROP, drop.decide(10, 2));
        Wred markOnly = new Wred(new WredProfile("m", false, true, 0, 1, 1.0), 1);
        assertEquals(Wred.Verdict.PASS, markOnly.decide(10, 0), "without wred_green_enable non-ECT passes");
        WredProfile step = new WredProfile("k", false, true, 30_000, 30_000, 1.0);
        Wred dctcp = new Wred(step, 1);
        assertEquals(Wred.Verdict.PASS, dctcp.decide(29_999, 2));
        assertEquals(Wred.Verdict.MARK, dctcp.decide(30_000, 2));
    }

    @Test
    void switchMarksEctAndDropsNonEctUnderCongestion() {
        ConfigBuilder b = Lab.routes(new ConfigBuilder(3, 100), 3).wred(3, "ecn_all", false, 5_000, 40_000, 50)
            .wred(0, "ecn_all", true, 5_000, 40_000, 50);
        Lab lab = new Lab(b.build());
        lab.flow(1, 0, 26, 2, 0xC001, 4096).start();
        lab.flow(2, 0, 26, 2, 0xC002, 4096).start();
        lab.time.runFor(500_000);
        lab.drainAndClose();
        long marked = lab.sw.counters(0).queueEcnMarked[3];
        System.out.printf("2:1 lossless ECT: %d CE marked at the switch, %d CE received, %d received%n", marked,
            lab.hosts.get(0).rxCe, lab.hosts.get(0).rxFrames);
        assertTrue(marked > 0);
        assertEquals(marked, lab.hosts.get(0).rxCe);
        assertEquals(0, lab.sw.counters(1).totalDrops() + lab.sw.counters(2).totalDrops());

        Lab lossy = new Lab(b.build());
        lossy.flow(1, 0, 0, 0, 0xC001, 4096).start();
        lossy.flow(2, 0, 0, 0, 0xC002, 4096).start();
        lossy.time.runFor(500_000);
        lossy.drainAndClose();
        long wredDrops = lossy.sw.counters(1).drops(DropReason.WRED) + lossy.sw.counters(2).drops(DropReason.WRED);
        System.out.printf("2:1 lossy non-ECT: %d WRED drops, %d CE%n", wredDrops, lossy.hosts.get(0).rxCe);
        assertTrue(wredDrops > 0);
        assertEquals(0, lossy.hosts.get(0).rxCe);
        assertEquals(0, lossy.sw.counters(0).queueEcnMarked[0]);
    }
}
