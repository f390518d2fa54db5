package io.rocelab.sw.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads and checks a {@code config_db}'s sFlow tables into a {@link SflowConfig}, by
 * {@code sonic-sflow.yang}'s rules: {@code SFLOW|global} ({@code admin_state} up|down,
 * {@code polling_interval} 0 or 5-300, {@code agent_id} an interface, {@code sample_direction}
 * rx|tx|both), {@code SFLOW_COLLECTOR} (at most 2; {@code collector_ip} mandatory, an IPv4 or IPv6
 * address; {@code collector_port} 0-65535, default 6343; {@code collector_vrf} default|mgmt) and
 * {@code SFLOW_SESSION} (a port or {@code all}; {@code admin_state}; {@code sample_rate}
 * 256-8388608, not on {@code all}; {@code sample_direction}). Each mistake is one line naming the
 * table and key. The fields themselves are checked against {@link SonicTables} by the loader.
 */
public final class SflowTables {
    /** The tables read here. */
    public static final List<String> TABLES = List.of("SFLOW", "SFLOW_COLLECTOR", "SFLOW_SESSION");
    /** sonic-sflow.yang: {@code SFLOW_COLLECTOR_LIST max-elements 2}. */
    public static final int MAX_COLLECTORS = 2;

    private SflowTables() {
    }

    /**
     * @param root     the whole config_db
     * @param problems where each mistake goes, one line each
     * @return the sFlow configuration ({@link SflowConfig#NONE} when the file has none of the tables)
     */
    public static SflowConfig read(JsonNode root, List<String> problems) {
        if (TABLES.stream().noneMatch(root::has)) {
            return SflowConfig.NONE;
        }
        Set<String> ports = names(root.path("PORT"));
        JsonNode sflow = root.path("SFLOW");
        sflow.fieldNames().forEachRemaining(k -> {
            if (!k.equals("global")) {
                problems.add("SFLOW|" + k + ": the table has one entry, 'global'");
            }
        });
        JsonNode g = sflow.path("global");
        String where = "SFLOW|global";
        boolean up = adminState(where, g, "down", problems);
        boolean pollingGiven = g.has("polling_interval");
        int polling = SflowConfig.DEFAULT_POLLING_INTERVAL;
        if (pollingGiven) {
            long p = number(g.path("polling_interval").asText());
            if (p != 0 && (p < 5 || p > 300)) {
                problems.add(where + ": polling_interval must be 0 or 5-300 seconds (sonic-sflow.yang), not '"
                    + g.path("polling_interval").asText() + "'");
            } else {
                polling = (int) p;
            }
        }
        SflowConfig.Direction direction = direction(where, g, SflowConfig.Direction.RX, problems);
        String agentId = g.has("agent_id") ? g.path("agent_id").asText() : null;
        if (agentId != null && !isInterface(root, ports, agentId)) {
            problems.add(where + ": agent_id '" + agentId + "' is not a port, port channel, loopback, management "
                + "port or VLAN of this switch");
        }
        long dropLimit = g.has("drop_monitor_limit") ? Math.max(0, number(g.path("drop_monitor_limit").asText())) : 0;

        List<SflowConfig.Collector> collectors = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> it = root.path("SFLOW_COLLECTOR").fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            SflowConfig.Collector c = collector(e.getKey(), e.getValue(), problems);
            if (c != null) {
                collectors.add(c);
            }
        }
        int count = root.path("SFLOW_COLLECTOR").size();
        if (count > MAX_COLLECTORS) {
            problems.add("SFLOW_COLLECTOR: at most " + MAX_COLLECTORS + " collectors (sonic-sflow.yang), not " + count);
        }

        Map<String, SflowConfig.Session> sessions = new LinkedHashMap<>();
        SflowConfig.Session all = null;
        it = root.path("SFLOW_SESSION").fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = e.getKey();
            String w = "SFLOW_SESSION|" + key;
            JsonNode s = e.getValue();
            boolean isAll = key.equals("all");
            if (!isAll && !ports.contains(key)) {
                problems.add(w + ": '" + key + "' is not a port (or 'all')");
                continue;
            }
            Boolean admin = s.has("admin_state") ? adminState(w, s, "up", problems) : null;
            Integer rate = null;
            if (s.has("sample_rate")) {
                long r = number(s.path("sample_rate").asText());
                if (isAll) {
                    problems.add(w + ": sample_rate is per port, not for 'all' (sonic-sflow.yang)");
                } else if (r < SflowConfig.MIN_SAMPLE_RATE || r > SflowConfig.MAX_SAMPLE_RATE) {
                    problems.add(w + ": sample_rate must be " + SflowConfig.MIN_SAMPLE_RATE + "-"
                        + SflowConfig.MAX_SAMPLE_RATE + " (one packet in N), not '" + s.path("sample_rate").asText()
                        + "'");
                } else {
                    rate = (int) r;
                }
            }
            SflowConfig.Direction d = s.has("sample_direction") ? direction(w, s, null, problems) : null;
            SflowConfig.Session session = new SflowConfig.Session(admin, rate, d);
            if (isAll) {
                all = session;
            } else {
                sessions.put(key, session);
            }
        }
        return new SflowConfig(up, polling, pollingGiven, agentId, direction, dropLimit,
            agentAddress(root, agentId), collectors, sessions, all);
    }

    private static SflowConfig.Collector collector(String name, JsonNode e, List<String> problems) {
        String where = "SFLOW_COLLECTOR|" + name;
        boolean ok = true;
        if (name.isEmpty() || name.length() > 64) {
            problems.add(where + ": a collector's name is 1-64 characters");
            ok = false;
        }
        String ip = e.path("collector_ip").asText("");
        if (ip.isEmpty()) {
            problems.add(where + ": missing 'collector_ip': the collector's IPv4 or IPv6 address");
            ok = false;
        } else if (address(ip) == null) {
            problems.add(where + ": collector_ip '" + ip + "' is not an IPv4 or IPv6 address");
            ok = false;
        }
        int port = io.rocelab.codec.sflow.SflowCodec.DEFAULT_PORT;
        if (e.has("collector_port")) {
            long p = number(e.path("collector_port").asText());
            if (p < 0 || p > 65535) {
                problems.add(where + ": collector_port must be 0-65535, not '" + e.path("collector_port").asText()
                    + "'");
                ok = false;
            } else {
                port = (int) p;
            }
        }
        String vrf = e.has("collector_vrf") ? e.path("collector_vrf").asText() : null;
        if (vrf != null && !vrf.equals("default") && !vrf.equals("mgmt")) {
            problems.add(where + ": collector_vrf must be 'default' or 'mgmt', not '" + vrf + "'");
            ok = false;
        }
        return ok ? new SflowConfig.Collector(name, ip, port, vrf) : null;
    }

    private static boolean adminState(String where, JsonNode e, String dflt, List<String> problems) {
        String v = e.path("admin_state").asText(dflt);
        if (!v.equals("up") && !v.equals("down")) {
            problems.add(where + ": admin_state must be 'up' or 'down', not '" + v + "'");
            return false;
        }
        return v.equals("up");
    }

    private static SflowConfig.Direction direction(String where, JsonNode e, SflowConfig.Direction dflt,
                                                   List<String> problems) {
        if (!e.has("sample_direction")) {
            return dflt;
        }
        String v = e.path("sample_direction").asText();
        SflowConfig.Direction d = SflowConfig.Direction.parse(v);
        if (d == null) {
            problems.add(where + ": sample_direction must be rx, tx or both, not '" + v + "'");
            return dflt;
        }
        return d;
    }

    /** sonic-sflow.yang's agent_id: a port, a port channel, a management port, a loopback or a VLAN. */
    private static boolean isInterface(JsonNode root, Set<String> ports, String name) {
        return ports.contains(name) || root.path("PORTCHANNEL").has(name) || root.path("MGMT_PORT").has(name)
            || name.matches("eth\\d+") || name.matches("Vlan\\d{1,4}")
            || interfaceNames(root.path("LOOPBACK_INTERFACE")).contains(name)
            || name.matches("Loopback\\d+");
    }

    /**
     * The agent address: {@code agent_id}'s IPv4 address (else IPv6) in {@code INTERFACE},
     * {@code LOOPBACK_INTERFACE}, {@code MGMT_INTERFACE}, {@code VLAN_INTERFACE} or
     * {@code PORTCHANNEL_INTERFACE}; without one, as hsflowd picks "an appropriate IP that belongs to the
     * switch" (SONiC sFlow HLD): Loopback0's, the management interface's, the first routed port's,
     * else {@code 0.0.0.0}.
     */
    static String agentAddress(JsonNode root, String agentId) {
        List<String> tables = List.of("LOOPBACK_INTERFACE", "MGMT_INTERFACE", "INTERFACE", "VLAN_INTERFACE",
            "PORTCHANNEL_INTERFACE");
        if (agentId != null) {
            for (String t : tables) {
                String a = addressOf(root.path(t), agentId);
                if (a != null) {
                    return a;
                }
            }
        }
        String a = addressOf(root.path("LOOPBACK_INTERFACE"), "Loopback0");
        if (a == null) {
            a = addressOf(root.path("MGMT_INTERFACE"), null);
        }
        if (a == null) {
            a = addressOf(root.path("INTERFACE"), null);
        }
        return a == null ? "0.0.0.0" : a;
    }

    /** The IPv4 address (else the IPv6 one) of {@code iface} (any interface when null) among keys {@code if|ip/len}. */
    private static String addressOf(JsonNode table, String iface) {
        String v6 = null;
        Iterator<String> keys = table.fieldNames();
        while (keys.hasNext()) {
            String k = keys.next();
            int bar = k.indexOf('|');
            int slash = k.lastIndexOf('/');
            if (bar < 0 || slash < bar || iface != null && !k.substring(0, bar).equals(iface)) {
                continue;
            }
            String ip = k.substring(bar + 1, slash);
            InetAddress a = address(ip);
            if (a instanceof java.net.Inet4Address) {
                return ip;
            }
            if (a != null && v6 == null) {
                v6 = ip;
            }
        }
        return v6;
    }

    /** @return the address a literal names, or null if it is not an IPv4 or IPv6 literal (never a DNS lookup) */
    public static InetAddress address(String literal) {
        if (literal.matches("\\d{1,3}(\\.\\d{1,3}){3}")) {
            for (String part : literal.split("\\.")) {
                if (Integer.parseInt(part) > 255) {
                    return null;
                }
            }
        } else if (!literal.contains(":") || !literal.matches("[0-9A-Fa-f:.]+")) {
            return null;
        }
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private static Set<String> names(JsonNode table) {
        Set<String> out = new HashSet<>();
        table.fieldNames().forEachRemaining(out::add);
        return out;
    }

    private static Set<String> interfaceNames(JsonNode table) {
        Set<String> out = new HashSet<>();
        table.fieldNames().forEachRemaining(k -> out.add(k.contains("|") ? k.substring(0, k.indexOf('|')) : k));
        return out;
    }

    private static long number(String s) {
        try {
            return Long.parseLong(s.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
