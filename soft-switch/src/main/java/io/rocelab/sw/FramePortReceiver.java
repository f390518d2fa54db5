package io.rocelab.sw;

import io.netty.buffer.ByteBuf;

/** The switch's entry point for a frame received on one of its ports (by index). */
public interface FramePortReceiver {
    /**
     * @param port  the receiving port's index
     * @param frame the frame; ownership passes to the switch
     */
    void receive(int port, ByteBuf frame);
}
