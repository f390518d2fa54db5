package io.rocelab.lab.run;

import io.rocelab.lab.expect.Kind;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The attributes a lab's checks and report see, per kind: a number known at the end, a counter (its
 * total at the end; its running total over time when its probe samples it) or a gauge (only over
 * time, from its probe). Units: bytes, bits per second, seconds, counts.
 */
public final class Schema {
    /** What an attribute is. */
    public enum Type { NUMBER, COUNTER, GAUGE }

    /**
     * @param type  number, counter or gauge
     * @param probe the probe that samples it over time ({@code probes.sample}), or null
     * @param about one line for people
     */
    public record Attribute(Type type, String probe, String about) {
    }

    private static final Map<Kind, Map<String, Attribute>> ALL = new EnumMap<>(Kind.class);

    static {
        Map<String, Attribute> flow = add(Kind.FLOW);
        flow.put("bytes", new Attribute(Type.COUNTER, "flow-rate", "bytes completed at the source"));
        flow.put("rate", new Attribute(Type.GAUGE, "flow-rate", "completed bits per second over each interval"));
        flow.put("goodput", new Attribute(Type.NUMBER, null, "bits per second from its start to its last completion"));
        flow.put("fct", new Attribute(Type.NUMBER, null, "flow completion time, seconds (infinite if unfinished)"));
        flow.put("messages", new Attribute(Type.NUMBER, null, "messages completed"));
        flow.put("errors", new Attribute(Type.NUMBER, null, "completions in error"));
        flow.put("latency_p50", new Attribute(Type.NUMBER, null, "median message latency, seconds"));
        flow.put("latency_p99", new Attribute(Type.NUMBER, null, "99th percentile message latency, seconds"));
        flow.put("gap", new Attribute(Type.NUMBER, null,
            "the longest time without a successful completion while it ran (a failure's traffic gap), seconds"));
        flow.put("reconnects", new Attribute(Type.NUMBER, null,
            "times it connected new QPs through rdma_cm after an error (flows with reconnect)"));
        flow.put("retry_exceeded", new Attribute(Type.NUMBER, null,
            "its completions with IBV_WC_RETRY_EXC_ERR (a QP's retries ran out; the rest of its queue flushes)"));
        flow.put("migrations", new Attribute(Type.NUMBER, null,
            "IBV_EVENT_PATH_MIG events on its source's QPs: QPs that moved to their alternate path (alt-path)"));
        flow.put("verified", new Attribute(Type.NUMBER, null,
            "bytes found in the other side's memory as they were sent (verify: true; else 0)"));
        flow.put("corrupt", new Attribute(Type.NUMBER, null,
            "bytes of successful work requests that differed from what was sent (verify: true)"));
        Map<String, Attribute> port = add(Kind.PORT);
        port.put("pfc_tx", new Attribute(Type.COUNTER, "pfc-frames", "PFC frames sent, XOFF and XON"));
        port.put("pfc_rx", new Attribute(Type.COUNTER, "pfc-frames", "PFC frames received, XOFF and XON"));
        port.put("pause_tx", new Attribute(Type.COUNTER, "pfc-frames",
            "802.3x PAUSE frames sent, pause and resume (SAI_PORT_STAT_PAUSE_TX_PKTS)"));
        port.put("pause_rx", new Attribute(Type.COUNTER, "pfc-frames",
            "802.3x PAUSE frames received, pause and resume (SAI_PORT_STAT_PAUSE_RX_PKTS)"));
        port.put("ecn_marks", new Attribute(Type.COUNTER, "ecn-marks", "packets CE-marked on its queues"));
        port.put("drops", new Attribute(Type.COUNTER, "drops", "packets dropped, all reasons"));
        port.put("no_l3_header", new Attribute(Type.NUMBER, null, "frames it took in for the router MAC that are not"
            + " IP, dropped (SAI_IN_DROP_REASON_NO_L3_HEADER): RoCEv1 sent to its gateway"));
        port.put("paused", new Attribute(Type.GAUGE, "pause", "1 while its peer pauses any priority, else 0"));
        port.put("tx_bytes", new Attribute(Type.NUMBER, null, "bytes sent"));
        port.put("watchdog_storms", new Attribute(Type.NUMBER, null, "PFC storms the watchdog detected"));
        port.put("watchdog_restores", new Attribute(Type.NUMBER, null, "PFC storms the watchdog restored"));
        port.put("path_changes", new Attribute(Type.NUMBER, null, "flowlets (flowlet modes) or packets (per-packet) "
            + "its switch moved onto it off the member their flow had (SAI_NEXT_HOP_GROUP_ATTR_ARS_NEXT_HOP_REASSIGNMENTS)"));
        Map<String, Attribute> queue = add(Kind.QUEUE);
        queue.put("depth", new Attribute(Type.GAUGE, "queue-depth", "bytes queued"));
        queue.put("watermark", new Attribute(Type.NUMBER, null, "most bytes ever queued"));
        queue.put("drops", new Attribute(Type.COUNTER, "drops", "packets dropped"));
        queue.put("ecn_marks", new Attribute(Type.COUNTER, "ecn-marks", "packets CE-marked"));
        queue.put("tx_bytes", new Attribute(Type.NUMBER, null, "bytes sent"));
        Map<String, Attribute> nic = add(Kind.NIC);
        nic.put("cnps_sent", new Attribute(Type.COUNTER, "cnps", "CNPs sent (np_cnp_sent)"));
        nic.put("cnps_handled", new Attribute(Type.COUNTER, "cnps", "CNPs that cut a rate (rp_cnp_handled)"));
        nic.put("ecn_marked", new Attribute(Type.COUNTER, "ecn-marks", "CE-marked RoCE packets received"));
        nic.put("pfc_tx", new Attribute(Type.COUNTER, "pfc-frames", "PFC frames sent, XOFF and XON"));
        nic.put("pfc_rx", new Attribute(Type.COUNTER, "pfc-frames", "PFC frames received, XOFF and XON"));
        nic.put("pause_tx", new Attribute(Type.COUNTER, "pfc-frames", "802.3x PAUSE frames sent (tx_pause_ctrl_phy)"));
        nic.put("pause_rx", new Attribute(Type.COUNTER, "pfc-frames",
            "802.3x PAUSE frames received (rx_pause_ctrl_phy)"));
        nic.put("paused", new Attribute(Type.GAUGE, "pause", "1 while the switch pauses any priority, else 0"));
        nic.put("retransmissions", new Attribute(Type.NUMBER, null,
            "retries: timeouts and sequence NAKs (completer_retry_err + rcvd_seq_err)"));
        nic.put("errors", new Attribute(Type.NUMBER, null, "completions in error of the flows it sources"));
        nic.put("tx_bytes", new Attribute(Type.NUMBER, null, "bytes its transmitters sent"));
        nic.put("failovers", new Attribute(Type.NUMBER, null,
            "times its bond moved QPs off a port that went down or, with LACP, stopped distributing"));
        nic.put("migrations", new Attribute(Type.NUMBER, null,
            "times one of its QPs migrated to its alternate path (IBV_EVENT_PATH_MIG), requesters and responders"));
        nic.put("pfc_ignored", new Attribute(Type.NUMBER, null,
            "priorities of received PFC frames not acted on, PFC being off for them (rx_pfc_ignored)"));
        nic.put("dcbx_adoptions", new Attribute(Type.NUMBER, null,
            "times DCBX made a port take its not-willing link partner's PFC, ETS or application priorities"));
        nic.put("out_of_sequence", new Attribute(Type.NUMBER, null,
            "request packets received ahead of the expected PSN, NAKed or taken out of order (mlx5's out_of_sequence)"));
        nic.put("duplicate_request", new Attribute(Type.NUMBER, null,
            "request packets received again: behind the expected PSN, or held already (duplicate_request)"));
        nic.put("ooo_placed", new Attribute(Type.NUMBER, null,
            "request packets its out-of-order QPs took ahead of the expected PSN, without a NAK (ooo_placed_packets)"));
        nic.put("pfc_enable", new Attribute(Type.NUMBER, null,
            "port 1's operational PFC enable vector at the end, bit p for priority p (8: PFC on 3)"));
        Map<String, Attribute> sw = add(Kind.SWITCH);
        sw.put("drops", new Attribute(Type.COUNTER, "drops", "packets dropped on its ports"));
        sw.put("no_l3_header", new Attribute(Type.NUMBER, null, "frames for its router MAC that are not IP, dropped"
            + " (SAI_IN_DROP_REASON_NO_L3_HEADER): RoCEv1 sent to its gateway"));
        sw.put("pfc_tx", new Attribute(Type.COUNTER, "pfc-frames", "PFC frames sent, XOFF and XON"));
        sw.put("pfc_rx", new Attribute(Type.COUNTER, "pfc-frames", "PFC frames received, XOFF and XON"));
        sw.put("pause_tx", new Attribute(Type.COUNTER, "pfc-frames", "802.3x PAUSE frames sent on its ports"));
        sw.put("pause_rx", new Attribute(Type.COUNTER, "pfc-frames", "802.3x PAUSE frames received on its ports"));
        sw.put("ecn_marks", new Attribute(Type.COUNTER, "ecn-marks", "packets CE-marked"));
        sw.put("watchdog_storms", new Attribute(Type.NUMBER, null, "PFC storms the watchdog detected"));
        sw.put("watchdog_restores", new Attribute(Type.NUMBER, null, "PFC storms the watchdog restored"));
        sw.put("path_changes", new Attribute(Type.NUMBER, null, "flowlets (flowlet modes) or packets (per-packet) "
            + "that took another ECMP member than their flow had (SAI_NEXT_HOP_GROUP_ATTR_ARS_NEXT_HOP_REASSIGNMENTS)"));
        sw.put("route_changes", new Attribute(Type.NUMBER, null,
            "routes its BGP speaker programmed, replaced or removed during the run (routing: bgp; else 0)"));
        sw.put("route_withdrawals", new Attribute(Type.NUMBER, null,
            "of those, routes removed or left with fewer next hops"));
        sw.put("bgp_session_downs", new Attribute(Type.NUMBER, null, "times one of its BGP sessions left Established"));
        sw.put("bgp_retransmissions", new Attribute(Type.NUMBER, null,
            "BGP segments its sessions sent again, not acknowledged within the retransmission timeout"));
        sw.put("last_route_change", new Attribute(Type.NUMBER, null,
            "seconds from the run's start to its last route change (0 if none)"));
        // a VTEP's (VXLAN_TUNNEL): only switches that are one have them, in claims and counters.json
        sw.put("vxlan_encap", new Attribute(Type.NUMBER, null,
            "packets its VTEP encapsulated (SAI_TUNNEL_STAT_OUT_PACKETS, every remote VTEP)"));
        sw.put("vxlan_decap", new Attribute(Type.NUMBER, null,
            "packets its VTEP decapsulated (SAI_TUNNEL_STAT_IN_PACKETS)"));
        sw.put("vxlan_ce_marked", new Attribute(Type.NUMBER, null,
            "inner packets its VTEP marked CE at decapsulation for an outer CE (RFC 6040)"));
        sw.put("vxlan_drops", new Attribute(Type.NUMBER, null,
            "packets its VTEP dropped: an unmapped VNI, an outer CE on a Not-ECT packet, no route to the remote VTEP"));
        // collectives: as nccl-tests reports them (doc/PERFORMANCE.md), over the timed iterations
        Map<String, Attribute> coll = add(Kind.COLLECTIVE);
        coll.put("time", new Attribute(Type.NUMBER, null,
            "mean time of its timed iterations, seconds (nccl-tests' time; infinite if one did not finish)"));
        coll.put("algbw", new Attribute(Type.NUMBER, null, "size / time, bits per second (nccl-tests' algbw)"));
        coll.put("busbw", new Attribute(Type.NUMBER, null,
            "algbw x nccl-tests' factor: all-reduce 2(n-1)/n, the others (n-1)/n, bits per second"));
        coll.put("jct_p99", new Attribute(Type.NUMBER, null,
            "99th percentile (nearest rank) of its timed iterations' job completion times, seconds"));
        coll.put("jct_max", new Attribute(Type.NUMBER, null, "the longest of its timed iterations' times, seconds"));
        coll.put("iterations", new Attribute(Type.NUMBER, null, "timed iterations that finished"));
        coll.put("errors", new Attribute(Type.NUMBER, null, "work completions in error on its QPs"));
    }

    private Schema() {
    }

    private static Map<String, Attribute> add(Kind k) {
        Map<String, Attribute> m = new LinkedHashMap<>();
        ALL.put(k, m);
        return m;
    }

    /** @return the attributes of {@code kind}, in a fixed order */
    public static Map<String, Attribute> of(Kind kind) {
        return ALL.get(kind);
    }
}
