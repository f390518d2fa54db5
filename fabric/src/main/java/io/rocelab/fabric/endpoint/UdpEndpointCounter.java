package io.rocelab.fabric.endpoint;

/**
 * The counters of a {@link UdpEndpointPort}. Every frame the NIC hands over and every datagram the
 * socket reads is either passed on or counted under exactly one drop reason (docs/design.md §3: a bad
 * packet is counted and dropped).
 */
public enum UdpEndpointCounter {
    /** RoCEv2 packets written to a socket (one per segment of a GSO send). */
    PACKETS_SENT,
    /** UDP payload bytes of those packets (BTH to ICRC). */
    BYTES_SENT,
    /** Writes that carried several packets as one GSO buffer. */
    GSO_SENDS,
    /**
     * Packets the NIC wrote in place in a send buffer ({@link UdpPayloadSink}) rather than handing
     * over a frame: part of {@link #PACKETS_SENT} once written to the socket.
     */
    PACKETS_WRITTEN_IN_PLACE,
    /** Datagrams turned into frames and handed to the NIC. */
    PACKETS_RECEIVED,
    /** UDP payload bytes of those datagrams. */
    BYTES_RECEIVED,
    /**
     * Datagrams turned into frames in their read buffer, headers written over the consumed tail of
     * the datagram before, payload not copied ({@code InPlaceFrames}): part of {@link #PACKETS_RECEIVED}.
     */
    PACKETS_RECEIVED_IN_PLACE,
    /** ARP requests of the NIC answered by the port (the peer's IP is mapped directly). */
    ARP_ANSWERED,
    /** Frames to send that are not Ethernet/IPv4 (IPv6, VLAN-tagged, other EtherTypes). */
    TX_DROPPED_NOT_IPV4,
    /** IPv4 frames to send that are not UDP to port 4791 with a plain 20-byte header. */
    TX_DROPPED_NOT_ROCE,
    /** Frames whose lengths disagree with their headers, or shorter than the headers. */
    TX_DROPPED_MALFORMED,
    /** Frames whose UDP payload is longer than the largest the port sends. */
    TX_DROPPED_OVERSIZED,
    /** Frames from another source IP than the port's: the peer would see the port's address. */
    TX_DROPPED_WRONG_SOURCE,
    /**
     * Frames whose IPv4 identification or flags are not the fixed ones the receiver rebuilds
     * (identification 0, DF): their ICRC could not be checked there.
     */
    TX_DROPPED_IP_ID,
    /** Frames whose QP source port could not be bound on the local address (in use elsewhere). */
    TX_DROPPED_SOURCE_PORT_BUSY,
    /** Frames sent after the port was closed. */
    TX_DROPPED_CLOSED,
    /** Writes the socket refused (counted per write, which may hold several packets). */
    TX_ERRORS,
    /** Received datagrams too short for a BTH and an ICRC (16 bytes). */
    RX_DROPPED_RUNT,
    /** Received datagrams longer than the largest accepted payload. */
    RX_DROPPED_OVERSIZED,
    /** Received datagrams from a non-IPv4 sender. */
    RX_DROPPED_NOT_IPV4,
    /** Received datagrams while no receiver was set. */
    RX_DROPPED_NO_RECEIVER,
    /** Socket read errors. */
    RX_ERRORS
}
