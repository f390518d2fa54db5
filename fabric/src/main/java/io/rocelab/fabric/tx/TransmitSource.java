package io.rocelab.fabric.tx;

import io.netty.buffer.ByteBuf;

/**
 * The queues a {@link Transmitter} pulls from: a device's own choice of what goes next (a NIC's
 * control queue, then its QPs round robin; a switch port's control queue, then its ETS scheduler).
 *
 * <p>Contract: every method runs on the device's owner thread, from inside the transmitter; none
 * may call back into the transmitter ({@link Transmitter#kick()} from inside {@link #pull} would
 * recurse). A source tells its transmitter about new work with {@code kick()} from outside.
 */
public interface TransmitSource {
    /** {@link #nextReadyNanos} when only a kick can bring new work. */
    long NEVER = Long.MAX_VALUE;

    /**
     * @param nowNanos the time the decision is made
     * @return the frame to start now (ownership passes to the transmitter), or {@code null} if
     *         nothing may start now: nothing queued, or all of it paused or paced. A source that
     *         did work of its own in the pull (a NIC whose packets went straight into the port's
     *         send buffer) may also return null to let the owner thread go; its
     *         {@link #nextReadyNanos} then says {@code nowNanos}
     */
    ByteBuf pull(long nowNanos);

    /**
     * @return whether anything is queued at all, sendable now or later; a transmitter whose wire
     *         becomes free arms no wake-up for a source without work
     */
    boolean hasWork();

    /**
     * Asked after {@link #pull} returned null with work queued.
     *
     * @param nowNanos the time of that pull
     * @return when something queued becomes sendable by itself (a PFC pause running out, a QP's
     *         pacing time), or {@link #NEVER}
     */
    long nextReadyNanos(long nowNanos);
}
