package io.rocelab.codec.capture;

/**
 * The few link-layer header types (tcpdump.org "LINKTYPE_" values, draft-ietf-opsawg-pcaplinktype)
 * that rocelab captures use. A link type tells Wireshark how to decode the first byte of each
 * frame; it is stored once per interface (pcap file header, pcapng Interface Description Block).
 *
 * <p>Any other 16-bit value may be passed where a link type is expected; these are just names.
 */
public final class LinkType {

    /** No link layer; a 4-byte host-order protocol family precedes the packet (BSD loopback). */
    public static final int NULL = 0;
    /** IEEE 802.3 Ethernet, starting with the destination MAC: what every rocelab port carries. */
    public static final int ETHERNET = 1;
    /** Raw IP: the packet starts with an IPv4 or IPv6 header, told apart by its version nibble. */
    public static final int RAW = 101;
    /** Linux "cooked" capture v1 (tcpdump -i any). */
    public static final int LINUX_SLL = 113;
    /** Raw IPv4, no link layer. */
    public static final int IPV4 = 228;
    /** Raw IPv6, no link layer. */
    public static final int IPV6 = 229;
    /** Linux "cooked" capture v2. */
    public static final int LINUX_SLL2 = 276;

    private LinkType() {
    }

    /**
     * A short name for a link type, for messages and reports.
     *
     * @param linkType a LINKTYPE_ value
     * @return "ETHERNET", "RAW", ... or "LINKTYPE_&lt;n&gt;" for a value not named here
     */
    public static String name(int linkType) {
        return switch (linkType) {
            case NULL -> "NULL";
            case ETHERNET -> "ETHERNET";
            case RAW -> "RAW";
            case LINUX_SLL -> "LINUX_SLL";
            case IPV4 -> "IPV4";
            case IPV6 -> "IPV6";
            case LINUX_SLL2 -> "LINUX_SLL2";
            default -> "LINKTYPE_" + linkType;
        };
    }
}
