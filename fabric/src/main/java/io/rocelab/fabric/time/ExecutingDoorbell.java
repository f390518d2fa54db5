package io.rocelab.fabric.time;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The doorbell of a scheduler that sleeps when idle: a ring {@linkplain Scheduler#execute executes}
 * one drain task, unless one is already pending.
 *
 * <p>The pending flag is cleared before the drain takes from its queue, so an item queued after the
 * drain looked is always followed by a ring that sees the flag clear and executes a new drain (the
 * flag and the queue are both accessed with volatile semantics, so the producer's enqueue and the
 * drain's clear cannot both miss each other). Allocation-free after construction.
 */
final class ExecutingDoorbell implements Doorbell, Runnable {

    private final Scheduler owner;
    private final Drain drain;
    private final AtomicBoolean pending = new AtomicBoolean();

    ExecutingDoorbell(Scheduler owner, Drain drain) {
        this.owner = owner;
        this.drain = drain;
    }

    @Override
    public void ring() {
        if (pending.compareAndSet(false, true)) {
            try {
                owner.execute(this);
            } catch (RejectedExecutionException e) {
                // the owner has shut down; every later ring must find out too, not assume a drain is due
                pending.set(false);
                throw e;
            }
        }
    }

    @Override
    public void run() {
        pending.set(false);
        drain.drain();
    }
}
