package io.rocelab.sw.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocelab.codec.header.MacAddress;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.ToIntFunction;

/**
 * Reads a SONiC {@code config_db.json}-shaped switch configuration and checks that it can work.
 *
 * <p>Why one loader that collects problems: a lab user edits a long JSON file; every mistake (an
 * unknown key, a map with a DSCP of 64, a headroom ({@code xoff}) that a 300 m cable would
 * overrun) becomes one line naming the table and key, and all of them are reported at once in a
 * {@link ConfigException}. The loader reads the text into a {@link SwitchConfigBuilder} and reports
 * what only text can get wrong (a field SONiC's schema does not give the table, a value that is not
 * a number, a name that is not one of an enumeration's); everything else, references, ranges and
 * whether the buffers can work, is {@link ConfigValidator}'s, the same checks a configuration built
 * in Java gets.
 *
 * <p>A real switch's file loads as it is: a table rocelab does not model ({@code FEATURE},
 * {@code CRM}, ...) is no mistake but named in {@link LoadedConfig#ignoredTables()},
 * and a field it accepts but does not act on ({@code PORT admin_status down}) in its notes
 * ({@link #read(String)}). Which tables are modelled, and their fields: {@link SonicTables}.
 *
 * <p>Tables: {@code DEVICE_METADATA}, {@code SWITCH}, {@code PORT}, {@code CABLE_LENGTH},
 * {@code DSCP_TO_TC_MAP}, {@code DOT1P_TO_TC_MAP}, {@code TC_TO_PRIORITY_GROUP_MAP},
 * {@code TC_TO_QUEUE_MAP}, {@code PORT_QOS_MAP}, {@code BUFFER_POOL}, {@code BUFFER_PROFILE},
 * {@code BUFFER_PG}, {@code BUFFER_QUEUE}, {@code WRED_PROFILE}, {@code SCHEDULER}, {@code QUEUE},
 * {@code PFC_WD}, {@code STATIC_ROUTE} (IPv4 and IPv6 prefixes), {@code TC_TO_DOT1P_MAP}, {@code TC_TO_DSCP_MAP}, {@code VLAN},
 * {@code VLAN_MEMBER}, {@code PORTCHANNEL}, {@code PORTCHANNEL_MEMBER},
 * {@code MCLAG_DOMAIN}, {@code MCLAG_INTERFACE}, {@code ACL_TABLE}, {@code ACL_RULE}, {@code MIRROR_SESSION}
 * ({@link AclTables}), {@code SFLOW}, {@code SFLOW_COLLECTOR}, {@code SFLOW_SESSION} ({@link SflowTables}),
 * {@code ARS_PROFILE}, {@code ARS_OBJECT}, {@code ARS_INTERFACES} ({@link ArsTables}),
 * and {@code DSCP_TO_COLOR_MAP} (rocelab's name for SAI's DSCP-to-colour map:
 * SONiC's config has no table for it). Values may be JSON strings (as SONiC stores them) or numbers.
 * Sizes are bytes, {@code PORT speed} is Mb/s, watchdog times are ms, as in SONiC.
 */
public final class ConfigLoader {

    /** Propagation in copper or fibre, about 5 ns per metre. */
    public static final long NANOS_PER_METRE = 5;
    /** FDB entries when {@code SWITCH|switch fdb_table_size} is not given: a datacenter ASIC's L2 table is of this order. */
    public static final int DEFAULT_FDB_TABLE_SIZE = 32_768;
    /** The largest {@code fdb_table_size} accepted. */
    public static final int MAX_FDB_TABLE_SIZE = 1 << 20;

    private final List<String> problems = new ArrayList<>();
    /** Tables in the file that rocelab does not model ({@link SonicTables}). */
    private final List<String> ignored = new ArrayList<>();
    /** Fields accepted whose SONiC effect rocelab does not reproduce, each once: "SCHEDULER pir". */
    private final Set<String> unmodelled = new LinkedHashSet<>();

    private ConfigLoader() {
    }

    /**
     * @param file a JSON file
     * @return the configuration
     * @throws ConfigException if anything is wrong, with one line per mistake
     * @throws IOException     if the file cannot be read
     */
    public static SwitchConfig load(Path file) throws IOException {
        return read(file).config();
    }

    /**
     * @param json the whole configuration
     * @return the configuration
     * @throws ConfigException if anything is wrong, with one line per mistake
     */
    public static SwitchConfig parse(String json) {
        return read(json).config();
    }

    /**
     * As {@link #load(Path)}, with what the file carries that rocelab leaves alone.
     *
     * @param file a JSON file, such as a switch's own {@code /etc/sonic/config_db.json}
     * @return the configuration, the tables ignored and the notes
     * @throws ConfigException if anything is wrong, with one line per mistake
     * @throws IOException     if the file cannot be read
     */
    public static LoadedConfig read(Path file) throws IOException {
        return read(Files.readString(file));
    }

    /**
     * As {@link #parse(String)}, with what the text carries that rocelab leaves alone.
     *
     * @param json the whole configuration
     * @return the configuration, the tables ignored and the notes
     * @throws ConfigException if anything is wrong, with one line per mistake
     */
    public static LoadedConfig read(String json) {
        ConfigLoader loader = new ConfigLoader();
        SwitchConfigBuilder tables = loader.readTables(json);
        SwitchConfig config = tables.withBgp(ConfigValidator.resolve(tables, loader.problems), loader.problems);
        if (!loader.problems.isEmpty()) {
            throw new ConfigException(loader.problems);
        }
        return new LoadedConfig(config, loader.ignored, loader.notes());
    }

    /**
     * Reads the text into tables without resolving them, for a configuration to be completed in
     * Java (routes, a QoS profile) before {@link SwitchConfigBuilder#build()} checks it all.
     *
     * @param json the whole configuration
     * @return its tables
     * @throws ConfigException with one line per mistake the text itself has (unknown tables or keys,
     *                         values that are not numbers, names outside an enumeration)
     */
    public static SwitchConfigBuilder tables(String json) {
        ConfigLoader loader = new ConfigLoader();
        SwitchConfigBuilder tables = loader.readTables(json);
        if (!loader.problems.isEmpty()) {
            throw new ConfigException(loader.problems);
        }
        return tables;
    }

    private SwitchConfigBuilder readTables(String json) {
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
        return readTables(root);
    }

    private SwitchConfigBuilder readTables(JsonNode root) {
        root.fieldNames().forEachRemaining(t -> {
            if (!SonicTables.modelled(t)) {
                ignored.add(t);
            }
        });
        SwitchConfigBuilder b = new SwitchConfigBuilder();
        JsonNode meta = entry(root, "DEVICE_METADATA", "localhost");
        checkFields("DEVICE_METADATA", "localhost", meta);
        b.hostname(text(meta, "hostname", "switch"));
        b.mac(mac("DEVICE_METADATA|localhost", meta, "mac", 0x02_00_00_00_00_01L));

        JsonNode sw = entry(root, "SWITCH", "switch");
        checkFields("SWITCH", "switch", sw);
        b.ecmpHashSeed(number("SWITCH|switch", sw, "ecmp_hash_seed", 0));
        b.fdbAgingTime(number("SWITCH|switch", sw, "fdb_aging_time", 600));
        b.fdbTableSize(number("SWITCH|switch", sw, "fdb_table_size", DEFAULT_FDB_TABLE_SIZE));
        b.flowletTimeout(number("SWITCH|switch", sw, "flowlet_timeout", 0));
        b.pfcQuanta(number("SWITCH|switch", sw, "pfc_quanta", 0xFFFF));

        pools(root, b);
        maps(root, "DSCP_TO_TC_MAP", 64, "a DSCP (0-63)", ZERO_TO_SEVEN, "a traffic class or queue (0-7)", b::dscpToTcMap);
        maps(root, "DOT1P_TO_TC_MAP", 8, "an 802.1p priority (0-7)", ZERO_TO_SEVEN, "a traffic class or queue (0-7)",
            b::dot1pToTcMap);
        maps(root, "TC_TO_PRIORITY_GROUP_MAP", 8, "a traffic class (0-7)", ZERO_TO_SEVEN,
            "a traffic class or queue (0-7)", b::tcToPriorityGroupMap);
        maps(root, "TC_TO_QUEUE_MAP", 8, "a traffic class (0-7)", ZERO_TO_SEVEN, "a traffic class or queue (0-7)",
            b::tcToQueueMap);
        maps(root, "TC_TO_DOT1P_MAP", 8, "a traffic class (0-7)", ZERO_TO_SEVEN, "an 802.1p priority (0-7)",
            b::tcToDot1pMap);
        maps(root, "TC_TO_DSCP_MAP", 8, "a traffic class (0-7)", ZERO_TO_SEVEN, "a DSCP (0-63)",
            b::tcToDscpMap);
        maps(root, "DSCP_TO_COLOR_MAP", 64, "a DSCP (0-63)", Color::parse, "a colour (green, yellow, red)",
            b::dscpToColorMap);
        vlans(root, b);
        profiles(root, b);
        wreds(root, b);
        schedulers(root, b);
        ports(root, b);
        routes(root, b);
        portChannels(root, b);
        JsonNode wdGlobal = entry(root, "PFC_WD", "GLOBAL");
        checkKeys("PFC_WD|GLOBAL", wdGlobal, SonicTables.PFC_WD_GLOBAL);
        b.pfcWdPollInterval(number("PFC_WD|GLOBAL", wdGlobal, "POLL_INTERVAL", 200));
        for (String table : BgpTables.TABLES) {
            forEach(root, table, (key, e) -> checkFields(table, key, e));
        }
        BgpTables.read(root, b, problems);
        b.acl(AclTables.read(root, problems, unmodelled));
        for (String table : SflowTables.TABLES) {
            forEach(root, table, (key, e) -> checkFields(table, key, e));
        }
        b.sflow(SflowTables.read(root, problems));
        b.ars(ArsTables.read(root, problems, unmodelled));
        b.vxlan(VxlanTables.read(root, problems, unmodelled));
        return b;
    }

    // ---- tables ----

    private void pools(JsonNode root, SwitchConfigBuilder b) {
        forEach(root, "BUFFER_POOL", (key, e) -> {
            String where = "BUFFER_POOL|" + key;
            checkKeys(where, e, "size", "type", "mode", "xoff");
            long size = number(where, e, "size", SwitchConfigBuilder.UNSET);
            String type = text(e, "type", "ingress");
            if (!type.equals("ingress") && !type.equals("egress")) {
                problems.add(where + ": type must be 'ingress' or 'egress', not '" + type + "'");
            }
            String mode = text(e, "mode", "dynamic");
            if (!mode.equals("static") && !mode.equals("dynamic")) {
                problems.add(where + ": mode must be 'static' or 'dynamic', not '" + mode + "'");
            }
            long xoff = number(where, e, "xoff", 0);
            b.bufferPool(new BufferPool(key, size, mode.equals("static") ? BufferPool.Mode.STATIC
                : BufferPool.Mode.DYNAMIC, xoff));
        });
    }

    /** Reads a map value (a TC, queue, PG or priority) as a number, -1 if it is not one; the validator checks its range. */
    private static final ToIntFunction<String> ZERO_TO_SEVEN = ConfigLoader::parseInt;

    /** @param parse reads one value, -1 if invalid; {@code valueWhat} names what it should be */
    private void maps(JsonNode root, String table, int keys, String keyWhat, ToIntFunction<String> parse,
                      String valueWhat, BiConsumer<String, int[]> into) {
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
            into.accept(name, map);
        });
    }

    /** {@code BUFFER_PROFILE}: SAI's fields; {@code headroom_type dynamic} leaves size/xon/xoff to each port's physics. */
    private void profiles(JsonNode root, SwitchConfigBuilder b) {
        forEach(root, "BUFFER_PROFILE", (name, e) -> {
            String where = "BUFFER_PROFILE|" + name;
            if (e.has("headroom")) {
                problems.add(where + ": 'headroom' is no SONiC key: 'xoff' is the headroom (SAI_BUFFER_PROFILE_ATTR_XOFF_TH), "
                    + "and XOFF is sent when the PG reaches its dynamic_th/static_th share of the pool");
            }
            checkKeys(where, e, "pool", "size", "xon", "xoff", "headroom", "static_th", "dynamic_th", "xon_offset",
                "headroom_type");
            String pool = stripRef(text(e, "pool", ""));
            long size = number(where, e, "size", 0);
            long xon = number(where, e, "xon", 0);
            long xoff = number(where, e, "xoff", 0);
            long xonOffset = number(where, e, "xon_offset", 0);
            long staticTh = number(where, e, "static_th", -1);
            long dynamicTh = e.has("dynamic_th") ? number(where, e, "dynamic_th", 0) : Integer.MIN_VALUE;
            if (dynamicTh != Integer.MIN_VALUE && (dynamicTh < -8 || dynamicTh > 8)) {
                problems.add(where + ": dynamic_th " + dynamicTh + " is out of range [-8, 8]");
                dynamicTh = 0;
            }
            String headroomType = text(e, "headroom_type", "static");
            if (!headroomType.equals("static") && !headroomType.equals("dynamic")) {
                problems.add(where + ": headroom_type must be 'static' or 'dynamic', not '" + headroomType + "'");
            }
            b.bufferProfile(new BufferProfile(name, pool, size, xon, xoff, xonOffset, staticTh, (int) dynamicTh,
                headroomType.equals("dynamic")));
        });
    }

    private void wreds(JsonNode root, SwitchConfigBuilder b) {
        forEach(root, "WRED_PROFILE", (name, e) -> {
            String where = "WRED_PROFILE|" + name;
            checkFields("WRED_PROFILE", name, e);
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
            WredProfile.ColorRule green = colorRule(where, e, "green", covered.contains("g"));
            WredProfile.ColorRule yellow = colorRule(where, e, "yellow", covered.contains("y"));
            WredProfile.ColorRule red = colorRule(where, e, "red", covered.contains("r"));
            b.wredProfile(new WredProfile(name, green, yellow, red));
        });
    }

    /** One colour's WRED fields; absent thresholds are {@link SwitchConfigBuilder#UNSET} for the validator. */
    private WredProfile.ColorRule colorRule(String where, JsonNode e, String color, boolean ecn) {
        boolean enabled = bool(where, e, "wred_" + color + "_enable", false);
        long min = number(where, e, color + "_min_threshold", SwitchConfigBuilder.UNSET);
        long max = number(where, e, color + "_max_threshold", SwitchConfigBuilder.UNSET);
        long pct = number(where, e, color + "_drop_probability", 100);
        return new WredProfile.ColorRule(enabled, ecn, min, max, pct / 100.0);
    }

    private void schedulers(JsonNode root, SwitchConfigBuilder b) {
        forEach(root, "SCHEDULER", (name, e) -> {
            String where = "SCHEDULER|" + name;
            checkFields("SCHEDULER", name, e);
            String type = text(e, "type", "DWRR").toUpperCase();
            boolean strict = type.equals("STRICT");
            if (!strict && !type.equals("DWRR") && !type.equals("WRR")) {
                problems.add(where + ": type must be STRICT, DWRR or WRR, not '" + type + "'");
            }
            long weight = number(where, e, "weight", 1);
            b.scheduler(new SchedulerConfig(name, strict, (int) Math.max(Integer.MIN_VALUE + 1,
                Math.min(Integer.MAX_VALUE, weight))));
        });
    }

    private void ports(JsonNode root, SwitchConfigBuilder b) {
        List<String> down = new ArrayList<>();
        List<String> asymmetric = new ArrayList<>();
        forEach(root, "PORT", (name, e) -> {
            String where = "PORT|" + name;
            checkFields("PORT", name, e);
            b.port(name, number(where, e, "speed", 100_000), (int) number(where, e, "mtu", 9100));
            String admin = text(e, "admin_status", "up");
            if (!admin.equals("up") && !admin.equals("down")) {
                problems.add(where + ": admin_status must be 'up' or 'down', not '" + admin + "'");
            } else if (admin.equals("down")) {
                down.add(name);
            }
            if (text(e, "pfc_asym", "off").equals("on")) {
                asymmetric.add(name);
            }
            String pause = text(e, GlobalFlowControl.FIELD, GlobalFlowControl.OFF.value());
            GlobalFlowControl mode = GlobalFlowControl.parse(pause);
            if (mode == null) {
                problems.add(where + ": " + GlobalFlowControl.FIELD + " must be off, tx, rx or both, not '" + pause + "'");
            } else if (mode != GlobalFlowControl.OFF) {
                b.globalFlowControl(name, mode);
            }
        });
        if (!down.isEmpty()) {
            unmodelled.add("PORT admin_status down (" + String.join(", ", down) + ": they carry traffic as if up)");
        }
        if (!asymmetric.isEmpty()) {
            unmodelled.add("PORT pfc_asym on (" + String.join(", ", asymmetric) + ")");
        }
        forEach(root, "CABLE_LENGTH", (name, e) -> e.fields().forEachRemaining(f -> {
            String v = f.getValue().asText().trim();
            int m = parseInt(v.endsWith("m") ? v.substring(0, v.length() - 1) : v);
            if (m < 0) {
                problems.add("CABLE_LENGTH|" + name + ": '" + v + "' for " + f.getKey() + " is not a length like '5m'");
            } else {
                b.cableLength(name, f.getKey(), m);
            }
        }));
        forEach(root, "BUFFER_PG", (key, e) -> {
            checkFields("BUFFER_PG", key, e);
            // "NULL" (SONiC's dynamic buffer model) is worked out per port by the validator, as buffermgrd does
            b.bufferPg(key, stripRef(text(e, "profile", "")));
        });
        forEach(root, "BUFFER_QUEUE", (key, e) -> {
            checkFields("BUFFER_QUEUE", key, e);
            b.bufferQueue(key, stripRef(text(e, "profile", "")));
        });
        forEach(root, "QUEUE", (key, e) -> {
            checkFields("QUEUE", key, e);
            b.queue(key, e.has("scheduler") ? stripRef(e.get("scheduler").asText()) : null,
                e.has("wred_profile") ? stripRef(e.get("wred_profile").asText()) : null);
        });
        forEach(root, "PFC_WD", (key, e) -> {
            if (key.equals("GLOBAL")) {
                return;
            }
            String where = "PFC_WD|" + key;
            checkFields("PFC_WD", key, e);
            PfcWdAction action;
            try {
                action = PfcWdAction.valueOf(text(e, "action", "drop").toUpperCase());
            } catch (IllegalArgumentException ex) {
                problems.add(where + ": action must be drop, forward or alert, not '" + text(e, "action", "") + "'");
                action = PfcWdAction.DROP;
            }
            long detect = number(where, e, "detection_time", 200);
            long restore = number(where, e, "restoration_time", 200);
            b.pfcWd(key, new PfcWdConfig(action, detect * 1_000_000L, restore * 1_000_000L));
        });
        forEach(root, "PORT_QOS_MAP", (key, q) -> {
            String qwhere = "PORT_QOS_MAP|" + key;
            checkFields("PORT_QOS_MAP", key, q);
            List<Integer> pfc = new ArrayList<>();
            if (q.has("pfc_enable")) {
                String list = q.get("pfc_enable").asText().trim();
                if (!list.isEmpty()) {
                    for (String s : list.split(",")) {
                        int p = parseInt(s.trim());
                        if (p < 0) {
                            problems.add(qwhere + ": pfc_enable '" + list + "' must list priorities 0-7 like \"3,4\"");
                        } else {
                            pfc.add(p);
                        }
                    }
                }
            }
            b.portQosMap(key, new SwitchConfigBuilder.PortQosMap(ref(q, "dscp_to_tc_map"), ref(q, "dot1p_to_tc_map"),
                ref(q, "tc_to_pg_map"), ref(q, "tc_to_queue_map"), pfc, ref(q, "dscp_to_color_map"),
                ref(q, "tc_to_dot1p_map"), ref(q, "tc_to_dscp_map")));
        });
    }

    private static String ref(JsonNode q, String field) {
        return q.has(field) ? stripRef(q.get(field).asText()) : null;
    }

    /**
     * {@code VLAN|Vlan100 {"vlanid": "100"}} and {@code VLAN_MEMBER|Vlan100|Ethernet0
     * {"tagging_mode": "untagged"}}.
     */
    private void vlans(JsonNode root, SwitchConfigBuilder b) {
        forEach(root, "VLAN", (name, e) -> {
            String where = "VLAN|" + name;
            checkFields("VLAN", name, e);
            b.vlan(name, number(where, e, "vlanid", SwitchConfigBuilder.UNSET));
        });
        forEach(root, "VLAN_MEMBER", (key, e) -> {
            String where = "VLAN_MEMBER|" + key;
            checkFields("VLAN_MEMBER", key, e);
            String mode = text(e, "tagging_mode", "untagged");
            if (!mode.equals("tagged") && !mode.equals("untagged")) {
                problems.add(where + ": tagging_mode must be 'tagged' or 'untagged', not '" + mode + "'");
            } else {
                b.vlanMembers.put(key, mode.equals("tagged"));
            }
        });
    }

    /**
     * {@code PORTCHANNEL|PortChannel0001 {"admin_status": "up", "mtu": "9100", "min_links": "1",
     * "lacp_key": "auto", "fallback": "false", "fast_rate": "false"}} and
     * {@code PORTCHANNEL_MEMBER|PortChannel0001|Ethernet0 {}}. {@code static "true"} (SONiC's static
     * LAG) runs no LACP.
     */
    private void portChannels(JsonNode root, SwitchConfigBuilder b) {
        forEach(root, "PORTCHANNEL", (name, e) -> {
            String where = "PORTCHANNEL|" + name;
            checkFields("PORTCHANNEL", name, e);
            b.portChannel(name, new SwitchConfigBuilder.PortChannel(text(e, "admin_status", "up"),
                number(where, e, "mtu", PortChannelConfig.DEFAULT_MTU), number(where, e, "min_links", 1),
                bool(where, e, "static", false), bool(where, e, "fast_rate", false), bool(where, e, "fallback", false),
                text(e, "lacp_key", "auto")));
        });
        forEach(root, "PORTCHANNEL_MEMBER", (key, e) -> {
            checkFields("PORTCHANNEL_MEMBER", key, e);
            b.portChannelMembers.add(key);
        });
        forEach(root, "MCLAG_DOMAIN", (key, e) -> {
            String where = "MCLAG_DOMAIN|" + key;
            checkFields("MCLAG_DOMAIN", key, e);
            List<String> interfaces = new ArrayList<>();
            for (String i : text(e, "mclag_interface", "").split(",")) {
                if (!i.isBlank()) {
                    interfaces.add(i.trim());
                }
            }
            b.mclagDomain(key, new SwitchConfigBuilder.McLagDomain(text(e, "source_ip", ""), text(e, "peer_ip", ""),
                e.has("peer_link") ? text(e, "peer_link", "") : null, interfaces,
                e.has("system_mac") ? text(e, "system_mac", "") : null, number(where, e, "keepalive_interval", 1),
                number(where, e, "session_timeout", 15)));
        });
        forEach(root, "MCLAG_INTERFACE", (key, e) -> {
            String where = "MCLAG_INTERFACE|" + key;
            checkFields("MCLAG_INTERFACE", key, e);
            String type = text(e, "if_type", "PortChannel");
            if (!type.equals("PortChannel")) {
                problems.add(where + ": if_type must be 'PortChannel', not '" + type + "'");
            }
            b.mclagInterfaces.add(key);
        });
    }

    private void routes(JsonNode root, SwitchConfigBuilder b) {
        forEach(root, "STATIC_ROUTE", (key, e) -> {
            String where = "STATIC_ROUTE|" + key;
            checkFields("STATIC_ROUTE", key, e);
            String[] ifs = text(e, "ifname", "").split(",");
            String[] macs = text(e, "nexthop_mac", "").split(",");
            if (ifs.length != macs.length || ifs[0].isEmpty()) {
                problems.add(where + ": 'ifname' and 'nexthop_mac' must list the same number (at least one) of next hops");
                return;
            }
            List<RouteConfig.NextHop> hops = new ArrayList<>();
            for (int i = 0; i < ifs.length; i++) {
                try {
                    hops.add(new RouteConfig.NextHop(ifs[i].trim(), MacAddress.parse(macs[i])));
                } catch (IllegalArgumentException ex) {
                    problems.add(where + ": " + ex.getMessage());
                }
            }
            if (hops.size() == ifs.length) {
                b.staticRoute(key, hops);
            }
        });
    }

    /**
     * @return the smallest headroom ({@code xoff}) a lossless PG may have; see
     *         {@link ConfigValidator#requiredHeadroom}
     */
    public static long requiredHeadroom(long speedBitsPerSecond, int cableMeters, int mtu) {
        return ConfigValidator.requiredHeadroom(speedBitsPerSecond, cableMeters, mtu);
    }

    // ---- helpers ----

    private interface EntryVisitor {
        void visit(String key, JsonNode entry);
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

    /**
     * The fields of an entry of a modelled table must be fields SONiC's model ({@link SonicTables})
     * gives it; one whose effect rocelab does not reproduce is noted.
     */
    private void checkFields(String table, String key, JsonNode e) {
        checkKeys(table + "|" + key, e, SonicTables.fields(table));
        if (e != null) {
            e.fieldNames().forEachRemaining(f -> {
                if (SonicTables.unmodelled(table).contains(f)) {
                    unmodelled.add(table + " " + f);
                }
            });
        }
    }

    /** @return one line naming every field accepted whose effect rocelab does not reproduce, or none */
    private List<String> notes() {
        return unmodelled.isEmpty() ? List.of()
            : List.of("not modelled, no effect here: " + String.join(", ", unmodelled));
    }

    private void checkKeys(String where, JsonNode e, String... allowed) {
        checkKeys(where, e, List.of(allowed));
    }

    /** Each unknown field is one line: the closest allowed one if it looks like a misspelling, else all of them. */
    private void checkKeys(String where, JsonNode e, Collection<String> allowed) {
        if (e == null) {
            return;
        }
        List<String> ok = allowed.stream().sorted().toList();
        e.fieldNames().forEachRemaining(k -> {
            if (!ok.contains(k)) {
                String near = SonicTables.closest(k, ok);
                problems.add(where + ": unknown key '" + k + "' (" + (near != null ? "did you mean '" + near + "'?"
                    : ok.isEmpty() ? "the entry has no fields" : "allowed: " + String.join(", ", ok)) + ")");
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

    /**
     * @param dflt the value when the field is absent ({@link SwitchConfigBuilder#UNSET} for a required
     *             one, which the validator reports as missing)
     * @return the field as a whole number; its range is the validator's to check
     */
    private long number(String where, JsonNode e, String field, long dflt) {
        if (e == null || !e.has(field)) {
            return dflt;
        }
        String v = e.get(field).asText().trim();
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException ex) {
            problems.add(where + ": " + field + " '" + v + "' is not a whole number");
            return dflt == SwitchConfigBuilder.UNSET ? 1 : dflt;
        }
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
