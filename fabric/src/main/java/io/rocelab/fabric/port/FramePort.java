package io.rocelab.fabric.port;

import io.netty.buffer.ByteBuf;

/**
 * One end of a point-to-point Ethernet attachment: sends frames, delivers received frames, and has
 * a link state.
 *
 * <p>Frames are whole Ethernet frames starting with the destination MAC, without preamble, SFD or
 * FCS (the link adds those to its timing model; a receiver that needs integrity checks the ICRC or
 * the IP/UDP checksums, as a real NIC after FCS stripping would).
 *
 * <p>Ownership: {@link #send} takes ownership of the frame (the port forwards or releases it, even if
 * the link is down); {@link FrameReceiver#onFrame} gives ownership to the receiver. A port never
 * calls its receiver from inside {@code send}, so a NIC can answer a frame with a frame.
 *
 * <p>Flow control, as Netty's {@code Channel.isWritable()}: a device sends while the port
 * {@linkplain #isWritable() is writable} and, once it is not, stops pulling frames from its queues
 * until the port's {@linkplain #setWritabilityListener writability listener} says it can take more.
 * A port never refuses a frame for being full (send still takes it), but a device that ignores
 * writability queues in the port without bound. The sending device paces itself at the port's
 * {@linkplain #speedBitsPerSecond() speed} (its {@code Transmitter}); the port
 * and the link below it only carry frames.
 *
 * <p>Threading: each port has an owner thread (the scheduler or event loop of the NIC or switch
 * attached to it). The receiver, the link-state listeners and the writability listener are called
 * on that thread. {@code send} may be called from any thread; callers normally call it from their
 * own owner thread.
 */
public interface FramePort {

    /**
     * @return a name for logs, counters and captures, e.g. {@code "s1:p3"}
     */
    String name();

    /**
     * Transmits a frame. Never throws for a frame that cannot be sent (link down, too big): the frame
     * is released and a counter says why.
     *
     * @param frame the frame, readable bytes only; ownership passes to the port
     */
    void send(ByteBuf frame);

    /**
     * Transmits a frame, as {@link #send(ByteBuf)}, from a sending device that read its scheduler's
     * clock for this frame already: a transmitter's pump reads it once and starts its frames at that
     * time or after. A port whose wire model needs the time (an in-process link: the frame's arrival)
     * may take it from here instead of reading the clock once more per frame, where its clock is the
     * sender's; any other port, and any port that wraps another, sends as {@link #send(ByteBuf)}.
     *
     * @param frame    the frame, readable bytes only; ownership passes to the port
     * @param nowNanos the sender's scheduler's time when it started the frame
     */
    default void send(ByteBuf frame, long nowNanos) {
        send(frame);
    }

    /**
     * Sets who gets received frames. Without a receiver, received frames are counted and released.
     *
     * @param receiver the receiver, or {@code null} to drop received frames
     */
    void setReceiver(FrameReceiver receiver);

    /**
     * @return {@code true} if the link is up as seen from this port
     */
    boolean isUp();

    /**
     * @param listener told about every change of {@link #isUp()}, on the port's owner thread
     */
    void addLinkStateListener(LinkStateListener listener);

    /**
     * @param listener a listener added before
     * @return {@code true} if it was registered
     */
    boolean removeLinkStateListener(LinkStateListener listener);

    /**
     * @return whether the port takes more frames now without queueing them beyond its bound; a port
     *         that never fills is always writable
     */
    default boolean isWritable() {
        return true;
    }

    /**
     * @param listener run on the owner thread each time the port becomes writable again after
     *                 {@link #isWritable()} was false; {@code null} for none. One per port: the
     *                 sending device's.
     */
    default void setWritabilityListener(Runnable listener) {
        // a port that is always writable never calls it
    }

    /**
     * @return the speed of the wire behind the port in bit/s, which the sending device's transmitter
     *         paces at (as a NIC learns its link speed from the PHY); 0 if unknown or unlimited
     */
    default long speedBitsPerSecond() {
        return 0;
    }
}
