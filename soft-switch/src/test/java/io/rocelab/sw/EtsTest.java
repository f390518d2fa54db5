package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.sw.stats.PortCounters;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.Lab;
import org.junit.jupiter.api.Test;

/** IEEE 802.1Qaz ETS: DWRR shares by weight under saturation; strict priority starves the rest. */
class EtsTest {

    private static double[] run(ConfigBuilder b, int p1, int p2) {
        Lab lab = new Lab(Lab.routes(b, 3).build());
        lab.flow(1, 0, 10, 0, 0xC001, p1).start();
        lab.flow(2, 0, 18, 0, 0xC002, p2).start();
        lab.time.runFor(200_000);
        PortCounters c = lab.sw.counters(0);
        long q1a = c.queueTxBytes[1];
        long q2a = c.queueTxBytes[2];
        lab.time.runFor(1_000_000);
        long q1 = c.queueTxBytes[1] - q1a;
        long q2 = c.queueTxBytes[2] - q2a;
        lab.drainAndClose();
        double total = q1 + q2;
        return new double[] {q1 / total, q2 / total, total * 8 / 1_000_000.0};
    }

    @Test
    void dwrrSharesFollowWeights() {
        for (int[] sizes : new int[][] {{4096, 4096}, {1024, 4096}, {4096, 256}}) {
            double[] s = run(new ConfigBuilder(3, 100).scheduler(1, "DWRR", 70).scheduler(2, "DWRR", 30),
                sizes[0], sizes[1]);
            System.out.printf("ETS 70/30 with %d/%d B payloads: %.3f / %.3f of %.1f Gb/s%n", sizes[0], sizes[1],
                s[0], s[1], s[2]);
            assertEquals(0.70, s[0], 0.05);
            assertEquals(0.30, s[1], 0.05);
            assertTrue(s[2] > 95, "the port stays saturated");
        }
    }

    @Test
    void strictPriorityStarvesLowerClasses() {
        double[] s = run(new ConfigBuilder(3, 100).scheduler(1, "DWRR", 70).scheduler(2, "STRICT", 1), 4096, 4096);
        System.out.printf("strict queue 2 vs DWRR queue 1: %.4f / %.4f%n", s[1], s[0]);
        assertTrue(s[0] < 0.01, "queue 1 starved: " + s[0]);
        assertTrue(s[1] > 0.99);
    }
}
