package io.rocelab.sw.egress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.capture.PcapngWriter;
import io.rocelab.sw.stats.PortCounters;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.Lab;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A frame reaching an idle port is sent in one step instead of being queued and pumped; the
 * switch must behave exactly the same either way. The same virtual-time run (idle and congested
 * ports, PFC, WRED/ECN, ETS weights, a capped lossy queue, tail drops) is made with and without
 * that step and compared: the whole-switch capture (every frame in and out, its time, the
 * decisions as comments) byte for byte, every port counter and the queue watermarks.
 */
class CutThroughTest {

    @AfterEach
    void restore() {
        EgressPort.cutThrough = true;
    }

    @Test
    void idlePortStepChangesNothing() throws Exception {
        Run with = run(true);
        Run without = run(false);
        assertTrue(with.capture.length > 100_000, "the run captured traffic: " + with.capture.length);
        assertTrue(with.delivered > 1_000 && with.ecnMarked > 0 && with.pfc > 0 && with.drops > 0,
            "the run has deliveries, ECN marks, PFC and drops: " + with);
        assertEquals(without.toString(), with.toString());
        assertArrayEquals(without.counters, with.counters, "port counters");
        assertArrayEquals(without.capture, with.capture, "whole-switch capture");
    }

    private record Run(byte[] capture, long[] counters, long delivered, long ecnMarked, long pfc, long drops) {
        @Override
        public String toString() {
            return "delivered " + delivered + ", ECN marked " + ecnMarked + ", PFC " + pfc + ", drops " + drops;
        }
    }

    private static Run run(boolean cutThrough) throws Exception {
        EgressPort.cutThrough = cutThrough;
        ConfigBuilder cb = Lab.routes(new ConfigBuilder(5, 100), 5).pool(2_000_000)
            .wred(3, "ecn_all", false, 5_000, 40_000, 50).queueCap(0, 30_000).scheduler(1, "DWRR", 3)
            .scheduler(2, "DWRR", 1);
        Lab lab = new Lab(cb.build());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PcapngWriter w = new PcapngWriter(out)) {
            lab.sw.capture(w, 1_700_000_000_000_000_000L);
            // paced flows that leave their egress ports idle between frames
            lab.flow(1, 2, 26, 2, 0xC001, 1024).gap(400).start();
            lab.flow(3, 4, 10, 2, 0xC002, 256).gap(300).start();
            lab.time.runFor(50_000);
            // two weighted lossy classes into port 3 at about 90 % of the line together: the port is idle
            // at times and has both queues backlogged at others
            lab.flow(1, 3, 10, 0, 0xC009, 1024).gap(200).start();
            lab.flow(2, 3, 18, 0, 0xC00A, 512).gap(100).start();
            lab.time.runFor(100_000);
            lab.hosts.get(1).stop();
            lab.hosts.get(2).stop();
            lab.time.runFor(10_000);
            lab.flow(1, 2, 26, 2, 0xC001, 1024).gap(400).start();
            // incast into port 0: lossless with PFC and ECN, two weighted lossy classes, a capped one
            lab.flow(2, 0, 26, 2, 0xC003, 4096).start();
            lab.flow(4, 0, 26, 2, 0xC004, 4096).gap(500).start();
            lab.time.runFor(100_000);
            lab.flow(3, 0, 10, 0, 0xC005, 1024).start();
            lab.flow(1, 0, 18, 0, 0xC006, 256).gap(100).start();
            lab.time.runFor(100_000);
            lab.hosts.get(2).stop();
            lab.hosts.get(4).stop();
            lab.time.runFor(50_000);
            lab.flow(2, 0, 0, 0, 0xC007, 4096).start();
            lab.flow(4, 3, 0, 0, 0xC008, 512).gap(1_000).start();
            lab.time.runFor(100_000);
            lab.drainAndClose();
        }
        List<Long> all = new ArrayList<>();
        long delivered = 0;
        long ecn = 0;
        long pfc = 0;
        long drops = 0;
        for (int p = 0; p < 5; p++) {
            PortCounters c = lab.sw.counters(p);
            delivered += c.txFrames;
            drops += c.totalDrops();
            for (long[] a : new long[][] {c.rxPfc, c.txPfc, c.txXon, c.queueTxPackets, c.queueTxBytes,
                c.queueDropPackets, c.queueDropBytes, c.queueEcnMarked, c.drops}) {
                for (long v : a) {
                    all.add(v);
                }
            }
            for (int q = 0; q < 8; q++) {
                ecn += c.queueEcnMarked[q];
                pfc += c.txPfc[q];
                all.add(lab.sw.egress(p).queue(q).watermarkBytes());
                all.add(lab.sw.mmu().pg(p, q).watermark());
                all.add(lab.sw.mmu().pg(p, q).headroomWatermark());
            }
            all.add(c.rxFrames);
            all.add(c.rxBytes);
            all.add(c.txFrames);
            all.add(c.txBytes);
        }
        all.add(lab.sw.mmu().poolWatermark(0));
        return new Run(out.toByteArray(), all.stream().mapToLong(Long::longValue).toArray(), delivered, ecn, pfc,
            drops);
    }
}
