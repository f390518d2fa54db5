package io.rocelab.perftest.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.nic.CompletionQueue;
import io.rocelab.nic.SoftNic;
import org.junit.jupiter.api.Test;

/** How the application thread waits for send completions: at once and moderated for a deep pipeline, backing off for a shallow one. */
class WaiterTest {

    @Test
    void aDeepPipelineSleepsAtOnceUntilAQuarterOfItCompletes() throws Exception {
        try (RealTimeScheduler s = RealTimeScheduler.start("waiter")) {
            InProcessLink link = InProcessLink.builder().name("waiter").rateGbps(100).build(s);
            SoftNic nic = SoftNic.builder().name("w").mac("02:00:00:0a:00:01").ipv4("10.10.0.1").scheduler(s)
                .port(link.portA()).build();
            try {
                CompletionQueue cq = nic.createCq(128);
                Waiter waiter = new Waiter();
                // no completion ever comes: the first call arms the CQ and returns after its bounded sleep
                waiter.awaitSends(cq, 128);
                assertTrue(cq.isArmed(), "a deep pipeline sleeps on the CQ's notification without spinning first");
                assertEquals(32, cq.moderationCount(), "woken once a quarter of 128 outstanding sends completed");

                // never more than the CQ can hold
                CompletionQueue small = nic.createCq(16);
                waiter.awaitSends(small, 100);
                assertEquals(16, small.moderationCount());
            } finally {
                nic.close();
            }
        }
    }

    @Test
    void aShallowPipelineSpinsAndYieldsBeforeItSleepsForOneCompletion() throws Exception {
        try (RealTimeScheduler s = RealTimeScheduler.start("waiter")) {
            InProcessLink link = InProcessLink.builder().name("waiter").rateGbps(100).build(s);
            SoftNic nic = SoftNic.builder().name("w").mac("02:00:00:0a:00:01").ipv4("10.10.0.1").scheduler(s)
                .port(link.portA()).build();
            try {
                CompletionQueue cq = nic.createCq(128);
                cq.moderate(8);
                Waiter waiter = new Waiter();
                long pending = Waiter.DEEP_PIPELINE - 1;
                waiter.awaitSends(cq, pending);
                assertFalse(cq.isArmed(), "one outstanding send is answered within microseconds: spin first");
                int steps = 1;
                while (!cq.isArmed() && steps < 10_000) {
                    waiter.awaitSends(cq, pending);
                    steps++;
                }
                assertTrue(cq.isArmed(), "the backoff ends in a sleep on the CQ's notification");
                assertTrue(steps > 100, "slept after " + steps + " steps");
                assertEquals(1, cq.moderationCount(), "a shallow pipeline is woken by its next completion");
            } finally {
                nic.close();
            }
        }
    }
}
