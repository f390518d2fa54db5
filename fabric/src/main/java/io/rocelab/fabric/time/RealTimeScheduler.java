package io.rocelab.fabric.time;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.ScheduledFuture;

import java.lang.System.Logger.Level;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A {@link Scheduler} on a Netty {@link EventLoop}: real time, one owner thread.
 *
 * <p>Why: in a lab that talks to real processes or VMs, a NIC or switch must react to wall-clock
 * time, and its channels (UDP ports) already live on an event loop. Running the protocol state on
 * that same loop keeps the one-owner-thread rule with no locks and no hand-offs.
 *
 * <p>Time is {@code System.nanoTime()} minus an origin taken once per JVM, so every real-time
 * scheduler in a process shares one time base and their timestamps can be compared.
 *
 * <p>Timers are the scheduler's own, not Netty's: a {@link TimerHeap} on the owner thread, and one
 * Netty timer armed for its earliest deadline, re-armed only when an earlier deadline comes (as a
 * QP keeps its ACK timer). What the owner thread executes, or schedules for now, goes to one queue
 * whose drain runs the timers that have come due before each of its tasks. Why: Netty allocates a
 * scheduled task and sifts it into its heap per timer, and it looks at its timers only when it
 * starts a round of tasks, a round lasting while tasks keep queueing each other (a link delivering
 * to a NIC that answers over the same loop): there, Netty's timers waited 1-2 ms, and a PFC storm's
 * 167 us refresh with them. Here a chain of tasks runs every due timer between its links, and gives
 * the loop back to its sockets after {@link #CHAIN_TURN_NANOS}: no frame waits long in a socket
 * while timers that it would have answered fire on.
 *
 * <p>Precision: on an epoll loop ({@link #start(String)} where Linux's epoll loads) the armed timer
 * is a {@code timerfd} with nanosecond resolution, so an idle loop wakes within microseconds of a
 * deadline (the kernel's wake-up latency). On the NIO fallback an idle loop's select waits whole
 * milliseconds for a deadline more than a few microseconds away. Links that need exact
 * serialization timing belong in {@link VirtualTimeScheduler virtual time}.
 */
public final class RealTimeScheduler implements Scheduler, AutoCloseable {

    /** Shared with {@link BusyPollScheduler}: every real-time clock in a JVM reads the same time base. */
    static final long ORIGIN_NANOS = System.nanoTime();
    private static final long SHUTDOWN_TIMEOUT_SECONDS = 5;
    private static final System.Logger LOG = System.getLogger(RealTimeScheduler.class.getName());

    /**
     * System property: {@code nio} makes {@link #start(String)} start NIO loops even where epoll
     * loads (to compare the two); anything else, or nothing, picks epoll where it loads.
     */
    public static final String LOOP_PROPERTY = "rocelab.eventLoop";

    /**
     * Work due within this much is done at once on a NIO loop: the resolution of its timers. Its
     * select waits whole milliseconds and, for a deadline less than 0.5 ms away, does not wait at
     * all but polls until it is due; so waiting for a nearer deadline only spins the thread.
     */
    public static final long TIMER_SLACK_NANOS = 500_000;

    /**
     * The same on an epoll loop, whose timers wake it within tens of microseconds (a {@code timerfd};
     * the rest is the kernel's wake-up of a sleeping thread): a transmitter hands the link 50 us of
     * frames at once, not 500, so a PFC pause it receives stops what it sends sooner. In-process
     * {@code ib_write_bw} ran as fast with 20, 50 or 500 us.
     */
    public static final long PRECISE_TIMER_SLACK_NANOS = 50_000;

    /**
     * How long a chain of tasks (tasks queueing tasks for now, the due timers run between them) may
     * keep the loop before the loop reads its sockets again. Long enough that a loop keeping up with
     * its work finishes its chains as before (a chain of a frame's hops is microseconds); short
     * enough that no protocol timer worth arming (an ACK timeout of at least 4.096 us x 2^8) expires
     * on frames that wait in a socket because the loop is busy, as Netty's task quantum (a second)
     * let them.
     */
    public static final long CHAIN_TURN_NANOS = 1_000_000;

    private final EventLoop loop;
    private final EventLoopGroup ownedGroup;
    private final boolean preciseTimers;

    // owner thread only
    private final TimerHeap timers = new TimerHeap(this);
    /** The deadline of the Netty timer armed for {@link #timers}' earliest, or {@code Long.MAX_VALUE}. */
    private long armedAt = Long.MAX_VALUE;
    private ScheduledFuture<?> armed;
    private final Runnable fire = this::fire;
    /** Tasks the owner thread executed or scheduled for now, in order. */
    private final ArrayDeque<Runnable> dueNow = new ArrayDeque<>();
    private boolean drainQueued;
    /** A drain is running its tasks: what they queue waits for the drain's own continuation. */
    private boolean draining;
    /** When the running chain of drains began ({@link #NO_CHAIN}: none runs), for {@link #CHAIN_TURN_NANOS}. */
    private long chainStartedAt = NO_CHAIN;
    private static final long NO_CHAIN = Long.MIN_VALUE;
    private final Runnable drain = this::drain;

    /**
     * A scheduler on an event loop owned by someone else (for example the loop of a channel, or an
     * epoll loop); {@link #close()} leaves the loop running.
     *
     * @param loop the loop whose thread owns everything this scheduler runs
     */
    public RealTimeScheduler(EventLoop loop) {
        this(Objects.requireNonNull(loop, "loop"), null);
    }

    private RealTimeScheduler(EventLoop loop, EventLoopGroup ownedGroup) {
        this.loop = loop;
        this.ownedGroup = ownedGroup;
        this.preciseTimers = loop instanceof IoEventLoop io && io.isIoType(EpollIoHandler.class);
        // binding libc (JNA runs ldconfig once per JVM) happens here, not on the loop's thread
        if (preciseTimers && TimerSlack.available()) {
            loop.execute(TimerSlack::minimizeForThisThread); // the loop's thread: see TimerSlack
        }
    }

    /**
     * Starts a scheduler on a new single-thread event loop, which {@link #close()} shuts down: epoll
     * where Linux's native transport loads (precise timers), else NIO; {@value #LOOP_PROPERTY}
     * {@code =nio} forces NIO. The loop can also serve channels of its kind (see
     * {@link #eventLoop()}).
     *
     * @param threadName name of the loop's thread, shown in thread dumps
     * @return the scheduler
     */
    public static RealTimeScheduler start(String threadName) {
        return start(threadName, defaultIoHandlers());
    }

    /**
     * Starts a scheduler on a new single-thread event loop of the given kind, which {@link #close()}
     * shuts down.
     *
     * @param threadName name of the loop's thread, shown in thread dumps
     * @param io         the loop's I/O, e.g. {@code NioIoHandler.newFactory()}
     * @return the scheduler
     */
    public static RealTimeScheduler start(String threadName, IoHandlerFactory io) {
        Objects.requireNonNull(threadName, "threadName");
        final EventLoopGroup group = new MultiThreadIoEventLoopGroup(
            1, new DefaultThreadFactory(threadName, true), Objects.requireNonNull(io, "io"));
        return new RealTimeScheduler(group.next(), group);
    }

    /**
     * @return epoll's handlers where the native transport loads and {@value #LOOP_PROPERTY} is not
     *         {@code nio}, else NIO's
     */
    public static IoHandlerFactory defaultIoHandlers() {
        return preciseByDefault() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    }

    /**
     * @return whether {@link #start(String)} starts epoll loops, with {@linkplain #preciseTimers()
     *         precise timers}: epoll loads and {@value #LOOP_PROPERTY} is not {@code nio}
     */
    public static boolean preciseByDefault() {
        return !"nio".equalsIgnoreCase(System.getProperty(LOOP_PROPERTY, "")) && Epoll.isAvailable();
    }

    /**
     * @return the event loop; channels registered on it share the owner thread with this scheduler
     *         (they must be of the loop's kind: epoll channels on an epoll loop)
     */
    public EventLoop eventLoop() {
        return loop;
    }

    /**
     * @return whether the loop is an epoll loop, whose timers wake it within microseconds (else NIO,
     *         whole milliseconds when idle)
     */
    public boolean preciseTimers() {
        return preciseTimers;
    }

    @Override
    public long timerSlackNanos() {
        return preciseTimers ? PRECISE_TIMER_SLACK_NANOS : TIMER_SLACK_NANOS;
    }

    @Override
    public long nanoTime() {
        return System.nanoTime() - ORIGIN_NANOS;
    }

    @Override
    public Cancellable schedule(long delayNanos, Runnable task) {
        final TimerHeap.Timer t = timers.newTimer(Objects.requireNonNull(task, "task"));
        addTimer(deadline(delayNanos), t);
        return t;
    }

    @Override
    public Cancellable scheduleAt(long deadlineNanos, Runnable task) {
        final TimerHeap.Timer t = timers.newTimer(Objects.requireNonNull(task, "task"));
        addTimer(deadlineNanos, t);
        return t;
    }

    @Override
    public void scheduleUncancellable(long delayNanos, Runnable task) {
        Objects.requireNonNull(task, "task");
        if (delayNanos == 0 && loop.inEventLoop()) {
            queueNow(task);
            return;
        }
        addTimer(deadline(delayNanos), task);
    }

    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        if (loop.inEventLoop()) {
            queueNow(task);
            return;
        }
        loop.execute(task);
    }

    @Override
    public boolean inOwnerThread() {
        return loop.inEventLoop();
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
        if (loop.inEventLoop()) {
            timers.add(deadlineNanos, task);
            arm();
        } else {
            loop.execute(() -> {
                timers.add(deadlineNanos, task);
                arm();
            });
        }
    }

    /** Owner thread: queues {@code task} to run after what is queued, with the due timers between. */
    private void queueNow(Runnable task) {
        dueNow.add(task);
        if (!drainQueued && !draining) {
            drainQueued = true;
            loop.execute(drain);
        }
    }

    /**
     * Runs the tasks queued for now when it started (the ones they queue wait for the next drain),
     * each after the timers that have come due; then queues the next drain if tasks are left.
     *
     * <p>A chain of drains (tasks queueing tasks, timers coming due between them: a transmitter
     * that cannot keep up with its line rate on a loaded machine makes one that never ends) gives
     * the loop back to its input after {@link #CHAIN_TURN_NANOS}: what is left waits for a drain
     * scheduled behind the loop's next look at its sockets. Why: Netty runs the tasks queued while
     * it runs tasks in the same round, which ends only when none is left or after its task quantum
     * (a second), and reads its sockets only between rounds; a chain of drains queued with
     * {@code execute} kept the frames waiting in a socket unread while the timers ran on. A QP's
     * ACK timer then fired again and again while its ACKs lay in the socket, until its retries ran
     * out and every ACK was dropped on arrival, the QP in ERR.
     */
    private void drain() {
        drainQueued = false;
        long now = nanoTime();
        if (chainStartedAt == NO_CHAIN) {
            chainStartedAt = now;
        }
        final long turnEnds = chainStartedAt + CHAIN_TURN_NANOS;
        draining = true;
        try {
            for (int n = dueNow.size(); n > 0 && now < turnEnds; n--) {
                runDueTimers(now);
                final Runnable task = dueNow.poll();
                try {
                    task.run();
                } catch (RuntimeException | Error e) {
                    LOG.log(Level.WARNING, Thread.currentThread().getName() + ": a task threw", e);
                }
                now = nanoTime();
            }
            if (now < turnEnds) {
                runDueTimers(now);
            }
        } finally {
            draining = false;
        }
        if (dueNow.isEmpty()) {
            chainStartedAt = NO_CHAIN;
            return;
        }
        drainQueued = true;
        if (now < turnEnds) {
            loop.execute(drain);
        } else {
            // the loop reads its sockets before it runs scheduled work that has come due
            chainStartedAt = NO_CHAIN;
            loop.schedule(drain, 0, TimeUnit.NANOSECONDS);
        }
    }

    private void runDueTimers() {
        if (!timers.isEmpty()) {
            runDueTimers(nanoTime());
        }
    }

    private void runDueTimers(long now) {
        if (!timers.isEmpty() && timers.peekTime() <= now) {
            timers.runDue(now, Thread.currentThread().getName());
        }
    }

    /**
     * Arms the Netty timer for the earliest deadline, unless one is armed for that time or earlier
     * (it will re-arm itself for what is left when it fires): a timer added behind the earliest
     * costs Netty nothing.
     */
    private void arm() {
        if (timers.isEmpty()) {
            return;
        }
        final long first = timers.peekTime();
        if (first >= armedAt) {
            return;
        }
        if (armed != null) {
            armed.cancel(false); // a deadline earlier than the armed one: the only time it moves
        }
        armedAt = first;
        armed = loop.schedule(fire, Math.max(0L, first - nanoTime()), TimeUnit.NANOSECONDS);
    }

    private void fire() {
        armed = null;
        armedAt = Long.MAX_VALUE;
        runDueTimers();
        arm();
    }

    /**
     * Shuts down the event loop if this scheduler started it (waiting a few seconds at most);
     * otherwise does nothing. Timers still pending are dropped.
     */
    @Override
    public void close() {
        if (ownedGroup != null) {
            ownedGroup.shutdownGracefully(0, SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .awaitUninterruptibly(2 * SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Override
    public String toString() {
        return "RealTimeScheduler[" + (preciseTimers ? "epoll " : "nio ") + loop + "]";
    }
}
