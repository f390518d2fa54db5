package io.rocelab.fabric.raw;

/**
 * The counters of a {@link RawEthernetPort}. Every frame is either passed on or counted under one
 * drop reason; {@link #RX_DROPPED_SOCKET} are frames the kernel dropped before the port saw them.
 */
public enum RawPortCounter {
    /** Frames written to the interface. */
    FRAMES_SENT,
    /** Bytes of those frames. */
    BYTES_SENT,
    /** Frames received and handed to the receiver. */
    FRAMES_RECEIVED,
    /** Bytes of those frames. */
    BYTES_RECEIVED,
    /** Received frames shorter than an Ethernet header (14 bytes). */
    RX_DROPPED_RUNT,
    /** Received frames while no receiver was set. */
    RX_DROPPED_NO_RECEIVER,
    /** Received frames dropped because the owner thread fell more than the receive backlog behind. */
    RX_DROPPED_BACKLOG,
    /** Frames the kernel dropped at the socket (its buffer was full), as the socket reports them. */
    RX_DROPPED_SOCKET,
    /** Frames to send shorter than an Ethernet header. */
    TX_DROPPED_RUNT,
    /** Frames to send longer than the maximum frame size. */
    TX_DROPPED_OVERSIZED,
    /** Frames to send after the port was closed. */
    TX_DROPPED_CLOSED,
    /** Frames the interface refused (a send that failed). */
    TX_ERRORS,
    /** Receive errors. */
    RX_ERRORS
}
