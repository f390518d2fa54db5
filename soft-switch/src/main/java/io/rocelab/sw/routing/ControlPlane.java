package io.rocelab.sw.routing;

import io.netty.buffer.ByteBuf;

/**
 * What the speaker needs of its switch: the ports' carrier and a way out for its frames.
 */
public interface ControlPlane {
    /** @return whether {@code port}'s link is up (carrier) */
    boolean isUp(int port);

    /**
     * Sends a frame the control plane built out of {@code port} (the switch's CPU port to the ASIC):
     * it leaves by the port's control queue, or is released if the link is down.
     */
    void send(int port, ByteBuf frame, String comment);
}
