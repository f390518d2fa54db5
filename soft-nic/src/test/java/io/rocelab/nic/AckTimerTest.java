package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.link.LinkCounter;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.nic.stats.NicCounter;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The local ACK timer as a deadline that progress pushes back (rxe's {@code mod_timer} on the
 * retransmit timer) and one armed check, in virtual time: a lossless stream that lasts many
 * timeout periods never times out; when ACKs stop the requester goes back exactly one timeout
 * after the last progress; and an ACK that is already due when the timer expires is handled
 * first, as rxe's completer takes its queued responses before it acts on a timeout.
 */
class AckTimerTest {
    private static final long VA_B = 0x40_0000L;
    private static final int MSG = 65536;

    @Test
    void aLosslessStreamLongerThanManyTimeoutsNeverTimesOut() {
        // timeout 4: 4.096 us * 2^4 = 65.5 us; the 128-PSN window (8 messages of 64 KB) takes about
        // 42 us at 100 Gb/s, so every packet is acknowledged in time, but the stream lasts ~80 periods
        try (NicRig p = NicRig.pair(QpType.RC, 4096, FaultProfile.NONE, 5, 4, 7, 7, 12)) {
            byte[] src = new byte[MSG];
            new Random(5).nextBytes(src);
            byte[] dst = new byte[MSG];
            MemoryRegion mrA = p.pdA.registerMr(src, 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(dst, VA_B, AccessFlags.ALL);
            int total = 1000;
            int posted = 0;
            int completed = 0;
            while (completed < total) {
                while (posted < total && posted - completed < 32) {
                    p.qpA.postSend(SendWr.write(++posted, Sge.of(mrA), VA_B, mrB.rkey()));
                }
                assertTrue(p.runUntil(() -> p.cqA.size() > 0, 10_000_000L), "no completion within 10 ms");
                for (WorkCompletion wc : NicRig.drain(p.cqA)) {
                    assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
                    completed++;
                }
            }
            long periods = p.sched.nanoTime() / RnrTimer.ackTimeoutNanos(4);
            assertTrue(periods >= 50, "the stream lasted only " + periods + " timeout periods");
            assertEquals(0, p.a.counters().get(NicCounter.COMPLETER_RETRY_ERR), "spurious ACK timeouts");
            assertEquals(0, p.b.counters().get(NicCounter.DUPLICATE_REQUEST), "retransmitted requests");
            assertArrayEquals(src, dst);
        }
    }

    @Test
    void whenAcksStopTheRequesterGoesBackOneTimeoutAfterTheLastProgress() {
        int timeout = 8; // 1.05 ms
        try (NicRig p = NicRig.pair(QpType.RC, 4096, FaultProfile.NONE, 6, timeout, 7, 7, 12)) {
            MemoryRegion mrA = p.pdA.registerMr(new byte[MSG], 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(new byte[MSG], VA_B, AccessFlags.ALL);
            for (int i = 1; i <= 16; i++) {
                p.qpA.postSend(SendWr.write(i, Sge.of(mrA), VA_B, mrB.rkey()));
            }
            assertTrue(p.runUntil(() -> p.cqA.size() >= 2, 10_000_000L));
            // from now on every ACK is lost: the last progress is the last ACK that got through
            p.link1.bToA().setFaults(FaultProfile.NONE.withLoss(1.0));
            long acksDelivered = p.link1.bToA().counters().get(LinkCounter.FRAMES_DELIVERED);
            long lastAckAt = p.sched.nanoTime();
            while (p.a.counters().get(NicCounter.COMPLETER_RETRY_ERR) == 0) {
                assertTrue(p.sched.runNext(), "ran out of events before the timeout");
                long delivered = p.link1.bToA().counters().get(LinkCounter.FRAMES_DELIVERED);
                if (delivered != acksDelivered) {
                    acksDelivered = delivered;
                    lastAckAt = p.sched.nanoTime();
                }
            }
            assertEquals(lastAckAt + RnrTimer.ackTimeoutNanos(timeout), p.sched.nanoTime(),
                    "the timeout counts from the last progress, not from when the timer was first armed");
        }
    }

    /**
     * The round trip equals the timeout to the nanosecond: the ACK arrives at the deadline itself, in
     * an event queued after the timer's. It is handled first, so nothing is retried. Two
     * nanoseconds later (one more per direction) it is a real timeout and the requester goes back.
     */
    @Test
    void anAckDueAtTheDeadlineIsProgressButALateOneIsATimeout() {
        int timeout = 4;
        long t = RnrTimer.ackTimeoutNanos(timeout);
        assertEquals(0, sendOneWriteWithRoundTrip(timeout, t), "retries with the ACK due at the deadline");
        assertEquals(1, sendOneWriteWithRoundTrip(timeout, t + 2), "retries with the ACK 2 ns late");
    }

    /** One 8-byte WRITE over a link whose round trip is {@code roundTripNanos}; returns A's retries. */
    private static long sendOneWriteWithRoundTrip(int timeout, long roundTripNanos) {
        VirtualTimeScheduler sched = new VirtualTimeScheduler();
        // rate 0: no serialization time, so the round trip is exactly twice the propagation delay
        InProcessLink link = InProcessLink.builder().name("rtt").rateBitsPerSecond(0)
                .propagationDelayNanos(roundTripNanos / 2).build(sched);
        SoftNic a = SoftNic.builder().name("a").mac("52:54:00:77:00:01").ipv4(NicRig.IP_A).scheduler(sched)
                .port(link.portA()).build();
        SoftNic b = SoftNic.builder().name("b").mac("52:54:00:77:00:00").ipv4(NicRig.IP_B).scheduler(sched)
                .port(link.portB()).build();
        try {
            a.addNeighbor(NicRig.IP_B, b.mac());
            b.addNeighbor(NicRig.IP_A, a.mac());
            ProtectionDomain pdA = a.allocPd();
            ProtectionDomain pdB = b.allocPd();
            CompletionQueue cqA = a.createCq(16);
            CompletionQueue cqB = b.createCq(16);
            QueuePair qpA = a.createQp(pdA, QpType.RC, cqA, cqA, QpCaps.defaults());
            QueuePair qpB = b.createQp(pdB, QpType.RC, cqB, cqB, QpCaps.defaults());
            NicRig.connect(qpA, qpB, NicRig.IP_B, NicRig.PSN_B, NicRig.PSN_A, QpType.RC, 1024, timeout, 7, 7, 12);
            NicRig.connect(qpB, qpA, NicRig.IP_A, NicRig.PSN_A, NicRig.PSN_B, QpType.RC, 1024, timeout, 7, 7, 12);
            MemoryRegion mrA = pdA.registerMr(new byte[8], 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = pdB.registerMr(new byte[8], VA_B, AccessFlags.ALL);
            qpA.postSend(SendWr.write(1, Sge.of(mrA), VA_B, mrB.rkey()));
            sched.runFor(20 * roundTripNanos);
            WorkCompletion wc = cqA.poll();
            assertEquals(WcStatus.SUCCESS, wc.status(), String.valueOf(wc));
            return a.counters().get(NicCounter.COMPLETER_RETRY_ERR);
        } finally {
            a.close();
            b.close();
        }
    }
}
