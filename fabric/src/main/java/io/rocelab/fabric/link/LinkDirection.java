package io.rocelab.fabric.link;

import io.netty.buffer.ByteBuf;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.port.FrameReceiver;
import io.rocelab.fabric.queue.MessageQueues;
import io.rocelab.fabric.random.SplitMix64;
import io.rocelab.fabric.stats.CounterSet;
import io.rocelab.fabric.time.Cancellable;
import io.rocelab.fabric.time.Doorbell;
import io.rocelab.fabric.time.PartitionedVirtualTime;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.fabric.wire.EthernetFraming;
import io.rocelab.fabric.wire.WireTimeline;
import org.jctools.queues.MessagePassingQueue;

import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;

/**
 * One direction of an {@link InProcessLink}: a transmit queue, the wire, faults and counters.
 *
 * <p>Why a separate object per direction: the two directions of a full-duplex link share nothing
 * but their up/down state (IEEE 802.3 full duplex has independent transmit and receive paths), and
 * each is owned by one thread: the scheduler of the <em>receiving</em> port. A frame sent from
 * another thread is first handed to that scheduler; from then on its queueing, faults, counters and
 * delivery all happen on one thread, so the state needs no locks, and under real time the frame
 * ends up on the receiver's event loop.
 *
 * <p>The hand-off is a lock-free ring per direction (one producer in practice, the sending port's
 * owner; any thread may send) and the owner's {@linkplain Scheduler#doorbell doorbell}: a sleeping
 * event loop is woken once per burst, not once per frame, and a {@linkplain
 * io.rocelab.fabric.time.BusyPollScheduler busy-polling} owner takes frames off the ring on every
 * turn with no wake-up at all. Nothing is allocated per frame: the ring reuses its chunks.
 *
 * <p>Per frame: the transmitter starts it when the previous frame has finished (FIFO), its last bit
 * leaves after the serialization time of its {@linkplain EthernetFraming wire bytes}, and it arrives
 * one propagation delay later. Then the {@link FaultProfile} is applied. Delivery is always a
 * separate event, never inside the sender's {@code send} call. Steady-state traffic allocates
 * nothing: frames wait in a ring and one wakeup task is reused.
 *
 * <p>Between two logical processes of a {@link PartitionedVirtualTime} (the sender's and the
 * receiver's), the direction transmits on the <em>sender's</em> LP, with its clock: the wire
 * timeline, the faults and their generator, the sent counters. Each frame then waits in an outbox
 * until the window's barrier, where the coordinator hands it to the receiver's LP (in its total
 * order); delivery, the delivered counters and the receiver's {@code onFrame} run there. A frame
 * arrives at least one propagation delay after it was sent, which is never less than the run's
 * lookahead, so it is always due after the window it was sent in. Link state changes apply at a
 * barrier (see {@link LinkPort}). The hand-off ring and doorbell are never used on this path.
 */
public final class LinkDirection {

    /** Frames per chunk of the hand-off ring; a burst longer than one chunk takes another from the pool. */
    private static final int HAND_OFF_CHUNK = 256;
    private static final int HAND_OFF_POOLED_CHUNKS = 4;
    /**
     * Frames handed over from another thread and not yet taken by the receiver's loop beyond which
     * the sending port says it is not writable (4 MB of 4 KB frames).
     */
    static final int HAND_OFF_HIGH_WATER = 1024;
    /** The arrival time of a frame on a link with no rate limit and no delay: due whatever the clock says. */
    private static final long DUE_NOW = Long.MIN_VALUE;
    /** A sender's time not given: the link reads its clock ({@link FramePort#send(ByteBuf, long)}). */
    static final long NO_TIME = Long.MIN_VALUE;

    private final String name;
    private final Scheduler owner;
    private final LinkPort receiverPort;
    private final WireTimeline timeline;
    private final long propagationDelayNanos;
    /** No rate limit and no propagation delay: frames arrive as they are sent ({@link #DUE_NOW}). */
    private final boolean instant;
    private final int minFrameBytes;
    private final int overheadBytes;
    private final SplitMix64 random;
    private final CounterSet<LinkCounter> counters = new CounterSet<>(LinkCounter.class);
    private final FrameRing inFlight = new FrameRing();
    private final Runnable wakeup = this::onWakeup;
    /** Frames sent from other threads, waiting for the owner (see {@link #drainHandOff()}). */
    private final MessagePassingQueue<ByteBuf> handOff =
        MessageQueues.mpscUnboundedXadd(HAND_OFF_CHUNK, HAND_OFF_POOLED_CHUNKS);
    private final Doorbell doorbell;
    private volatile FaultProfile faults;
    /** The sending port, told when it may send again after {@link #isWritable()} said no. */
    private LinkPort senderPort;
    /** Whether the sending port's owner is this direction's: then the sender's clock is the link's. */
    private boolean senderSharesClock;
    /** Set when {@link #isWritable()} said no; the drain that follows tells the sender. */
    private volatile boolean writabilityWanted;

    /** Non-null when sender and receiver are different LPs of a partitioned virtual-time run. */
    private PartitionedVirtualTime.Crossing crossing;
    /** Partitioned: frames sent in the current window, waiting for the barrier (sender's LP). */
    private final FrameRing outbox = new FrameRing();
    private final Runnable flushOutbox = this::flushOutbox;

    // owner-thread state
    private boolean up;
    private long wakeupAtNanos = Long.MAX_VALUE;
    private HeldFrame held;
    private int heldCount;

    LinkDirection(String name, Scheduler owner, LinkPort receiverPort, long rateBitsPerSecond,
                  long propagationDelayNanos, int minFrameBytes, int overheadBytes, long seed,
                  FaultProfile faults, boolean up) {
        this.name = name;
        this.owner = owner;
        this.receiverPort = receiverPort;
        this.timeline = new WireTimeline(rateBitsPerSecond);
        this.propagationDelayNanos = propagationDelayNanos;
        this.instant = rateBitsPerSecond == 0 && propagationDelayNanos == 0;
        this.minFrameBytes = minFrameBytes;
        this.overheadBytes = overheadBytes;
        this.random = new SplitMix64(seed);
        this.faults = faults;
        this.up = up;
        this.doorbell = owner.doorbell(this::drainHandOff);
    }

    /**
     * @return e.g. {@code "h1-s1 a->b"}
     */
    public String name() {
        return name;
    }

    /**
     * @return this direction's counters, readable from any thread
     */
    public CounterSet<LinkCounter> counters() {
        return counters;
    }

    /**
     * @return the faults applied to frames sent from now on
     */
    public FaultProfile faults() {
        return faults;
    }

    /**
     * Changes the faults for frames sent from now on (e.g. loss starting mid-scenario).
     *
     * @param profile the new faults
     */
    public void setFaults(FaultProfile profile) {
        this.faults = Objects.requireNonNull(profile, "profile");
    }

    /**
     * @return the seed of this direction's generator: with the same seed and the same traffic, the
     *         same frames are lost, corrupted, duplicated and reordered
     */
    public long seed() {
        return random.seed();
    }

    /**
     * Whether the sending port may hand over more frames: always on the receiver's own thread (the
     * wire then only ever holds what the sender's transmitter paced onto it); from another thread,
     * while fewer than {@value #HAND_OFF_HIGH_WATER} frames wait for the receiver's loop to take
     * them. Once it said no, the sender's writability listener runs on the sender's thread when the
     * receiver has taken them. Any thread.
     */
    boolean isWritable() {
        if (handOff.size() < HAND_OFF_HIGH_WATER) {
            return true;
        }
        writabilityWanted = true;
        // the receiver may have drained between the size read and the flag: look again
        return handOff.size() < HAND_OFF_HIGH_WATER;
    }

    /**
     * @return frames sent but not yet delivered or dropped (owner thread)
     */
    public int framesInFlight() {
        return inFlight.size() + heldCount + outbox.size();
    }

    @Override
    public String toString() {
        return "LinkDirection[" + name + ", seed=" + seed() + ", " + counters + "]";
    }

    /**
     * Entry point from the sending port, on any thread. {@code senderNow} is the sender's clock as
     * its transmitter read it for this frame, or {@link #NO_TIME}; it is the frame's time on the wire
     * where the sender's clock is the link's (the same scheduler, or the sending LP of a partitioned
     * run), which saves a clock read per frame in real time and is the same value in virtual time.
     */
    void send(ByteBuf frame, long senderNow) {
        if (crossing != null) {
            transmit(frame, false, senderNow);
            return;
        }
        if (owner.inOwnerThread()) {
            transmit(frame, false, senderSharesClock ? senderNow : NO_TIME);
            return;
        }
        handOff.offer(frame);
        try {
            doorbell.ring();
        } catch (RejectedExecutionException e) {
            // the receiving side's loop has shut down: nobody will ever receive these frames
            releaseStranded();
        }
    }

    /**
     * Takes the frames handed over from other threads through the wire model, on the owner thread,
     * in the order they were sent. The lock is taken only when there is something to take and is
     * never contended while the owner runs: it only keeps {@link #releaseStranded()} from taking
     * frames at the same time after the owner has shut down.
     */
    private int drainHandOff() {
        if (handOff.isEmpty()) {
            return 0;
        }
        int n = 0;
        synchronized (handOff) {
            for (ByteBuf frame; (frame = handOff.poll()) != null; ) {
                transmit(frame, true, NO_TIME);
                n++;
            }
        }
        if (writabilityWanted) {
            writabilityWanted = false;
            senderPort.tellWritable();
        }
        return n;
    }

    void connectSender(LinkPort sender) {
        this.senderPort = sender;
        this.crossing = PartitionedVirtualTime.crossing(sender.owner(), owner);
        this.senderSharesClock = sender.owner() == owner;
    }

    /** @return whether this direction runs between two LPs of a partitioned virtual-time run */
    public boolean crossesPartitions() {
        return crossing != null;
    }

    /** The owner will never drain again: whoever finds that out frees what it left in the ring. */
    private void releaseStranded() {
        synchronized (handOff) {
            for (ByteBuf frame; (frame = handOff.poll()) != null; ) {
                frame.release(); // never sent, so not counted: the counters add up as before
            }
        }
    }

    /**
     * Takes a frame through the wire model and the faults, on the owner thread.
     *
     * @param mayDeliverNow whether we are outside the sender's call stack, so a frame that is
     *                      already due (unlimited rate, no delay) can go to the receiver right away
     * @param senderNow     the time on the link's clock the sender started the frame, or {@link #NO_TIME}
     */
    private void transmit(ByteBuf frame, boolean mayDeliverNow, long senderNow) {
        final int length = frame.readableBytes();
        counters.increment(LinkCounter.FRAMES_SENT);
        counters.add(LinkCounter.BYTES_SENT, length);
        if (!up) {
            frame.release();
            counters.increment(LinkCounter.DROPPED_LINK_DOWN);
            return;
        }
        final long wireBytes = EthernetFraming.wireBytes(length, minFrameBytes, overheadBytes);
        // an unlimited link with no delay delivers at once: no clock read per frame for that
        final Scheduler clock = crossing != null ? crossing.from() : owner;
        final long arrival = instant ? DUE_NOW
            : timeline.transmit(senderNow != NO_TIME ? senderNow : clock.nanoTime(), wireBytes, true)
                + propagationDelayNanos;

        final FaultProfile f = faults;
        if (random.nextBoolean(f.lossProbability())) {
            // lost on the wire, after occupying it
            frame.release();
            counters.increment(LinkCounter.DROPPED_LOSS);
            return;
        }
        ByteBuf delivered = frame;
        if (length > 0 && random.nextBoolean(f.corruptProbability())) {
            delivered = corruptedCopy(frame, length);
            counters.increment(LinkCounter.CORRUPTED);
        }
        final ByteBuf duplicate;
        if (random.nextBoolean(f.duplicateProbability())) {
            duplicate = delivered.copy();
            counters.increment(LinkCounter.DUPLICATED);
        } else {
            duplicate = null;
        }
        if (random.nextBoolean(f.reorderProbability())) {
            final long holdBack = f.reorderDelayNanos()
                + f.reorderDelayFrames() * timeline.serializationNanos(wireBytes);
            final long heldUntil = (arrival == DUE_NOW ? clock.nanoTime() : arrival) + holdBack;
            if (crossing != null) {
                final ByteBuf frameToHold = delivered;
                crossing.post(heldUntil, () -> hold(frameToHold, heldUntil));
            } else {
                hold(delivered, heldUntil);
            }
            counters.increment(LinkCounter.REORDERED);
        } else {
            carry(delivered, arrival, mayDeliverNow);
        }
        if (duplicate != null) {
            carry(duplicate, arrival, mayDeliverNow);
        }
    }

    /** Onto the receiver's wire: through the barrier between two LPs, or straight into its ring. */
    private void carry(ByteBuf frame, long arrival, boolean mayDeliverNow) {
        if (crossing != null) {
            post(frame, arrival);
        } else {
            enqueue(frame, arrival, mayDeliverNow);
        }
    }

    /** Partitioned, on the sender's LP: the frame waits for the barrier; the first of a window posts the flush. */
    private void post(ByteBuf frame, long arrival) {
        if (outbox.isEmpty()) {
            crossing.post(arrival, flushOutbox);
        }
        outbox.add(frame, arrival);
    }

    /** Partitioned, at the barrier: the window's frames onto the receiver's wire, in the order sent. */
    private void flushOutbox() {
        while (!outbox.isEmpty()) {
            final long arrival = outbox.peekArrival();
            enqueue(outbox.poll(), arrival, false);
        }
    }

    /**
     * The wire corrupts its own copy: the sender may still hold the original (a retransmission
     * buffer shared through {@code retainedDuplicate()}), which must stay intact.
     */
    private ByteBuf corruptedCopy(ByteBuf frame, int length) {
        final ByteBuf copy = frame.copy();
        frame.release();
        final int index = copy.readerIndex() + random.nextInt(length);
        final int bit = random.nextInt(Byte.SIZE);
        copy.setByte(index, copy.getByte(index) ^ (1 << bit));
        return copy;
    }

    private void enqueue(ByteBuf frame, long arrival, boolean mayDeliverNow) {
        if (mayDeliverNow && inFlight.isEmpty() && (arrival == DUE_NOW || arrival <= owner.nanoTime())) {
            deliver(frame);
            return;
        }
        inFlight.add(frame, arrival);
        if (arrival < wakeupAtNanos) {
            scheduleWakeup(arrival);
        }
    }

    private void scheduleWakeup(long atNanos) {
        wakeupAtNanos = atNanos;
        owner.scheduleUncancellable(atNanos == DUE_NOW ? 0L : Math.max(0L, atNanos - owner.nanoTime()), wakeup);
    }

    /**
     * Delivers the frames that are due. A wakeup exists at or before the head's arrival whenever
     * frames are in flight; extra wakeups (left over after the link flapped) find nothing due and
     * are harmless.
     */
    private void onWakeup() {
        final long now = owner.nanoTime();
        if (now >= wakeupAtNanos) {
            wakeupAtNanos = Long.MAX_VALUE;
        }
        while (!inFlight.isEmpty() && inFlight.peekArrival() <= now) {
            deliver(inFlight.poll());
        }
        if (!inFlight.isEmpty() && inFlight.peekArrival() < wakeupAtNanos) {
            scheduleWakeup(inFlight.peekArrival());
        }
    }

    private void deliver(ByteBuf frame) {
        final FrameReceiver receiver = receiverPort.currentReceiver();
        if (receiver == null) {
            frame.release();
            counters.increment(LinkCounter.DROPPED_NO_RECEIVER);
            return;
        }
        counters.increment(LinkCounter.FRAMES_DELIVERED);
        counters.add(LinkCounter.BYTES_DELIVERED, frame.readableBytes());
        receiver.onFrame(receiverPort, frame);
    }

    private void hold(ByteBuf frame, long arrival) {
        final HeldFrame h = new HeldFrame(frame);
        h.next = held;
        if (held != null) {
            held.prev = h;
        }
        held = h;
        heldCount++;
        h.timer = owner.scheduleAt(arrival, h);
    }

    private void unlink(HeldFrame h) {
        if (h.prev != null) {
            h.prev.next = h.next;
        } else {
            held = h.next;
        }
        if (h.next != null) {
            h.next.prev = h.prev;
        }
        h.prev = null;
        h.next = null;
        heldCount--;
    }

    /** Applies a link state change on the owner thread: going down flushes everything in flight. */
    void applyLinkState(boolean newState) {
        up = newState;
        if (newState) {
            return;
        }
        while (!outbox.isEmpty()) {
            outbox.poll().release();
            counters.increment(LinkCounter.DROPPED_LINK_DOWN);
        }
        while (!inFlight.isEmpty()) {
            inFlight.poll().release();
            counters.increment(LinkCounter.DROPPED_LINK_DOWN);
        }
        while (held != null) {
            final HeldFrame h = held;
            unlink(h);
            h.timer.cancel();
            h.frame.release();
            counters.increment(LinkCounter.DROPPED_LINK_DOWN);
        }
        timeline.reset();
    }

    /** A reordered frame, waiting on its own timer; linked so that link-down can flush it. */
    private final class HeldFrame implements Runnable {
        private final ByteBuf frame;
        private HeldFrame prev;
        private HeldFrame next;
        private Cancellable timer;

        HeldFrame(ByteBuf frame) {
            this.frame = frame;
        }

        @Override
        public void run() {
            unlink(this);
            deliver(frame);
        }
    }
}
