package io.rocelab.sw;

import io.rocelab.fabric.time.Cancellable;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.fabric.time.VirtualTimeScheduler;

/**
 * Virtual time whose timers fire a fixed time late, as a loaded machine's event loop fires them:
 * a deterministic stand-in for the late wake-ups the shaper's catch-up exists for. Tasks handed to
 * {@link #execute} run at once, as they would.
 */
final class LateTimerScheduler implements Scheduler {
    private final VirtualTimeScheduler time;
    private final long lateNanos;

    LateTimerScheduler(VirtualTimeScheduler time, long lateNanos) {
        this.time = time;
        this.lateNanos = lateNanos;
    }

    @Override
    public long nanoTime() {
        return time.nanoTime();
    }

    @Override
    public Cancellable schedule(long delayNanos, Runnable task) {
        return time.schedule(delayNanos + lateNanos, task);
    }

    @Override
    public void scheduleUncancellable(long delayNanos, Runnable task) {
        time.scheduleUncancellable(delayNanos + lateNanos, task);
    }

    @Override
    public Cancellable scheduleAt(long deadlineNanos, Runnable task) {
        return time.scheduleAt(deadlineNanos + lateNanos, task);
    }

    @Override
    public void execute(Runnable task) {
        time.execute(task);
    }

    @Override
    public boolean inOwnerThread() {
        return time.inOwnerThread();
    }
}
