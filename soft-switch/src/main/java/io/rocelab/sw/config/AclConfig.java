package io.rocelab.sw.config;

import java.util.List;
import java.util.Map;

/**
 * SONiC's ACLs as {@code config_db} gives them ({@code ACL_TABLE}, {@code ACL_RULE},
 * {@code MIRROR_SESSION}), read by {@link AclTables}; the switch's ACL stage
 * ({@code io.rocelab.sw.acl.AclStage}) acts on the tables of the modelled types.
 *
 * @param tables   {@code ACL_TABLE}, in file order
 * @param rules    {@code ACL_RULE}, in file order
 * @param sessions {@code MIRROR_SESSION} by name
 */
public record AclConfig(List<Table> tables, List<Rule> rules, Map<String, MirrorSession> sessions) {
    /** No ACLs. */
    public static final AclConfig EMPTY = new AclConfig(List.of(), List.of(), Map.of());

    public AclConfig {
        tables = List.copyOf(tables);
        rules = List.copyOf(rules);
        sessions = Map.copyOf(sessions);
    }

    /** @return true if there is nothing to act on or show */
    public boolean isEmpty() {
        return tables.isEmpty() && sessions.isEmpty();
    }

    /** @return the table called {@code name}, or null */
    public Table table(String name) {
        return tables.stream().filter(t -> t.name().equals(name)).findFirst().orElse(null);
    }

    /**
     * One {@code ACL_TABLE} entry (sonic-acl.yang; aclorch's built-in types).
     *
     * @param name        the key
     * @param type        {@code type} as given, upper case: {@code L3}, {@code L3V6}, {@code MIRROR},
     *                    {@code MIRRORV6} act; any other (CTRLPLANE, ...) is shown, not acted on
     * @param ports       {@code ports}: ports and port channels it is bound to
     * @param egress      {@code stage egress} (default ingress)
     * @param description {@code policy_desc}
     */
    public record Table(String name, String type, List<String> ports, boolean egress, String description) {
        /** The types the switch acts on. */
        public static final List<String> MODELLED = List.of("L3", "L3V6", "MIRROR", "MIRRORV6");

        public Table {
            ports = List.copyOf(ports);
        }

        /** @return true if the switch acts on this table's rules */
        public boolean modelled() {
            return MODELLED.contains(type);
        }

        /** @return true for MIRROR and MIRRORV6 */
        public boolean mirror() {
            return type.startsWith("MIRROR");
        }
    }

    /**
     * What one rule matches: -1 (or null) for a field the rule does not give. A rule matches a
     * packet when every field it gives matches; a field of a header the packet lacks does not.
     *
     * @param srcIp      {@code SRC_IP} address, with {@code srcLen} its prefix length (-1: none)
     * @param dstIp      {@code DST_IP}, {@code dstLen}
     * @param srcIp6     {@code SRC_IPV6}: {high, low, length}, or null
     * @param dstIp6     {@code DST_IPV6}, or null
     * @param ipProtocol {@code IP_PROTOCOL} (or {@code NEXT_HEADER})
     * @param l4SrcLo    {@code L4_SRC_PORT} or {@code L4_SRC_PORT_RANGE} low end; {@code l4SrcHi} the high end
     * @param l4DstLo    {@code L4_DST_PORT}, {@code L4_DST_PORT_RANGE}
     * @param dscp       {@code DSCP}
     * @param etherType  {@code ETHER_TYPE}
     * @param tcpFlags   {@code TCP_FLAGS} value, {@code tcpMask} its mask ({@code 0x12/0x12})
     * @param ipType     {@code IP_TYPE}: one of the {@code IP_*} constants
     */
    public record Match(int srcIp, int srcLen, int dstIp, int dstLen, long[] srcIp6, long[] dstIp6, int ipProtocol,
                        int l4SrcLo, int l4SrcHi, int l4DstLo, int l4DstHi, int dscp, int etherType, int tcpFlags,
                        int tcpMask, int ipType) {
        /** {@code IP_TYPE ANY} (or not given). */
        public static final int IP_ANY = 0;
        /** {@code IP}: IPv4 or IPv6. */
        public static final int IP_IP = 1;
        /** {@code IPV4ANY}. */
        public static final int IP_V4 = 4;
        /** {@code IPV6ANY}. */
        public static final int IP_V6 = 6;
        /** {@code NON_IP}. */
        public static final int IP_NON_IP = -1;
        /** {@code NON_IPv4}. */
        public static final int IP_NON_V4 = -4;
        /** {@code NON_IPv6}. */
        public static final int IP_NON_V6 = -6;
    }

    /**
     * One {@code ACL_RULE|TABLE|RULE} entry.
     *
     * @param table        the table's name
     * @param name         the rule's name
     * @param priority     {@code PRIORITY}: the highest matching one wins
     * @param match        what it matches
     * @param drop         {@code PACKET_ACTION DROP} (FORWARD: false)
     * @param setDscp      {@code SET_DSCP} (SAI_ACL_ENTRY_ATTR_ACTION_SET_DSCP), or -1
     * @param setTc        {@code SET_TC} (SAI_ACL_ENTRY_ATTR_ACTION_SET_TC), or -1
     * @param mirror       {@code MIRROR_ACTION} / {@code MIRROR_INGRESS_ACTION} / {@code MIRROR_EGRESS_ACTION}:
     *                     the session's name, or null
     * @param fields       the entry's fields as given (for {@code show acl rule}), in file order
     */
    public record Rule(String table, String name, int priority, Match match, boolean drop, int setDscp, int setTc,
                       String mirror, Map<String, String> fields) {
        public Rule {
            fields = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(fields));
        }
    }

    /**
     * One {@code MIRROR_SESSION} entry (sonic-mirror-session.yang).
     *
     * @param name    the key
     * @param type    {@code type}: SPAN is modelled (its copies leave by {@code dst_port}); ERSPAN is not
     * @param dstPort {@code dst_port}, or null
     * @param srcPort {@code src_port}, or null (port mirroring without an ACL is not modelled)
     */
    public record MirrorSession(String name, String type, String dstPort, String srcPort) {
        /** @return true if the switch sends this session's copies */
        public boolean span() {
            return "SPAN".equals(type);
        }
    }
}
