package io.rocelab.fabric.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.port.AbstractFramePort;
import io.rocelab.fabric.testing.RecordingPort;
import io.rocelab.fabric.testing.TestFrames;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The sender-owned transmitter in virtual time: it pulls a frame when the wire is free, paces at the
 * line rate, waits for a source's ready time or a kick, costs no timer when idle, stops while its
 * port is not writable and yields the owner thread every {@value Transmitter#MAX_FRAMES_PER_PUMP}
 * frames.
 */
class TransmitterTest {
    private static final long GBPS_100 = 100_000_000_000L;
    /** A 1500-byte frame at 100 Gb/s: (1500 + 24) x 8 / 100 = 121.92 ns. */
    private static final double SER_1500 = 121.92;

    private final VirtualTimeScheduler time = new VirtualTimeScheduler();
    private final TestFrames frames = TestFrames.direct();

    @AfterEach
    void released() {
        assertEquals(0, frames.unreleased(), "unreleased buffers");
    }

    /** A FIFO of frames, optionally not ready before a time. */
    private static final class Fifo implements TransmitSource {
        final ArrayDeque<ByteBuf> queue = new ArrayDeque<>();
        long readyAt = Long.MIN_VALUE;
        int pulls;

        @Override
        public ByteBuf pull(long nowNanos) {
            pulls++;
            return nowNanos >= readyAt ? queue.poll() : null;
        }

        @Override
        public boolean hasWork() {
            return !queue.isEmpty();
        }

        @Override
        public long nextReadyNanos(long nowNanos) {
            return readyAt > nowNanos ? readyAt : NEVER;
        }
    }

    private RecordingPort atB;

    /** A transmitter on {@code owner} feeding a 100 Gb/s link whose far end records into {@link #atB}. */
    private Transmitter overLink(Fifo fifo, io.rocelab.fabric.time.Scheduler owner) {
        InProcessLink link = InProcessLink.builder().rateGbps(100).build(time);
        atB = new RecordingPort(time, frames, false);
        link.portB().setReceiver(atB);
        return new Transmitter(owner, link.portA(), GBPS_100, fifo);
    }

    @Test
    void aBackloggedSourceLeavesAtLineRateAndArrivesOnePropagationDelayLater() {
        InProcessLink link = InProcessLink.builder().rateGbps(100).propagationDelayNanos(500).build(time);
        RecordingPort atB = new RecordingPort(time, frames, false);
        link.portB().setReceiver(atB);
        Fifo fifo = new Fifo();
        Transmitter tx = new Transmitter(time, link.portA(), link.portA().speedBitsPerSecond(), fifo);
        assertEquals(GBPS_100, tx.rateBitsPerSecond());
        IntStream.range(0, 100).forEach(i -> fifo.queue.add(frames.frame(i, 1500)));
        tx.kick();
        time.runUntilIdle();
        assertEquals(100, atB.count());
        List<Long> expected = new ArrayList<>();
        for (int k = 1; k <= 100; k++) {
            expected.add((long) Math.ceil(k * SER_1500 - 1e-9) + 500);
        }
        assertEquals(expected, atB.times(), "frame k arrives k serialization times + 500 ns after the start");
        assertEquals(100, tx.framesSent());
    }

    @Test
    void aSourceThatIsNotReadyIsPulledAgainAtItsReadyTime() {
        Fifo fifo = new Fifo();
        Transmitter tx = overLink(fifo, time);
        fifo.queue.add(frames.frame(1, 1500));
        fifo.readyAt = 10_000;
        tx.kick();
        assertEquals(1, fifo.pulls);
        time.runUntilIdle();
        assertEquals(List.of(10_000L + 122), atB.times());
        assertEquals(2, fifo.pulls, "one pull at the kick, one at the ready time: no polling in between");
    }

    @Test
    void anIdleTransmitterArmsNothingAndAKickStartsItAgain() {
        Fifo fifo = new Fifo();
        Transmitter tx = overLink(fifo, time);
        fifo.queue.add(frames.frame(1, 1500));
        tx.kick();
        time.runUntilIdle();
        long events = time.eventsExecuted();
        time.runFor(1_000_000);
        assertEquals(events, time.eventsExecuted(), "no timer runs while nothing waits");
        assertTrue(tx.idleAt(time.nanoTime()));
        fifo.queue.add(frames.frame(2, 1500));
        tx.kick();
        time.runUntilIdle();
        assertEquals(List.of(122L, 1_000_122L + 122), atB.times());
    }

    @Test
    void aKickWhileTheWireIsBusyWaitsForTheWire() {
        Fifo fifo = new Fifo();
        Transmitter tx = overLink(fifo, time);
        fifo.queue.add(frames.frame(1, 1500));
        tx.kick();
        time.runUntil(50);
        fifo.queue.add(frames.frame(2, 1500));
        tx.kick();
        assertFalse(tx.idleAt(50));
        time.runUntilIdle();
        assertEquals(List.of(122L, 244L), atB.times(), "the second frame starts when the first has left");
    }

    /** A port that takes {@code room} frames, then is not writable until the test frees it. */
    private static final class FillingPort extends AbstractFramePort {
        final List<ByteBuf> taken = new ArrayList<>();
        int room;

        FillingPort(int room) {
            super("filling", true);
            this.room = room;
        }

        @Override
        public void send(ByteBuf frame) {
            taken.add(frame);
            room--;
        }

        @Override
        public boolean isWritable() {
            return room > 0;
        }

        void free(int frames) {
            room += frames;
            fireWritable();
        }
    }

    @Test
    void aPortThatIsNotWritableStopsThePullsUntilItSaysItIsWritable() {
        FillingPort port = new FillingPort(3);
        Fifo fifo = new Fifo();
        Transmitter tx = new Transmitter(time, port, 0, fifo);
        IntStream.range(0, 10).forEach(i -> fifo.queue.add(frames.frame(i, 100)));
        tx.kick();
        time.runUntilIdle();
        assertEquals(3, port.taken.size());
        assertEquals(7, fifo.queue.size(), "the rest waits in the device's queue, not in the port");
        tx.kick();
        assertEquals(3, port.taken.size(), "a kick does not push into a full port");
        port.free(5);
        time.runUntilIdle();
        assertEquals(8, port.taken.size());
        port.free(10);
        time.runUntilIdle();
        assertEquals(10, port.taken.size());
        port.taken.forEach(ByteBuf::release);
    }

    /** The virtual clock with a real clock's timer slack. */
    private static final class SlackScheduler implements io.rocelab.fabric.time.Scheduler {
        final VirtualTimeScheduler inner;
        final long slack;
        int timers;

        SlackScheduler(VirtualTimeScheduler inner, long slack) {
            this.inner = inner;
            this.slack = slack;
        }

        @Override
        public long nanoTime() {
            return inner.nanoTime();
        }

        @Override
        public io.rocelab.fabric.time.Cancellable schedule(long delayNanos, Runnable task) {
            timers++;
            return inner.schedule(delayNanos, task);
        }

        @Override
        public void scheduleUncancellable(long delayNanos, Runnable task) {
            timers++;
            inner.scheduleUncancellable(delayNanos, task);
        }

        @Override
        public void execute(Runnable task) {
            inner.execute(task);
        }

        @Override
        public boolean inOwnerThread() {
            return true;
        }

        @Override
        public long timerSlackNanos() {
            return slack;
        }
    }

    @Test
    void withTimerSlackTheFramesOfTheNextMicrosecondsGoAtOnceAndStillArriveAtLineRate() {
        SlackScheduler slackTime = new SlackScheduler(time, 10_000);
        Fifo fifo = new Fifo();
        Transmitter tx = overLink(fifo, slackTime);
        IntStream.range(0, 800).forEach(i -> fifo.queue.add(frames.frame(i, 1500)));
        tx.kick();
        time.runUntilIdle();
        assertEquals(800, atB.count());
        // 800 frames of 121.92 ns: 97.5 us of wire, handed over 10 us at a time (and 64 frames at most)
        assertTrue(slackTime.timers <= 800 * 122 / 10_000 + 800 / Transmitter.MAX_FRAMES_PER_PUMP + 2,
            "about one wake-up per 10 us of wire, not one per frame: " + slackTime.timers);
        long last = atB.times().get(799);
        assertEquals((long) Math.ceil(800 * SER_1500 - 1e-9), last, "the wire still carries them at its speed");
    }

    @Test
    void aLongBurstYieldsTheOwnerThreadEverySixtyFourFrames() {
        FillingPort port = new FillingPort(Integer.MAX_VALUE);
        Fifo fifo = new Fifo();
        Transmitter tx = new Transmitter(time, port, 0, fifo);
        IntStream.range(0, 200).forEach(i -> fifo.queue.add(frames.frame(i, 100)));
        int[] sentWhenOtherWorkRan = {-1};
        tx.kick();
        time.execute(() -> sentWhenOtherWorkRan[0] = port.taken.size());
        time.runUntilIdle();
        // the first pump sends 64 and queues its continuation, which runs before the task queued
        // after the kick; the next continuation goes behind that task
        assertEquals(2 * Transmitter.MAX_FRAMES_PER_PUMP, sentWhenOtherWorkRan[0]);
        assertEquals(200, port.taken.size());
        port.taken.forEach(ByteBuf::release);
    }
}
