package io.rocelab.sw.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.sw.pipeline.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToIntFunction;

/**
 * Reads a SONiC {@code config_db.json}-shaped switch configuration and checks that it can work.
 *
 * <p>Why one loader that collects problems: a lab user edits a long JSON file; every mistake (an
 * unknown key, a map with a DSCP of 64, {@code xon >= xoff}, headroom that a 300 m cable would
 * overrun) becomes one line naming the table and key, and all of them are reported at once in a
 * {@link ConfigException}.
 *
 * <p>Tables: {@code DEVICE_METADATA}, {@code SWITCH}, {@code PORT}, {@code CABLE_LENGTH},
 * {@code DSCP_TO_TC_MAP}, {@code DOT1P_TO_TC_MAP}, {@code TC_TO_PRIORITY_GROUP_MAP},
 * {@code TC_TO_QUEUE_MAP}, {@code PORT_QOS_MAP}, {@code BUFFER_POOL}, {@code BUFFER_PROFILE},
 * {@code BUFFER_PG}, {@code BUFFER_QUEUE}, {@code WRED_PROFILE}, {@code SCHEDULER}, {@code QUEUE},
 * {@code PFC_WD}, {@code STATIC_ROUTE} (IPv4 and IPv6 prefixes), {@code TC_TO_DOT1P_MAP}, {@code VLAN},
 * {@code VLAN_MEMBER}, and {@code DSCP_TO_COLOR_MAP} (rocelab's name for SAI's DSCP-to-colour map:
 * SONiC's config has no table for it). Values may be JSON strings (as SONiC stores them) or numbers.
 * Sizes are bytes, {@code PORT speed} is Mb/s, watchdog times are ms, as in SONiC.
 */
public final class ConfigLoader {

    /** Propagation in copper or fibre, about 5 ns per metre. */
    public static final long NANOS_PER_METRE = 5;
    /** Wire overhead per frame: FCS, preamble, SFD, inter-packet gap (IEEE 802.3). */
    private static final int WIRE_OVERHEAD = 24;
    /** A PFC frame on the wire: 60 bytes padded plus overhead. */
    private static final int PFC_WIRE_BYTES = 84;
    /** FDB entries when {@code SWITCH|switch fdb_table_size} is not given: a datacenter ASIC's L2 table is of this order. */
    public static final int DEFAULT_FDB_TABLE_SIZE = 32_768;
    /** The largest {@code fdb_table_size} accepted. */
    public static final int MAX_FDB_TABLE_SIZE = 1 << 20;

    private static final Set<String> TABLES = Set.of("DEVICE_METADATA", "SWITCH", "PORT", "CABLE_LENGTH",
        "DSCP_TO_TC_MAP", "DOT1P_TO_TC_MAP", "TC_TO_PRIORITY_GROUP_MAP", "TC_TO_QUEUE_MAP", "PORT_QOS_MAP",
        "BUFFER_POOL", "BUFFER_PROFILE", "BUFFER_PG", "BUFFER_QUEUE", "WRED_PROFILE", "SCHEDULER", "QUEUE",
        "PFC_WD", "STATIC_ROUTE", "DSCP_TO_COLOR_MAP", "TC_TO_DOT1P_MAP", "VLAN", "VLAN_MEMBER");

    private final List<String> problems = new ArrayList<>();

    private ConfigLoader() {
    }

    /**
     * @param file a JSON file
     * @return the configuration
     * @throws ConfigException if anything is wrong, with one line per mistake
     * @throws IOException     if the file cannot be read
     */
    public static SwitchConfig load(Path file) throws IOException {
        return parse(Files.readString(file));
    }

    /**
     * @param json the whole configuration
     * @return the configuration
     * @throws ConfigException if anything is wrong, with one line per mistake
     */
    public static SwitchConfig parse(String json) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new ConfigException(List.of("not valid JSON: " + e.getOriginalMessage()
                + " at line " + e.getLocation().getLineNr()));
        }
        if (root == null || !root.isObject()) {
            throw new ConfigException(List.of("the configuration must be a JSON object of tables"));
        }
        ConfigLoader loader = new ConfigLoader();
        SwitchConfig config = loader.build(root);
        if (!loader.problems.isEmpty()) {
            throw new ConfigException(loader.problems);
        }
        return config;
    }

    private SwitchConfig build(JsonNode root) {
        root.fieldNames().forEachRemaining(t -> {
            if (!TABLES.contains(t)) {
                problems.add("unknown table '" + t + "'");
            }
        });
        JsonNode meta = entry(root, "DEVICE_METADATA", "localhost");
        checkKeys("DEVICE_METADATA|localhost", meta, "hostname", "mac");
        String hostname = text(meta, "hostname", "switch");
        long routerMac = mac("DEVICE_METADATA|localhost", meta, "mac", 0x02_00_00_00_00_01L);

        JsonNode sw = entry(root, "SWITCH", "switch");
        checkKeys("SWITCH|switch", sw, "ecmp_hash_seed", "fdb_aging_time", "fdb_table_size", "flowlet_timeout",
            "pfc_quanta");
        long seed = number("SWITCH|switch", sw, "ecmp_hash_seed", 0, 0, Long.MAX_VALUE);
        long aging = number("SWITCH|switch", sw, "fdb_aging_time", 600, 0, 1_000_000);
        int fdbSize = (int) number("SWITCH|switch", sw, "fdb_table_size", DEFAULT_FDB_TABLE_SIZE, 1, MAX_FDB_TABLE_SIZE);
        long flowletUs = number("SWITCH|switch", sw, "flowlet_timeout", 0, 0, 10_000_000);
        int quanta = (int) number("SWITCH|switch", sw, "pfc_quanta", 0xFFFF, 1, 0xFFFF);

        Map<String, Long> pools = pools(root);
        Map<String, int[]> dscpMaps = maps(root, "DSCP_TO_TC_MAP", 64, "a DSCP (0-63)", ZERO_TO_SEVEN, "a traffic class or queue (0-7)");
        Map<String, int[]> dot1pMaps = maps(root, "DOT1P_TO_TC_MAP", 8, "an 802.1p priority (0-7)", ZERO_TO_SEVEN, "a traffic class or queue (0-7)");
        Map<String, int[]> pgMaps = maps(root, "TC_TO_PRIORITY_GROUP_MAP", 8, "a traffic class (0-7)", ZERO_TO_SEVEN, "a traffic class or queue (0-7)");
        Map<String, int[]> queueMaps = maps(root, "TC_TO_QUEUE_MAP", 8, "a traffic class (0-7)", ZERO_TO_SEVEN, "a traffic class or queue (0-7)");
        Map<String, int[]> tcDot1pMaps = maps(root, "TC_TO_DOT1P_MAP", 8, "a traffic class (0-7)",
            ZERO_TO_SEVEN, "an 802.1p priority (0-7)");
        Map<String, int[]> colorMaps = maps(root, "DSCP_TO_COLOR_MAP", 64, "a DSCP (0-63)", Color::parse,
            "a colour (green, yellow, red)");
        Map<String, VlanMembership> vlans = vlans(root);
        Map<String, BufferProfile> profiles = profiles(root, pools);
        Map<String, WredProfile> wreds = wreds(root);
        Map<String, SchedulerConfig> schedulers = schedulers(root);

        List<PortConfig> ports = ports(root, dscpMaps, dot1pMaps, pgMaps, queueMaps, tcDot1pMaps, colorMaps, vlans,
            profiles, wreds, schedulers);
        List<RouteConfig> routes = new ArrayList<>();
        List<Route6Config> routes6 = new ArrayList<>();
        routes(root, ports, routes, routes6);
        JsonNode wdGlobal = entry(root, "PFC_WD", "GLOBAL");
        checkKeys("PFC_WD|GLOBAL", wdGlobal, "POLL_INTERVAL", "BIG_RED_SWITCH");
        long pollMs = number("PFC_WD|GLOBAL", wdGlobal, "POLL_INTERVAL", 200, 1, 60_000);
        return new SwitchConfig(hostname, routerMac, seed, flowletUs * 1_000, aging * 1_000_000_000L, fdbSize, pools,
            ports,
            routes, routes6, pollMs * 1_000_000L, quanta);
    }

    // ---- tables ----

    private Map<String, Long> pools(JsonNode root) {
        Map<String, Long> pools = new LinkedHashMap<>();
        forEach(root, "BUFFER_POOL", (key, e) -> {
            String where = "BUFFER_POOL|" + key;
            checkKeys(where, e, "size", "type", "mode", "xoff");
            long size = number(where, e, "size", -1, 1, Long.MAX_VALUE);
            String type = text(e, "type", "ingress");
            if (!type.equals("ingress") && !type.equals("egress")) {
                problems.add(where + ": type must be 'ingress' or 'egress', not '" + type + "'");
            }
            String mode = text(e, "mode", "dynamic");
            if (!mode.equals("static") && !mode.equals("dynamic")) {
                problems.add(where + ": mode must be 'static' or 'dynamic', not '" + mode + "'");
            }
            pools.put(key, size);
        });
        return pools;
    }

    /** Reads a map value 0-7 (a TC, queue, PG or priority), -1 if it is not one. */
    private static final ToIntFunction<String> ZERO_TO_SEVEN = v -> parseInt(v) <= 7 ? parseInt(v) : -1;

    /** @param parse reads one value, -1 if invalid; {@code valueWhat} names what it should be */
    private Map<String, int[]> maps(JsonNode root, String table, int keys, String keyWhat,
                                    ToIntFunction<String> parse, String valueWhat) {
        Map<String, int[]> maps = new LinkedHashMap<>();
        forEach(root, table, (name, e) -> {
            int[] map = new int[keys];
            Iterator<Map.Entry<String, JsonNode>> it = e.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> f = it.next();
                int k = parseInt(f.getKey());
                int v = parse.applyAsInt(f.getValue().asText());
                if (k < 0 || k >= keys) {
                    problems.add(table + "|" + name + ": key '" + f.getKey() + "' is not " + keyWhat);
                } else if (v < 0) {
                    problems.add(table + "|" + name + ": value '" + f.getValue().asText() + "' for key "
                        + f.getKey() + " is not " + valueWhat);
                } else {
                    map[k] = v;
                }
            }
            maps.put(name, map);
        });
        return maps;
    }

    private Map<String, BufferProfile> profiles(JsonNode root, Map<String, Long> pools) {
        Map<String, BufferProfile> profiles = new LinkedHashMap<>();
        forEach(root, "BUFFER_PROFILE", (name, e) -> {
            String where = "BUFFER_PROFILE|" + name;
            checkKeys(where, e, "pool", "size", "xon", "xoff", "headroom", "static_th", "dynamic_th", "xon_offset");
            String pool = stripRef(text(e, "pool", ""));
            if (pool.isEmpty()) {
                problems.add(where + ": missing 'pool'");
            } else if (!pools.containsKey(pool)) {
                problems.add(where + ": pool '" + pool + "' is not in BUFFER_POOL");
            }
            long size = number(where, e, "size", 0, 0, Long.MAX_VALUE);
            long xon = number(where, e, "xon", 0, 0, Long.MAX_VALUE);
            long xoff = number(where, e, "xoff", 0, 0, Long.MAX_VALUE);
            long headroom = number(where, e, "headroom", 0, 0, Long.MAX_VALUE);
            long staticTh = number(where, e, "static_th", -1, -1, Long.MAX_VALUE);
            int dynamicTh = e.has("dynamic_th") ? (int) number(where, e, "dynamic_th", 0, -8, 8) : Integer.MIN_VALUE;
            if (xoff > 0) {
                if (xon >= xoff) {
                    problems.add(where + ": xon (" + xon + ") must be below xoff (" + xoff
                        + "), or pause and resume would flap");
                }
                if (headroom <= 0) {
                    problems.add(where + ": a lossless profile (xoff set) needs 'headroom' bytes for what is in flight after XOFF");
                }
            } else if (e.has("xon") || e.has("headroom")) {
                problems.add(where + ": 'xon'/'headroom' without 'xoff': a lossless profile needs all three");
            }
            if (pool != null && pools.containsKey(pool) && size + xoff + headroom > pools.get(pool)) {
                problems.add(where + ": size + xoff + headroom (" + (size + xoff + headroom)
                    + ") exceeds pool '" + pool + "' (" + pools.get(pool) + ")");
            }
            profiles.put(name, new BufferProfile(name, pool, size, xon, xoff, headroom, staticTh, dynamicTh));
        });
        return profiles;
    }

    private Map<String, WredProfile> wreds(JsonNode root) {
        Map<String, WredProfile> wreds = new LinkedHashMap<>();
        forEach(root, "WRED_PROFILE", (name, e) -> {
            String where = "WRED_PROFILE|" + name;
            checkKeys(where, e, "wred_green_enable", "wred_yellow_enable", "wred_red_enable", "ecn",
                "green_min_threshold", "green_max_threshold", "green_drop_probability",
                "yellow_min_threshold", "yellow_max_threshold", "yellow_drop_probability",
                "red_min_threshold", "red_max_threshold", "red_drop_probability");
            String ecn = text(e, "ecn", "ecn_none");
            String covered;
            switch (ecn) {
                case "ecn_none" -> covered = "";
                case "ecn_green" -> covered = "g";
                case "ecn_yellow" -> covered = "y";
                case "ecn_red" -> covered = "r";
                case "ecn_green_yellow" -> covered = "gy";
                case "ecn_green_red" -> covered = "gr";
                case "ecn_yellow_red" -> covered = "yr";
                case "ecn_all" -> covered = "gyr";
                default -> {
                    problems.add(where + ": ecn must be one of ecn_none, ecn_green, ecn_yellow, ecn_red, "
                        + "ecn_green_yellow, ecn_green_red, ecn_yellow_red, ecn_all, not '" + ecn + "'");
                    covered = "";
                }
            }
            WredProfile.ColorRule green = colorRule(where, e, "green", covered.contains("g"), true);
            WredProfile.ColorRule yellow = colorRule(where, e, "yellow", covered.contains("y"), false);
            WredProfile.ColorRule red = colorRule(where, e, "red", covered.contains("r"), false);
            wreds.put(name, new WredProfile(name, green, yellow, red));
        });
        return wreds;
    }

    /**
     * One colour's WRED fields. Green needs its thresholds; a yellow or red rule without thresholds
     * is off (SONiC profiles often say {@code ecn_all} with green fields only), but enabling drops
     * for a colour without its thresholds is a mistake.
     */
    private WredProfile.ColorRule colorRule(String where, JsonNode e, String color, boolean ecn, boolean required) {
        String enable = "wred_" + color + "_enable";
        boolean enabled = bool(where, e, enable, false);
        String minKey = color + "_min_threshold";
        String maxKey = color + "_max_threshold";
        if (!required && !e.has(minKey) && !e.has(maxKey)) {
            if (enabled) {
                problems.add(where + ": " + enable + " is true but " + minKey + " and " + maxKey + " are missing");
            }
            return WredProfile.ColorRule.OFF;
        }
        long min = number(where, e, minKey, -1, 0, Long.MAX_VALUE);
        long max = number(where, e, maxKey, -1, 0, Long.MAX_VALUE);
        long pct = number(where, e, color + "_drop_probability", 100, 0, 100);
        if (min > max) {
            problems.add(where + ": " + minKey + " (" + min + ") is above " + maxKey + " (" + max + ")");
        }
        return new WredProfile.ColorRule(enabled, ecn, min, max, pct / 100.0);
    }

    private Map<String, SchedulerConfig> schedulers(JsonNode root) {
        Map<String, SchedulerConfig> schedulers = new LinkedHashMap<>();
        forEach(root, "SCHEDULER", (name, e) -> {
            String where = "SCHEDULER|" + name;
            checkKeys(where, e, "type", "weight", "meter_type", "pir", "pbs", "cir", "cbs");
            String type = text(e, "type", "DWRR").toUpperCase();
            boolean strict = type.equals("STRICT");
            if (!strict && !type.equals("DWRR") && !type.equals("WRR")) {
                problems.add(where + ": type must be STRICT, DWRR or WRR, not '" + type + "'");
            }
            int weight = (int) number(where, e, "weight", 1, 1, 100);
            schedulers.put(name, new SchedulerConfig(name, strict, weight));
        });
        return schedulers;
    }

    private List<PortConfig> ports(JsonNode root, Map<String, int[]> dscpMaps, Map<String, int[]> dot1pMaps,
                                   Map<String, int[]> pgMaps, Map<String, int[]> queueMaps,
                                   Map<String, int[]> tcDot1pMaps, Map<String, int[]> colorMaps,
                                   Map<String, VlanMembership> vlans, Map<String, BufferProfile> profiles, Map<String, WredProfile> wreds,
                                   Map<String, SchedulerConfig> schedulers) {
        List<String> names = new ArrayList<>();
        forEach(root, "PORT", (name, e) -> names.add(name));
        if (names.isEmpty()) {
            problems.add("PORT: the switch has no ports");
        }
        Map<String, Integer> cables = new LinkedHashMap<>();
        forEach(root, "CABLE_LENGTH", (name, e) -> e.fields().forEachRemaining(f -> {
            if (!names.contains(f.getKey())) {
                problems.add("CABLE_LENGTH|" + name + ": unknown port '" + f.getKey() + "'");
            }
            String v = f.getValue().asText().trim();
            int m = parseInt(v.endsWith("m") ? v.substring(0, v.length() - 1) : v);
            if (m < 0) {
                problems.add("CABLE_LENGTH|" + name + ": '" + v + "' for " + f.getKey() + " is not a length like '5m'");
            } else {
                cables.put(f.getKey(), m);
            }
        }));
        BufferProfile[][] pgs = new BufferProfile[names.size()][8];
        BufferProfile[][] qBuffers = new BufferProfile[names.size()][8];
        WredProfile[][] qWred = new WredProfile[names.size()][8];
        SchedulerConfig[][] qSched = new SchedulerConfig[names.size()][8];
        perPortIndex(root, "BUFFER_PG", names, (where, port, idx, e) -> {
            checkKeys(where, e, "profile");
            BufferProfile p = profiles.get(stripRef(text(e, "profile", "")));
            if (p == null) {
                problems.add(where + ": profile '" + text(e, "profile", "") + "' is not in BUFFER_PROFILE");
            }
            pgs[port][idx] = p;
        });
        perPortIndex(root, "BUFFER_QUEUE", names, (where, port, idx, e) -> {
            checkKeys(where, e, "profile");
            BufferProfile p = profiles.get(stripRef(text(e, "profile", "")));
            if (p == null) {
                problems.add(where + ": profile '" + text(e, "profile", "") + "' is not in BUFFER_PROFILE");
            }
            qBuffers[port][idx] = p;
        });
        perPortIndex(root, "QUEUE", names, (where, port, idx, e) -> {
            checkKeys(where, e, "scheduler", "wred_profile");
            if (e.has("scheduler")) {
                SchedulerConfig s = schedulers.get(stripRef(e.get("scheduler").asText()));
                if (s == null) {
                    problems.add(where + ": scheduler '" + e.get("scheduler").asText() + "' is not in SCHEDULER");
                }
                qSched[port][idx] = s;
            }
            if (e.has("wred_profile")) {
                WredProfile w = wreds.get(stripRef(e.get("wred_profile").asText()));
                if (w == null) {
                    problems.add(where + ": wred_profile '" + e.get("wred_profile").asText() + "' is not in WRED_PROFILE");
                }
                qWred[port][idx] = w;
            }
        });
        Map<String, PfcWdConfig> wd = new LinkedHashMap<>();
        forEach(root, "PFC_WD", (key, e) -> {
            if (key.equals("GLOBAL")) {
                return;
            }
            String where = "PFC_WD|" + key;
            checkKeys(where, e, "action", "detection_time", "restoration_time");
            PfcWdAction action;
            try {
                action = PfcWdAction.valueOf(text(e, "action", "drop").toUpperCase());
            } catch (IllegalArgumentException ex) {
                problems.add(where + ": action must be drop, forward or alert, not '" + text(e, "action", "") + "'");
                action = PfcWdAction.DROP;
            }
            long detect = number(where, e, "detection_time", 200, 1, 5000);
            long restore = number(where, e, "restoration_time", 200, 1, 60000);
            PfcWdConfig c = new PfcWdConfig(action, detect * 1_000_000L, restore * 1_000_000L);
            for (String p : key.split(",")) {
                if (!names.contains(p)) {
                    problems.add(where + ": unknown port '" + p + "'");
                }
                wd.put(p, c);
            }
        });
        Map<String, JsonNode> qos = new LinkedHashMap<>();
        forEach(root, "PORT_QOS_MAP", (key, e) -> {
            for (String p : key.split(",")) {
                if (!names.contains(p)) {
                    problems.add("PORT_QOS_MAP|" + key + ": unknown port '" + p + "'");
                }
                qos.put(p, e);
            }
        });

        List<PortConfig> ports = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            String where = "PORT|" + name;
            JsonNode e = root.get("PORT").get(name);
            checkKeys(where, e, "speed", "mtu", "admin_status", "alias", "lanes", "index", "description", "fec");
            long speedMbps = number(where, e, "speed", 100_000, 1, 1_600_000);
            int mtu = (int) number(where, e, "mtu", 9100, 68, 9216);
            int cable = cables.getOrDefault(name, 5);

            String qwhere = "PORT_QOS_MAP|" + name;
            JsonNode q = qos.get(name);
            if (q != null) {
                checkKeys(qwhere, q, "dscp_to_tc_map", "dot1p_to_tc_map", "tc_to_pg_map", "tc_to_queue_map",
                    "pfc_enable", "pfc_to_queue_map", "pfc_to_pg_map", "dscp_to_color_map", "tc_to_dot1p_map");
            }
            int[] dscp = bound(qwhere, q, "dscp_to_tc_map", dscpMaps, "DSCP_TO_TC_MAP", new int[64]);
            int[] dot1p = bound(qwhere, q, "dot1p_to_tc_map", dot1pMaps, "DOT1P_TO_TC_MAP", new int[8]);
            int[] tcPg = bound(qwhere, q, "tc_to_pg_map", pgMaps, "TC_TO_PRIORITY_GROUP_MAP", identity());
            int[] tcQ = bound(qwhere, q, "tc_to_queue_map", queueMaps, "TC_TO_QUEUE_MAP", identity());
            int[] color = bound(qwhere, q, "dscp_to_color_map", colorMaps, "DSCP_TO_COLOR_MAP", null);
            int[] tcDot1p = bound(qwhere, q, "tc_to_dot1p_map", tcDot1pMaps, "TC_TO_DOT1P_MAP", null);
            Trust trust = q != null && q.has("dscp_to_tc_map") ? Trust.DSCP
                : q != null && q.has("dot1p_to_tc_map") ? Trust.DOT1P : Trust.NONE;
            int pfcMask = 0;
            if (q != null && q.has("pfc_enable")) {
                String list = q.get("pfc_enable").asText().trim();
                if (!list.isEmpty()) {
                    for (String s : list.split(",")) {
                        int p = parseInt(s.trim());
                        if (p < 0 || p > 7) {
                            problems.add(qwhere + ": pfc_enable '" + list + "' must list priorities 0-7 like \"3,4\"");
                        } else {
                            pfcMask |= 1 << p;
                        }
                    }
                }
            }
            long speed = speedMbps * 1_000_000L;
            BufferProfile[] pg = pgs[i];
            for (int p = 0; p < 8; p++) {
                if ((pfcMask & (1 << p)) == 0) {
                    continue;
                }
                BufferProfile prof = pg[tcPg[p]];
                if (prof == null || !prof.lossless()) {
                    problems.add(qwhere + ": priority " + p + " has PFC enabled but BUFFER_PG|" + name + "|"
                        + tcPg[p] + " has no lossless profile (with xon/xoff/headroom)");
                } else {
                    long need = requiredHeadroom(speed, cable, mtu);
                    if (prof.headroom() < need) {
                        problems.add("BUFFER_PG|" + name + "|" + tcPg[p] + ": headroom of profile '" + prof.name()
                            + "' is " + prof.headroom() + " bytes but " + speedMbps / 1000 + " Gb/s over " + cable
                            + " m of cable needs at least " + need + " bytes");
                    }
                }
            }
            QueueConfig[] queues = new QueueConfig[8];
            for (int k = 0; k < 8; k++) {
                queues[k] = new QueueConfig(qSched[i][k] != null ? qSched[i][k] : SchedulerConfig.DEFAULT,
                    qWred[i][k], qBuffers[i][k]);
            }
            ports.add(new PortConfig(name, speed, mtu, cable, trust, dscp, dot1p, tcPg, tcQ, pfcMask, pg, queues,
                wd.get(name), color, tcDot1p, vlans.get(name)));
        }
        return ports;
    }

    /**
     * The bytes that keep arriving after a PG decides to pause: the XOFF may wait behind one frame
     * on our transmitter, crosses the cable, the peer finishes the frame it is sending, and what the
     * peer sent meanwhile is still on the cable: 2 × cable delay × rate + 2 × (MTU + overhead) + the
     * PFC frame itself.
     *
     * @param speedBitsPerSecond port speed
     * @param cableMeters        cable length
     * @param mtu                largest frame
     * @return the smallest headroom that guarantees no loss
     */
    public static long requiredHeadroom(long speedBitsPerSecond, int cableMeters, int mtu) {
        long cableBytes = (cableMeters * NANOS_PER_METRE * speedBitsPerSecond + 7_999_999_999L) / 8_000_000_000L;
        return 2 * cableBytes + 2L * (mtu + WIRE_OVERHEAD) + PFC_WIRE_BYTES;
    }

    /**
     * {@code VLAN|Vlan100 {"vlanid": "100"}} and {@code VLAN_MEMBER|Vlan100|Ethernet0
     * {"tagging_mode": "untagged"}}. A port may be an untagged member of one VLAN only: that VLAN
     * is its PVID (IEEE 802.1Q 6.9).
     *
     * @return membership per port name, for the ports that are in some VLAN
     */
    private Map<String, VlanMembership> vlans(JsonNode root) {
        Map<String, Integer> vids = new LinkedHashMap<>();
        forEach(root, "VLAN", (name, e) -> {
            String where = "VLAN|" + name;
            checkKeys(where, e, "vlanid", "description", "admin_status", "mtu");
            int vid = (int) number(where, e, "vlanid", -1, 1, 4094);
            if (vid >= 1 && vid <= 4094 && !name.equals("Vlan" + vid)) {
                problems.add(where + ": vlanid " + vid + " does not match the name (SONiC names VLAN " + vid
                    + " 'Vlan" + vid + "')");
            }
            vids.put(name, vid);
        });
        Set<String> ports = new java.util.HashSet<>();
        forEach(root, "PORT", (name, e) -> ports.add(name));
        Map<String, VlanMembership> members = new LinkedHashMap<>();
        Map<String, String> untaggedIn = new LinkedHashMap<>();
        forEach(root, "VLAN_MEMBER", (key, e) -> {
            String where = "VLAN_MEMBER|" + key;
            checkKeys(where, e, "tagging_mode");
            int bar = key.indexOf('|');
            if (bar < 0) {
                problems.add(where + ": key must be 'Vlan<id>|<port>'");
                return;
            }
            String vlan = key.substring(0, bar);
            String port = key.substring(bar + 1);
            Integer vid = vids.get(vlan);
            String mode = text(e, "tagging_mode", "untagged");
            if (vid == null) {
                problems.add(where + ": VLAN '" + vlan + "' is not in VLAN");
            } else if (!ports.contains(port)) {
                problems.add(where + ": unknown port '" + port + "'");
            } else if (!mode.equals("tagged") && !mode.equals("untagged")) {
                problems.add(where + ": tagging_mode must be 'tagged' or 'untagged', not '" + mode + "'");
            } else if (mode.equals("untagged") && untaggedIn.containsKey(port)) {
                problems.add(where + ": " + port + " is already an untagged member of " + untaggedIn.get(port)
                    + " (a port has one untagged VLAN, its PVID)");
            } else {
                if (mode.equals("untagged")) {
                    untaggedIn.put(port, vlan);
                }
                members.computeIfAbsent(port, p -> new VlanMembership()).add(vid, mode.equals("tagged"));
            }
        });
        return members;
    }

    private void routes(JsonNode root, List<PortConfig> ports, List<RouteConfig> routes, List<Route6Config> routes6) {
        forEach(root, "STATIC_ROUTE", (key, e) -> {
            String where = "STATIC_ROUTE|" + key;
            checkKeys(where, e, "ifname", "nexthop_mac", "nexthop", "blackhole", "distance");
            String prefixText = key.contains("|") ? key.substring(key.indexOf('|') + 1) : key;
            String[] pl = prefixText.split("/");
            boolean v6 = pl[0].contains(":");
            int max = v6 ? 128 : 32;
            byte[] address = null;
            int len = -1;
            try {
                address = v6 ? Ipv6.parse(pl[0]) : null;
                int prefix4 = v6 ? 0 : Ipv4.parse(pl[0]);
                if (!v6) {
                    address = new byte[] {(byte) (prefix4 >>> 24), (byte) (prefix4 >>> 16), (byte) (prefix4 >>> 8),
                        (byte) prefix4};
                }
                len = pl.length == 2 ? Integer.parseInt(pl[1]) : max;
            } catch (RuntimeException ex) {
                len = -1;
            }
            if (len < 0 || len > max || pl.length > 2) {
                problems.add(where + ": '" + prefixText + "' is not a prefix like 10.0.1.0/24 or fd00:1::/64");
                return;
            }
            String[] ifs = text(e, "ifname", "").split(",");
            String[] macs = text(e, "nexthop_mac", "").split(",");
            if (ifs.length != macs.length || ifs[0].isEmpty()) {
                problems.add(where + ": 'ifname' and 'nexthop_mac' must list the same number (at least one) of next hops");
                return;
            }
            List<RouteConfig.NextHop> hops = new ArrayList<>();
            for (int i = 0; i < ifs.length; i++) {
                String port = ifs[i].trim();
                if (ports.stream().noneMatch(p -> p.name().equals(port))) {
                    problems.add(where + ": unknown port '" + port + "' in ifname");
                    continue;
                }
                try {
                    hops.add(new RouteConfig.NextHop(port, MacAddress.parse(macs[i])));
                } catch (IllegalArgumentException ex) {
                    problems.add(where + ": " + ex.getMessage());
                }
            }
            if (v6) {
                long[] masked = Prefix6.mask(Prefix6.high(address), Prefix6.low(address), len);
                routes6.add(new Route6Config(masked[0], masked[1], len, hops));
            } else {
                int mask = len == 0 ? 0 : -1 << (32 - len);
                routes.add(new RouteConfig(Ipv4.parse(pl[0]) & mask, len, hops));
            }
        });
    }

    // ---- helpers ----

    private interface EntryVisitor {
        void visit(String key, JsonNode entry);
    }

    private interface PortIndexVisitor {
        void visit(String where, int port, int index, JsonNode entry);
    }

    private void forEach(JsonNode root, String table, EntryVisitor visitor) {
        JsonNode t = root.get(table);
        if (t == null) {
            return;
        }
        if (!t.isObject()) {
            problems.add(table + ": must be an object of entries");
            return;
        }
        t.fields().forEachRemaining(f -> {
            if (!f.getValue().isObject()) {
                problems.add(table + "|" + f.getKey() + ": must be an object of fields");
            } else {
                visitor.visit(f.getKey(), f.getValue());
            }
        });
    }

    /** Keys like {@code Ethernet0|3-4} or {@code Ethernet0,Ethernet4|0}. */
    private void perPortIndex(JsonNode root, String table, List<String> names, PortIndexVisitor visitor) {
        forEach(root, table, (key, e) -> {
            String where = table + "|" + key;
            int bar = key.lastIndexOf('|');
            if (bar < 0) {
                problems.add(where + ": key must be 'port|index' or 'port|first-last'");
                return;
            }
            String[] range = key.substring(bar + 1).split("-");
            int from = parseInt(range[0]);
            int to = range.length == 2 ? parseInt(range[1]) : from;
            if (from < 0 || to > 7 || from > to || range.length > 2) {
                problems.add(where + ": '" + key.substring(bar + 1) + "' is not an index 0-7 or a range like 3-4");
                return;
            }
            for (String port : key.substring(0, bar).split(",")) {
                int p = names.indexOf(port);
                if (p < 0) {
                    problems.add(where + ": unknown port '" + port + "'");
                    continue;
                }
                for (int i = from; i <= to; i++) {
                    visitor.visit(where, p, i, e);
                }
            }
        });
    }

    private int[] bound(String where, JsonNode q, String field, Map<String, int[]> maps, String table, int[] dflt) {
        if (q == null || !q.has(field)) {
            return dflt;
        }
        String name = stripRef(q.get(field).asText());
        int[] map = maps.get(name);
        if (map == null) {
            problems.add(where + ": " + field + " '" + name + "' is not in " + table);
            return dflt;
        }
        return map;
    }

    private static int[] identity() {
        int[] m = new int[8];
        Arrays.setAll(m, i -> i);
        return m;
    }

    /** SONiC's older reference syntax {@code [BUFFER_PROFILE|name]}. */
    private static String stripRef(String v) {
        String s = v.trim();
        if (s.startsWith("[") && s.endsWith("]")) {
            s = s.substring(1, s.length() - 1);
            int bar = s.indexOf('|');
            return bar < 0 ? s : s.substring(bar + 1);
        }
        return s;
    }

    private static JsonNode entry(JsonNode root, String table, String key) {
        JsonNode t = root.get(table);
        return t == null ? null : t.get(key);
    }

    private void checkKeys(String where, JsonNode e, String... allowed) {
        if (e == null) {
            return;
        }
        List<String> ok = List.of(allowed);
        e.fieldNames().forEachRemaining(k -> {
            if (!ok.contains(k)) {
                problems.add(where + ": unknown key '" + k + "' (allowed: " + String.join(", ", ok) + ")");
            }
        });
    }

    private static String text(JsonNode e, String field, String dflt) {
        return e == null || !e.has(field) ? dflt : e.get(field).asText();
    }

    private boolean bool(String where, JsonNode e, String field, boolean dflt) {
        String v = text(e, field, Boolean.toString(dflt));
        if (!v.equals("true") && !v.equals("false")) {
            problems.add(where + ": " + field + " must be \"true\" or \"false\", not '" + v + "'");
        }
        return v.equals("true");
    }

    private long number(String where, JsonNode e, String field, long dflt, long min, long max) {
        if (e == null || !e.has(field)) {
            if (dflt < min) {
                problems.add(where + ": missing '" + field + "'");
            }
            return dflt;
        }
        String v = e.get(field).asText().trim();
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException ex) {
            problems.add(where + ": " + field + " '" + v + "' is not a whole number");
            return Math.max(dflt, min);
        }
        if (n < min || n > max) {
            problems.add(where + ": " + field + " " + n + " is out of range [" + min + ", " + max + "]");
        }
        return n;
    }

    private long mac(String where, JsonNode e, String field, long dflt) {
        if (e == null || !e.has(field)) {
            return dflt;
        }
        try {
            return MacAddress.parse(e.get(field).asText());
        } catch (IllegalArgumentException ex) {
            problems.add(where + ": " + ex.getMessage());
            return dflt;
        }
    }

    private static int parseInt(String s) {
        try {
            return Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
