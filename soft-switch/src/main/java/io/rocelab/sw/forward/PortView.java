package io.rocelab.sw.forward;

/** What forwarding may ask about the ports: link state (ECMP members) and load (flowlets,
 * adaptive routing). */
public interface PortView {
    /** @return true if the port's link is up */
    boolean isUp(int port);

    /** @return bytes waiting in the port's egress queues */
    long queuedBytes(int port);

    /**
     * @return bytes the port (or port channel: its members together) has sent so far, for the past load of
     *         adaptive routing ({@link PortQuality}); 0 where unknown
     */
    default long transmittedBytes(int port) {
        return 0;
    }

    /** @return the port's (or port channel's, its members' summed) line rate in bits per second; 0 where unknown */
    default long speedBitsPerSecond(int port) {
        return 0;
    }

    /** @return number of ports */
    int portCount();
}
