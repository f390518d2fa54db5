package io.rocelab.nic;

import io.rocelab.fabric.time.Cancellable;
import io.rocelab.fabric.time.Doorbell;
import io.rocelab.fabric.time.Drain;
import io.rocelab.fabric.time.Scheduler;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A NIC's scheduler as its own agents see it (ARP and neighbour discovery retries, the connection
 * manager's timers, QP1's agent): every task it runs reports a {@link RuntimeException} to the NIC,
 * which treats it as an internal error and fails the device ({@code IBV_EVENT_DEVICE_FATAL}), as it
 * does for its commands, received frames and QP timers. Given to the scheduler as is, the error
 * would end in the event loop's log, the agent would stop half-way and the application wait for
 * good. Same owner thread, clock and order as the scheduler it wraps.
 */
final class GuardedScheduler implements Scheduler {
    private final Scheduler delegate;
    private final Consumer<RuntimeException> onError;

    /**
     * @param delegate the NIC's scheduler
     * @param onError  told of each error a task throws, on the owner thread
     */
    GuardedScheduler(Scheduler delegate, Consumer<RuntimeException> onError) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.onError = Objects.requireNonNull(onError, "onError");
    }

    /** {@code task}, reporting what it throws instead of passing it to the scheduler. */
    Runnable guard(Runnable task) {
        Objects.requireNonNull(task, "task");
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                onError.accept(e);
            }
        };
    }

    @Override
    public long nanoTime() {
        return delegate.nanoTime();
    }

    @Override
    public Cancellable schedule(long delayNanos, Runnable task) {
        return delegate.schedule(delayNanos, guard(task));
    }

    @Override
    public void scheduleUncancellable(long delayNanos, Runnable task) {
        delegate.scheduleUncancellable(delayNanos, guard(task));
    }

    @Override
    public Cancellable scheduleAt(long deadlineNanos, Runnable task) {
        return delegate.scheduleAt(deadlineNanos, guard(task));
    }

    @Override
    public void execute(Runnable task) {
        delegate.execute(guard(task));
    }

    @Override
    public long timerSlackNanos() {
        return delegate.timerSlackNanos();
    }

    @Override
    public boolean inOwnerThread() {
        return delegate.inOwnerThread();
    }

    @Override
    public Doorbell doorbell(Drain drain) {
        Objects.requireNonNull(drain, "drain");
        return delegate.doorbell(() -> {
            try {
                return drain.drain();
            } catch (RuntimeException e) {
                onError.accept(e);
                return 0;
            }
        });
    }
}
