package io.rocelab.fabric.time;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Virtual time split into logical processes (LPs) that run side by side on a few threads, with the
 * same result on any number of threads: a conservative, YAWNS-style windowed run.
 *
 * <p>Why: one {@link VirtualTimeScheduler} runs a whole fabric on one core. A fabric split into LPs
 * (a leaf and its hosts, a spine alone: the split is the caller's, fixed by the topology) can run
 * each LP's events of a window at once, because no event of one LP can affect another LP sooner
 * than the <em>lookahead</em> L: the smallest propagation delay of a link between two LPs.
 *
 * <p>The run: windows [W, E) with W the time of the earliest pending event and
 * E = min(W + L, the next global event's time). In a window each LP runs its events due before E on
 * one of the worker threads (the calling thread is one of them); then, with every LP stopped (a
 * barrier), the messages the LPs posted to each other during the window are handed over in a total
 * order that does not depend on the threads: by (due time, source LP index, order of posting within
 * the source LP), each inserted with the destination's normal scheduling (so its sequence number,
 * and thus its order among same-time events, comes from that order too). A message of a link
 * ({@link Crossing}) is due at or after E by construction (checked: an earlier one is a bug and
 * throws). A task another LP schedules directly on an LP (a control-plane hop such as a connection
 * set-up step) is such a message too, due no earlier than E: it takes effect at the barrier.
 *
 * <p>Global events: the {@linkplain #global() global scheduler} holds what belongs to no device
 * (samplers, timeline actions, flow starts). Its events run between windows with every LP stopped,
 * before any LP event of the same time, and while one runs every LP counts the calling thread as its
 * owner ({@link Scheduler#inOwnerThread()}), so it may touch any node's state directly. Its
 * {@code run} methods (and any LP's) drive the whole partitioned run.
 *
 * <p>Why the result is the same on 1, 2 or 4 threads: an LP's events in a window depend only on its
 * own state and on what reached it at earlier barriers; which thread runs it, and when, changes
 * nothing it can see (a read of another LP's clock from an LP event gives the caller's own time),
 * and everything that crosses LPs is ordered at the barrier by keys that name no thread.
 *
 * <p>Threading: drive it from one thread; {@link #close()} stops the workers.
 */
public final class PartitionedVirtualTime implements AutoCloseable {

    /**
     * Spins of a waiting thread before it parks (a pause is some 10-140 cycles: tens of microseconds
     * in all, a short window's worth; a machine shared with other work gets its core back after that).
     */
    private static final int SPINS = Integer.getInteger("rocelab.lp.spins", 1_000);
    private static final Comparator<Message> ORDER = Comparator.<Message>comparingLong(m -> m.due)
        .thenComparingInt(m -> m.source).thenComparingInt(m -> m.sequence);

    private final VirtualTimeScheduler global;
    private final VirtualTimeScheduler[] lps;
    private final Outbox[] outboxes;
    private final Throwable[] failures;
    private final long lookaheadNanos;
    private final int threads;
    private final ThreadLocal<VirtualTimeScheduler> current = new ThreadLocal<>();
    /**
     * The window's generation (high 32 bits) and the next LP to take (low 32): a worker takes an LP
     * only with a compare-and-set naming the generation it woke up for, so a late one takes nothing.
     */
    private final AtomicLong nextLp = new AtomicLong();
    /** LPs of the window finished (or skipped): the window ends when all are. */
    private final AtomicInteger lpsDone = new AtomicInteger();
    private final List<Thread> helpers = new ArrayList<>();
    private Message[] merged = new Message[64];
    private volatile boolean windowOpen;
    private long generation;
    private volatile boolean closed;
    private volatile Thread driver;
    /** The end of the window being run (published to the workers by the write of {@link #nextLp}). */
    private long windowEnd;
    private long windows;
    private long messages;

    /**
     * @param lpCount        the number of LPs, {@code >= 1}
     * @param lookaheadNanos the smallest delay of anything that crosses LPs, {@code >= 1}
     * @param threads        worker threads, the calling one included, {@code >= 1}; more than
     *                       {@code lpCount} is the same as {@code lpCount}
     */
    public PartitionedVirtualTime(int lpCount, long lookaheadNanos, int threads) {
        if (lpCount < 1) {
            throw new IllegalArgumentException("lpCount must be >= 1: " + lpCount);
        }
        if (lookaheadNanos < 1) {
            throw new IllegalArgumentException("lookaheadNanos must be >= 1: " + lookaheadNanos);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1: " + threads);
        }
        this.lookaheadNanos = lookaheadNanos;
        this.threads = Math.min(threads, lpCount);
        this.global = new VirtualTimeScheduler();
        global.joinPartition(this, -1);
        this.lps = new VirtualTimeScheduler[lpCount];
        this.outboxes = new Outbox[lpCount];
        this.failures = new Throwable[lpCount];
        for (int i = 0; i < lpCount; i++) {
            lps[i] = new VirtualTimeScheduler();
            lps[i].joinPartition(this, i);
            outboxes[i] = new Outbox(i);
        }
    }

    /** @return the scheduler of what is no device's; its {@code run} methods drive the whole run */
    public VirtualTimeScheduler global() {
        return global;
    }

    /** @return LP {@code index}'s scheduler */
    public VirtualTimeScheduler lp(int index) {
        return lps[index];
    }

    /** @return the number of LPs */
    public int lpCount() {
        return lps.length;
    }

    /** @return the lookahead: windows are at most this long */
    public long lookaheadNanos() {
        return lookaheadNanos;
    }

    /** @return the worker threads, the driving one included */
    public int threads() {
        return threads;
    }

    /** @return the windows run so far */
    public long windows() {
        return windows;
    }

    /** @return the messages handed over between LPs so far */
    public long messages() {
        return messages;
    }

    /** @return the ids of the worker threads started besides the driving one (for their CPU time) */
    public long[] helperThreadIds() {
        return helpers.stream().mapToLong(Thread::getId).toArray();
    }

    /**
     * @return the way from the LP of {@code from} to the LP of {@code to}, or null if they are not
     *         two different LPs of one partitioned run (then a plain scheduler call is right)
     */
    public static Crossing crossing(Scheduler from, Scheduler to) {
        if (from instanceof VirtualTimeScheduler f && to instanceof VirtualTimeScheduler t
            && f.partition() != null && f.partition() == t.partition() && f != t
            && f.lpIndex() >= 0 && t.lpIndex() >= 0) {
            return f.partition().new Crossing(f, t);
        }
        return null;
    }

    /**
     * @return the global scheduler of the partitioned run {@code s} is an LP of, or null: where state
     *         two LPs share must change (a link going down), at a barrier
     */
    public static VirtualTimeScheduler globalOf(Scheduler s) {
        return s instanceof VirtualTimeScheduler v && v.partition() != null ? v.partition().global : null;
    }

    boolean windowOpen() {
        return windowOpen;
    }

    /** The clock of the LP whose event is calling, for a call on another LP's scheduler. */
    long callerNanos() {
        final VirtualTimeScheduler c = current.get();
        return c != null ? c.ownNanos() : global.ownNanos();
    }

    /** A task an LP's event scheduled on another LP (or on the global scheduler) during a window. */
    void postForeign(VirtualTimeScheduler target, long dueNanos, Runnable task) {
        final VirtualTimeScheduler c = current.get();
        if (c == null) {
            throw new IllegalStateException("a task was scheduled on " + target + " from a thread that runs none of"
                + " the partitioned run's LPs while a window was open");
        }
        outboxes[c.lpIndex()].add(Math.max(dueNanos, windowEnd), target, task);
    }

    /** @return every event executed: the global scheduler's and every LP's */
    long eventsExecuted() {
        long n = global.ownEventsExecuted();
        for (VirtualTimeScheduler lp : lps) {
            n += lp.ownEventsExecuted();
        }
        return n;
    }

    /** @return every pending event, between runs */
    int pendingEvents() {
        long n = global.ownPendingEvents();
        for (VirtualTimeScheduler lp : lps) {
            n += lp.ownPendingEvents();
        }
        for (Outbox o : outboxes) {
            n += o.size;
        }
        return (int) Math.min(Integer.MAX_VALUE, n);
    }

    /** @return the time of the earliest pending event anywhere, between runs */
    long nextEventTime() {
        mergeMessages();
        long t = global.ownNextEventTime();
        for (VirtualTimeScheduler lp : lps) {
            t = Math.min(t, lp.ownNextEventTime());
        }
        return t;
    }

    /**
     * Runs every event due at or before {@code timeNanos} in every LP and the global scheduler, then
     * sets every clock to {@code timeNanos}.
     *
     * @return the events executed
     */
    long runUntil(long timeNanos) {
        final long now = global.ownNanos();
        if (timeNanos < now) {
            throw new IllegalArgumentException("timeNanos must not be before now (" + now + "): " + timeNanos);
        }
        final long before = eventsExecuted();
        while (step(timeNanos)) {
            // one window or one instant of global events per step
        }
        advanceAll(timeNanos);
        return eventsExecuted() - before;
    }

    /** Like {@link VirtualTimeScheduler#runUntil(BooleanSupplier, long)}, {@code done} checked at each barrier. */
    boolean runUntil(BooleanSupplier done, long maxNanos) {
        final long end = VirtualTimeScheduler.saturatedAdd(global.ownNanos(), maxNanos);
        while (!done.getAsBoolean()) {
            if (!step(end)) {
                runUntil(Math.max(end, global.ownNanos()));
                return done.getAsBoolean();
            }
        }
        return true;
    }

    /** Runs windows until at least {@code maxEvents} ran or nothing is left; the clock ends at the last window's. */
    long run(long maxEvents) {
        final long before = eventsExecuted();
        while (eventsExecuted() - before < maxEvents && step(Long.MAX_VALUE - 1)) {
            // next step
        }
        return eventsExecuted() - before;
    }

    /**
     * One step: hands over the messages, then runs the global events due at the earliest pending
     * time if there are any, else one window of every LP.
     *
     * @return false if nothing is due at or before {@code limit}
     */
    private boolean step(long limit) {
        driver = Thread.currentThread();
        mergeMessages();
        final long g = global.ownNextEventTime();
        long m = Long.MAX_VALUE;
        for (VirtualTimeScheduler lp : lps) {
            m = Math.min(m, lp.ownNextEventTime());
        }
        final long w = Math.min(g, m);
        if (w > limit) {
            return false;
        }
        if (g <= m) {
            // global events first, every LP stopped at their time
            advanceAll(g);
            global.runOwnUntil(g);
            return true;
        }
        long end = Math.min(VirtualTimeScheduler.saturatedAdd(m, lookaheadNanos), g);
        end = Math.min(end, limit + 1);
        runWindow(end);
        return true;
    }

    private void advanceAll(long timeNanos) {
        global.advanceTo(timeNanos);
        for (VirtualTimeScheduler lp : lps) {
            lp.advanceTo(timeNanos);
        }
    }

    /**
     * One window: the driving thread takes LPs like any worker; it waits only for LPs another worker
     * took and has not finished, never for a worker that has not woken up (on a machine busy with
     * other work, that one finds the window over and takes nothing).
     */
    private void runWindow(long end) {
        windows++;
        windowEnd = end;
        windowOpen = true;
        try {
            if (threads > 1) {
                startHelpers();
                lpsDone.set(0);
                generation++;
                nextLp.set(generation << 32); // publishes windowEnd and the reset count
                for (Thread h : helpers) {
                    LockSupport.unpark(h);
                }
                claimLoop(generation, end);
                int spins = 0;
                while (lpsDone.get() < lps.length) {
                    if (spins++ < SPINS) {
                        Thread.onSpinWait();
                    } else {
                        LockSupport.park(this);
                    }
                }
            } else {
                for (int i = 0; i < lps.length; i++) {
                    runLp(i, end);
                }
            }
        } finally {
            windowOpen = false;
        }
        for (int i = 0; i < failures.length; i++) {
            final Throwable t = failures[i];
            if (t != null) {
                Arrays.fill(failures, null);
                mergeMessages();
                if (t instanceof RuntimeException r) {
                    throw r;
                }
                if (t instanceof Error e) {
                    throw e;
                }
                throw new IllegalStateException(t);
            }
        }
    }

    /**
     * Takes the LPs of window {@code gen} one by one (whichever thread takes which, each LP's window is
     * the same) and runs them; stops when none is left or the window is another one.
     */
    private void claimLoop(long gen, long end) {
        while (true) {
            final long v = nextLp.get();
            final int i = (int) v;
            if ((v >>> 32) != gen || i >= lps.length) {
                return;
            }
            if (!nextLp.compareAndSet(v, v + 1)) {
                continue;
            }
            runLp(i, end);
            if (lpsDone.incrementAndGet() == lps.length && Thread.currentThread() != driver) {
                LockSupport.unpark(driver);
            }
        }
    }

    private void runLp(int i, long end) {
        final VirtualTimeScheduler lp = lps[i];
        if (lp.ownNextEventTime() >= end) {
            return;
        }
        current.set(lp);
        try {
            lp.runWindow(end);
        } catch (Throwable t) {
            failures[i] = t;
        } finally {
            current.set(null);
        }
    }

    private void startHelpers() {
        while (helpers.size() < threads - 1 && !closed) {
            final Thread t = new Thread(this::helperLoop, "rocelab-lp-worker-" + (helpers.size() + 1));
            t.setDaemon(true);
            helpers.add(t);
            t.start();
        }
    }

    private void helperLoop() {
        long seen = 0;
        while (true) {
            long g;
            int spins = 0;
            while ((g = nextLp.get() >>> 32) == seen && !closed) {
                if (spins++ < SPINS) {
                    Thread.onSpinWait();
                } else {
                    LockSupport.park(this);
                }
            }
            if (closed) {
                return;
            }
            seen = g;
            // read after the generation: this window's end (a later window's cannot be set while an LP is left to take)
            claimLoop(g, windowEnd);
        }
    }

    /** At a barrier: every LP's messages into their destinations, in the total order. */
    private void mergeMessages() {
        int n = 0;
        for (Outbox o : outboxes) {
            n += o.size;
        }
        if (n == 0) {
            return;
        }
        if (merged.length < n) {
            merged = new Message[Math.max(n, merged.length * 2)];
        }
        int k = 0;
        for (Outbox o : outboxes) {
            System.arraycopy(o.messages, 0, merged, k, o.size);
            k += o.size;
        }
        Arrays.sort(merged, 0, n, ORDER);
        messages += n;
        for (int i = 0; i < n; i++) {
            final Message msg = merged[i];
            final Runnable task = msg.task;
            final VirtualTimeScheduler target = msg.target;
            final long due = msg.due;
            msg.task = null;
            msg.target = null;
            merged[i] = null;
            if (target == null) {
                task.run();
            } else {
                target.enqueueMessage(due, task);
            }
        }
        for (Outbox o : outboxes) {
            o.size = 0;
        }
    }

    /** Stops the worker threads. */
    @Override
    public void close() {
        closed = true;
        for (Thread h : helpers) {
            LockSupport.unpark(h);
        }
    }

    @Override
    public String toString() {
        return "PartitionedVirtualTime[" + lps.length + " LPs, lookahead " + lookaheadNanos + " ns, " + threads
            + " threads, " + windows + " windows]";
    }

    /**
     * The way from one LP to another: what an event of the source LP posts here runs at the next
     * barrier, in the total order. A link uses it to hand its frames to the receiver's LP.
     */
    public final class Crossing {
        private final VirtualTimeScheduler from;
        private final VirtualTimeScheduler to;

        private Crossing(VirtualTimeScheduler from, VirtualTimeScheduler to) {
            this.from = from;
            this.to = to;
        }

        /** @return the source LP's scheduler: the clock of whatever posts here */
        public Scheduler from() {
            return from;
        }

        /** @return the destination LP's scheduler */
        public Scheduler to() {
            return to;
        }

        /**
         * Posts, from an event of the source LP (or a global event), {@code atBarrier}: it runs at the
         * next barrier, on the driving thread with every LP stopped, and may then schedule on
         * {@link #to()} at or after {@code dueNanos}.
         *
         * @throws IllegalStateException if {@code dueNanos} is before the end of the open window (the
         *                               destination may already have run past it): a lookahead bug
         */
        public void post(long dueNanos, Runnable atBarrier) {
            final long earliest = windowOpen ? windowEnd : to.ownNanos();
            if (dueNanos < earliest) {
                throw new IllegalStateException("lookahead violated: LP " + from.lpIndex() + " posted to LP "
                    + to.lpIndex() + " a message due at " + dueNanos + " ns, before " + earliest + " ns (lookahead "
                    + lookaheadNanos + " ns)");
            }
            outboxes[from.lpIndex()].add(dueNanos, null, Objects.requireNonNull(atBarrier, "atBarrier"));
        }
    }

    /** One LP's messages of a window, in posting order; its entries are reused from window to window. */
    private static final class Outbox {
        private final int source;
        private Message[] messages = new Message[16];
        private int size;

        Outbox(int source) {
            this.source = source;
        }

        void add(long due, VirtualTimeScheduler target, Runnable task) {
            if (size == messages.length) {
                messages = Arrays.copyOf(messages, size * 2);
            }
            Message m = messages[size];
            if (m == null) {
                m = new Message();
                messages[size] = m;
            }
            m.due = due;
            m.source = source;
            m.sequence = size;
            m.target = target;
            m.task = task;
            size++;
        }
    }

    /** A message between LPs: a task to queue on {@code target}, or (target null) an action to run at the barrier. */
    private static final class Message {
        long due;
        int source;
        int sequence;
        VirtualTimeScheduler target;
        Runnable task;
    }
}
