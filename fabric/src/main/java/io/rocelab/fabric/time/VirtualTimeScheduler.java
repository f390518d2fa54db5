package io.rocelab.fabric.time;

import java.util.Objects;

/**
 * A single-threaded discrete-event scheduler: virtual time jumps from one event to the next.
 *
 * <p>Why: a fabric of hundreds of 100 Gb/s ports must run on one core, faster or slower than real
 * time, and a failing scenario must be reproducible. Everything that happens is an event in one
 * queue ordered by (time, insertion sequence); nothing depends on the wall clock, thread timing or
 * hash order, so the same inputs (and the same seeds for the random generators that components
 * are given) give the same run bit for bit.
 *
 * <p>Ordering: events are due at nanosecond times; events due at the same time run in the order they
 * were scheduled (a 64-bit insertion sequence breaks ties; time is never nudged to order them).
 * An event scheduled with delay 0 runs after everything already due now.
 *
 * <p>Cost: an {@link EventQueue}, a timing wheel for the next few microseconds beside a heap for
 * the rest, over primitive {@code long} keys. {@link #scheduleUncancellable} and
 * {@link #execute} allocate nothing; {@link #schedule} allocates the one handle it returns.
 * Cancellation is O(1) and lazy: a cancelled event stays queued, is skipped when it reaches
 * the front, and the queue is compacted when cancelled events outnumber live ones.
 *
 * <p>Threading: confined to one thread, which is its owner: the thread that created it, or the
 * last one that called a {@code run} method. Tasks may schedule and cancel other tasks. An exception
 * thrown by a task propagates out of the {@code run} method (the event counts as executed and the
 * scheduler stays usable), so a test fails loudly.
 *
 * <p>Partitioned: a scheduler may be one logical process (LP) of a {@link PartitionedVirtualTime},
 * or its global scheduler. Then its {@code run} methods drive the whole partitioned run, and a task
 * scheduled on an LP by anything but that LP's own events (another LP's event during a window) is a
 * message the coordinator hands over at the window's end, in a total order (see there).
 */
public final class VirtualTimeScheduler implements Scheduler {

    /** Compaction is not worth it for a handful of cancelled events. */
    private static final int COMPACTION_THRESHOLD = 1024;

    private final EventQueue queue = new EventQueue();
    private long now;
    private long nextSequence;
    private long eventsExecuted;
    private int cancelledInQueue;
    private boolean running;
    private Thread owner = Thread.currentThread();
    /** The partitioned run this scheduler is an LP (or the global scheduler) of; null on its own. */
    private PartitionedVirtualTime partition;
    /** Partitioned: this LP's index, -1 for the global scheduler. */
    private int lpIndex = -1;
    /** Partitioned: the thread running this LP's window now, else null. Written only by that thread. */
    private Thread runningOn;

    /** A scheduler whose clock starts at 0 ns. */
    public VirtualTimeScheduler() {
        this(0L);
    }

    /**
     * @param startNanos the time the clock starts at
     */
    public VirtualTimeScheduler(long startNanos) {
        this.now = startNanos;
    }

    @Override
    public long nanoTime() {
        if (partition != null && !ownsNow()) {
            return partition.callerNanos();
        }
        return now;
    }

    @Override
    public Cancellable schedule(long delayNanos, Runnable task) {
        final CancellableEvent event = new CancellableEvent(this, Objects.requireNonNull(task, "task"));
        if (partition != null && !ownsNow()) {
            partition.postForeign(this, deadlineFrom(partition.callerNanos(), delayNanos), event);
            return event;
        }
        enqueue(deadline(delayNanos), event);
        return event;
    }

    @Override
    public void scheduleUncancellable(long delayNanos, Runnable task) {
        if (partition != null && !ownsNow()) {
            partition.postForeign(this, deadlineFrom(partition.callerNanos(), delayNanos),
                Objects.requireNonNull(task, "task"));
            return;
        }
        enqueue(deadline(delayNanos), task);
    }

    @Override
    public Cancellable scheduleAt(long deadlineNanos, Runnable task) {
        final CancellableEvent event = new CancellableEvent(this, Objects.requireNonNull(task, "task"));
        if (partition != null && !ownsNow()) {
            partition.postForeign(this, Math.max(deadlineNanos, partition.callerNanos()), event);
            return event;
        }
        enqueue(Math.max(deadlineNanos, now), event);
        return event;
    }

    @Override
    public void execute(Runnable task) {
        if (partition != null && !ownsNow()) {
            partition.postForeign(this, partition.callerNanos(), Objects.requireNonNull(task, "task"));
            return;
        }
        enqueue(now, task);
    }

    /**
     * On its own: whether the calling thread is the last one that ran this scheduler. Partitioned:
     * whether the caller is one of this LP's own events, or runs while no window is open (a global
     * event, or the thread that drives the run between its calls): what a thread may touch does not
     * depend on which worker thread runs which LP.
     */
    @Override
    public boolean inOwnerThread() {
        if (partition != null) {
            return ownsNow();
        }
        return Thread.currentThread() == owner;
    }

    private boolean ownsNow() {
        return runningOn == Thread.currentThread() || !partition.windowOpen();
    }

    /**
     * Runs every event due at or before {@code timeNanos} (including those scheduled meanwhile),
     * then sets the clock to {@code timeNanos}.
     *
     * @param timeNanos absolute time, not before {@link #nanoTime()}
     * @return the number of events executed
     * @throws IllegalArgumentException if {@code timeNanos} is in the past
     */
    public long runUntil(long timeNanos) {
        if (partition != null) {
            return partition.runUntil(timeNanos);
        }
        if (timeNanos < now) {
            throw new IllegalArgumentException("timeNanos must not be before now (" + now + "): " + timeNanos);
        }
        enter();
        long executed = 0;
        try {
            while (hasLiveHead() && queue.peekTime() <= timeNanos) {
                runHead();
                executed++;
            }
            now = timeNanos;
        } finally {
            running = false;
        }
        return executed;
    }

    /**
     * Runs event by event until {@code done} holds (checked before each event) or {@code maxNanos}
     * of virtual time have passed; when nothing more is due in that time the clock is set to its end.
     *
     * @return whether {@code done} holds
     */
    public boolean runUntil(java.util.function.BooleanSupplier done, long maxNanos) {
        if (partition != null) {
            return partition.runUntil(done, maxNanos);
        }
        long end = now + maxNanos;
        while (!done.getAsBoolean()) {
            if (isIdle() || nextEventTime() > end) {
                runUntil(Math.max(end, now));
                return done.getAsBoolean();
            }
            runNext();
        }
        return true;
    }

    /**
     * Runs for {@code durationNanos} of virtual time: {@code runUntil(nanoTime() + durationNanos)}.
     *
     * @param durationNanos how long, {@code >= 0}
     * @return the number of events executed
     */
    public long runFor(long durationNanos) {
        if (durationNanos < 0) {
            throw new IllegalArgumentException("durationNanos must be >= 0: " + durationNanos);
        }
        return runUntil(saturatedAdd(now, durationNanos));
    }

    /**
     * Runs at most {@code maxEvents} events; the clock ends at the time of the last one run.
     *
     * @param maxEvents upper bound, {@code >= 0}
     * @return the number of events executed (less than {@code maxEvents} only if the queue emptied)
     */
    public long run(long maxEvents) {
        if (maxEvents < 0) {
            throw new IllegalArgumentException("maxEvents must be >= 0: " + maxEvents);
        }
        if (partition != null) {
            return partition.run(maxEvents);
        }
        enter();
        long executed = 0;
        try {
            while (executed < maxEvents && hasLiveHead()) {
                runHead();
                executed++;
            }
        } finally {
            running = false;
        }
        return executed;
    }

    /**
     * Runs events until none is left. Never returns if some component keeps rescheduling itself
     * (a periodic timer); use {@link #runUntil} or {@link #run(long)} then.
     *
     * @return the number of events executed
     */
    public long runUntilIdle() {
        return run(Long.MAX_VALUE);
    }

    /**
     * Runs the next event, if any.
     *
     * @return {@code true} if an event ran
     */
    public boolean runNext() {
        return run(1) == 1;
    }

    /**
     * @return the number of events executed since creation; a benchmark divides it by wall time
     */
    public long eventsExecuted() {
        if (partition != null && lpIndex < 0) {
            return partition.eventsExecuted();
        }
        return eventsExecuted;
    }

    /**
     * @return the number of events waiting to run, not counting cancelled ones (the global scheduler
     *         of a partitioned run: in all of its LPs too)
     */
    public int pendingEvents() {
        if (partition != null && lpIndex < 0) {
            return partition.pendingEvents();
        }
        return ownPendingEvents();
    }

    /**
     * @return {@code true} if no event is waiting to run
     */
    public boolean isIdle() {
        return nextEventTime() == Long.MAX_VALUE;
    }

    /**
     * @return the time of the next event, or {@link Long#MAX_VALUE} if there is none
     */
    public long nextEventTime() {
        if (partition != null && lpIndex < 0) {
            return partition.nextEventTime();
        }
        return ownNextEventTime();
    }

    /** @return this scheduler's own pending events (an LP's, not its partition's) */
    int ownPendingEvents() {
        return queue.size() - cancelledInQueue;
    }

    /** @return this scheduler's own events executed */
    long ownEventsExecuted() {
        return eventsExecuted;
    }

    /** @return the time of this scheduler's own next event, or {@link Long#MAX_VALUE} */
    long ownNextEventTime() {
        return hasLiveHead() ? queue.peekTime() : Long.MAX_VALUE;
    }

    /** Makes this scheduler LP {@code index} of {@code p} (-1: its global scheduler); before any event. */
    void joinPartition(PartitionedVirtualTime p, int index) {
        this.partition = p;
        this.lpIndex = index;
    }

    /** @return the partitioned run this scheduler belongs to, or null */
    PartitionedVirtualTime partition() {
        return partition;
    }

    /** @return this LP's index in its partition, -1 for the global scheduler or one on its own */
    int lpIndex() {
        return lpIndex;
    }

    /**
     * Partitioned: runs this LP's events due before {@code endNanos} on the calling thread (a
     * window); the clock ends at the last event's time.
     *
     * @return the events run
     */
    long runWindow(long endNanos) {
        final Thread self = Thread.currentThread();
        runningOn = self;
        owner = self;
        long executed = 0;
        try {
            while (hasLiveHead() && queue.peekTime() < endNanos) {
                runHead();
                executed++;
            }
        } finally {
            runningOn = null;
        }
        return executed;
    }

    /**
     * Partitioned, the global scheduler at a barrier: runs its own events due at or before
     * {@code timeNanos}, those they schedule for then included.
     */
    long runOwnUntil(long timeNanos) {
        enter();
        long executed = 0;
        try {
            while (hasLiveHead() && queue.peekTime() <= timeNanos) {
                runHead();
                executed++;
            }
        } finally {
            running = false;
        }
        return executed;
    }

    /** Partitioned, at a barrier: moves the clock on to {@code timeNanos} (nothing is due before it). */
    void advanceTo(long timeNanos) {
        if (timeNanos > now) {
            now = timeNanos;
        }
    }

    /** Partitioned, at a barrier: queues {@code task} (a message from another LP) at {@code timeNanos}. */
    void enqueueMessage(long timeNanos, Runnable task) {
        enqueue(Math.max(timeNanos, now), task);
    }

    /** @return this scheduler's own clock, whoever asks */
    long ownNanos() {
        return now;
    }

    @Override
    public String toString() {
        return "VirtualTimeScheduler[now=" + now + " ns, pending=" + pendingEvents()
            + ", executed=" + eventsExecuted + "]";
    }

    private void enter() {
        if (running) {
            throw new IllegalStateException("a run method was called from inside a task");
        }
        running = true;
        owner = Thread.currentThread();
    }

    private long deadline(long delayNanos) {
        return deadlineFrom(now, delayNanos);
    }

    private static long deadlineFrom(long from, long delayNanos) {
        if (delayNanos < 0) {
            throw new IllegalArgumentException("delayNanos must be >= 0: " + delayNanos);
        }
        return saturatedAdd(from, delayNanos);
    }

    private void enqueue(long time, Runnable task) {
        if (task == null) {
            throw new NullPointerException("task");
        }
        queue.add(time, nextSequence++, task);
    }

    private boolean hasLiveHead() {
        while (!queue.isEmpty()) {
            final Runnable head = queue.peekTask();
            if (!(head instanceof CancellableEvent) || !((CancellableEvent) head).isCancelled()) {
                return true;
            }
            queue.poll();
            cancelledInQueue--;
        }
        return false;
    }

    private void runHead() {
        now = queue.peekTime();
        final Runnable task = queue.poll();
        eventsExecuted++;
        task.run();
    }

    private void onCancelled() {
        cancelledInQueue++;
        if (cancelledInQueue >= COMPACTION_THRESHOLD && cancelledInQueue > queue.size() - cancelledInQueue) {
            cancelledInQueue -= queue.removeIf(CancellableEvent::isCancelledTask);
        }
    }

    static long saturatedAdd(long a, long b) {
        final long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }

    /** The handle {@link #schedule} returns; it is also the queued event. */
    private static final class CancellableEvent implements Runnable, Cancellable {
        private static final int PENDING = 0;
        private static final int STARTED = 1;
        private static final int CANCELLED = 2;

        private final VirtualTimeScheduler scheduler;
        private Runnable task;
        private int state;

        CancellableEvent(VirtualTimeScheduler scheduler, Runnable task) {
            this.scheduler = scheduler;
            this.task = task;
        }

        static boolean isCancelledTask(Runnable task) {
            return task instanceof CancellableEvent && ((CancellableEvent) task).isCancelled();
        }

        boolean isCancelled() {
            return state == CANCELLED;
        }

        @Override
        public void run() {
            final Runnable toRun = task;
            state = STARTED;
            task = null;
            toRun.run();
        }

        @Override
        public boolean cancel() {
            if (state != PENDING) {
                return false;
            }
            state = CANCELLED;
            task = null;
            scheduler.onCancelled();
            return true;
        }

        @Override
        public String toString() {
            return "CancellableEvent[" + (state == PENDING ? "pending" : state == STARTED ? "started" : "cancelled") + "]";
        }
    }
}
