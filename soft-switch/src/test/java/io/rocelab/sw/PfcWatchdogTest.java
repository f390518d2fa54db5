package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.sw.pfcwd.QueueWatch;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.HostStub;
import io.rocelab.sw.testkit.Lab;
import org.junit.jupiter.api.Test;

/**
 * A host that pauses forever (a PFC storm) is detected within the detection time (plus one poll),
 * the action applies, other flows keep their throughput, and the queue is restored after the storm.
 */
class PfcWatchdogTest {
    private static final long MS = 1_000_000;

    @Test
    void stormDetectedDroppedAndRestored() {
        ConfigBuilder b = Lab.routes(new ConfigBuilder(4, 100), 4).pfcWd("drop", 2, 4);
        Lab lab = new Lab(b.build());
        HostStub victimSender = lab.flow(1, 0, 26, 2, 0xC001, 4096);
        HostStub bystander = lab.flow(2, 3, 26, 2, 0xC002, 4096);
        HostStub stormer = lab.hosts.get(0);
        victimSender.start();
        bystander.start();
        lab.time.runFor(MS);
        long stormStart = lab.time.nanoTime();
        stormer.storm(3, 100_000);
        long bystanderBefore = lab.hosts.get(3).rxBytes;
        lab.time.runFor(8 * MS);
        double bystanderGbps = (lab.hosts.get(3).rxBytes - bystanderBefore) * 8.0 / (8 * MS);

        QueueWatch w = lab.sw.watchdog().watch(0, 3);
        long detectedAfter = w.lastDetectedAt - stormStart;
        System.out.printf("storm detected after %.2f ms (detection 2 ms, poll 1 ms); TX drop %d; bystander %.1f Gb/s%n",
            detectedAfter / 1e6, w.txDrop, bystanderGbps);
        assertEquals(1, w.stormDetected);
        assertTrue(w.stormed());
        assertTrue(detectedAfter >= 2 * MS && detectedAfter <= 3 * MS, "detected after " + detectedAfter);
        assertTrue(w.txDrop > 0, "action drop: the stormed queue's frames are dropped");
        assertTrue(bystanderGbps > 95, "the rest of the fabric keeps its throughput: " + bystanderGbps);
        // the victim's sender is no longer held: the switch drains its PG and resumes it
        long victimSent = victimSender.sentFrames;
        lab.time.runFor(MS);
        assertTrue(victimSender.sentFrames > victimSent + 100, "the victim's sender is not paused for ever");

        long stormEnd = lab.time.nanoTime();
        stormer.stopStorm();
        lab.time.runFor(8 * MS);
        System.out.printf("restored %.2f ms after the storm ended (restoration 4 ms)%n",
            (w.lastRestoredAt - stormEnd) / 1e6);
        assertEquals(1, w.stormRestored);
        assertTrue(!w.stormed());
        assertTrue(w.lastRestoredAt - stormEnd >= 4 * MS && w.lastRestoredAt - stormEnd <= 6 * MS);
        long rx = stormer.rxFrames;
        lab.time.runFor(MS);
        assertTrue(stormer.rxFrames > rx + 1000, "traffic flows to the restored host again");
        System.out.println(SonicViews.pfcwdStats(lab.sw));
        lab.drainAndClose();
    }

    /**
     * SONiC action {@code forward}: once the storm is detected the stormed queue ignores the pause
     * and keeps transmitting towards the stormer, dropping nothing; before detection the pause is
     * obeyed; after the storm the queue is restored and obeys PFC again.
     */
    @Test
    void forwardIgnoresThePauseAndDropsNothing() {
        ConfigBuilder b = Lab.routes(new ConfigBuilder(2, 100), 2).pfcWd("forward", 2, 4);
        Lab lab = new Lab(b.build());
        HostStub sender = lab.flow(1, 0, 26, 2, 0xC001, 4096);
        HostStub stormer = lab.hosts.get(0);
        sender.start();
        lab.time.runFor(MS);
        long stormStart = lab.time.nanoTime();
        stormer.storm(3, 100_000);
        lab.time.runFor(10_000);
        long rxAtPause = stormer.rxFrames;
        lab.time.runFor(MS + MS / 2);
        assertEquals(rxAtPause, stormer.rxFrames, "before detection the pause is obeyed");

        lab.time.runFor(MS + MS / 2);
        QueueWatch w = lab.sw.watchdog().watch(0, 3);
        assertEquals(1, w.stormDetected);
        assertTrue(w.stormed());
        long detectedAfter = w.lastDetectedAt - stormStart;
        assertTrue(detectedAfter >= 2 * MS && detectedAfter <= 3 * MS, "detected after " + detectedAfter);
        long rx = stormer.rxFrames;
        long rxBytes = stormer.rxBytes;
        lab.time.runFor(4 * MS);
        double gbps = (stormer.rxBytes - rxBytes) * 8.0 / (4 * MS);
        System.out.printf("forward: storm detected after %.2f ms, %.1f Gb/s forwarded into the storm, TX OK %d, "
            + "TX drop %d%n", detectedAfter / 1e6, gbps, w.txOk, w.txDrop);
        assertTrue(stormer.rxFrames - rx > 10_000, "the stormed queue keeps transmitting: " + (stormer.rxFrames - rx));
        assertEquals(0, w.txDrop, "forward drops nothing");
        assertEquals(0, w.rxDrop);
        assertTrue(w.txOk >= stormer.rxFrames - rx, "TX OK counts what left while stormed: " + w.txOk);
        assertEquals(0, lab.sw.counters(0).totalDrops() + lab.sw.counters(1).totalDrops(), "no drops anywhere");

        long stormEnd = lab.time.nanoTime();
        stormer.stopStorm();
        lab.time.runFor(8 * MS);
        assertEquals(1, w.stormRestored);
        assertTrue(!w.stormed());
        assertTrue(w.lastRestoredAt - stormEnd >= 4 * MS && w.lastRestoredAt - stormEnd <= 6 * MS);
        // restored: a new pause is obeyed again
        stormer.sendPause(3, 0xFFFF);
        lab.time.runFor(10_000);
        long rxPaused = stormer.rxFrames;
        lab.time.runFor(200_000);
        assertEquals(rxPaused, stormer.rxFrames, "after restoration the queue obeys PFC again");
        lab.drainAndClose();
    }

    @Test
    void alertOnlyCounts() {
        ConfigBuilder b = Lab.routes(new ConfigBuilder(2, 100), 2).pfcWd("alert", 2, 4);
        Lab lab = new Lab(b.build());
        lab.flow(1, 0, 26, 2, 0xC001, 4096).start();
        lab.time.runFor(MS);
        lab.hosts.get(0).storm(3, 100_000);
        lab.time.runFor(10_000);
        long rx = lab.hosts.get(0).rxFrames;
        lab.time.runFor(6 * MS);
        QueueWatch w = lab.sw.watchdog().watch(0, 3);
        assertEquals(1, w.stormDetected);
        assertEquals(0, w.txDrop);
        assertEquals(rx, lab.hosts.get(0).rxFrames, "alert keeps obeying the pause");
        lab.hosts.get(0).stopStorm();
        lab.drainAndClose();
    }
}
