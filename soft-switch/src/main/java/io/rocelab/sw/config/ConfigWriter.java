package io.rocelab.sw.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rocelab.codec.header.MacAddress;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Writes a {@link SwitchConfigBuilder}'s tables as SONiC {@code config_db.json} text, values as
 * strings as SONiC stores them: what {@link ConfigLoader} reads back into the same configuration.
 * For a generated switch's configuration to be read, kept beside a lab's results, or edited.
 */
public final class ConfigWriter {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ConfigWriter() {
    }

    /** @return the tables as pretty-printed JSON */
    public static String toJson(SwitchConfigBuilder t) {
        ObjectNode root = MAPPER.createObjectNode();
        root.putObject("DEVICE_METADATA").putObject("localhost").put("hostname", t.hostname)
            .put("mac", MacAddress.toString(t.mac));
        root.putObject("SWITCH").putObject("switch").put("ecmp_hash_seed", str(t.ecmpHashSeed))
            .put("fdb_aging_time", str(t.fdbAgingSeconds)).put("fdb_table_size", str(t.fdbTableSize))
            .put("flowlet_timeout", str(t.flowletTimeoutMicros))
            .put("pfc_quanta", str(t.pfcQuanta));
        ObjectNode ports = root.putObject("PORT");
        t.ports.forEach((name, p) -> ports.putObject(name).put("speed", str(p.speedMbps())).put("mtu", str(p.mtu())));
        t.globalFlowControl.forEach((name, mode) -> {
            if (ports.get(name) instanceof ObjectNode e) {
                e.put(GlobalFlowControl.FIELD, mode.value());
            }
        });
        if (!t.cableLengths.isEmpty()) {
            ObjectNode cables = root.putObject("CABLE_LENGTH");
            t.cableLengths.forEach((key, lengths) -> {
                ObjectNode e = cables.putObject(key);
                lengths.forEach((port, m) -> e.put(port, m + "m"));
            });
        }
        maps(root, "DSCP_TO_TC_MAP", t.dscpToTc, false);
        maps(root, "DOT1P_TO_TC_MAP", t.dot1pToTc, false);
        maps(root, "TC_TO_PRIORITY_GROUP_MAP", t.tcToPg, false);
        maps(root, "TC_TO_QUEUE_MAP", t.tcToQueue, false);
        maps(root, "TC_TO_DOT1P_MAP", t.tcToDot1p, false);
        maps(root, "TC_TO_DSCP_MAP", t.tcToDscp, false);
        maps(root, "DSCP_TO_COLOR_MAP", t.dscpToColor, true);
        portQos(root, t);
        if (!t.pools.isEmpty()) {
            ObjectNode pools = root.putObject("BUFFER_POOL");
            t.pools.forEach((name, pool) -> {
                ObjectNode e = pools.putObject(name);
                if (pool.size() != SwitchConfigBuilder.UNSET) {
                    e.put("size", str(pool.size()));
                }
                e.put("type", "ingress").put("mode", pool.mode() == BufferPool.Mode.STATIC ? "static" : "dynamic");
                if (pool.xoff() != 0) {
                    e.put("xoff", str(pool.xoff()));
                }
            });
        }
        profiles(root, t);
        keyed(root, "BUFFER_PG", t.bufferPgs);
        keyed(root, "BUFFER_QUEUE", t.bufferQueues);
        wreds(root, t);
        if (!t.schedulers.isEmpty()) {
            ObjectNode s = root.putObject("SCHEDULER");
            t.schedulers.forEach((name, c) -> s.putObject(name).put("type", c.strict() ? "STRICT" : "DWRR")
                .put("weight", str(c.weight())));
        }
        if (!t.queues.isEmpty()) {
            ObjectNode q = root.putObject("QUEUE");
            t.queues.forEach((key, c) -> {
                ObjectNode e = q.putObject(key);
                if (c.scheduler() != null) {
                    e.put("scheduler", c.scheduler());
                }
                if (c.wredProfile() != null) {
                    e.put("wred_profile", c.wredProfile());
                }
            });
        }
        ObjectNode wd = root.putObject("PFC_WD");
        wd.putObject("GLOBAL").put("POLL_INTERVAL", str(t.pfcWdPollMillis));
        t.pfcWd.forEach((key, c) -> wd.putObject(key).put("action", c.action().name().toLowerCase())
            .put("detection_time", str(c.detectionNanos() / 1_000_000)).put("restoration_time",
                str(c.restorationNanos() / 1_000_000)));
        if (!t.routes.isEmpty()) {
            ObjectNode r = root.putObject("STATIC_ROUTE");
            t.routes.forEach((prefix, hops) -> r.putObject(prefix)
                .put("ifname", hops.stream().map(RouteConfig.NextHop::port).collect(Collectors.joining(",")))
                .put("nexthop_mac", hops.stream().map(h -> MacAddress.toString(h.mac())).collect(Collectors.joining(","))));
        }
        if (!t.vlans.isEmpty()) {
            ObjectNode v = root.putObject("VLAN");
            t.vlans.forEach((name, vid) -> v.putObject(name).put("vlanid", str(vid)));
        }
        if (!t.vlanMembers.isEmpty()) {
            ObjectNode m = root.putObject("VLAN_MEMBER");
            t.vlanMembers.forEach((key, tagged) -> m.putObject(key).put("tagging_mode", tagged ? "tagged" : "untagged"));
        }
        if (!t.portChannels.isEmpty()) {
            ObjectNode pc = root.putObject("PORTCHANNEL");
            t.portChannels.forEach((name, c) -> {
                ObjectNode e = pc.putObject(name).put("admin_status", c.adminStatus()).put("mtu", str(c.mtu()))
                    .put("min_links", str(c.minLinks())).put("lacp_key", c.lacpKey())
                    .put("fallback", String.valueOf(c.fallback())).put("fast_rate", String.valueOf(c.fastRate()));
                if (c.isStatic()) {
                    e.put("static", "true");
                }
            });
        }
        if (!t.portChannelMembers.isEmpty()) {
            ObjectNode m = root.putObject("PORTCHANNEL_MEMBER");
            t.portChannelMembers.forEach(key -> m.putObject(key));
        }
        if (!t.mclagDomains.isEmpty()) {
            ObjectNode d = root.putObject("MCLAG_DOMAIN");
            t.mclagDomains.forEach((id, c) -> {
                ObjectNode e = d.putObject(id).put("source_ip", c.sourceIp()).put("peer_ip", c.peerIp());
                putIf(e, "peer_link", c.peerLink());
                if (!c.interfaces().isEmpty()) {
                    e.put("mclag_interface", String.join(",", c.interfaces()));
                }
                putIf(e, "system_mac", c.systemMac());
                e.put("keepalive_interval", str(c.keepaliveSeconds())).put("session_timeout", str(c.sessionTimeoutSeconds()));
            });
        }
        if (!t.mclagInterfaces.isEmpty()) {
            ObjectNode m = root.putObject("MCLAG_INTERFACE");
            t.mclagInterfaces.forEach(key -> m.putObject(key).put("if_type", "PortChannel"));
        }
        return root.toPrettyString();
    }

    private static void maps(ObjectNode root, String table, Map<String, int[]> maps, boolean colors) {
        if (maps.isEmpty()) {
            return;
        }
        ObjectNode t = root.putObject(table);
        maps.forEach((name, map) -> {
            ObjectNode e = t.putObject(name);
            for (int k = 0; k < map.length; k++) {
                boolean isColor = colors && map[k] >= Color.GREEN && map[k] <= Color.RED;
                e.put(str(k), isColor ? Color.name(map[k]) : str(map[k]));
            }
        });
    }

    private static void portQos(ObjectNode root, SwitchConfigBuilder t) {
        if (t.portQos.isEmpty()) {
            return;
        }
        ObjectNode q = root.putObject("PORT_QOS_MAP");
        t.portQos.forEach((key, m) -> {
            ObjectNode e = q.putObject(key);
            putIf(e, "dscp_to_tc_map", m.dscpToTcMap());
            putIf(e, "dot1p_to_tc_map", m.dot1pToTcMap());
            putIf(e, "tc_to_pg_map", m.tcToPgMap());
            putIf(e, "tc_to_queue_map", m.tcToQueueMap());
            putIf(e, "dscp_to_color_map", m.dscpToColorMap());
            putIf(e, "tc_to_dot1p_map", m.tcToDot1pMap());
            putIf(e, "tc_to_dscp_map", m.tcToDscpMap());
            if (!m.pfcEnable().isEmpty()) {
                e.put("pfc_enable", m.pfcEnable().stream().map(String::valueOf).collect(Collectors.joining(",")));
            }
        });
    }

    private static void profiles(ObjectNode root, SwitchConfigBuilder t) {
        if (t.profiles.isEmpty()) {
            return;
        }
        ObjectNode p = root.putObject("BUFFER_PROFILE");
        t.profiles.forEach((name, b) -> {
            ObjectNode e = p.putObject(name);
            putIf(e, "pool", b.pool());
            if (b.dynamicHeadroom()) {
                e.put("headroom_type", "dynamic");
            } else {
                e.put("size", str(b.size()));
            }
            if (b.xoff() != 0 || b.xon() != 0) {
                e.put("xon", str(b.xon())).put("xoff", str(b.xoff()));
            }
            if (b.xonOffset() != 0) {
                e.put("xon_offset", str(b.xonOffset()));
            }
            if (b.staticTh() != -1) {
                e.put("static_th", str(b.staticTh()));
            }
            if (b.hasDynamicTh()) {
                e.put("dynamic_th", str(b.dynamicTh()));
            }
        });
    }

    private static void wreds(ObjectNode root, SwitchConfigBuilder t) {
        if (t.wreds.isEmpty()) {
            return;
        }
        ObjectNode w = root.putObject("WRED_PROFILE");
        t.wreds.forEach((name, p) -> {
            ObjectNode e = w.putObject(name);
            String covered = (p.green().ecn() ? "g" : "") + (p.yellow().ecn() ? "y" : "") + (p.red().ecn() ? "r" : "");
            e.put("ecn", switch (covered) {
                case "g" -> "ecn_green";
                case "y" -> "ecn_yellow";
                case "r" -> "ecn_red";
                case "gy" -> "ecn_green_yellow";
                case "gr" -> "ecn_green_red";
                case "yr" -> "ecn_yellow_red";
                case "gyr" -> "ecn_all";
                default -> "ecn_none";
            });
            rule(e, "green", p.green());
            rule(e, "yellow", p.yellow());
            rule(e, "red", p.red());
        });
    }

    private static void rule(ObjectNode e, String color, WredProfile.ColorRule r) {
        if (r.equals(WredProfile.ColorRule.OFF)) {
            return;
        }
        e.put("wred_" + color + "_enable", String.valueOf(r.dropEnabled()));
        if (r.minThreshold() != SwitchConfigBuilder.UNSET) {
            e.put(color + "_min_threshold", str(r.minThreshold()));
        }
        if (r.maxThreshold() != SwitchConfigBuilder.UNSET) {
            e.put(color + "_max_threshold", str(r.maxThreshold()));
        }
        e.put(color + "_drop_probability", str(Math.round(r.maxProbability() * 100)));
    }

    private static void keyed(ObjectNode root, String table, Map<String, String> profiles) {
        if (profiles.isEmpty()) {
            return;
        }
        ObjectNode t = root.putObject(table);
        profiles.forEach((key, profile) -> t.putObject(key).put("profile", profile));
    }

    private static void putIf(ObjectNode e, String field, String value) {
        if (value != null) {
            e.put(field, value);
        }
    }

    private static String str(long v) {
        return Long.toString(v);
    }
}
