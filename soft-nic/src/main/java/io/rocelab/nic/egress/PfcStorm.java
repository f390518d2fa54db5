package io.rocelab.nic.egress;

import io.rocelab.fabric.time.Cancellable;
import io.rocelab.fabric.time.Scheduler;

/**
 * A NIC that keeps pausing its link partner (the "rogue host" of a PFC storm: a stuck receive
 * pipeline that asserts PFC without end): an XOFF with the longest pause time for one priority,
 * repeated before it runs out, until stopped. Owner thread.
 */
public final class PfcStorm {
    private final Scheduler scheduler;
    private final Runnable sendPause;
    private final long periodNanos;
    private Cancellable next;
    private boolean running = true;

    public PfcStorm(Scheduler scheduler, Runnable sendPause, long periodNanos) {
        this.scheduler = scheduler;
        this.sendPause = sendPause;
        this.periodNanos = periodNanos;
        tick();
    }

    private void tick() {
        if (!running) {
            return;
        }
        sendPause.run();
        next = scheduler.schedule(periodNanos, this::tick);
    }

    public void stop() {
        running = false;
        if (next != null) {
            next.cancel();
        }
    }
}
