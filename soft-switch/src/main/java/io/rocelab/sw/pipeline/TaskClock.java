package io.rocelab.sw.pipeline;

import io.rocelab.fabric.time.BusyPollScheduler;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.fabric.time.Scheduler;
import java.util.Objects;

/**
 * The switch's clock on its data path: on a real-time scheduler the time is read once per task of
 * the owner thread (the first frame of a burst a port delivers in one wake-up reads it, the rest
 * of the burst reuses it), not once per frame. {@code System.nanoTime()} costs ~30 ns of CPU on
 * this kind of machine (kvm-clock), a fifth of what the whole pipeline spends on a small frame.
 *
 * <p>The time read is forgotten by a task queued behind the current one, so the tasks queued after
 * the read never see it; a frame gets a time no later than when it is handled, and no earlier than
 * the start of the owner thread's current run of work (the I/O reads of one wake-up, or the tasks
 * that were already due). Where a stale value could hold a frame back (the transmitter looks busy
 * at it), the caller reads {@link #fresh()} instead, which also renews the remembered time. With a
 * capture tap attached the switch reads {@link #fresh()} for every frame, so captures keep their
 * per-frame timestamps.
 *
 * <p>Only a scheduler whose clock is {@code System.nanoTime()} gets this ({@link RealTimeScheduler},
 * {@link BusyPollScheduler}). A virtual-time scheduler's time does not move inside a task and costs
 * a field read, so there every call reads the scheduler: no extra task, the same events, bit for bit.
 * Owner thread only.
 */
public final class TaskClock {
    private final Scheduler scheduler;
    private final boolean remember;
    private final Runnable forget = this::forget;
    private long now;
    private boolean valid;
    private long reads;

    /** @param scheduler the switch's owner */
    public TaskClock(Scheduler scheduler) {
        this(scheduler, scheduler instanceof RealTimeScheduler || scheduler instanceof BusyPollScheduler);
    }

    /**
     * @param scheduler the switch's owner
     * @param remember  whether a time read is kept for the rest of the task (tests choose)
     */
    public TaskClock(Scheduler scheduler, boolean remember) {
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.remember = remember;
    }

    /** @return the time read earlier in this task, or the scheduler's time if none was */
    public long now() {
        return valid ? now : fresh();
    }

    /** @return the scheduler's time, read now (and remembered for the rest of the task) */
    public long fresh() {
        long t = scheduler.nanoTime();
        reads++;
        if (remember) {
            now = t;
            if (!valid) {
                valid = true;
                scheduler.execute(forget);
            }
        }
        return t;
    }

    private void forget() {
        valid = false;
    }

    /** @return whether times are remembered for the rest of a task */
    public boolean remembers() {
        return remember;
    }

    /** @return how many times the scheduler's clock was read through this clock */
    public long reads() {
        return reads;
    }
}
