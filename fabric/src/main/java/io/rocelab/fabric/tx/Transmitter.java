package io.rocelab.fabric.tx;

import io.netty.buffer.ByteBuf;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.fabric.wire.EthernetFraming;
import io.rocelab.fabric.wire.WireTimeline;
import java.util.Objects;

/**
 * The transmitter a sending device owns, as ns-3's {@code QbbNetDevice} owns its: when the wire is
 * free and the port {@linkplain FramePort#isWritable() writable}, it pulls the next frame from the
 * device's {@link TransmitSource} and starts it; the frame occupies the wire for its serialization
 * time at the line rate (with Ethernet's {@linkplain EthernetFraming overhead}), and the
 * transmitter comes back when the wire is free again. Nothing queues below it: frames wait in the
 * device's queues, where PFC, ECN, the device's scheduler and the QPs' pacing can see them.
 *
 * <p>When nothing may go now, the source says when something will by itself (a pause running out,
 * a pacing time: one wake-up armed for the earliest), or the device {@link #kick}s when it has new
 * work. An idle transmitter costs nothing: no timer runs while no frame waits.
 *
 * <p>Real time: a timer fires late on a loaded machine (tens to hundreds of microseconds). A
 * backlogged transmitter that is woken late starts its frames at the times line-rate accounting
 * gives them, not at the late wake-up's time, and sends every frame whose start is not after now
 * in that one wake-up, so it keeps the line rate; at most {@link #MAX_CATCH_UP_NANOS} of line time
 * are reclaimed, which bounds the burst after a long stall. And the wire may run up to the
 * scheduler's {@linkplain Scheduler#timerSlackNanos() timer slack} ahead of the clock: the frames
 * of the next few microseconds are handed over at once, as a NIC fills its transmit ring, instead
 * of one wake-up per frame (a 4 KB frame lasts 330 ns at 100 Gb/s). In virtual time a wake-up runs exactly
 * when due and every frame starts at the pump's time. A pump sends at most
 * {@link #MAX_FRAMES_PER_PUMP} frames before it yields the owner thread (and continues at once),
 * so the device's other work (received frames, commands) is not starved.
 *
 * <p>Owner thread only (the device's scheduler).
 */
public final class Transmitter {
    /** How far back a late wake-up may reclaim line time (real time only). */
    public static final long MAX_CATCH_UP_NANOS = 1_000_000;
    /** Frames one pump sends before it yields the owner thread. */
    public static final int MAX_FRAMES_PER_PUMP = 64;

    private final Scheduler scheduler;
    private final FramePort port;
    private final TransmitSource source;
    private final WireTimeline wire;
    private final int minFrameBytes;
    private final int overheadBytes;
    /** How far the wire may run ahead of the clock ({@link Scheduler#timerSlackNanos()}; 0 in virtual time). */
    private final long slack;
    private final Runnable wakeup = this::pump;
    private long wakeupAt = Long.MAX_VALUE;
    /**
     * When the transmitter was due to act next while frames waited (the wire free again, a pause
     * running out), or {@code Long.MAX_VALUE} when idle. A pump that runs later than this (a late
     * real-time timer) starts its frames from this time on, as if it had run on time.
     */
    private long dueAt = Long.MAX_VALUE;
    /** The port was not writable: the writability listener pumps. */
    private boolean blocked;
    private long framesSent;
    private long bytesSent;

    /**
     * @param scheduler         the device's owner
     * @param port              the port the frames go to
     * @param rateBitsPerSecond the line rate, 0 for unlimited (no serialization time)
     * @param source            the device's queues
     */
    public Transmitter(Scheduler scheduler, FramePort port, long rateBitsPerSecond, TransmitSource source) {
        this(scheduler, port, rateBitsPerSecond, source, EthernetFraming.MIN_FRAME_BYTES,
            EthernetFraming.DEFAULT_OVERHEAD_BYTES);
    }

    /**
     * @param minFrameBytes shorter frames occupy this many bytes on the wire
     * @param overheadBytes wire bytes added to every frame (FCS, preamble, SFD, gap)
     */
    public Transmitter(Scheduler scheduler, FramePort port, long rateBitsPerSecond, TransmitSource source,
                       int minFrameBytes, int overheadBytes) {
        if (rateBitsPerSecond < 0) {
            throw new IllegalArgumentException("rateBitsPerSecond must be >= 0: " + rateBitsPerSecond);
        }
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.port = Objects.requireNonNull(port, "port");
        this.source = Objects.requireNonNull(source, "source");
        this.wire = new WireTimeline(rateBitsPerSecond);
        this.minFrameBytes = minFrameBytes;
        this.overheadBytes = overheadBytes;
        this.slack = scheduler.timerSlackNanos();
        port.setWritabilityListener(this::onWritable);
    }

    /** @return the port the frames go to */
    public FramePort port() {
        return port;
    }

    /** @return the line rate, 0 for unlimited */
    public long rateBitsPerSecond() {
        return wire.rateBitsPerSecond();
    }

    /** @return frames started so far */
    public long framesSent() {
        return framesSent;
    }

    /** @return frame bytes started so far (without the wire overhead) */
    public long bytesSent() {
        return bytesSent;
    }

    /**
     * @return when the wire is free for the next frame (a time in the past when it is idle)
     */
    public long wireFreeAtNanos() {
        return wire.idleAtNanos();
    }

    /**
     * @return whether a frame handed over at {@code nowNanos} would start at once: the wire free,
     *         the port writable and nothing already waiting for the transmitter
     */
    public boolean idleAt(long nowNanos) {
        return !blocked && dueAt == Long.MAX_VALUE && wire.idleAtNanos() <= nowNanos && port.isWritable();
    }

    /**
     * The source has new work: pulls at once if the wire is free, else the wake-up already armed
     * for the end of the current frame pulls it.
     */
    public void kick() {
        kick(scheduler.nanoTime());
    }

    /** Like {@link #kick()}, with the time already read by the caller in this task. */
    public void kick(long nowNanos) {
        if (blocked || wire.idleAtNanos() > nowNanos + slack && wakeupAt <= wire.idleAtNanos()) {
            return;
        }
        pump(nowNanos);
    }

    /**
     * Starts {@code frame} now, bypassing the source, on a transmitter that is {@link #idleAt idle}
     * (a switch's cut-through of a frame that reaches an empty port): exactly what a pull of that
     * frame at this time would do.
     */
    public void startNow(ByteBuf frame, long nowNanos) {
        if (!idleAt(nowNanos)) {
            throw new IllegalStateException("transmitter of " + port.name() + " is busy");
        }
        start(frame, nowNanos, false, nowNanos);
    }

    /**
     * Forgets the frames the device dropped (its queues were flushed, the link went down): the
     * transmitter is idle until the next kick.
     */
    public void idle() {
        dueAt = Long.MAX_VALUE;
    }

    private void onWritable() {
        if (blocked) {
            blocked = false;
            pump();
        }
    }

    /** Pulls and starts frames while the wire is free (see the class comment). */
    public void pump() {
        pump(scheduler.nanoTime());
    }

    private void pump(long now) {
        if (now >= wakeupAt) {
            wakeupAt = Long.MAX_VALUE;
        }
        // the time of the next start on the ideal (on-time) schedule, never after now
        long t = dueAt <= now ? Math.max(dueAt, now - MAX_CATCH_UP_NANOS) : now;
        int sent = 0;
        while (true) {
            long freeAt = wire.idleAtNanos();
            if (freeAt > now + slack) {
                // real time: the frames of the next few microseconds went at once; come back for more
                dueAt = source.hasWork() ? freeAt : Long.MAX_VALUE;
                if (dueAt != Long.MAX_VALUE) {
                    arm(freeAt - slack);
                }
                return;
            }
            t = Math.max(t, freeAt);
            if (!port.isWritable()) {
                // the writability listener pumps; the time spent waiting is not line time to reclaim
                blocked = true;
                dueAt = Long.MAX_VALUE;
                return;
            }
            if (sent == MAX_FRAMES_PER_PUMP) {
                dueAt = t;
                arm(t);
                return;
            }
            ByteBuf frame = source.pull(now);
            if (frame == null) {
                long ready = source.hasWork() ? source.nextReadyNanos(now) : Long.MAX_VALUE;
                dueAt = ready;
                if (ready != Long.MAX_VALUE) {
                    arm(ready);
                }
                return;
            }
            // a frame that waited for the wire starts at the exact end of the one before it
            start(frame, t, t == freeAt, now);
            sent++;
        }
    }

    private void start(ByteBuf frame, long t, boolean backToBack, long now) {
        int len = frame.readableBytes();
        wire.transmit(t, EthernetFraming.wireBytes(len, minFrameBytes, overheadBytes), backToBack);
        framesSent++;
        bytesSent += len;
        port.send(frame, now);
    }

    private void arm(long at) {
        if (at < wakeupAt) {
            wakeupAt = at;
            scheduler.scheduleUncancellable(Math.max(0, at - scheduler.nanoTime()), wakeup);
        }
    }

    @Override
    public String toString() {
        return "Transmitter[" + port.name() + ", " + wire.rateBitsPerSecond() + " bit/s, " + framesSent + " frames]";
    }
}
