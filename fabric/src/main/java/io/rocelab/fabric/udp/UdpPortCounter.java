package io.rocelab.fabric.udp;

/**
 * The counters of a {@link UdpFramePort}. Every frame or datagram is either passed on or counted
 * under exactly one drop reason.
 */
public enum UdpPortCounter {
    /** Frames written to the socket. */
    FRAMES_SENT,
    /** Bytes of those frames. */
    BYTES_SENT,
    /** Datagrams handed to the receiver as frames. */
    FRAMES_RECEIVED,
    /** Bytes of those frames. */
    BYTES_RECEIVED,
    /** Received datagrams shorter than an Ethernet header (14 bytes), empty ones included. */
    RX_DROPPED_RUNT,
    /** Received datagrams longer than the maximum frame size. */
    RX_DROPPED_OVERSIZED,
    /** Received frames while no receiver was set. */
    RX_DROPPED_NO_RECEIVER,
    /** Frames to send shorter than an Ethernet header. */
    TX_DROPPED_RUNT,
    /** Frames to send longer than the maximum frame size. */
    TX_DROPPED_OVERSIZED,
    /** Frames to send while no remote address was set. */
    TX_DROPPED_NO_REMOTE,
    /** Frames to send after the port was closed. */
    TX_DROPPED_CLOSED,
    /**
     * Received frames dropped because the owner thread fell more than the receive backlog behind
     * (see {@link UdpFramePort.Builder#receiveBacklog}); counted here instead of lost in the kernel.
     */
    RX_DROPPED_BACKLOG,
    /** Frames to send dropped because the socket thread fell more than the send backlog behind. */
    TX_DROPPED_BACKLOG,
    /** Socket errors (failed writes, failed reads). */
    ERRORS
}
