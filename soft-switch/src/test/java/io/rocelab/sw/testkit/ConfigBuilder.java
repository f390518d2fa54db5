package io.rocelab.sw.testkit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.sw.config.SwitchConfig;

/**
 * Builds SONiC-shaped switch configurations for tests: ports Ethernet0, Ethernet4, ... at a speed,
 * DSCP 26 (and PCP 3) in lossless TC 3, DSCP 10/18 in lossy TC 1/2, everything else TC 0.
 */
public final class ConfigBuilder {
    public static final String ROUTER_MAC = "02:00:00:00:00:fe";
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final ObjectNode root = MAPPER.createObjectNode();
    private final int ports;

    public ConfigBuilder(int ports, int speedGbps) {
        this.ports = ports;
        root.putObject("DEVICE_METADATA").putObject("localhost").put("hostname", "sw").put("mac", ROUTER_MAC);
        ObjectNode p = root.putObject("PORT");
        for (int i = 0; i < ports; i++) {
            p.putObject(name(i)).put("speed", String.valueOf(speedGbps * 1000)).put("mtu", "9100");
        }
        ObjectNode dscp = root.putObject("DSCP_TO_TC_MAP").putObject("AZURE");
        for (int d = 0; d < 64; d++) {
            dscp.put(String.valueOf(d), d == 26 ? "3" : d == 10 ? "1" : d == 18 ? "2" : d == 48 ? "6" : "0");
        }
        ObjectNode dot1p = root.putObject("DOT1P_TO_TC_MAP").putObject("AZURE");
        for (int d = 0; d < 8; d++) {
            dot1p.put(String.valueOf(d), String.valueOf(d));
        }
        ObjectNode qos = root.putObject("PORT_QOS_MAP");
        for (int i = 0; i < ports; i++) {
            qos.putObject(name(i)).put("dscp_to_tc_map", "AZURE").put("pfc_enable", "3");
        }
        root.putObject("BUFFER_POOL").putObject("ingress_pool").put("size", "8000000").put("type", "ingress")
            .put("mode", "dynamic");
        root.putObject("BUFFER_PROFILE").putObject("pg_lossless").put("pool", "ingress_pool").put("size", "0")
            .put("xoff", "30000").put("xon", "15000").put("headroom", "24000");
        root.withObject("/BUFFER_PROFILE").putObject("lossy").put("pool", "ingress_pool").put("size", "0")
            .put("dynamic_th", "0");
        ObjectNode pg = root.putObject("BUFFER_PG");
        for (int i = 0; i < ports; i++) {
            pg.putObject(name(i) + "|3").put("profile", "pg_lossless");
            pg.putObject(name(i) + "|0-2").put("profile", "lossy");
        }
        root.putObject("PFC_WD").putObject("GLOBAL").put("POLL_INTERVAL", "1");
    }

    public static String name(int i) {
        return "Ethernet" + (4 * i);
    }

    public ObjectNode root() {
        return root;
    }

    public ConfigBuilder pool(long bytes) {
        root.withObject("/BUFFER_POOL/ingress_pool").put("size", String.valueOf(bytes));
        return this;
    }

    /** Puts every egress queue {@code q} under a lossy cap of {@code staticTh} bytes. */
    public ConfigBuilder queueCap(int q, long staticTh) {
        root.withObject("/BUFFER_PROFILE").putObject("egress_cap").put("pool", "ingress_pool")
            .put("static_th", String.valueOf(staticTh));
        for (int i = 0; i < ports; i++) {
            root.withObject("/BUFFER_QUEUE").putObject(name(i) + "|" + q).put("profile", "egress_cap");
        }
        return this;
    }

    public ConfigBuilder wred(int q, String ecn, boolean drop, long min, long max, int pct) {
        root.withObject("/WRED_PROFILE").putObject("W" + q).put("wred_green_enable", String.valueOf(drop))
            .put("ecn", ecn).put("green_min_threshold", String.valueOf(min))
            .put("green_max_threshold", String.valueOf(max)).put("green_drop_probability", String.valueOf(pct));
        for (int i = 0; i < ports; i++) {
            root.withObject("/QUEUE").withObject("/" + name(i) + "|" + q).put("wred_profile", "W" + q);
        }
        return this;
    }

    public ConfigBuilder scheduler(int q, String type, int weight) {
        root.withObject("/SCHEDULER").putObject("S" + q).put("type", type).put("weight", String.valueOf(weight));
        for (int i = 0; i < ports; i++) {
            root.withObject("/QUEUE").withObject("/" + name(i) + "|" + q).put("scheduler", "S" + q);
        }
        return this;
    }

    public ConfigBuilder pfcWd(String action, int detectMs, int restoreMs) {
        for (int i = 0; i < ports; i++) {
            root.withObject("/PFC_WD").putObject(name(i)).put("action", action)
                .put("detection_time", String.valueOf(detectMs)).put("restoration_time", String.valueOf(restoreMs));
        }
        return this;
    }

    public ConfigBuilder route(String prefix, String ifnames, String macs) {
        root.withObject("/STATIC_ROUTE").putObject(prefix).put("ifname", ifnames).put("nexthop_mac", macs);
        return this;
    }

    public ConfigBuilder switchField(String key, String value) {
        root.withObject("/SWITCH").withObject("/switch").put(key, value);
        return this;
    }

    public String json() {
        return root.toPrettyString();
    }

    public SwitchConfig build() {
        return ConfigLoader.parse(json());
    }
}
