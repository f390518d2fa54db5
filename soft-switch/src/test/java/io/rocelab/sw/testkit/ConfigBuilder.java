package io.rocelab.sw.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.sw.config.BufferProfile;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.sw.config.ConfigWriter;
import io.rocelab.sw.config.PfcWdAction;
import io.rocelab.sw.config.PfcWdConfig;
import io.rocelab.sw.config.RouteConfig;
import io.rocelab.sw.config.SchedulerConfig;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.config.SwitchConfigBuilder;
import io.rocelab.sw.config.WredProfile;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The tests' switch: ports Ethernet0, Ethernet4, ... at a speed, DSCP 26 (and PCP 3) in lossless
 * TC 3, DSCP 10/18 in lossy TC 1/2, everything else TC 0, on the production
 * {@link SwitchConfigBuilder}. A test that needs to edit the JSON text (a loader test) asks for
 * {@link #root()}: from then on {@link #build()} reads that text with {@link ConfigLoader}.
 */
public final class ConfigBuilder {
    public static final String ROUTER_MAC = "02:00:00:00:00:fe";
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final SwitchConfigBuilder tables = new SwitchConfigBuilder();
    private final int ports;
    private final Map<Integer, String> queueSchedulers = new HashMap<>();
    private final Map<Integer, String> queueWreds = new HashMap<>();
    private ObjectNode root;

    public ConfigBuilder(int ports, int speedGbps) {
        this.ports = ports;
        tables.hostname("sw").mac(MacAddress.parse(ROUTER_MAC));
        for (int i = 0; i < ports; i++) {
            tables.port(name(i), speedGbps * 1000L, 9100);
        }
        int[] dscp = new int[64];
        dscp[26] = 3;
        dscp[10] = 1;
        dscp[18] = 2;
        dscp[48] = 6;
        tables.dscpToTcMap("AZURE", dscp).dot1pToTcMap("AZURE", new int[] {0, 1, 2, 3, 4, 5, 6, 7});
        for (int i = 0; i < ports; i++) {
            tables.portQosMap(name(i), SwitchConfigBuilder.PortQosMap.dscp("AZURE", null, null, 3));
        }
        tables.bufferPool("ingress_pool", 8_000_000)
            // lossless: XOFF once it holds 30,000 shared bytes (static_th), 40,000 bytes of headroom (xoff: enough
            // for 400G over 5 m by SONiC's formula), XON at 15,000
            .bufferProfile(new BufferProfile("pg_lossless", "ingress_pool", 0, 15_000, 40_000, 0, 30_000,
                Integer.MIN_VALUE, false))
            .bufferProfile(BufferProfile.lossy("lossy", "ingress_pool", 0, 0));
        for (int i = 0; i < ports; i++) {
            tables.bufferPg(name(i) + "|3", "pg_lossless").bufferPg(name(i) + "|0-2", "lossy");
        }
        tables.pfcWdPollInterval(1);
    }

    public static String name(int i) {
        return "Ethernet" + (4 * i);
    }

    /** @return the production builder this one fills in */
    public SwitchConfigBuilder tables() {
        if (root != null) {
            throw new IllegalStateException("the JSON text was already taken with root(): edit it there");
        }
        return tables;
    }

    /** @return the configuration as JSON, to edit; {@link #build()} then loads the edited text */
    public ObjectNode root() {
        if (root == null) {
            try {
                root = (ObjectNode) MAPPER.readTree(ConfigWriter.toJson(tables));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
        return root;
    }

    public ConfigBuilder pool(long bytes) {
        tables().bufferPool("ingress_pool", bytes);
        return this;
    }

    /** Puts every egress queue {@code q} under a lossy cap of {@code staticTh} bytes. */
    public ConfigBuilder queueCap(int q, long staticTh) {
        tables().bufferProfile(new BufferProfile("egress_cap", "ingress_pool", 0, 0, 0, 0, staticTh, Integer.MIN_VALUE, false));
        for (int i = 0; i < ports; i++) {
            tables.bufferQueue(name(i) + "|" + q, "egress_cap");
        }
        return this;
    }

    /** A green-only WRED profile on queue {@code q}; {@code ecn} is SONiC's mode ({@code ecn_all}, ...). */
    public ConfigBuilder wred(int q, String ecn, boolean drop, long min, long max, int pct) {
        boolean ecnGreen = ecn.equals("ecn_all") || ecn.startsWith("ecn_green");
        tables().wredProfile(new WredProfile("W" + q, drop, ecnGreen, min, max, pct / 100.0));
        queueWreds.put(q, "W" + q);
        return queues(q);
    }

    public ConfigBuilder scheduler(int q, String type, int weight) {
        tables().scheduler(new SchedulerConfig("S" + q, type.equals("STRICT"), weight));
        queueSchedulers.put(q, "S" + q);
        return queues(q);
    }

    private ConfigBuilder queues(int q) {
        for (int i = 0; i < ports; i++) {
            tables.queue(name(i) + "|" + q, queueSchedulers.get(q), queueWreds.get(q));
        }
        return this;
    }

    public ConfigBuilder pfcWd(String action, int detectMs, int restoreMs) {
        for (int i = 0; i < ports; i++) {
            tables().pfcWd(name(i), new PfcWdConfig(PfcWdAction.valueOf(action.toUpperCase()), detectMs * 1_000_000L,
                restoreMs * 1_000_000L));
        }
        return this;
    }

    /** A {@code STATIC_ROUTE}; {@code ifnames} and {@code macs} list the next hops, comma-separated. */
    public ConfigBuilder route(String prefix, String ifnames, String macs) {
        String[] ifs = ifnames.split(",");
        String[] ms = macs.split(",");
        List<RouteConfig.NextHop> hops = new ArrayList<>();
        for (int i = 0; i < ifs.length; i++) {
            hops.add(new RouteConfig.NextHop(ifs[i].trim(), MacAddress.parse(ms[i].trim())));
        }
        tables().staticRoute(prefix, hops);
        return this;
    }

    /** A {@code SWITCH|switch} field. */
    public ConfigBuilder switchField(String key, String value) {
        long v = Long.parseLong(value);
        switch (key) {
            case "ecmp_hash_seed" -> tables().ecmpHashSeed(v);
            case "fdb_aging_time" -> tables().fdbAgingTime(v);
            case "fdb_table_size" -> tables().fdbTableSize(v);
            case "flowlet_timeout" -> tables().flowletTimeout(v);
            case "pfc_quanta" -> tables().pfcQuanta(v);
            default -> throw new IllegalArgumentException("no SWITCH field " + key);
        }
        return this;
    }

    public String json() {
        return root != null ? root.toPrettyString() : ConfigWriter.toJson(tables);
    }

    public SwitchConfig build() {
        return root != null ? ConfigLoader.parse(root.toPrettyString()) : tables.build();
    }
}
