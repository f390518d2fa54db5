package io.rocelab.sw.sflow;

import io.rocelab.sw.config.SflowConfig;

/**
 * Where an agent's datagrams go: one call per datagram and collector, on the switch's owner
 * thread. An implementation does no blocking I/O there: it hands the bytes to another thread (a
 * socket's event loop) or appends them to a capture, as the switch's capture taps do.
 */
public interface SflowSink {
    /**
     * @param collector   {@code SFLOW_COLLECTOR} entry the datagram is for
     * @param datagram    the UDP payload (the sink may keep it: the agent does not reuse it)
     * @param nowNanos    the scheduler's time
     */
    void send(SflowConfig.Collector collector, byte[] datagram, long nowNanos);
}
