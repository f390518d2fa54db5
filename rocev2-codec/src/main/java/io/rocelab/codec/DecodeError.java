package io.rocelab.codec;

/**
 * Why a frame was dropped by the codec. Each reason is counted separately (see
 * {@link DecodeCounters}), the way a NIC keeps one counter per drop cause.
 */
public enum DecodeError {
    TRUNCATED_ETHERNET("shorter than an Ethernet header"),
    TRUNCATED_VLAN("802.1Q/802.1ad tag cut short"),
    TOO_MANY_VLAN_TAGS("more than two VLAN tags"),
    TRUNCATED_ARP("ARP body cut short"),
    TRUNCATED_MAC_CONTROL("MAC control (PAUSE/PFC) body cut short"),
    TRUNCATED_IP("IP header or datagram cut short"),
    BAD_IP_HEADER("bad IP version or header length"),
    BAD_IPV4_CHECKSUM("IPv4 header checksum wrong"),
    IP_FRAGMENT("fragmented IP datagram (RoCEv2 is never fragmented)"),
    BAD_UDP_LENGTH("UDP length does not fit the IP datagram"),
    TRUNCATED_BTH("UDP payload shorter than BTH + ICRC"),
    BAD_TRANSPORT_VERSION("BTH TVer is not 0 (IBA C9-3)"),
    TRUNCATED_HEADERS("UDP payload shorter than the opcode's extension headers + ICRC"),
    BAD_PAD_COUNT("BTH PadCnt larger than the payload"),
    TRUNCATED_GRH("RoCEv1 GRH or the packet its PayLen gives cut short"),
    BAD_GRH("RoCEv1 GRH with IPVer not 6 or NxtHdr not 0x1B (IBA 8.3.1, Annex A16)"),
    BAD_ICRC("invariant CRC mismatch");

    private final String description;

    DecodeError(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
