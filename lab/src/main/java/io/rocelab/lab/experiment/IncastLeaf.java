package io.rocelab.lab.experiment;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.sw.config.HeadroomModel;
import io.rocelab.sw.config.SwitchConfig;

/**
 * The SONiC-shaped configuration of the incast's leaf: ports Ethernet0 (the receiver) and Ethernet4,
 * Ethernet8, ... (the senders) at the link speed; DSCP 26 in the lossless TC 3 with PFC on priority 3
 * and the buffers of a Mellanox SN2700 (SONiC's {@code buffers_defaults_t1.j2}:
 * {@code ingress_lossless_pool} of 3302912 shared bytes per 32 ports, mode dynamic; the lossless PG
 * the profile SONiC's buffer manager works out for the speed and the {@value #CABLE_METRES} m cable,
 * dynamic_th 0 unless the spec says otherwise), DSCP 48 (CNPs) in TC 6 served strictly, WRED/ECN on queue 3 with the experiment's
 * Kmin/Kmax/Pmax.
 */
final class IncastLeaf {
    static final String ROUTER_MAC = "02:00:00:00:00:fe";
    /** SN2700 T1's {@code ingress_lossless_pool}, shared bytes per 32 ports. */
    static final long POOL_BYTES = 3_302_912;
    static final int CABLE_METRES = 200;
    static final int MTU = 9100;

    private IncastLeaf() {
    }

    /**
     * @return the bytes a sender's PG holds when it pauses with all {@code senders} PGs at their share:
     *         its reserved bytes and 2^n/(1 + senders 2^n) of the pool ({@code dynamic_th} n)
     */
    static long pausePointBytes(IncastSpec spec) {
        HeadroomModel.Headroom h = HeadroomModel.sn2700(spec.linkGbps() * 1_000_000_000L, CABLE_METRES, MTU);
        double alpha = Math.pow(2, spec.pgDynamicTh());
        long pool = POOL_BYTES * ((spec.senders() + 1 + 31) / 32);
        return h.size() - h.xoff() + (long) (alpha * pool / (1 + spec.senders() * alpha));
    }

    static String portName(int i) {
        return "Ethernet" + 4 * i;
    }

    static SwitchConfig config(IncastSpec spec) {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        int ports = spec.senders() + 1;
        String all = String.join(",", java.util.stream.IntStream.range(0, ports).mapToObj(IncastLeaf::portName)
            .toList());
        root.putObject("DEVICE_METADATA").putObject("localhost").put("hostname", "incast").put("mac", ROUTER_MAC);
        ObjectNode port = root.putObject("PORT");
        ObjectNode cable = root.putObject("CABLE_LENGTH").putObject("AZURE");
        for (int i = 0; i < ports; i++) {
            port.putObject(portName(i)).put("speed", String.valueOf(spec.linkGbps() * 1000L)).put("mtu",
                String.valueOf(MTU)).put("admin_status", "up");
            cable.put(portName(i), CABLE_METRES + "m");
        }
        ObjectNode dscp = root.putObject("DSCP_TO_TC_MAP").putObject("AZURE");
        for (int d = 0; d < 64; d++) {
            dscp.put(String.valueOf(d), d == 26 ? "3" : d == 48 ? "6" : "0");
        }
        ObjectNode pgMap = root.putObject("TC_TO_PRIORITY_GROUP_MAP").putObject("AZURE");
        ObjectNode queueMap = root.putObject("TC_TO_QUEUE_MAP").putObject("AZURE");
        for (int tc = 0; tc < 8; tc++) {
            pgMap.put(String.valueOf(tc), tc == 3 ? "3" : "0");
            queueMap.put(String.valueOf(tc), String.valueOf(tc));
        }
        root.putObject("PORT_QOS_MAP").putObject(all).put("dscp_to_tc_map", "AZURE").put("tc_to_pg_map", "AZURE")
            .put("tc_to_queue_map", "AZURE").put("pfc_enable", "3");
        long speed = spec.linkGbps() * 1_000_000_000L;
        HeadroomModel.Headroom h = HeadroomModel.sn2700(speed, CABLE_METRES, MTU);
        root.putObject("BUFFER_POOL").putObject("ingress_lossless_pool")
            .put("size", String.valueOf(POOL_BYTES * ((ports + 31) / 32))).put("type", "ingress").put("mode", "dynamic");
        ObjectNode profiles = root.putObject("BUFFER_PROFILE");
        profiles.putObject("pg_lossless").put("pool", "ingress_lossless_pool").put("size", String.valueOf(h.size()))
            .put("xon", String.valueOf(h.xon())).put("xoff", String.valueOf(h.xoff()))
            .put("dynamic_th", String.valueOf(spec.pgDynamicTh()));
        profiles.putObject("ingress_lossy").put("pool", "ingress_lossless_pool").put("size", "0")
            .put("dynamic_th", "3");
        ObjectNode bufferPg = root.putObject("BUFFER_PG");
        bufferPg.putObject(all + "|3").put("profile", "pg_lossless");
        bufferPg.putObject(all + "|0").put("profile", "ingress_lossy");
        root.putObject("WRED_PROFILE").putObject("ROCE").put("wred_green_enable", "false").put("ecn", "ecn_all")
            .put("green_min_threshold", String.valueOf(spec.ecnMinBytes()))
            .put("green_max_threshold", String.valueOf(spec.ecnMaxBytes()))
            .put("green_drop_probability", String.valueOf(spec.ecnMaxPercent()));
        ObjectNode sched = root.putObject("SCHEDULER");
        sched.putObject("scheduler.0").put("type", "DWRR").put("weight", "1");
        sched.putObject("scheduler.roce").put("type", "DWRR").put("weight", "1");
        sched.putObject("scheduler.cnp").put("type", "STRICT");
        ObjectNode queue = root.putObject("QUEUE");
        queue.putObject(all + "|0").put("scheduler", "scheduler.0");
        queue.putObject(all + "|3").put("scheduler", "scheduler.roce").put("wred_profile", "ROCE");
        queue.putObject(all + "|6").put("scheduler", "scheduler.cnp");
        return ConfigLoader.parse(root.toString());
    }
}
