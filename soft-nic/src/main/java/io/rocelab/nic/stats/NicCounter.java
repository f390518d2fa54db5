package io.rocelab.nic.stats;

/**
 * NIC counters. The first group carries Linux rxe's hw counter names ({@code rxe_hw_counters.c}),
 * so that a user who knows {@code rdma statistic show} reads ours the same way; {@link #rxeName()}
 * gives that name. The second group are drops rxe does not count separately (it only logs them);
 * a bad packet is always counted here, never thrown (docs/design.md §3).
 */
public enum NicCounter {
    SENT_PKTS("sent_pkts"),
    RCVD_PKTS("rcvd_pkts"),
    DUPLICATE_REQUEST("duplicate_request"),
    OUT_OF_SEQ_REQUEST("out_of_seq_request"),
    RCVD_RNR_ERR("rcvd_rnr_err"),
    SEND_RNR_ERR("send_rnr_err"),
    RCVD_SEQ_ERR("rcvd_seq_err"),
    ACK_DEFERRED("ack_deferred"),
    RETRY_EXCEEDED_ERR("retry_exceeded_err"),
    RETRY_RNR_EXCEEDED_ERR("retry_rnr_exceeded_err"),
    COMPLETER_RETRY_ERR("completer_retry_err"),
    SEND_ERR("send_err"),
    LINK_DOWNED("link_downed"),
    RDMA_SENDS("rdma_sends"),
    RDMA_RECVS("rdma_recvs"),

    /** Frames the codec refused (truncated, bad lengths). */
    DROP_MALFORMED("drop_malformed"),
    /** RoCEv2 frames whose ICRC did not match. */
    DROP_BAD_ICRC("drop_bad_icrc"),
    /** Frames for another IP address or MAC. */
    DROP_NOT_FOR_US("drop_not_for_us"),
    /** Destination QP unknown or not able to receive (RESET/INIT). */
    DROP_UNKNOWN_QP("drop_unknown_qp"),
    /** BTH P_Key does not match the QP's partition (IBA 9.6.1.1, C9-42). */
    DROP_BAD_PKEY("drop_bad_pkey"),
    /** DETH Q_Key does not match the UD QP's Q_Key (IBA 9.6.1.1, C9-43). */
    DROP_BAD_QKEY("drop_bad_qkey"),
    /** Opcode not valid for the QP's transport, or a response nobody waits for. */
    DROP_BAD_OPCODE("drop_bad_opcode"),
    /**
     * Well-formed packets for a QP whose state discards them (IBA 10.3.1.7): anything for a QP in
     * ERR, such as the ACKs and READ responses still on the wire when it got there, and responses
     * for a QP that has not sent (RTR).
     */
    DROP_QP_STATE("drop_qp_state"),
    /** UC packets dropped after a sequence error until the next FIRST/ONLY (IBA 9.7.8). */
    DROP_UC_SEQUENCE("drop_uc_sequence"),
    /**
     * RC/UC packets that did not come along the QP's path: another source IP than the connected
     * peer's, or another destination than the QP's own source address (rxe's {@code check_addr}).
     */
    DROP_NOT_FROM_PEER("drop_not_from_peer"),
    /**
     * ACKs, NAKs, READ responses and ATOMIC ACKs for a PSN the requester never sent: they acknowledge
     * nothing (IBA 9.7.5.1), and complete or skip no work request.
     */
    DROP_UNSENT_PSN("drop_unsent_psn"),
    /** ARP requests answered for our address. */
    ARP_REPLIES_SENT("arp_replies_sent"),
    /** ARP requests sent to resolve a peer. */
    ARP_REQUESTS_SENT("arp_requests_sent"),
    /** Frames dropped while waiting for ARP, because the wait list was full. */
    DROP_ARP_PENDING("drop_arp_pending"),
    /** IPv6 neighbour solicitations sent to resolve a peer (RFC 4861). */
    ND_SOLICITS_SENT("nd_solicits_sent"),
    /** Neighbour advertisements sent in answer to a solicitation for one of our addresses. */
    ND_ADVERTS_SENT("nd_adverts_sent"),
    /** Frames dropped while waiting for neighbour discovery (no answer, or the wait list full). */
    DROP_ND_PENDING("drop_nd_pending"),
    /**
     * Neighbours that asked for us (an ARP request, a neighbour solicitation) and were answered but
     * not learned: the entries learned unasked were at their limit ({@code Neighbors.MAX_LEARNED} in the net package).
     */
    NEIGH_LEARN_REFUSED("neigh_learn_refused"),
    /** Frames with a VLAN tag the port is not on (or untagged frames on a VLAN port). */
    DROP_VLAN("drop_vlan"),
    /** Completions lost because a CQ was full; the CQ and its QPs went to the error state. */
    CQ_OVERFLOW("cq_overflow"),
    /** Internal errors on the NIC's thread; the first put the device in the fatal state. */
    INTERNAL_ERRORS("internal_errors"),

    // ---- PFC (IEEE 802.1Qbb), mlx5's ethtool names: pause frames received per priority, the time
    // paused (microseconds), paused-to-resumed transitions, pause frames sent ----
    RX_PRIO0_PAUSE("rx_prio0_pause"),
    RX_PRIO1_PAUSE("rx_prio1_pause"),
    RX_PRIO2_PAUSE("rx_prio2_pause"),
    RX_PRIO3_PAUSE("rx_prio3_pause"),
    RX_PRIO4_PAUSE("rx_prio4_pause"),
    RX_PRIO5_PAUSE("rx_prio5_pause"),
    RX_PRIO6_PAUSE("rx_prio6_pause"),
    RX_PRIO7_PAUSE("rx_prio7_pause"),
    RX_PRIO0_PAUSE_DURATION("rx_prio0_pause_duration"),
    RX_PRIO1_PAUSE_DURATION("rx_prio1_pause_duration"),
    RX_PRIO2_PAUSE_DURATION("rx_prio2_pause_duration"),
    RX_PRIO3_PAUSE_DURATION("rx_prio3_pause_duration"),
    RX_PRIO4_PAUSE_DURATION("rx_prio4_pause_duration"),
    RX_PRIO5_PAUSE_DURATION("rx_prio5_pause_duration"),
    RX_PRIO6_PAUSE_DURATION("rx_prio6_pause_duration"),
    RX_PRIO7_PAUSE_DURATION("rx_prio7_pause_duration"),
    RX_PRIO0_PAUSE_TRANSITION("rx_prio0_pause_transition"),
    RX_PRIO1_PAUSE_TRANSITION("rx_prio1_pause_transition"),
    RX_PRIO2_PAUSE_TRANSITION("rx_prio2_pause_transition"),
    RX_PRIO3_PAUSE_TRANSITION("rx_prio3_pause_transition"),
    RX_PRIO4_PAUSE_TRANSITION("rx_prio4_pause_transition"),
    RX_PRIO5_PAUSE_TRANSITION("rx_prio5_pause_transition"),
    RX_PRIO6_PAUSE_TRANSITION("rx_prio6_pause_transition"),
    RX_PRIO7_PAUSE_TRANSITION("rx_prio7_pause_transition"),
    TX_PRIO0_PAUSE("tx_prio0_pause"),
    TX_PRIO1_PAUSE("tx_prio1_pause"),
    TX_PRIO2_PAUSE("tx_prio2_pause"),
    TX_PRIO3_PAUSE("tx_prio3_pause"),
    TX_PRIO4_PAUSE("tx_prio4_pause"),
    TX_PRIO5_PAUSE("tx_prio5_pause"),
    TX_PRIO6_PAUSE("tx_prio6_pause"),
    TX_PRIO7_PAUSE("tx_prio7_pause"),

    // ---- 802.3x PAUSE (IEEE 802.3 Annex 31B), mlx5's ethtool names (en_stats.c) ----
    /** PAUSE frames received ({@code a_pause_mac_ctrl_frames_received}), XOFF and resume alike. */
    RX_PAUSE_CTRL_PHY("rx_pause_ctrl_phy"),
    /** PAUSE frames sent ({@code a_pause_mac_ctrl_frames_transmitted}), XOFF and resume alike. */
    TX_PAUSE_CTRL_PHY("tx_pause_ctrl_phy"),
    /** Microseconds the port was held by received PAUSE frames (mlx5's global pause group). */
    RX_GLOBAL_PAUSE_DURATION("rx_global_pause_duration"),
    /** Times a received PAUSE of time 0 ended a pause in effect (paused to resumed). */
    RX_GLOBAL_PAUSE_TRANSITION("rx_global_pause_transition"),

    // ---- DCQCN, mlx5's congestion counters ----
    /** RoCE packets received with ECN CE marked (notification point). */
    NP_ECN_MARKED_ROCE_PACKETS("np_ecn_marked_roce_packets"),
    /** CNPs sent by the notification point. */
    NP_CNP_SENT("np_cnp_sent"),
    /** CNPs the reaction point acted on. */
    RP_CNP_HANDLED("rp_cnp_handled"),
    /** CNPs received and ignored (no congestion control on the QP, or a QP type without it). */
    RP_CNP_IGNORED("rp_cnp_ignored"),

    // ---- DCB (IEEE 802.1Qbb, 802.1Qaz): rocelab's own names ----
    /**
     * Priorities named by received PFC frames that the port did not act on because PFC is off for
     * them ({@code mlnx_qos --pfc}, or what DCBX adopted). mlx5 has no such counter: it counts them
     * in {@code rx_prio<N>_pause} (as rocelab does too) and its pause duration stays 0.
     */
    RX_PFC_IGNORED("rx_pfc_ignored"),
    /** Times DCBX made the port take its not-willing link partner's PFC, ETS or application priorities. */
    DCBX_ADOPTIONS("dcbx_adoptions"),

    // ---- Out-of-order receive (docs/design.md "Out-of-order receive"): mlx5's RDMA hw counter names
    // (mlx5_ib counters.c; NVIDIA's "Understanding mlx5 Linux Counters"), then rocelab's own ----
    /**
     * mlx5's {@code out_of_sequence}: request packets received ahead of the expected PSN, whether the
     * QP NAKed them (in order, rxe's behaviour) or took them into its reorder window (out-of-order
     * data placement). The same packets as rxe's {@link #OUT_OF_SEQ_REQUEST}.
     */
    OUT_OF_SEQUENCE("out_of_sequence"),
    /**
     * mlx5's {@code packet_seq_err}: NAKs with the PSN sequence error code the requester received
     * (IBA 9.7.5.2.3); the same packets as rxe's {@link #RCVD_SEQ_ERR}.
     */
    PACKET_SEQ_ERR("packet_seq_err"),
    /**
     * rocelab's own: request packets a QP with out-of-order data placement took ahead of the expected
     * PSN, within its reorder window, instead of NAKing them (each placed by its offset in its
     * message and counted once; a duplicate of one is {@link #DUPLICATE_REQUEST}), and responses its
     * requester took ahead of the READ/ATOMIC response it waited for, instead of asking again.
     */
    OOO_PLACED_PACKETS("ooo_placed_packets");

    private final String rxeName;

    NicCounter(String rxeName) {
        this.rxeName = rxeName;
    }

    /** The counter's name as {@code rdma statistic} prints it (rxe's name where rxe has one). */
    public String rxeName() {
        return rxeName;
    }
}
