package io.rocelab.sw.egress;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.Pause;
import io.rocelab.codec.header.Pfc;
import io.rocelab.fabric.pfc.PauseResponse;
import io.rocelab.fabric.pfc.PauseTimers;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.random.SplitMix64;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.fabric.tx.TransmitSource;
import io.rocelab.fabric.tx.Transmitter;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.sw.pipeline.PacketContext;
import io.rocelab.sw.pipeline.TaskClock;
import io.rocelab.sw.stats.PortCounters;
import java.util.ArrayDeque;

/**
 * The egress side of one port: eight queues, the pause state set by received PFC frames, WRED/ECN
 * at dequeue, the ETS scheduler, and the port's {@link Transmitter}, which pulls the next frame
 * from here ({@link TransmitSource}) whenever the wire at the port's line rate is free.
 *
 * <p>Why the port owns its transmitter: the link below only carries frames, so queues build up
 * here, in the switch's MMU, where PFC and ECN can see them, exactly as in an ASIC. PFC frames go
 * in a control queue ahead of data and are never paused (IEEE 802.1Qbb MAC control frames). A
 * received pause takes effect after IEEE 802.3 31B.3.7's response time for the port's speed (394
 * quanta, 2.018 µs at 100 Gb/s; {@link PauseResponse#IEEE}), as an ASIC's MAC bound by the standard:
 * frames that start before then still go out ({@link PauseTimers}).
 * Owner thread only.
 */
public final class EgressPort implements EtsScheduler.Queues, TransmitSource {
    /**
     * Whether a frame reaching an idle port is sent in one step ({@code sendAtOnce}) rather than
     * queued and pulled; the two must behave the same, and a test compares them. Tests only.
     */
    static boolean cutThrough = true;

    private final int index;
    private final PortConfig config;
    private final Scheduler scheduler;
    private final TaskClock clock;
    private final EgressHooks hooks;
    private final PortCounters counters;
    private final PacketQueue[] queues = new PacketQueue[8];
    private final Wred[] wred = new Wred[8];
    private final EtsScheduler ets;
    private final ArrayDeque<ByteBuf> control = new ArrayDeque<>();
    private final ArrayDeque<String> controlComments = new ArrayDeque<>();
    /** The pauses the neighbour sent, per priority. */
    private final PauseTimers pauses;
    /** The 802.3x PAUSE the neighbour sent: one timer for the whole port, slot 0. */
    private final PauseTimers portPause;
    private final long[] lastPauseRx = {Long.MIN_VALUE / 2, Long.MIN_VALUE / 2, Long.MIN_VALUE / 2,
        Long.MIN_VALUE / 2, Long.MIN_VALUE / 2, Long.MIN_VALUE / 2, Long.MIN_VALUE / 2, Long.MIN_VALUE / 2};
    private final boolean[] ignorePause = new boolean[8];
    /** Bit q set: the watchdog has queue q ignore received pauses. */
    private int ignorePauseMask;
    private final boolean[] dropAll = new boolean[8];
    /**
     * From this time on no pause received so far (PFC or 802.3x) holds any queue: the latest end
     * of them all, so that a frame's pick reads neither pause timer while the peer pauses nothing.
     */
    private long pauseHorizon = Long.MIN_VALUE;
    /** Bit q set: queue q holds a frame. Kept on every add and poll, so a pick reads one int. */
    private int nonEmpty;
    private FramePort port;
    private Transmitter transmitter;
    /** The time of the pull in progress: one scheduling decision reads the clock once, not per queue. */
    private long pickNow;

    /**
     * @param index     port number
     * @param config    the port's configuration
     * @param scheduler the switch's scheduler
     * @param hooks     the switch
     * @param counters  the port's counters
     * @param seed      seed for this port's WRED generators
     */
    public EgressPort(int index, PortConfig config, Scheduler scheduler, EgressHooks hooks, PortCounters counters,
                      long seed) {
        this(index, config, scheduler, new TaskClock(scheduler, false), hooks, counters, seed);
    }

    /**
     * @param clock the switch's data-path clock: the time given to {@link #enqueue(PacketContext, long)}
     *              may have been read earlier in the same task, and is read afresh through it when
     *              the transmitter looks busy at that time
     */
    public EgressPort(int index, PortConfig config, Scheduler scheduler, TaskClock clock, EgressHooks hooks,
                      PortCounters counters, long seed) {
        this.index = index;
        this.config = config;
        this.scheduler = scheduler;
        this.clock = clock;
        this.hooks = hooks;
        this.counters = counters;
        this.ets = new EtsScheduler(config.queues());
        this.pauses = new PauseTimers(config.speedBitsPerSecond(),
            PauseResponse.IEEE.nanosAt(config.speedBitsPerSecond()));
        this.portPause = new PauseTimers(config.speedBitsPerSecond(),
            PauseResponse.IEEE.nanosAt(config.speedBitsPerSecond()));
        for (int q = 0; q < 8; q++) {
            queues[q] = new PacketQueue();
            if (config.queues()[q].wred() != null) {
                wred[q] = new Wred(config.queues()[q].wred(), SplitMix64.derive(seed, q));
            }
        }
    }

    /** @param port the port the transmitter sends on, once attached; it paces at the configured speed */
    public void attach(FramePort port) {
        this.port = port;
        this.transmitter = new Transmitter(scheduler, port, config.speedBitsPerSecond(), this);
    }

    public FramePort port() {
        return port;
    }

    /** @return the port's transmitter, or null before {@link #attach} */
    public Transmitter transmitter() {
        return transmitter;
    }

    public PortConfig config() {
        return config;
    }

    /** @return queue {@code q} */
    public PacketQueue queue(int q) {
        return queues[q];
    }

    /** @return bytes waiting in all data queues */
    public long queuedBytes() {
        long b = 0;
        for (PacketQueue q : queues) {
            b += q.bytes();
        }
        return b;
    }

    /** Appends an admitted frame to its queue and starts the transmitter if idle. */
    public void enqueue(PacketContext ctx) {
        enqueue(ctx, scheduler.nanoTime());
    }

    /**
     * Like {@link #enqueue(PacketContext)}, with the time already read by the caller in this same
     * task (the frame's arrival, from the switch's {@link TaskClock}: possibly read for an earlier
     * frame of the task). If the frame cannot be sent at that time, the clock is read afresh before
     * the frame is held back, so a stale time never delays a frame.
     */
    public void enqueue(PacketContext ctx, long now) {
        if (dropAll[ctx.queue]) {
            hooks.dequeued(ctx);
            hooks.dropped(ctx, DropReason.PFC_WATCHDOG);
            return;
        }
        if (cutThrough && nonEmpty == 0 && transmitter != null && control.isEmpty()) {
            if (sendAtOnce(ctx, now)) {
                return;
            }
            if (clock.remembers()) {
                now = clock.fresh();
                if (sendAtOnce(ctx, now)) {
                    return;
                }
            }
        } else if (clock.remembers()) {
            now = clock.fresh();
        }
        add(ctx);
        if (transmitter != null) {
            transmitter.kick(now);
        }
    }

    /**
     * A frame reaching a port with nothing queued: if the transmitter is idle and the frame's queue
     * not paused, a pull would take it at once. This does the same in one step (the queue's
     * watermark, the ETS scheduler's deficits, WRED, counters and the transmitter's time all change
     * as they would), without linking the frame into the queue.
     *
     * @return false (nothing changed) if the frame has to wait: queue it and kick
     */
    private boolean sendAtOnce(PacketContext ctx, long now) {
        int q = ctx.queue;
        if (!transmitter.idleAt(now) || (pausedQueues(now) & ~ignorePauseMask & (1 << q)) != 0) {
            return false;
        }
        queues[q].passedThrough(ctx.length);
        ets.pickAlone(q, ctx.length);
        ByteBuf frame = dequeueData(ctx, q); // null when WRED drops it
        if (frame != null) {
            transmitter.startNow(frame, now);
        }
        return true;
    }

    /** Queues a PFC frame ahead of all data. */
    public void sendControl(ByteBuf frame, String comment) {
        control.add(frame);
        controlComments.add(comment);
        pump();
    }

    /**
     * A PFC frame arrived on this port: pause (or resume) the priorities it names for the times it
     * gives, converted at this port's speed (802.1Qbb: quanta of 512 bit times), from the port's
     * response time on (a resume takes effect at once).
     *
     * <p>Only the priorities of the port's {@code pfc_enable} are acted on: SAI's
     * {@code SAI_PORT_ATTR_PRIORITY_FLOW_CONTROL} bitmap governs receiving as well as sending, so a
     * host cannot pause a class the port does not run lossless. The MAC still counts every
     * priority the frame names ({@code rxPfc}, SAI's {@code PFC_p_RX_PKTS}, what {@code show pfc
     * counters} prints); the ones not acted on are counted apart ({@code rxPfcIgnored}).
     *
     * @param frame the frame
     * @param pfcOffset offset of the MAC control body (opcode)
     */
    public void onPfc(ByteBuf frame, int pfcOffset) {
        long now = scheduler.nanoTime();
        int cev = Pfc.classEnableVector(frame, pfcOffset);
        for (int p = 0; p < 8; p++) {
            if ((cev & (1 << p)) != 0) {
                counters.rxPfc[p]++;
                if (!config.pfcEnabled(p)) {
                    counters.rxPfcIgnored[p]++;
                    continue;
                }
                int quanta = Pfc.quanta(frame, pfcOffset, p);
                pauses.receive(p, quanta, now);
                if (quanta != 0) {
                    lastPauseRx[p] = now;
                    pauseHorizon = Math.max(pauseHorizon, pauses.resumesAt(p));
                }
            }
        }
        pump();
    }

    /**
     * An 802.3x PAUSE arrived (IEEE 802.3 Annex 31B): counted ({@code SAI_PORT_STAT_PAUSE_RX_PKTS});
     * on a port that honours PAUSE ({@code global_flow_control rx|both}) every queue of the port
     * stops for its time, after the same response bound as PFC, and a time of 0 resumes at once.
     * Control frames (PFC, PAUSE, LACP) still go.
     *
     * @param pauseOffset offset of the MAC control opcode
     */
    public void onPause(ByteBuf frame, int pauseOffset) {
        counters.rxPause++;
        if (!config.globalFlowControl().honours()) {
            return;
        }
        portPause.receive(0, Pause.quanta(frame, pauseOffset), scheduler.nanoTime());
        pauseHorizon = Math.max(pauseHorizon, portPause.resumesAt(0));
        pump();
    }

    /** @return true if a received 802.3x PAUSE holds the whole port now */
    public boolean portPaused(long now) {
        return portPause.paused(0, now);
    }

    /** @return true if a received PFC frame currently pauses priority {@code p} */
    public boolean priorityPaused(int p, long now) {
        return pauses.paused(p, now);
    }

    /** @return true if queue {@code q} is held by a received pause (whether or not it is obeyed) */
    public boolean queuePausedByPeer(int q, long now) {
        return (pausedQueues(now) & (1 << q)) != 0;
    }

    /** @return bit q set if a received pause holds queue q now (whether or not it is obeyed) */
    private int pausedQueues(long now) {
        if (now >= pauseHorizon) {
            return 0;
        }
        if (portPause.paused(0, now)) {
            return 0xFF;
        }
        int priorities = pauses.pausedMask(now);
        int mask = 0;
        for (int p = 0; priorities != 0; p++, priorities >>>= 1) {
            if ((priorities & 1) != 0) {
                mask |= 1 << config.tcToQueue()[p];
            }
        }
        return mask;
    }

    private void add(PacketContext ctx) {
        queues[ctx.queue].add(ctx);
        nonEmpty |= 1 << ctx.queue;
    }

    private PacketContext poll(int q) {
        PacketContext c = queues[q].poll();
        if (queues[q].isEmpty()) {
            nonEmpty &= ~(1 << q);
        }
        return c;
    }

    /** @return when a PFC frame with a non-zero time last arrived for a priority of queue {@code q} */
    public long lastPfcRxNanos(int q) {
        long t = Long.MIN_VALUE / 2;
        for (int p = 0; p < 8; p++) {
            if (config.tcToQueue()[p] == q) {
                t = Math.max(t, lastPauseRx[p]);
            }
        }
        return t;
    }

    /**
     * The PFC watchdog's levers on queue {@code q}.
     *
     * @param ignore obey no pause (actions drop and forward)
     * @param drop   drop what is queued and what arrives (action drop)
     */
    public void setWatchdogAction(int q, boolean ignore, boolean drop) {
        ignorePause[q] = ignore;
        ignorePauseMask = ignore ? ignorePauseMask | 1 << q : ignorePauseMask & ~(1 << q);
        dropAll[q] = drop;
        if (drop) {
            PacketContext c;
            while ((c = poll(q)) != null) {
                hooks.dequeued(c);
                hooks.dropped(c, DropReason.PFC_WATCHDOG);
            }
        }
        pump();
    }

    /** The link went down: everything queued is dropped. */
    public void flush() {
        for (int q = 0; q < 8; q++) {
            PacketContext c;
            while ((c = poll(q)) != null) {
                hooks.dequeued(c);
                hooks.dropped(c, DropReason.LINK_DOWN);
            }
        }
        while (!control.isEmpty()) {
            control.poll().release();
            controlComments.poll();
        }
        if (transmitter != null) {
            transmitter.idle();
        }
    }

    @Override
    public int eligibleMask() {
        return nonEmpty & ~(pausedQueues(pickNow) & ~ignorePauseMask);
    }

    @Override
    public int nonEmptyMask() {
        return nonEmpty;
    }

    @Override
    public int headLength(int q) {
        return queues[q].peek().length;
    }


    /** Starts the transmitter if it is idle and something may go (new work, a pause lifted). */
    public void pump() {
        if (transmitter != null) {
            transmitter.kick();
        }
    }

    // ---- TransmitSource: the transmitter pulls when the wire is free ----

    @Override
    public ByteBuf pull(long now) {
        if (!control.isEmpty()) {
            ByteBuf frame = control.poll();
            transmitting(frame, controlComments.poll());
            return frame;
        }
        pickNow = now;
        while (true) {
            int q = ets.pick(this);
            if (q < 0) {
                return null;
            }
            ByteBuf frame = dequeueData(poll(q), q);
            if (frame != null) {
                return frame;
            }
        }
    }

    @Override
    public boolean hasWork() {
        return !control.isEmpty() || nonEmpty != 0;
    }

    @Override
    public long nextReadyNanos(long now) {
        long resume = earliestResume(now);
        return resume == Long.MAX_VALUE ? NEVER : resume;
    }

    /**
     * The dequeue of a data frame taken from queue {@code q}: gives its buffer back to the MMU,
     * applies WRED/ECN to the depth it leaves behind and counts it.
     *
     * @return the frame to start, or null if WRED dropped it
     */
    private ByteBuf dequeueData(PacketContext ctx, int q) {
        hooks.dequeued(ctx);
        String comment = null;
        if (wred[q] != null) {
            Wred.Verdict v = wred[q].decide(queues[q].bytes() + ctx.length, ctx.ecn, ctx.color);
            if (v == Wred.Verdict.DROP) {
                hooks.dropped(ctx, DropReason.WRED);
                return null;
            }
            if (v == Wred.Verdict.MARK && ctx.ecn != 3) {
                markCe(ctx);
                counters.queueEcnMarked[q]++;
                comment = "ECN CE marked";
            }
        }
        counters.queueTxPackets[q]++;
        counters.queueTxBytes[q] += ctx.length;
        ByteBuf frame = ctx.frame;
        ctx.frame = null;
        hooks.recycle(ctx);
        transmitting(frame, comment);
        return frame;
    }

    private static void markCe(PacketContext ctx) {
        if (ctx.ipVersion == 4) {
            Ipv4.setEcn(ctx.frame, ctx.l3Offset, 3);
        } else if (ctx.ipVersion == 6) {
            Ipv6.setEcn(ctx.frame, ctx.l3Offset, 3);
        }
        ctx.ecn = 3;
    }

    private void transmitting(ByteBuf frame, String comment) {
        counters.txFrames++;
        counters.txBytes += frame.readableBytes();
        hooks.transmitting(index, frame, comment);
    }

    private long earliestResume(long now) {
        long t = Long.MAX_VALUE;
        if (portPause.paused(0, now) && nonEmpty != 0) {
            // the whole port is held: nothing goes before the PAUSE ends (a PFC pause still running
            // then is looked at again when the transmitter comes back)
            return portPause.resumesAt(0);
        }
        for (int q = 0; q < 8; q++) {
            if (!queues[q].isEmpty() && !ignorePause[q]) {
                for (int p = 0; p < 8; p++) {
                    if (config.tcToQueue()[p] == q && pauses.paused(p, now)) {
                        t = Math.min(t, pauses.resumesAt(p));
                    }
                }
            }
        }
        return t;
    }
}
