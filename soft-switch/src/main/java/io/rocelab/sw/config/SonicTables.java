package io.rocelab.sw.config;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which of SONiC's {@code config_db} tables rocelab models, and the fields SONiC's schema gives each
 * of them, in one place.
 *
 * <p>Why: a real {@code config_db.json} carries far more than a switch's data plane
 * ({@code DEVICE_METADATA}'s hwsku and bgp_asn, {@code FEATURE}, {@code CRM},
 * {@code TELEMETRY}, ...). {@link ConfigLoader} accepts a table it does not model and names it once
 * as ignored; in a table it does model, every field of SONiC's YANG model
 * ({@code src/sonic-yang-models/yang-models/sonic-*.yang} in sonic-buildimage) is accepted, used or not,
 * and any other field is a mistake: a misspelt {@code "sped"} is caught, a real {@code "autoneg"} is not.
 * Modelling a further table is one entry here and its reader in {@link ConfigLoader}.
 *
 * <p>A few fields are rocelab's own and marked so: SONiC has no {@code SWITCH} table in
 * {@code config_db} (its {@code ecmp_hash_seed} and {@code fdb_aging_time} are the orchagent's
 * {@code SWITCH_TABLE}), and {@code STATIC_ROUTE nexthop_mac}, {@code PORT_QOS_MAP dscp_to_color_map},
 * {@code PORTCHANNEL static} and {@code MCLAG_DOMAIN mclag_interface}/{@code system_mac} are how
 * rocelab spells what SONiC gets elsewhere (the neighbour table, SAI's DSCP-to-colour map, teamd's
 * static mode, the MCLAG CLI).
 *
 * <p>{@code BUFFER_POOL} and {@code BUFFER_PROFILE} fields are checked by their readers in
 * {@link ConfigLoader} ({@code sonic-buffer-pool.yang}, {@code sonic-buffer-profile.yang}).
 */
public final class SonicTables {
    /** Tables whose entries are maps from a number to a number or name: their fields are the map's keys. */
    private static final List<String> MAPS = List.of("DSCP_TO_TC_MAP", "DOT1P_TO_TC_MAP", "TC_TO_PRIORITY_GROUP_MAP",
        "TC_TO_QUEUE_MAP", "TC_TO_DOT1P_MAP", "DSCP_TO_COLOR_MAP", "TC_TO_DSCP_MAP");

    /** Modelled tables with the fields SONiC's YANG model (and, where marked, rocelab) defines; null = not by name. */
    private static final Map<String, Set<String>> FIELDS = new LinkedHashMap<>();

    static {
        // sonic-device_metadata.yang, container localhost
        FIELDS.put("DEVICE_METADATA", Set.of("hwsku", "asic_id", "default_bgp_status", "docker_routing_config_mode",
            "hostname", "platform", "mac", "default_pfcwd_status", "bgp_asn", "deployment_id", "type", "buffer_model",
            "frr_mgmt_framework_config", "synchronous_mode", "yang_config_validation", "cloudtype", "region",
            "sub_role", "downstream_subrole", "resource_type", "mgmt_type", "cluster", "subtype", "peer_switch",
            "storage_device", "asic_name", "switch_id", "switch_type", "max_cores", "dhcp_server",
            "bgp_adv_lo_prefix_as_128", "suppress-fib-pending", "rack_mgmt_map", "timezone",
            "create_only_config_db_buffers", "supporting_bulk_counter_groups", "bgp_router_id", "chassis_hostname",
            "slice_type", "location_type", "nexthop_group", "ring_thread_enabled", "t2_group_asns",
            "anchor_route_source", "orch_northbond_dash_zmq_enabled", "syslog_with_osversion", "syslog_counter",
            "has_sonic_dhcpv4_relay", "zebra_nexthop", "use_template_render_for_restore", "dpu_auto_recovery"));
        // rocelab's own: SONiC sets these through the orchagent's SWITCH_TABLE or SAI
        FIELDS.put("SWITCH", Set.of("ecmp_hash_seed", "fdb_aging_time", "fdb_table_size", "flowlet_timeout",
            "pfc_quanta"));
        // sonic-port.yang
        FIELDS.put("PORT", Set.of("core_id", "core_port_id", "num_voq", "alias", "lanes", "mode", "description",
            "speed", "dhcp_rate_limit", "link_training", "autoneg", "adv_speeds", "interface_type",
            "adv_interface_types", "mtu", "subport", "index", "asic_port_name", "role", "admin_status", "fec",
            "dom_polling", "pfc_asym", "tpid", "mux_cable", "macsec", "tx_power", "laser_freq", "fast_linkup",
            // rocelab's own: 802.3x PAUSE (SAI_PORT_ATTR_GLOBAL_FLOW_CONTROL_MODE), which config_db lacks
            GlobalFlowControl.FIELD));
        // sonic-cable-length.yang: the fields are port names
        FIELDS.put("CABLE_LENGTH", null);
        for (String m : MAPS) {
            FIELDS.put(m, null);
        }
        // sonic-port-qos-map.yang; dscp_to_color_map and tc_to_dot1p_map are rocelab's
        FIELDS.put("PORT_QOS_MAP", Set.of("tc_to_pg_map", "tc_to_queue_map", "pfc_enable", "pfcwd_sw_enable",
            "pfc_to_queue_map", "pfc_to_pg_map", "dscp_to_tc_map", "tc_to_dscp_map", "dot1p_to_tc_map", "scheduler",
            "dscp_to_color_map", "tc_to_dot1p_map"));
        FIELDS.put("BUFFER_POOL", null);
        FIELDS.put("BUFFER_PROFILE", null);
        // sonic-buffer-pg.yang, sonic-buffer-queue.yang
        FIELDS.put("BUFFER_PG", Set.of("profile"));
        FIELDS.put("BUFFER_QUEUE", Set.of("profile"));
        // sonic-wred-profile.yang
        FIELDS.put("WRED_PROFILE", Set.of("wred_green_enable", "wred_yellow_enable", "wred_red_enable", "ecn",
            "green_min_threshold", "green_max_threshold", "green_drop_probability",
            "yellow_min_threshold", "yellow_max_threshold", "yellow_drop_probability",
            "red_min_threshold", "red_max_threshold", "red_drop_probability"));
        // sonic-scheduler.yang
        FIELDS.put("SCHEDULER", Set.of("type", "weight", "priority", "meter_type", "cir", "pir", "cbs", "pbs"));
        // sonic-queue.yang
        FIELDS.put("QUEUE", Set.of("scheduler", "wred_profile"));
        // sonic-pfcwd.yang, a port's entry (GLOBAL: PFC_WD_GLOBAL)
        FIELDS.put("PFC_WD", Set.of("action", "detection_time", "restoration_time", "pfc_stat_history"));
        // sonic-static-route.yang; nexthop_mac is rocelab's (it has no neighbour resolution for static routes)
        FIELDS.put("STATIC_ROUTE", Set.of("nexthop", "ifname", "advertise", "distance", "nexthop-vrf", "blackhole",
            "bfd", "nexthop_mac"));
        // sonic-vlan.yang
        FIELDS.put("VLAN", Set.of("vlanid", "alias", "description", "dhcp_servers", "dhcpv6_servers", "mtu",
            "admin_status", "mac"));
        FIELDS.put("VLAN_MEMBER", Set.of("tagging_mode"));
        // sonic-portchannel.yang; static is rocelab's (teamd's static runner)
        FIELDS.put("PORTCHANNEL", Set.of("min_links", "mode", "description", "mtu", "admin_status", "lacp_key", "tpid",
            "fallback", "fast_rate", "system_mac", "static"));
        FIELDS.put("PORTCHANNEL_MEMBER", Set.of());
        // sonic-mclag.yang; mclag_interface and system_mac are rocelab's
        FIELDS.put("MCLAG_DOMAIN", Set.of("source_ip", "peer_ip", "peer_link", "keepalive_interval", "session_timeout",
            "mclag_interface", "system_mac"));
        FIELDS.put("MCLAG_INTERFACE", Set.of("if_type"));
        // read by BgpTables for the eBGP speaker: sonic-bgp-neighbor.yang, sonic-interface.yang and
        // sonic-loopback-interface.yang (an interface's own entry and its address entries, Ethernet0|10.0.0.0/31)
        FIELDS.put("BGP_NEIGHBOR", Set.of("asn", "name", "local_addr", "holdtime", "keepalive", "admin_status",
            "nhopself", "rrclient", "peer_addr"));
        FIELDS.put("INTERFACE", Set.of("vrf_name", "nat_zone", "mpls", "ipv6_use_link_local_only", "mac_addr",
            "loopback_action", "scope", "family", "secondary"));
        // sonic-acl.yang, sonic-mirror-session.yang: checked by AclTables
        FIELDS.put("ACL_TABLE", null);
        FIELDS.put("ACL_RULE", null);
        FIELDS.put("MIRROR_SESSION", null);
        FIELDS.put("LOOPBACK_INTERFACE", Set.of("vrf_name", "nat_zone", "admin_status", "scope", "family"));
        // read by sw.lldp.LldpTables: FEATURE|lldp state (the other features' entries are not looked at),
        // MGMT_INTERFACE's IPv4 address as LLDP's management address
        FIELDS.put("FEATURE", null);
        FIELDS.put("MGMT_INTERFACE", null);
        // sonic-sflow.yang, read by SflowTables; drop_monitor_limit is what show sflow prints (not modelled)
        FIELDS.put("SFLOW", Set.of("admin_state", "polling_interval", "agent_id", "sample_direction",
            "drop_monitor_limit"));
        FIELDS.put("SFLOW_COLLECTOR", Set.of("collector_ip", "collector_port", "collector_vrf"));
        FIELDS.put("SFLOW_SESSION", Set.of("admin_state", "sample_rate", "sample_direction"));
        // SONiC's Local ARS HLD (doc/ARS/Local_ARS_HLD.md): checked by ArsTables
        for (String t : ArsTables.TABLES) {
            FIELDS.put(t, null);
        }
        // sonic-vxlan.yang (and rocelab's VXLAN_REMOTE_VNI, APPL_DB's VXLAN_REMOTE_VNI_TABLE): checked by VxlanTables
        for (String t : VxlanTables.TABLES) {
            FIELDS.put(t, null);
        }
    }

    /**
     * Fields rocelab accepts but whose effect it does not reproduce, by table: a file that uses them
     * gets a note. A port's shaper ({@code PORT_QOS_MAP scheduler}), a scheduler's metering and strict-priority level
     * ({@code SCHEDULER meter_type, cir, cbs, pir, pbs, priority}), a port channel's L2 mode and own
     * system MAC ({@code PORTCHANNEL mode, system_mac}), a static route's options
     * ({@code STATIC_ROUTE advertise, nexthop-vrf, bfd}). {@code PORT}'s {@code admin_status down} and
     * {@code pfc_asym on} are noted by value.
     */
    private static final Map<String, Set<String>> UNMODELLED = Map.of(
        "PORT_QOS_MAP", Set.of("scheduler"),
        "SCHEDULER", Set.of("meter_type", "cir", "cbs", "pir", "pbs", "priority"),
        "PORTCHANNEL", Set.of("mode", "system_mac"),
        "STATIC_ROUTE", Set.of("advertise", "nexthop-vrf", "bfd"),
        "SFLOW", Set.of("drop_monitor_limit"));

    /** {@code PFC_WD|GLOBAL}: sonic-pfcwd.yang's POLL_INTERVAL, and BIG_RED_SWITCH as sonic-utilities' pfcwd writes it. */
    public static final Set<String> PFC_WD_GLOBAL = Set.of("POLL_INTERVAL", "BIG_RED_SWITCH");

    private SonicTables() {
    }

    /** @return whether rocelab reads {@code table} */
    public static boolean modelled(String table) {
        return FIELDS.containsKey(table);
    }

    /** @return the modelled tables */
    public static Collection<String> modelled() {
        return FIELDS.keySet();
    }

    /**
     * @param table a modelled table
     * @return the fields an entry of it may have; null if its fields are not names (a map's keys,
     *         {@code CABLE_LENGTH}'s ports) or are checked by its reader
     */
    public static Set<String> fields(String table) {
        return FIELDS.get(table);
    }

    /**
     * @param table a modelled table
     * @return its fields that rocelab accepts but whose effect it does not reproduce
     */
    public static Set<String> unmodelled(String table) {
        return UNMODELLED.getOrDefault(table, Set.of());
    }

    /**
     * The one line that names what a configuration carries and rocelab leaves alone. A name a typo
     * away from a modelled table's, and not itself one of SONiC's, is likely a misspelling: it says
     * which table it may have meant ({@code BUFFER_PROFILES (BUFFER_PROFILE?)}).
     *
     * @param tables the ignored tables, in any order
     * @return {@code ignored (not modelled): CRM, FEATURE, ...}, sorted; empty if none
     */
    public static String ignoredLine(Collection<String> tables) {
        if (tables.isEmpty()) {
            return "";
        }
        List<String> names = tables.stream().sorted().map(t -> {
            String near = LOOKALIKES.contains(t) ? null : closest(t, FIELDS.keySet());
            return near == null ? t : t + " (" + near + "?)";
        }).toList();
        return "ignored (not modelled): " + String.join(", ", names);
    }

    /** SONiC tables rocelab does not model whose names are a typo away from one it does (sonic-dscp-fc-map.yang). */
    private static final Set<String> LOOKALIKES = Set.of("DSCP_TO_FC_MAP");

    /**
     * @param name       a name as the file spells it
     * @param candidates the names it may have meant
     * @return the candidate a misspelling away from {@code name} (one edit for a short name, two for a
     *         name of 8 letters or more), ignoring case, or null
     */
    static String closest(String name, Collection<String> candidates) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String c : candidates) {
            int limit = Math.min(name.length(), c.length()) < 8 ? 1 : 2;
            int d = editDistance(name.toLowerCase(Locale.ROOT), c.toLowerCase(Locale.ROOT));
            if (d <= limit && d < bestDistance) {
                best = c;
                bestDistance = d;
            }
        }
        return best;
    }

    /** Levenshtein distance: insertions, deletions and substitutions. */
    private static int editDistance(String a, String b) {
        int[] row = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            row[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            int diagonal = row[0];
            row[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int up = row[j];
                row[j] = Math.min(Math.min(row[j] + 1, row[j - 1] + 1),
                    diagonal + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
                diagonal = up;
            }
        }
        return row[b.length()];
    }
}
