package io.rocelab.sw.pipeline;

/** Why the switch dropped a frame; the text is the capture comment and the counter's name. */
public enum DropReason {
    /** A runt: shorter than 64 bytes with FCS, 60 without (IEEE 802.3 4.4.2; SONiC counts it in RX_ERR). */
    UNDERSIZE("dropped: undersize frame"),
    /** Longer than the ingress port's MTU plus the Ethernet header and a VLAN tag (SONiC's RX_OVR). */
    OVERSIZE("dropped: oversize frame"),
    MALFORMED("dropped: malformed frame"),
    NO_ROUTE("dropped: no route"),
    TTL_EXPIRED("dropped: TTL expired"),
    BUFFER_FULL("dropped: buffer full"),
    HEADROOM_EXHAUSTED("dropped: headroom exhausted"),
    WRED("dropped: WRED"),
    PFC_WATCHDOG("dropped: PFC watchdog"),
    LINK_DOWN("dropped: egress link down"),
    /** A frame of a VLAN its ingress or egress port is not a member of (IEEE 802.1Q 8.6.2, 8.6.4). */
    VLAN_NOT_MEMBER("dropped: not a member of the VLAN"),
    /** Received on a port channel member that is not collecting (IEEE 802.1AX 6.2.3: its frames are discarded). */
    LAG_NOT_COLLECTING("dropped: port channel member not collecting"),
    /** Came over the MLAG peer link for a shared port channel the peer reaches the host by itself. */
    MLAG_ISOLATED("dropped: MLAG peer link isolation"),
    /** An ACL rule's {@code PACKET_ACTION DROP} (SONiC {@code ACL_RULE}). */
    ACL("dropped: ACL"),
    /** A VXLAN packet to this VTEP whose VNI no {@code VXLAN_TUNNEL_MAP} maps to a VLAN. */
    VXLAN_UNKNOWN_VNI("dropped: VXLAN VNI not mapped"),
    /** Decapsulation: an outer CE on a Not-ECT inner packet (RFC 6040 section 4.2, the tunnel's ecn_mode standard). */
    VXLAN_ECN("dropped: VXLAN outer CE on a Not-ECT inner packet"),
    /**
     * Addressed to the router MAC but not IP, so not routable: SAI's {@code SAI_IN_DROP_REASON_NO_L3_HEADER}
     * ("destination MAC is the router MAC, however packet is not routable (isn't IP or MPLS)"), SONiC's
     * drop counter reason {@code NO_L3_HEADER}. A RoCEv1 frame (EtherType 0x8915) sent to its gateway
     * ends here: RoCEv1 stays in one L2 domain.
     */
    NO_L3_HEADER("dropped: no L3 header (not IP, to the router MAC)");

    private final String comment;

    DropReason(String comment) {
        this.comment = comment;
    }

    /** @return e.g. {@code "dropped: WRED"} */
    public String comment() {
        return comment;
    }
}
