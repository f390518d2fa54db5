package io.rocelab.fabric.port;

import io.netty.buffer.ByteBuf;

/**
 * Gets the frames a {@link FramePort} receives, on the port's owner thread.
 *
 * <p>A callback rather than a queue: the NIC or switch runs on the same thread as its ports, so a
 * received frame goes straight into its pipeline without a hand-off.
 */
@FunctionalInterface
public interface FrameReceiver {

    /**
     * @param port  the port that received the frame (one receiver may serve all ports of a switch)
     * @param frame the frame; ownership passes to the receiver, which must release or forward it
     */
    void onFrame(FramePort port, ByteBuf frame);
}
