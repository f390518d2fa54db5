package io.rocelab.sw.forward;

/** What forwarding may ask about the ports: link state (ECMP members) and load (flowlets). */
public interface PortView {
    /** @return true if the port's link is up */
    boolean isUp(int port);

    /** @return bytes waiting in the port's egress queues */
    long queuedBytes(int port);

    /** @return number of ports */
    int portCount();
}
