package io.rocelab.fabric.time;

import io.rocelab.fabric.udp.UdpFramePort;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real time: only lower bounds on delays are checked, and every wait is bounded and generous, so
 * a slow machine makes the test slower, not red.
 */
class RealTimeSchedulerTest {

    private static final long WAIT_SECONDS = 10;
    private static RealTimeScheduler scheduler;

    @BeforeAll
    static void start() {
        scheduler = RealTimeScheduler.start("rts-test");
    }

    @AfterAll
    static void stop() {
        scheduler.close();
    }

    @Test
    void tasksRunOnTheLoopThread() throws Exception {
        assertFalse(scheduler.inOwnerThread(), "the test thread is not the owner");
        final AtomicReference<Thread> executedOn = new AtomicReference<>();
        final AtomicReference<Thread> scheduledOn = new AtomicReference<>();
        final AtomicBoolean ownerInside = new AtomicBoolean();
        final CountDownLatch done = new CountDownLatch(2);

        scheduler.execute(() -> {
            executedOn.set(Thread.currentThread());
            ownerInside.set(scheduler.inOwnerThread());
            done.countDown();
        });
        scheduler.schedule(1_000, () -> {
            scheduledOn.set(Thread.currentThread());
            done.countDown();
        });

        assertTrue(done.await(WAIT_SECONDS, TimeUnit.SECONDS));
        assertTrue(executedOn.get().getName().startsWith("rts-test"), executedOn.get().getName());
        assertEquals(executedOn.get(), scheduledOn.get());
        assertTrue(ownerInside.get());
    }

    @Test
    void aScheduledTaskFiresNoEarlierThanItsDelay() throws Exception {
        final long delay = TimeUnit.MILLISECONDS.toNanos(20);
        final List<Long> lateness = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch done = new CountDownLatch(3);
        for (int i = 0; i < 3; i++) {
            final long start = scheduler.nanoTime();
            final long thisDelay = delay * (i + 1);
            scheduler.schedule(thisDelay, () -> {
                lateness.add(scheduler.nanoTime() - start - thisDelay);
                done.countDown();
            });
            final long startUncancellable = scheduler.nanoTime();
            scheduler.scheduleUncancellable(thisDelay, () ->
                lateness.add(scheduler.nanoTime() - startUncancellable - thisDelay));
        }

        assertTrue(done.await(WAIT_SECONDS, TimeUnit.SECONDS));
        // the uncancellable ones were due at the same times; let them finish
        final CountDownLatch drained = new CountDownLatch(1);
        scheduler.schedule(delay, drained::countDown);
        assertTrue(drained.await(WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(6, lateness.size());
        for (long late : lateness) {
            assertTrue(late >= 0, "fired " + (-late) + " ns early");
        }
    }

    @Test
    void aCancelledTaskDoesNotRun() throws Exception {
        final AtomicBoolean ran = new AtomicBoolean();
        final Cancellable c = scheduler.schedule(TimeUnit.MILLISECONDS.toNanos(30), () -> ran.set(true));
        assertTrue(c.cancel());

        final CountDownLatch later = new CountDownLatch(1);
        scheduler.schedule(TimeUnit.MILLISECONDS.toNanos(60), later::countDown);
        assertTrue(later.await(WAIT_SECONDS, TimeUnit.SECONDS));
        assertFalse(ran.get());
        assertFalse(c.cancel());
    }

    @Test
    void theClockIsMonotonicAndSharedBetweenSchedulers() throws Exception {
        try (RealTimeScheduler other = RealTimeScheduler.start("rts-other")) {
            final long a = scheduler.nanoTime();
            final long b = other.nanoTime();
            final long c = scheduler.nanoTime();
            assertTrue(a <= b && b <= c, a + " " + b + " " + c);

            final AtomicLong seen = new AtomicLong();
            final CountDownLatch done = new CountDownLatch(1);
            other.execute(() -> {
                seen.set(other.nanoTime());
                done.countDown();
            });
            assertTrue(done.await(WAIT_SECONDS, TimeUnit.SECONDS));
            assertTrue(seen.get() >= c);
        }
    }

    @Test
    void rejectsNegativeDelays() {
        assertThrows(IllegalArgumentException.class, () -> scheduler.schedule(-1, () -> { }));
        assertThrows(IllegalArgumentException.class, () -> scheduler.scheduleUncancellable(-1, () -> { }));
    }

    /**
     * A chain of tasks that never runs dry (tasks queueing tasks for now, as a transmitter that cannot
     * keep up with its line rate on a loaded machine makes) does not keep the loop from its sockets:
     * a frame sent to a port on the loop is received while the chain still runs. Before, the loop
     * read the socket only once the chain had ended (or after Netty's one-second task quantum) while
     * the timers ran on between the tasks: a QP's ACK timer fired until its retries ran out, its ACKs
     * waiting in the socket.
     */
    @Test
    void aChainOfTasksThatNeverRunsDryLetsTheLoopReadItsSockets() throws Exception {
        final long chainNanos = TimeUnit.MILLISECONDS.toNanos(300);
        final AtomicLong received = new AtomicLong(-1);
        final AtomicLong chainEnded = new AtomicLong(-1);
        final AtomicReference<Exception> failed = new AtomicReference<>();
        final CountDownLatch done = new CountDownLatch(2);
        try (UdpFramePort port = UdpFramePort.builder().name("in").localPort(0).open(scheduler);
             DatagramSocket peer = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            port.setReceiver((p, frame) -> {
                frame.release();
                if (received.compareAndSet(-1, scheduler.nanoTime())) {
                    done.countDown();
                }
            });
            final byte[] frame = new byte[64];
            scheduler.execute(new Runnable() {
                private long began = -1;

                @Override
                public void run() {
                    final long now = scheduler.nanoTime();
                    if (began < 0) {
                        // the frame is in the port's socket from the chain's first task on
                        began = now;
                        try {
                            peer.send(new DatagramPacket(frame, frame.length, port.localAddress()));
                        } catch (java.io.IOException e) {
                            failed.set(e);
                        }
                    }
                    if (now - began >= chainNanos) {
                        chainEnded.set(now);
                        done.countDown();
                        return;
                    }
                    while (scheduler.nanoTime() - now < 20_000) {
                        Thread.onSpinWait(); // a task's work
                    }
                    scheduler.execute(this);
                }
            });
            assertTrue(done.await(WAIT_SECONDS, TimeUnit.SECONDS), "the frame or the chain's end never came");
            assertEquals(null, failed.get());
            assertTrue(received.get() < chainEnded.get(), "the frame was read "
                + (received.get() - chainEnded.get()) / 1000 + " us after the chain of tasks ended, not while it ran");
        }
    }
}
