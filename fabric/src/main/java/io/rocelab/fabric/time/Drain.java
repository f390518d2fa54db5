package io.rocelab.fabric.time;

/**
 * Work that other threads leave for an owner thread in a queue of their own (frames on a link, user
 * commands to a NIC), taken off that queue by the owner.
 *
 * <p>Returning the amount of work done lets a {@link BusyPollScheduler} tell a busy turn of its
 * duty cycle from an idle one, as Agrona's {@code Agent.doWork()} does.
 */
@FunctionalInterface
public interface Drain {

    /**
     * Takes everything queued so far and handles it. Owner thread only.
     *
     * @return how many items were handled; 0 if the queue was empty
     */
    int drain();
}
