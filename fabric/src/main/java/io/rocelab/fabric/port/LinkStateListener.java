package io.rocelab.fabric.port;

/**
 * Told when a port's link goes down or comes back up, on the port's owner thread.
 *
 * <p>A switch uses it to withdraw a port from ECMP groups and to flush its queues; a NIC to move
 * its QPs' traffic to another path or to let retries run out.
 */
@FunctionalInterface
public interface LinkStateListener {

    /**
     * @param port the port whose link state changed
     * @param up   the new state
     */
    void onLinkStateChange(FramePort port, boolean up);
}
