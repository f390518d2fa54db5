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
 * <p>Threading: each port has an owner thread (the scheduler or event loop of the NIC or switch
 * attached to it). The receiver and the link-state listeners are called on that thread.
 * {@code send} may be called from any thread; callers normally call it from their own owner thread.
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
}
