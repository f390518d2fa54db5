package io.rocelab.sw.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The config_db tables of SONiC's ACLs, read as sonic-swss's aclorch and mirrororch read them:
 * {@code ACL_TABLE|NAME} ({@code type}, {@code ports}, {@code stage}, {@code policy_desc},
 * {@code services}), {@code ACL_RULE|TABLE|RULE} ({@code PRIORITY}, the match fields and actions
 * aclorch.h names) and {@code MIRROR_SESSION|NAME} ({@code type}, {@code dst_port}, ...).
 *
 * <p>Modelled: tables of type {@code L3}, {@code L3V6}, {@code MIRROR}, {@code MIRRORV6}; matches
 * {@code SRC_IP DST_IP SRC_IPV6 DST_IPV6 IP_PROTOCOL NEXT_HEADER L4_SRC_PORT L4_DST_PORT
 * L4_SRC_PORT_RANGE L4_DST_PORT_RANGE DSCP ETHER_TYPE TCP_FLAGS IP_TYPE}; actions
 * {@code PACKET_ACTION FORWARD|DROP}, {@code SET_DSCP}, {@code SET_TC}, {@code MIRROR_ACTION},
 * {@code MIRROR_INGRESS_ACTION}, {@code MIRROR_EGRESS_ACTION}; {@code SPAN} sessions. A table of
 * another type (a real switch's {@code CTRLPLANE} SNMP_ACL, say) and an {@code ERSPAN} session are
 * accepted and noted as not modelled; a rule field SONiC has but rocelab does not model is a
 * mistake (a rule that silently matched more than it says would mislead), as is any other.
 */
public final class AclTables {
    /** Match fields rocelab models (aclorch.h MATCH_*). */
    private static final Set<String> MATCHES = Set.of("SRC_IP", "DST_IP", "SRC_IPV6", "DST_IPV6", "IP_PROTOCOL",
        "NEXT_HEADER", "L4_SRC_PORT", "L4_DST_PORT", "L4_SRC_PORT_RANGE", "L4_DST_PORT_RANGE", "DSCP", "ETHER_TYPE",
        "TCP_FLAGS", "IP_TYPE");
    /** Actions rocelab models (aclorch.h ACTION_*, SAI's SET_DSCP and SET_TC). */
    private static final Set<String> ACTIONS = Set.of("PACKET_ACTION", "SET_DSCP", "SET_TC", "MIRROR_ACTION",
        "MIRROR_INGRESS_ACTION", "MIRROR_EGRESS_ACTION");
    /** aclorch.h's other fields: SONiC's, not modelled here. */
    private static final Set<String> NOT_MODELLED = Set.of("IN_PORTS", "OUT_PORTS", "VLAN_ID", "TC", "ICMP_TYPE",
        "ICMP_CODE", "ICMPV6_TYPE", "ICMPV6_CODE", "TUNNEL_VNI", "INNER_ETHER_TYPE", "INNER_IP_PROTOCOL",
        "INNER_L4_SRC_PORT", "INNER_L4_DST_PORT", "REDIRECT_ACTION", "DO_NOT_NAT_ACTION", "FLOW_OP", "INT_SESSION",
        "DROP_REPORT_ENABLE", "TAIL_DROP_REPORT_ENABLE", "FLOW_SAMPLE_PERCENT", "REPORT_ALL_PACKETS", "DSCP_ACTION",
        "META_DATA_ACTION", "COUNTER_ACTION", "POLICER_ACTION", "SRC_MAC", "DST_MAC", "BTH_OPCODE", "AETH_SYNDROME",
        "PCP", "DEI", "INNER_SRC_IP", "INNER_DST_IP");
    private static final Set<String> TABLE_FIELDS = Set.of("policy_desc", "type", "ports", "stage", "services");
    private static final Set<String> SESSION_FIELDS = Set.of("type", "dst_port", "src_port", "direction", "queue",
        "policer", "src_ip", "dst_ip", "gre_type", "dscp", "ttl");

    private AclTables() {
    }

    /**
     * Reads the three tables of {@code root}.
     *
     * @param problems one line per mistake, naming TABLE|key
     * @param notes    one line per thing accepted but not acted on
     * @return the ACLs, {@link AclConfig#EMPTY} if there are none
     */
    public static AclConfig read(JsonNode root, List<String> problems, Collection<String> notes) {
        Set<String> interfaces = new LinkedHashSet<>();
        root.path("PORT").fieldNames().forEachRemaining(interfaces::add);
        root.path("PORTCHANNEL").fieldNames().forEachRemaining(interfaces::add);
        Map<String, AclConfig.MirrorSession> sessions = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("MIRROR_SESSION").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String where = "MIRROR_SESSION|" + e.getKey();
            JsonNode s = e.getValue();
            unknownFields(where, s, SESSION_FIELDS, problems);
            // sonic-mirror-session.yang: ERSPAN when no type is given
            String type = s.path("type").asText("ERSPAN").toUpperCase(Locale.ROOT);
            String dst = s.has("dst_port") ? s.get("dst_port").asText() : null;
            String src = s.has("src_port") ? s.get("src_port").asText() : null;
            if (type.equals("SPAN")) {
                if (dst == null) {
                    problems.add(where + ": a SPAN session needs dst_port, the port its copies leave by");
                } else if (!root.path("PORT").has(dst)) {
                    problems.add(where + ": dst_port '" + dst + "' is not a port (not in PORT)");
                }
                if (src != null) {
                    notes.add(where + " src_port (port mirroring without an ACL)");
                }
            } else if (type.equals("ERSPAN")) {
                notes.add(where + " type ERSPAN (its copies are not sent)");
            } else {
                problems.add(where + ": type must be SPAN or ERSPAN, not '" + s.path("type").asText() + "'");
            }
            sessions.put(e.getKey(), new AclConfig.MirrorSession(e.getKey(), type, dst, src));
        }
        List<AclConfig.Table> tables = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("ACL_TABLE").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            AclConfig.Table t = table(e.getKey(), e.getValue(), interfaces, problems, notes);
            if (t != null) {
                tables.add(t);
            }
        }
        List<AclConfig.Rule> rules = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("ACL_RULE").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            AclConfig.Rule r = rule(e.getKey(), e.getValue(), tables, sessions, problems);
            if (r != null) {
                rules.add(r);
            }
        }
        if (tables.isEmpty() && sessions.isEmpty()) {
            return AclConfig.EMPTY;
        }
        return new AclConfig(tables, rules, sessions);
    }

    private static AclConfig.Table table(String name, JsonNode e, Set<String> interfaces, List<String> problems,
                                         Collection<String> notes) {
        String where = "ACL_TABLE|" + name;
        unknownFields(where, e, TABLE_FIELDS, problems);
        if (!e.has("type")) {
            problems.add(where + ": missing 'type' (L3, L3V6, MIRROR, MIRRORV6, ...)");
            return null;
        }
        String type = e.get("type").asText().toUpperCase(Locale.ROOT);
        String stage = e.path("stage").asText("ingress").toLowerCase(Locale.ROOT);
        if (!stage.equals("ingress") && !stage.equals("egress")) {
            problems.add(where + ": stage must be ingress or egress, not '" + e.get("stage").asText() + "'");
        }
        List<String> ports = list(e.get("ports"));
        for (String p : ports) {
            if (!interfaces.contains(p)) {
                problems.add(where + ": ports: '" + p + "' is not a port or a port channel (PORT, PORTCHANNEL)");
            }
        }
        AclConfig.Table t = new AclConfig.Table(name, type, ports, stage.equals("egress"),
            e.path("policy_desc").asText(name));
        if (!t.modelled()) {
            notes.add(where + " type " + type);
        } else if (ports.isEmpty()) {
            notes.add(where + " (bound to no port)");
        }
        return t;
    }

    /** A config_db list: a JSON array, or SONiC's comma-separated text. */
    private static List<String> list(JsonNode v) {
        List<String> out = new ArrayList<>();
        if (v == null) {
            return out;
        }
        if (v.isArray()) {
            v.forEach(x -> out.add(x.asText().trim()));
        } else {
            for (String s : v.asText().split(",")) {
                if (!s.isBlank()) {
                    out.add(s.trim());
                }
            }
        }
        return out;
    }

    private static void unknownFields(String where, JsonNode e, Set<String> known, List<String> problems) {
        if (!e.isObject()) {
            problems.add(where + ": must be an object of fields");
            return;
        }
        e.fieldNames().forEachRemaining(f -> {
            if (!known.contains(f)) {
                problems.add(where + ": unknown field '" + f + "'");
            }
        });
    }

    private static AclConfig.Rule rule(String key, JsonNode e, List<AclConfig.Table> tables,
                                       Map<String, AclConfig.MirrorSession> sessions, List<String> problems) {
        String where = "ACL_RULE|" + key;
        int bar = key.indexOf('|');
        if (bar <= 0 || bar == key.length() - 1 || key.indexOf('|', bar + 1) >= 0) {
            problems.add(where + ": key must be 'TABLE|RULE'");
            return null;
        }
        if (!e.isObject()) {
            problems.add(where + ": must be an object of fields");
            return null;
        }
        String tableName = key.substring(0, bar);
        AclConfig.Table table = tables.stream().filter(t -> t.name().equals(tableName)).findFirst().orElse(null);
        if (table == null) {
            problems.add(where + ": table '" + tableName + "' is not in ACL_TABLE");
            return null;
        }
        Values v = new Values(where, problems);
        int priority = -1;
        int srcIp = 0;
        int srcLen = -1;
        int dstIp = 0;
        int dstLen = -1;
        long[] src6 = null;
        long[] dst6 = null;
        int proto = -1;
        int[] l4Src = {-1, -1};
        int[] l4Dst = {-1, -1};
        int dscp = -1;
        int etherType = -1;
        int[] tcp = {-1, -1};
        int ipType = AclConfig.Match.IP_ANY;
        boolean drop = false;
        int setDscp = -1;
        int setTc = -1;
        String mirror = null;
        int actions = 0;
        Map<String, String> fields = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = e.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String name = f.getKey().toUpperCase(Locale.ROOT);
            String text = f.getValue().asText().trim();
            fields.put(name, text);
            if (name.equals("PRIORITY")) {
                priority = (int) v.number(name, text, 0, 999_999);
                continue;
            }
            if (NOT_MODELLED.contains(name)) {
                problems.add(where + ": " + name + " is SONiC's but not modelled here");
                continue;
            }
            if (!MATCHES.contains(name) && !ACTIONS.contains(name)) {
                problems.add(where + ": unknown field '" + f.getKey() + "'");
                continue;
            }
            if (!typeTakes(table, name)) {
                problems.add(where + ": a " + table.type() + " table's rules cannot use " + name);
                continue;
            }
            switch (name) {
                case "SRC_IP", "DST_IP" -> {
                    long[] p = v.ipv4Prefix(name, text);
                    if (p != null && name.equals("SRC_IP")) {
                        srcIp = (int) p[0];
                        srcLen = (int) p[1];
                    } else if (p != null) {
                        dstIp = (int) p[0];
                        dstLen = (int) p[1];
                    }
                }
                case "SRC_IPV6" -> src6 = v.ipv6Prefix(name, text);
                case "DST_IPV6" -> dst6 = v.ipv6Prefix(name, text);
                case "IP_PROTOCOL", "NEXT_HEADER" -> proto = (int) v.number(name, text, 0, 255);
                case "L4_SRC_PORT" -> l4Src = v.port(name, text, false);
                case "L4_DST_PORT" -> l4Dst = v.port(name, text, false);
                case "L4_SRC_PORT_RANGE" -> l4Src = v.port(name, text, true);
                case "L4_DST_PORT_RANGE" -> l4Dst = v.port(name, text, true);
                case "DSCP" -> dscp = (int) v.number(name, text, 0, 63);
                case "ETHER_TYPE" -> etherType = (int) v.number(name, text, 0, 0xFFFF);
                case "TCP_FLAGS" -> tcp = v.flags(name, text);
                case "IP_TYPE" -> ipType = v.ipType(name, text);
                case "PACKET_ACTION" -> {
                    actions++;
                    String a = text.toUpperCase(Locale.ROOT);
                    if (a.equals("DROP")) {
                        drop = true;
                    } else if (!a.equals("FORWARD")) {
                        problems.add(where + ": PACKET_ACTION must be FORWARD or DROP, not '" + text + "'"
                            + (a.startsWith("REDIRECT") ? " (REDIRECT is not modelled)" : ""));
                    }
                }
                case "SET_DSCP" -> {
                    actions++;
                    setDscp = (int) v.number(name, text, 0, 63);
                }
                case "SET_TC" -> {
                    actions++;
                    if (table.egress()) {
                        problems.add(where + ": SET_TC in an egress table: the traffic class is chosen at ingress");
                    }
                    setTc = (int) v.number(name, text, 0, 7);
                }
                default -> {
                    // the mirror actions
                    actions++;
                    if (!sessions.containsKey(text)) {
                        problems.add(where + ": " + name + " names session '" + text + "', not in MIRROR_SESSION");
                    } else if (name.equals("MIRROR_EGRESS_ACTION") != table.egress()) {
                        problems.add(where + ": " + name + " in a table of stage " + (table.egress() ? "egress"
                            : "ingress") + " (use " + (table.egress() ? "MIRROR_EGRESS_ACTION" : "MIRROR_INGRESS_ACTION")
                            + ")");
                    }
                    mirror = text;
                }
            }
        }
        if (priority < 0 && !fields.containsKey("PRIORITY")) {
            problems.add(where + ": missing 'PRIORITY'");
        }
        if (actions == 0 && table.modelled()) {
            problems.add(where + ": no action (" + (table.mirror() ? "MIRROR_INGRESS_ACTION" : "PACKET_ACTION")
                + ")");
        }
        AclConfig.Match m = new AclConfig.Match(srcIp, srcLen, dstIp, dstLen, src6, dst6, proto, l4Src[0], l4Src[1],
            l4Dst[0], l4Dst[1], dscp, etherType, tcp[0], tcp[1], ipType);
        return new AclConfig.Rule(tableName, key.substring(bar + 1), priority, m, drop, setDscp, setTc, mirror, fields);
    }

    /** aclorch's table types: which fields each takes (a MIRROR table takes IPv6 too, as SONiC's combined one). */
    private static boolean typeTakes(AclConfig.Table t, String field) {
        boolean v6 = field.endsWith("IPV6") || field.equals("NEXT_HEADER");
        boolean v4 = field.equals("SRC_IP") || field.equals("DST_IP");
        boolean mirrorAction = field.startsWith("MIRROR");
        boolean packetAction = field.equals("PACKET_ACTION") || field.startsWith("SET_");
        return switch (t.type()) {
            case "L3" -> !v6 && !mirrorAction;
            case "L3V6" -> !v4 && !mirrorAction;
            case "MIRROR" -> !packetAction;
            case "MIRRORV6" -> !v4 && !packetAction;
            default -> true;
        };
    }

    /** Parses values, one problem line each. */
    private record Values(String where, List<String> problems) {
        long number(String field, String text, long min, long max) {
            try {
                long n = text.startsWith("0x") || text.startsWith("0X") ? Long.parseLong(text.substring(2), 16)
                    : Long.parseLong(text);
                if (n >= min && n <= max) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            problems.add(where + ": " + field + " must be " + min + "-" + max + ", not '" + text + "'");
            return -1;
        }

        long[] ipv4Prefix(String field, String text) {
            try {
                int slash = text.indexOf('/');
                int addr = Ipv4.parse(slash < 0 ? text : text.substring(0, slash));
                int len = slash < 0 ? 32 : Integer.parseInt(text.substring(slash + 1));
                if (len >= 0 && len <= 32) {
                    return new long[] {addr, len};
                }
            } catch (IllegalArgumentException e) {
                // reported below
            }
            problems.add(where + ": " + field + " must be an IPv4 prefix like 10.0.0.1/32, not '" + text + "'");
            return null;
        }

        long[] ipv6Prefix(String field, String text) {
            try {
                int slash = text.indexOf('/');
                byte[] a = Ipv6.parse(slash < 0 ? text : text.substring(0, slash));
                int len = slash < 0 ? 128 : Integer.parseInt(text.substring(slash + 1));
                if (len >= 0 && len <= 128) {
                    long[] m = Prefix6.mask(Prefix6.high(a), Prefix6.low(a), len);
                    return new long[] {m[0], m[1], len};
                }
            } catch (IllegalArgumentException e) {
                // reported below
            }
            problems.add(where + ": " + field + " must be an IPv6 prefix like fd00::1/128, not '" + text + "'");
            return null;
        }

        int[] port(String field, String text, boolean range) {
            int dash = text.indexOf('-');
            if (range != dash > 0) {
                problems.add(where + ": " + field + (range ? " must be a range like 1024-65535" : " must be one port")
                    + ", not '" + text + "'");
                return new int[] {-1, -1};
            }
            int lo = (int) number(field, range ? text.substring(0, dash) : text, 0, 65535);
            int hi = range ? (int) number(field, text.substring(dash + 1), 0, 65535) : lo;
            if (lo > hi) {
                problems.add(where + ": " + field + " " + text + ": the low end is above the high end");
            }
            return new int[] {lo, hi};
        }

        int[] flags(String field, String text) {
            int slash = text.indexOf('/');
            int value = (int) number(field, slash < 0 ? text : text.substring(0, slash), 0, 0xFF);
            int mask = slash < 0 ? 0xFF : (int) number(field, text.substring(slash + 1), 0, 0xFF);
            return new int[] {value & mask, mask};
        }

        int ipType(String field, String text) {
            return switch (text.toUpperCase(Locale.ROOT)) {
                case "ANY" -> AclConfig.Match.IP_ANY;
                case "IP" -> AclConfig.Match.IP_IP;
                case "IPV4ANY" -> AclConfig.Match.IP_V4;
                case "IPV6ANY" -> AclConfig.Match.IP_V6;
                case "NON_IP" -> AclConfig.Match.IP_NON_IP;
                case "NON_IPV4" -> AclConfig.Match.IP_NON_V4;
                case "NON_IPV6" -> AclConfig.Match.IP_NON_V6;
                default -> {
                    problems.add(where + ": " + field + " must be ANY, IP, IPV4ANY, IPV6ANY, NON_IP, NON_IPv4 or "
                        + "NON_IPv6, not '" + text + "'");
                    yield AclConfig.Match.IP_ANY;
                }
            };
        }
    }
}
