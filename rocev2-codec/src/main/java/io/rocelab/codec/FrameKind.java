package io.rocelab.codec;

/** What a parsed Ethernet frame carries. */
public enum FrameKind {
    /** RoCEv2: IPv4 or IPv6, UDP destination port 4791. */
    ROCEV2,
    /**
     * RoCEv1 (IBA Annex A16): EtherType 0x8915, a GRH (IBA 8.3, next header 0x1B) and the IB
     * transport; no IP, no UDP, so it stays in one L2 domain.
     */
    ROCEV1,
    ARP,
    /** IEEE 802.1Qbb priority flow control. */
    PFC,
    /** IEEE 802.3 Annex 31B link-level PAUSE. */
    PAUSE,
    /** Any other IPv4 datagram (TCP, other UDP, ICMP...). */
    IPV4,
    /** Any other IPv6 datagram (TCP, ICMPv6 neighbour discovery, ...). */
    IPV6,
    OTHER
}
