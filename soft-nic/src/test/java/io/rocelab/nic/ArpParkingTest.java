package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.port.ForwardingFramePort;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.nic.stats.NicCounter;
import org.junit.jupiter.api.Test;

/**
 * Frames wait while ARP resolves the peer, and go when the reply comes: a slow resolution (a lost
 * ARP request, a peer whose JVM is still cold) costs time, never frames and never retries. The
 * local ACK timer does not run down the retry count of a QP whose requests have not left yet (they
 * are parked, not lost), so a go-back-N retransmission does not pile copies of the same PSNs into
 * the wait list. A neighbour that never answers is waited for once, then the QP fails as fast as
 * retry_cnt says (RETRY_EXC_ERR).
 */
class ArpParkingTest {
    private static final long MS = 1_000_000L;
    private static final int IP_A = Ipv4.parse("10.77.0.11");
    private static final int IP_B = Ipv4.parse("10.77.0.10");
    private static final int MESSAGES = 200;
    private static final int SIZE = 4096;

    @Test
    void aLostArpRequestParksTheWholeWindowAndSendsItOnTheReply() {
        try (Fixture f = new Fixture(1)) {
            f.postWrites();
            assertTrue(f.runUntil(() -> f.cqA.size() >= 2, 10_000 * MS), "completions: " + f.cqA.size());
            for (WorkCompletion wc : NicRig.drain(f.cqA)) {
                assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
            }
            assertEquals(2, f.a.counters().get(NicCounter.ARP_REQUESTS_SENT), "the first one was lost");
            assertEquals(0, f.a.counters().get(NicCounter.DROP_ARP_PENDING), "nothing dropped while waiting");
            assertEquals(0, f.a.counters().get(NicCounter.COMPLETER_RETRY_ERR), "no retry: nothing was lost");
            assertEquals(0, f.b.counters().get(NicCounter.DUPLICATE_REQUEST));
            assertEquals(MESSAGES, f.a.counters().get(NicCounter.SENT_PKTS), "each PSN sent once");
        }
    }

    @Test
    void aNeighbourThatNeverAnswersStillEndsInRetryExcErr() {
        try (Fixture f = new Fixture(Integer.MAX_VALUE)) {
            f.postWrites();
            long start = f.sched.nanoTime();
            assertTrue(f.runUntil(() -> f.cqA.size() >= 2, 120_000 * MS), "completions: " + f.cqA.size());
            long elapsed = f.sched.nanoTime() - start;
            assertEquals(WcStatus.RETRY_EXC_ERR, NicRig.drain(f.cqA).get(0).status());
            // three ARP requests a second apart, then 7 retries of 67 ms, each asking ARP again
            assertTrue(elapsed >= 3_000 * MS && elapsed < 4_000 * MS, "took " + elapsed / MS + " ms");
            assertEquals(QpState.ERR, f.qpA.state());
            assertTrue(f.a.counters().get(NicCounter.DROP_ARP_PENDING) > 0, "the parked frames were dropped");
        }
    }

    @Test
    void anArpRetryThatFailsInsideTheNicPutsTheDeviceInTheFatalState() {
        // the first request is lost; the retry, sent a second later by a timer's task, throws in the
        // port, as a bug there would: the application sees its work requests flushed, not a hang
        try (Fixture f = new Fixture(1, true)) {
            long start = f.sched.nanoTime();
            f.postWrites();
            assertTrue(f.runUntil(() -> f.cqA.size() >= 2, 10_000 * MS), "completions: " + f.cqA.size());
            long elapsed = f.sched.nanoTime() - start;
            assertTrue(elapsed >= 1_000 * MS && elapsed < 2_000 * MS, "failed at the retry, a second in: " + elapsed / MS);
            for (WorkCompletion wc : NicRig.drain(f.cqA)) {
                assertEquals(WcStatus.WR_FLUSH_ERR, wc.status(), wc.toString());
            }
            assertEquals(1, f.a.counters().get(NicCounter.INTERNAL_ERRORS));
            assertEquals(AsyncEventType.DEVICE_FATAL, f.a.pollAsyncEvent().type());
            assertEquals(QpState.ERR, f.qpA.state());
        }
    }

    /** A to B over an in-process link in virtual time; A's first {@code lostArps} ARP frames are lost. */
    private static final class Fixture implements AutoCloseable {
        final VirtualTimeScheduler sched = new VirtualTimeScheduler();
        final InProcessLink link = InProcessLink.builder().name("a-b").rateGbps(100).propagationDelayNanos(500)
                .build(sched);
        final SoftNic a;
        final SoftNic b;
        final CompletionQueue cqA;
        final QueuePair qpA;
        final MemoryRegion mrA;
        final MemoryRegion mrB;

        Fixture(int lostArps) {
            this(lostArps, false);
        }

        /** With {@code thenFail}, each ARP frame after the lost ones throws in the port. */
        Fixture(int lostArps, boolean thenFail) {
            a = SoftNic.builder().name("a").mac("52:54:00:77:00:01").ipv4(IP_A).activeMtu(4096).scheduler(sched)
                    .port(new LosesArp(link.portA(), lostArps, thenFail)).build();
            b = SoftNic.builder().name("b").mac("52:54:00:77:00:00").ipv4(IP_B).activeMtu(4096).scheduler(sched)
                    .port(link.portB()).build();
            ProtectionDomain pdA = a.allocPd();
            ProtectionDomain pdB = b.allocPd();
            cqA = a.createCq(1024);
            CompletionQueue cqB = b.createCq(1024);
            QpCaps caps = new QpCaps(MESSAGES + 16, 16, 1, 1, 0, false);
            qpA = a.createQp(pdA, QpType.RC, cqA, cqA, caps);
            QueuePair qpB = b.createQp(pdB, QpType.RC, cqB, cqB, caps);
            NicRig.connect(qpA, qpB, IP_B, NicRig.PSN_B, NicRig.PSN_A, QpType.RC, 4096, 14, 7, 7, 12);
            NicRig.connect(qpB, qpA, IP_A, NicRig.PSN_A, NicRig.PSN_B, QpType.RC, 4096, 14, 7, 7, 12);
            mrA = pdA.registerMr(new byte[SIZE], 0x1000, AccessFlags.LOCAL_WRITE);
            mrB = pdB.registerMr(new byte[SIZE], 0x20_0000L, AccessFlags.ALL);
        }

        /** ib_write_bw's pattern: one signalled WRITE in 100, the last one signalled. */
        void postWrites() {
            for (int i = 0; i < MESSAGES; i++) {
                qpA.postSend(SendWr.write(i, Sge.of(mrA), mrB.addr(), mrB.rkey())
                        .signaled(i % 100 == 99 || i == MESSAGES - 1));
            }
        }

        boolean runUntil(java.util.function.BooleanSupplier done, long maxNanos) {
            long end = sched.nanoTime() + maxNanos;
            while (!done.getAsBoolean()) {
                if (sched.isIdle() || sched.nextEventTime() > end) {
                    sched.runUntil(Math.max(end, sched.nanoTime()));
                    return done.getAsBoolean();
                }
                sched.runNext();
            }
            return true;
        }

        @Override
        public void close() {
            a.close();
            b.close();
            sched.runFor(10_000 * MS);
        }
    }

    /** Loses the first {@code n} ARP frames sent through it; then passes the others on, or throws. */
    private static final class LosesArp extends ForwardingFramePort {
        private int left;
        private final boolean thenFail;

        LosesArp(FramePort delegate, int n, boolean thenFail) {
            super(delegate);
            this.left = n;
            this.thenFail = thenFail;
        }

        @Override
        public void send(ByteBuf frame) {
            if (frame.getUnsignedShort(12) == EtherType.ARP) {
                if (left > 0) {
                    left--;
                    frame.release();
                    return;
                }
                if (thenFail) {
                    frame.release();
                    throw new IllegalStateException("injected failure of the port sending an ARP request");
                }
            }
            delegate.send(frame);
        }
    }
}
