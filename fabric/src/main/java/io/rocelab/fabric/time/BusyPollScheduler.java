package io.rocelab.fabric.time;

import io.netty.util.concurrent.FastThreadLocalThread;
import io.rocelab.fabric.queue.MessageQueues;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.jctools.queues.MessagePassingQueue;

import java.lang.System.Logger.Level;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A real-time {@link Scheduler} whose owner thread never sleeps in the kernel: it polls its inputs
 * in a duty cycle (Aeron's agent model) and, when a turn found nothing to do, calls an Agrona
 * {@link IdleStrategy} (spin, yield, or spin-yield-park back-off).
 *
 * <p>Why: a NIC on an event loop that sleeps in {@code epoll_wait} pays a wake-up (an {@code
 * eventfd} write by the sender, a context switch for the receiver) for every burst of frames that
 * crosses threads, and tens of microseconds per hop on a busy VM. Polling turns a hand-off into a
 * store and a load on a shared cache line, at the price of a core per polling thread. It is an
 * option: {@link RealTimeScheduler} (sleeping) stays the default and is the one that serves
 * channels.
 *
 * <p>One turn of the duty cycle, all on the owner thread:
 * <ol>
 *   <li>tasks {@linkplain #execute executed} from other threads (a lock-free MPSC queue);</li>
 *   <li>every registered {@linkplain #doorbell(Drain) drain}: the link rings and command queues
 *       other threads fill (their doorbells cost nothing: this thread looks on every turn);</li>
 *   <li>tasks the owner executed itself during the previous turn;</li>
 *   <li>timers that are due, in deadline order, ties in scheduling order (the same
 *       {@link TimerHeap} as the real-time scheduler, keyed by {@link #nanoTime()}).</li>
 * </ol>
 * Clock: {@code System.nanoTime()} on the same origin as {@link RealTimeScheduler}. A task that
 * throws is logged and the loop goes on, as on a Netty event loop.
 */
public final class BusyPollScheduler implements Scheduler, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(BusyPollScheduler.class.getName());
    private static final int FOREIGN_CHUNK = 256;
    private static final int FOREIGN_POOLED_CHUNKS = 4;
    private static final long CLOSE_TIMEOUT_MILLIS = 10_000;

    private final Thread thread;
    private final IdleStrategy idle;
    private final MessagePassingQueue<Runnable> foreignTasks =
        MessageQueues.mpscUnboundedXadd(FOREIGN_CHUNK, FOREIGN_POOLED_CHUNKS);
    private volatile Drain[] drains = new Drain[0];
    private volatile boolean running = true;
    private volatile boolean terminated;

    // owner-thread state
    private final ArrayDeque<Runnable> ownTasks = new ArrayDeque<>();
    private final TimerHeap timers = new TimerHeap(this);

    private BusyPollScheduler(String threadName, IdleStrategy idle) {
        this.idle = idle;
        // a Netty thread: the pooled allocator gives thread-local caches only to FastThreadLocalThreads
        // (io.netty.allocator.useCacheForAllThreads is false by default), and without one every frame
        // allocation would take the arena's lock
        this.thread = new FastThreadLocalThread(this::runLoop, threadName);
        this.thread.setDaemon(true);
    }

    /**
     * Starts a scheduler on a new daemon thread.
     *
     * @param threadName name of the thread, shown in thread dumps and CPU accounting
     * @param idle       what a turn that found no work does: {@link BusySpinIdleStrategy} keeps the
     *                   core, {@link YieldingIdleStrategy} offers it to other threads, a
     *                   {@link BackoffIdleStrategy} ends up parking (bounded by its longest park)
     * @return the running scheduler
     */
    public static BusyPollScheduler start(String threadName, IdleStrategy idle) {
        final BusyPollScheduler s = new BusyPollScheduler(Objects.requireNonNull(threadName, "threadName"),
            Objects.requireNonNull(idle, "idle"));
        s.thread.start();
        return s;
    }

    /**
     * The idle strategies offered by name, for command lines and benchmark properties.
     *
     * @param name {@code spin}, {@code yield} or {@code backoff} (spin, then yield, then park from 1 to
     *             100 µs)
     * @return a new strategy (strategies keep state: one per scheduler)
     * @throws IllegalArgumentException for another name
     */
    public static IdleStrategy idleStrategy(String name) {
        return switch (Objects.requireNonNull(name, "name")) {
            case "spin" -> new BusySpinIdleStrategy();
            case "yield" -> new YieldingIdleStrategy();
            case "backoff" -> new BackoffIdleStrategy(100, 10, TimeUnit.MICROSECONDS.toNanos(1),
                TimeUnit.MICROSECONDS.toNanos(100));
            default -> throw new IllegalArgumentException("idle strategy must be spin, yield or backoff: " + name);
        };
    }

    /** A real clock's timers fire tens of microseconds late: work due within this much is done at once. */
    public static final long TIMER_SLACK_NANOS = 10_000;

    @Override
    public long timerSlackNanos() {
        return TIMER_SLACK_NANOS;
    }

    @Override
    public long nanoTime() {
        return System.nanoTime() - RealTimeScheduler.ORIGIN_NANOS;
    }

    @Override
    public Cancellable schedule(long delayNanos, Runnable task) {
        final TimerHeap.Timer timer = timers.newTimer(Objects.requireNonNull(task, "task"));
        addTimer(deadline(delayNanos), timer);
        return timer;
    }

    @Override
    public void scheduleUncancellable(long delayNanos, Runnable task) {
        addTimer(deadline(delayNanos), Objects.requireNonNull(task, "task"));
    }

    @Override
    public Cancellable scheduleAt(long deadlineNanos, Runnable task) {
        final TimerHeap.Timer timer = timers.newTimer(Objects.requireNonNull(task, "task"));
        addTimer(deadlineNanos, timer);
        return timer;
    }

    /**
     * {@inheritDoc}
     *
     * @throws RejectedExecutionException after {@link #close()}
     */
    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        if (inOwnerThread()) {
            ownTasks.add(task); // runs on the next turn, never inside this call
            return;
        }
        if (terminated) {
            throw new RejectedExecutionException(thread.getName() + " has shut down");
        }
        foreignTasks.offer(task);
    }

    @Override
    public boolean inOwnerThread() {
        return Thread.currentThread() == thread;
    }

    /**
     * Adds {@code drain} to the duty cycle. Its doorbell does nothing while the scheduler runs (this
     * thread looks on every turn) and throws {@link RejectedExecutionException} once it has shut
     * down. Any thread; the drain is polled from the first turn that sees it.
     */
    @Override
    public Doorbell doorbell(Drain drain) {
        Objects.requireNonNull(drain, "drain");
        synchronized (this) {
            final Drain[] current = drains;
            final Drain[] next = Arrays.copyOf(current, current.length + 1);
            next[current.length] = drain;
            drains = next;
        }
        return this::checkNotTerminated;
    }

    /**
     * @return the owner thread (for CPU accounting)
     */
    public Thread thread() {
        return thread;
    }

    /**
     * Stops the duty cycle: the thread finishes the tasks and drains that are already queued (a frame
     * handed over just before is still delivered or released, as Netty's graceful shutdown runs the
     * tasks still queued), then exits; later tasks are rejected. Waits for the thread (10 s at most).
     * Timers still pending are dropped.
     */
    @Override
    public void close() {
        running = false;
        if (!inOwnerThread()) {
            try {
                thread.join(CLOSE_TIMEOUT_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return "BusyPollScheduler[" + thread.getName() + ", " + idle.alias() + "]";
    }

    private void checkNotTerminated() {
        if (terminated) {
            throw new RejectedExecutionException(thread.getName() + " has shut down");
        }
    }

    private long deadline(long delayNanos) {
        if (delayNanos < 0) {
            throw new IllegalArgumentException("delayNanos must be >= 0: " + delayNanos);
        }
        final long now = nanoTime();
        final long sum = now + delayNanos;
        return sum < now ? Long.MAX_VALUE : sum;
    }

    private void addTimer(long deadlineNanos, Runnable task) {
        if (inOwnerThread()) {
            timers.add(deadlineNanos, task);
        } else {
            execute(() -> timers.add(deadlineNanos, task));
        }
    }

    private void runLoop() {
        while (running) {
            idle.idle(doWork());
        }
        // quiesce: finish what was handed over before close, then refuse more and look once again for
        // anything that was queued while the flag went up
        while (doWork() > 0) {
            // keep going
        }
        terminated = true;
        while (doWork() > 0) {
            // keep going
        }
        timers.clear();
    }

    /** One turn of the duty cycle; returns the work done (0: idle). */
    private int doWork() {
        int work = 0;
        for (Runnable t; (t = foreignTasks.relaxedPoll()) != null; ) {
            run(t);
            work++;
        }
        for (Drain d : drains) {
            try {
                work += d.drain();
            } catch (RuntimeException | Error e) {
                LOG.log(Level.WARNING, thread.getName() + ": a drain threw", e);
                work++;
            }
        }
        // only the tasks queued before this point: one executed now runs on the next turn
        for (int n = ownTasks.size(); n > 0; n--) {
            run(ownTasks.poll());
            work++;
        }
        if (!timers.isEmpty()) {
            work += timers.runDue(nanoTime(), thread.getName());
        }
        return work;
    }

    private void run(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException | Error e) {
            LOG.log(Level.WARNING, thread.getName() + ": a task threw", e);
        }
    }
}
