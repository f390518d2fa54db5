package io.rocelab.fabric.time;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.ScheduledFuture;

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
 * Timer precision is the event loop's (microseconds at best); links that need exact serialization
 * timing belong in {@link VirtualTimeScheduler virtual time}.
 */
public final class RealTimeScheduler implements Scheduler, AutoCloseable {

    /** Shared with {@link BusyPollScheduler}: every real-time clock in a JVM reads the same time base. */
    static final long ORIGIN_NANOS = System.nanoTime();
    private static final long SHUTDOWN_TIMEOUT_SECONDS = 5;

    private final EventLoop loop;
    private final EventLoopGroup ownedGroup;


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
    }

    /**
     * Starts a scheduler on a new single-thread NIO event loop, which {@link #close()} shuts down.
     * The loop can also serve channels (see {@link #eventLoop()}).
     *
     * @param threadName name of the loop's thread, shown in thread dumps
     * @return the scheduler
     */
    public static RealTimeScheduler start(String threadName) {
        Objects.requireNonNull(threadName, "threadName");
        final EventLoopGroup group = new MultiThreadIoEventLoopGroup(
            1, new DefaultThreadFactory(threadName, true), NioIoHandler.newFactory());
        return new RealTimeScheduler(group.next(), group);
    }

    /**
     * @return the event loop; channels registered on it share the owner thread with this scheduler
     */
    public EventLoop eventLoop() {
        return loop;
    }

    /**
     * Work due within this much is done at once: the resolution of a Netty NIO loop's timers. Its
     * select waits whole milliseconds and, for a deadline less than 0.5 ms away, does not wait at
     * all but polls until it is due; so waiting for a nearer deadline only spins the thread.
     */
    public static final long TIMER_SLACK_NANOS = 500_000;

    @Override
    public long timerSlackNanos() {
        return TIMER_SLACK_NANOS;
    }

    @Override
    public long nanoTime() {
        return System.nanoTime() - ORIGIN_NANOS;
    }

    @Override
    public Cancellable schedule(long delayNanos, Runnable task) {
        checkDelay(delayNanos);
        final ScheduledFuture<?> future = loop.schedule(Objects.requireNonNull(task, "task"), delayNanos, TimeUnit.NANOSECONDS);
        return () -> future.cancel(false);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Even work due now goes through the loop's timers, not its task queue: Netty fetches due
     * timers only when it starts a round of tasks, and a round lasts while tasks keep coming, so
     * tasks that each queue the next (a link delivering to a NIC that answers over the same loop)
     * kept every timer of the loop waiting: a PFC storm's refresh ran every 1-2 ms instead of every
     * 167 us, and the NIC it stormed kept sending.
     */
    @Override
    public void scheduleUncancellable(long delayNanos, Runnable task) {
        checkDelay(delayNanos);
        loop.schedule(Objects.requireNonNull(task, "task"), delayNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void execute(Runnable task) {
        loop.execute(Objects.requireNonNull(task, "task"));
    }

    @Override
    public boolean inOwnerThread() {
        return loop.inEventLoop();
    }

    /**
     * Shuts down the event loop if this scheduler started it (waiting a few seconds at most);
     * otherwise does nothing.
     */
    @Override
    public void close() {
        if (ownedGroup != null) {
            ownedGroup.shutdownGracefully(0, SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .awaitUninterruptibly(2 * SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    private static void checkDelay(long delayNanos) {
        if (delayNanos < 0) {
            throw new IllegalArgumentException("delayNanos must be >= 0: " + delayNanos);
        }
    }

    @Override
    public String toString() {
        return "RealTimeScheduler[" + loop + "]";
    }
}
