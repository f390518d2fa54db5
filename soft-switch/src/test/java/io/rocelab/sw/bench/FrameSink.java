package io.rocelab.sw.bench;

import io.netty.buffer.ByteBuf;

/**
 * What a forwarding benchmark drives: four ports' worth of ingress, and a count of the frames that
 * came out. The switch and the floor implement it the same way, so the driver around them (frame
 * creation, batching, the event loop) costs both the same.
 */
interface FrameSink {
    /** Hands a freshly received frame to ingress port {@code port}; ownership passes. */
    void receive(int port, ByteBuf frame);

    /** @return frames that left through an egress port so far */
    long transmitted();

    /** @return frames dropped so far (for the switch: drops by any reason) */
    long dropped();
}
