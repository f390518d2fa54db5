package io.rocelab.sw.config;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Checks a switch configuration held as SONiC tables ({@link SwitchConfigBuilder}) and resolves it
 * into a {@link SwitchConfig}: every reference by name (a map bound to a port, a profile of a PG, a
 * scheduler of a queue, a route's port) must exist, every number must be in its range, and the
 * buffers must be able to work (a headroom, {@code xoff}, for the cable, thresholds of the pool's
 * mode, PFC only on a PG with a lossless profile). Each mistake is one line naming the table and key, as SONiC writes them; all
 * of them are collected, so that a user fixes everything in one pass.
 *
 * <p>Both ways of making a configuration go through here: {@link SwitchConfigBuilder#build()} and
 * {@link ConfigLoader}, which adds only what JSON text can get wrong (a field outside SONiC's schema,
 * a value that is not a number, a name that is not one of an enumeration's).
 */
public final class ConfigValidator {
    /** SONiC's name for the PG profile of the dynamic buffer model ({@code BUFFER_PG ... profile NULL}). */
    public static final String DYNAMIC_PG_PROFILE = "NULL";
    /** The pool SONiC's dynamic model puts lossless PGs in. */
    private static final String LOSSLESS_POOL = "ingress_lossless_pool";
    private static final int DEFAULT_CABLE_METERS = 5;
    private static final long MS = 1_000_000L;

    private final SwitchConfigBuilder t;
    private final List<String> problems;

    private ConfigValidator(SwitchConfigBuilder tables, List<String> problems) {
        this.t = tables;
        this.problems = problems;
    }

    /**
     * @param tables the configuration's tables
     * @return every mistake, one line each; empty if the configuration can work
     */
    public static List<String> problems(SwitchConfigBuilder tables) {
        List<String> problems = new ArrayList<>();
        resolve(tables, problems);
        return problems;
    }

    /**
     * Resolves the tables, adding a line to {@code problems} for every mistake.
     *
     * @return the configuration; meaningful only if no problem was added
     */
    static SwitchConfig resolve(SwitchConfigBuilder tables, List<String> problems) {
        return new ConfigValidator(tables, problems).resolve();
    }

    private SwitchConfig resolve() {
        String sw = "SWITCH|switch";
        range(sw, "ecmp_hash_seed", t.ecmpHashSeed, 0, Long.MAX_VALUE);
        range(sw, "fdb_aging_time", t.fdbAgingSeconds, 0, 1_000_000);
        range(sw, "fdb_table_size", t.fdbTableSize, 1, ConfigLoader.MAX_FDB_TABLE_SIZE);
        range(sw, "flowlet_timeout", t.flowletTimeoutMicros, 0, 10_000_000);
        range(sw, "pfc_quanta", t.pfcQuanta, 1, 0xFFFF);
        range("PFC_WD|GLOBAL", "POLL_INTERVAL", t.pfcWdPollMillis, 1, 60_000);
        t.pools.forEach((name, pool) -> {
            range("BUFFER_POOL|" + name, "size", pool.size(), 1, Long.MAX_VALUE);
            range("BUFFER_POOL|" + name, "xoff", pool.xoff(), 0, Long.MAX_VALUE);
        });
        maps("DSCP_TO_TC_MAP", t.dscpToTc, 64, 7, "a traffic class or queue (0-7)");
        maps("DOT1P_TO_TC_MAP", t.dot1pToTc, 8, 7, "a traffic class or queue (0-7)");
        maps("TC_TO_PRIORITY_GROUP_MAP", t.tcToPg, 8, 7, "a traffic class or queue (0-7)");
        maps("TC_TO_QUEUE_MAP", t.tcToQueue, 8, 7, "a traffic class or queue (0-7)");
        maps("TC_TO_DOT1P_MAP", t.tcToDot1p, 8, 7, "an 802.1p priority (0-7)");
        maps("TC_TO_DSCP_MAP", t.tcToDscp, 8, 63, "a DSCP (0-63)");
        maps("DSCP_TO_COLOR_MAP", t.dscpToColor, 64, Color.RED, "a colour (green, yellow, red)");
        t.profiles.values().forEach(this::profile);
        Map<String, WredProfile> wreds = new LinkedHashMap<>();
        t.wreds.values().forEach(w -> wreds.put(w.name(), wred(w)));
        t.schedulers.forEach((name, s) -> range("SCHEDULER|" + name, "weight", s.weight(), 1, 100));
        List<PortChannelConfig> channels = portChannels();
        Map<String, VlanMembership> vlans = vlans();
        List<PortConfig> ports = ports(wreds, vlans);
        List<RouteConfig> routes = new ArrayList<>();
        List<Route6Config> routes6 = new ArrayList<>();
        routes(routes, routes6);
        return new SwitchConfig(t.hostname, t.mac, t.ecmpHashSeed, t.flowletTimeoutMicros * 1_000,
            t.fdbAgingSeconds * 1_000_000_000L, (int) Math.max(1, Math.min(t.fdbTableSize, ConfigLoader.MAX_FDB_TABLE_SIZE)),
            new LinkedHashMap<>(t.pools), ports, routes, routes6,
            t.pfcWdPollMillis * MS, (int) t.pfcQuanta, channels, mclag());
    }

    /**
     * {@code MCLAG_DOMAIN} and {@code MCLAG_INTERFACE}: one domain, its addresses, a peer link that
     * is a port or a port channel (and not one of the shared ones), shared interfaces that are port
     * channels with members, timers as SONiC's model allows them.
     *
     * @return the domain, or null if there is none
     */
    private McLagConfig mclag() {
        if (t.mclagDomains.isEmpty()) {
            for (String key : t.mclagInterfaces) {
                problems.add("MCLAG_INTERFACE|" + key + ": there is no MCLAG_DOMAIN");
            }
            return null;
        }
        if (t.mclagDomains.size() > 1) {
            problems.add("MCLAG_DOMAIN: one domain per switch, not " + t.mclagDomains.size() + " ("
                + String.join(", ", t.mclagDomains.keySet()) + ")");
            return null;
        }
        String id = t.mclagDomains.keySet().iterator().next();
        SwitchConfigBuilder.McLagDomain d = t.mclagDomains.get(id);
        String where = "MCLAG_DOMAIN|" + id;
        int domain = parseInt(id);
        if (domain < 1 || domain > 4095) {
            problems.add(where + ": the domain id must be 1-4095, not '" + id + "'");
        }
        int source = address(where, "source_ip", d.sourceIp());
        int peer = address(where, "peer_ip", d.peerIp());
        if (d.sourceIp().equals(d.peerIp()) && !d.sourceIp().isEmpty()) {
            problems.add(where + ": source_ip and peer_ip are both " + d.sourceIp() + ": the peer is another switch");
        }
        String peerLink = d.peerLink();
        if (peerLink == null || peerLink.isBlank()) {
            problems.add(where + ": missing 'peer_link': an MLAG needs a peer link to its peer switch (a port or a"
                + " port channel)");
            peerLink = "";
        } else if (memberOf.containsKey(peerLink)) {
            problems.add(where + ": peer_link " + peerLink + " is a member of " + memberOf.get(peerLink) + ": use "
                + memberOf.get(peerLink));
        } else if (!t.ports.containsKey(peerLink) && !membersOf.containsKey(peerLink)) {
            problems.add(where + ": peer_link '" + peerLink + "' is not a port or a port channel");
        }
        List<String> interfaces = new ArrayList<>(d.interfaces());
        for (String key : t.mclagInterfaces) {
            int bar = key.indexOf('|');
            if (bar < 0 || !key.substring(0, bar).equals(id)) {
                problems.add("MCLAG_INTERFACE|" + key + ": key must be '" + id + "|PortChannel<n>' (MCLAG_DOMAIN " + id
                    + ")");
                continue;
            }
            interfaces.add(key.substring(bar + 1));
        }
        for (String i : interfaces) {
            List<String> members = membersOf.get(i);
            if (members == null) {
                problems.add(where + ": mclag interface '" + i + "' is not a port channel (PORTCHANNEL)");
            } else if (i.equals(peerLink)) {
                problems.add(where + ": " + i + " is the peer link: it cannot also be shared with the peer");
            } else if (members.isEmpty()) {
                problems.add(where + ": mclag interface " + i + " has no members (PORTCHANNEL_MEMBER)");
            }
        }
        range(where, "keepalive_interval", d.keepaliveSeconds(), 1, 60);
        range(where, "session_timeout", d.sessionTimeoutSeconds(), 3, 3600);
        if (d.sessionTimeoutSeconds() < 3 * d.keepaliveSeconds()) {
            problems.add(where + ": session_timeout " + d.sessionTimeoutSeconds() + " must be at least 3 x "
                + "keepalive_interval " + d.keepaliveSeconds());
        }
        long systemMac = McLagConfig.derivedSystemMac(domain, source, peer);
        if (d.systemMac() != null) {
            try {
                systemMac = io.rocelab.codec.header.MacAddress.parse(d.systemMac());
            } catch (IllegalArgumentException e) {
                problems.add(where + ": system_mac: " + e.getMessage());
            }
        }
        return new McLagConfig(Math.max(0, domain), source, peer, peerLink, List.copyOf(new java.util.LinkedHashSet<>(
            interfaces)), systemMac, d.keepaliveSeconds() * 1_000_000_000L, d.sessionTimeoutSeconds() * 1_000_000_000L);
    }

    private int address(String where, String field, String text) {
        if (text == null || text.isBlank()) {
            problems.add(where + ": missing '" + field + "'");
            return 0;
        }
        try {
            return Ipv4.parse(text);
        } catch (RuntimeException e) {
            problems.add(where + ": " + field + " '" + text + "' is not an IPv4 address");
            return 0;
        }
    }

    /** Port channel of each member port, filled by {@link #portChannels()}. */
    private final Map<String, String> memberOf = new LinkedHashMap<>();
    /** Members of each port channel in {@code PORTCHANNEL}, filled by {@link #portChannels()}. */
    private final Map<String, List<String>> membersOf = new LinkedHashMap<>();

    /**
     * {@code PORTCHANNEL} and {@code PORTCHANNEL_MEMBER}: names as SONiC's YANG model wants them
     * ({@code PortChannel} and up to four digits), members that are ports and in one port channel
     * only, values in range, and a group that can come up (no more {@code min_links} than members,
     * members of one speed, as LACP aggregates only those).
     */
    private List<PortChannelConfig> portChannels() {
        t.portChannels.keySet().forEach(name -> membersOf.put(name, new ArrayList<>()));
        for (String key : t.portChannelMembers) {
            String where = "PORTCHANNEL_MEMBER|" + key;
            int bar = key.indexOf('|');
            if (bar < 0) {
                problems.add(where + ": key must be 'PortChannel<n>|<port>'");
                continue;
            }
            String channel = key.substring(0, bar);
            String port = key.substring(bar + 1);
            List<String> members = membersOf.get(channel);
            if (members == null) {
                problems.add(where + ": port channel '" + channel + "' is not in PORTCHANNEL");
            } else if (t.portChannels.containsKey(port)) {
                problems.add(where + ": '" + port + "' is a port channel, not a port: a member is a PORT");
            } else if (!t.ports.containsKey(port)) {
                problems.add(where + ": '" + port + "' is not a port (not in PORT)");
            } else if (memberOf.containsKey(port)) {
                problems.add(where + ": " + port + " is already a member of " + memberOf.get(port)
                    + " (a port is in one port channel at most)");
            } else {
                memberOf.put(port, channel);
                members.add(port);
            }
        }
        List<PortChannelConfig> out = new ArrayList<>();
        t.portChannels.forEach((name, c) -> {
            String where = "PORTCHANNEL|" + name;
            if (!name.matches("PortChannel[0-9]{1,4}")) {
                problems.add(where + ": the name must be 'PortChannel' and up to four digits, like PortChannel0001");
            }
            if (!c.adminStatus().equals("up") && !c.adminStatus().equals("down")) {
                problems.add(where + ": admin_status must be 'up' or 'down', not '" + c.adminStatus() + "'");
            }
            range(where, "mtu", c.mtu(), 68, 9216);
            range(where, "min_links", c.minLinks(), 1, 1024);
            int key = PortChannelConfig.autoKey(name);
            if (!c.lacpKey().equals("auto")) {
                key = parseInt(c.lacpKey());
                if (key < 1 || key > 65535) {
                    problems.add(where + ": lacp_key must be 'auto' or 1-65535, not '" + c.lacpKey() + "'");
                }
            }
            List<String> members = membersOf.get(name);
            if (!members.isEmpty() && c.minLinks() > members.size()) {
                problems.add(where + ": min_links " + c.minLinks() + " is more than its " + members.size()
                    + " member(s): it could never come up");
            }
            long speeds = members.stream().mapToLong(m -> t.ports.get(m).speedMbps()).distinct().count();
            if (speeds > 1) {
                problems.add(where + ": its members differ in speed (" + members.stream()
                    .map(m -> m + " " + t.ports.get(m).speedMbps() + " Mb/s").collect(Collectors.joining(", "))
                    + "): LACP aggregates ports of one speed only");
            }
            out.add(new PortChannelConfig(name, !c.adminStatus().equals("down"), (int) Math.max(68, Math.min(9216, c.mtu())),
                (int) Math.max(1, Math.min(1024, c.minLinks())), !c.isStatic(), c.fastRate(), c.fallback(),
                Math.max(0, key), members));
        });
        return out;
    }

    /**
     * A member port's name where a port channel's is wanted (a VLAN member, a route's next hop).
     *
     * @return the line to add, or null if {@code port} is in no port channel
     */
    private String memberInsteadOfChannel(String where, String port, String use) {
        String channel = memberOf.get(port);
        return channel == null ? null : where + ": " + port + " is a member of " + channel + ": " + use + " " + channel;
    }

    // ---- tables ----

    private void maps(String table, Map<String, int[]> maps, int keys, int maxValue, String valueWhat) {
        maps.forEach((name, map) -> {
            if (map.length != keys) {
                problems.add(table + "|" + name + ": has " + map.length + " entries, not " + keys);
                return;
            }
            for (int k = 0; k < keys; k++) {
                if (map[k] < 0 || map[k] > maxValue) {
                    problems.add(table + "|" + name + ": value '" + map[k] + "' for key " + k + " is not " + valueWhat);
                }
            }
        });
    }

    private void profile(BufferProfile p) {
        String where = "BUFFER_PROFILE|" + p.name();
        String pool = p.pool() == null ? "" : p.pool();
        if (pool.isEmpty()) {
            problems.add(where + ": missing 'pool'");
        } else if (!t.pools.containsKey(pool)) {
            problems.add(where + ": pool '" + pool + "' is not in BUFFER_POOL");
        }
        range(where, "size", p.size(), 0, Long.MAX_VALUE);
        range(where, "xon", p.xon(), 0, Long.MAX_VALUE);
        range(where, "xoff", p.xoff(), 0, Long.MAX_VALUE);
        range(where, "xon_offset", p.xonOffset(), 0, Long.MAX_VALUE);
        range(where, "static_th", p.staticTh(), -1, Long.MAX_VALUE);
        if (p.hasDynamicTh()) {
            range(where, "dynamic_th", p.dynamicTh(), -8, 8);
        }
        if (p.hasDynamicTh() && p.staticTh() >= 0) {
            problems.add(where + ": give dynamic_th or static_th, not both");
        }
        BufferPool bp = t.pools.get(pool);
        if (bp != null && bp.mode() == BufferPool.Mode.STATIC && p.hasDynamicTh()) {
            problems.add(where + ": dynamic_th on pool '" + pool + "', which is in mode static: give static_th");
        }
        if (p.dynamicHeadroom()) {
            if (p.size() != 0 || p.xon() != 0 || p.xoff() != 0) {
                problems.add(where + ": headroom_type dynamic works size, xon and xoff out for each port; give none of them");
            }
        } else if (p.xoff() == 0 && (p.xon() > 0 || p.xonOffset() > 0)) {
            problems.add(where + ": 'xon'/'xon_offset' without 'xoff': only a lossless profile, one with a headroom "
                + "(xoff), sends XOFF and XON");
        }
        if (bp != null && bp.size() != SwitchConfigBuilder.UNSET && p.staticTh() > bp.size()) {
            problems.add(where + ": static_th (" + p.staticTh() + ") exceeds the shared size of pool '" + pool
                + "' (" + bp.size() + ")");
        }
        if (bp != null && bp.sharedHeadroom() && p.xoff() > bp.xoff()) {
            problems.add(where + ": xoff (" + p.xoff() + ") exceeds the shared headroom pool of '" + pool + "' (xoff "
                + bp.xoff() + "): the PG could never use its headroom");
        }
    }

    /** Checks each colour's rule; a yellow or red rule with neither threshold given is off. */
    private WredProfile wred(WredProfile w) {
        String where = "WRED_PROFILE|" + w.name();
        return new WredProfile(w.name(), colorRule(where, "green", w.green(), true),
            colorRule(where, "yellow", w.yellow(), false), colorRule(where, "red", w.red(), false));
    }

    private WredProfile.ColorRule colorRule(String where, String color, WredProfile.ColorRule r, boolean required) {
        String minKey = color + "_min_threshold";
        String maxKey = color + "_max_threshold";
        boolean absent = r.minThreshold() == SwitchConfigBuilder.UNSET && r.maxThreshold() == SwitchConfigBuilder.UNSET;
        if (!required && absent) {
            if (r.dropEnabled()) {
                problems.add(where + ": wred_" + color + "_enable is true but " + minKey + " and " + maxKey
                    + " are missing");
            }
            return WredProfile.ColorRule.OFF;
        }
        range(where, minKey, r.minThreshold(), 0, Long.MAX_VALUE);
        range(where, maxKey, r.maxThreshold(), 0, Long.MAX_VALUE);
        if (!(r.maxProbability() >= 0 && r.maxProbability() <= 1)) {
            problems.add(where + ": " + color + "_drop_probability " + Math.round(r.maxProbability() * 100)
                + " is out of range [0, 100]");
        }
        if (r.minThreshold() > r.maxThreshold() && r.maxThreshold() != SwitchConfigBuilder.UNSET) {
            problems.add(where + ": " + minKey + " (" + r.minThreshold() + ") is above " + maxKey + " ("
                + r.maxThreshold() + ")");
        }
        return r;
    }

    /**
     * {@code VLAN} and {@code VLAN_MEMBER}. A port may be an untagged member of one VLAN only: that
     * VLAN is its PVID (IEEE 802.1Q 6.9).
     *
     * @return membership per port name, for the ports that are in some VLAN
     */
    private Map<String, VlanMembership> vlans() {
        t.vlans.forEach((name, vid) -> {
            String where = "VLAN|" + name;
            range(where, "vlanid", vid, 1, 4094);
            if (vid >= 1 && vid <= 4094 && !name.equals("Vlan" + vid)) {
                problems.add(where + ": vlanid " + vid + " does not match the name (SONiC names VLAN " + vid
                    + " 'Vlan" + vid + "')");
            }
        });
        Map<String, VlanMembership> members = new LinkedHashMap<>();
        Map<String, String> untaggedIn = new LinkedHashMap<>();
        t.vlanMembers.forEach((key, tagged) -> {
            String where = "VLAN_MEMBER|" + key;
            int bar = key.indexOf('|');
            if (bar < 0) {
                problems.add(where + ": key must be 'Vlan<id>|<port>'");
                return;
            }
            String vlan = key.substring(0, bar);
            String port = key.substring(bar + 1);
            Long vid = t.vlans.get(vlan);
            String memberProblem = memberInsteadOfChannel(where, port, "make it a VLAN member as");
            if (vid == null) {
                problems.add(where + ": VLAN '" + vlan + "' is not in VLAN");
            } else if (memberProblem != null) {
                problems.add(memberProblem);
            } else if (!t.ports.containsKey(port) && !membersOf.containsKey(port)) {
                problems.add(where + ": unknown port '" + port + "'");
            } else if (!tagged && untaggedIn.containsKey(port)) {
                problems.add(where + ": " + port + " is already an untagged member of " + untaggedIn.get(port)
                    + " (a port has one untagged VLAN, its PVID)");
            } else if (vid >= 1 && vid <= 4094) {
                if (!tagged) {
                    untaggedIn.put(port, vlan);
                }
                // a port channel's VLANs are its members' (each member classifies and tags its frames)
                for (String p : membersOf.getOrDefault(port, List.of(port))) {
                    members.computeIfAbsent(p, x -> new VlanMembership()).add((int) (long) vid, tagged);
                }
            }
        });
        return members;
    }

    private List<PortConfig> ports(Map<String, WredProfile> wreds, Map<String, VlanMembership> vlans) {
        List<String> names = new ArrayList<>(t.ports.keySet());
        if (names.isEmpty()) {
            problems.add("PORT: the switch has no ports");
        }
        Map<String, Integer> cables = new LinkedHashMap<>();
        t.cableLengths.forEach((key, lengths) -> lengths.forEach((port, m) -> {
            if (!t.ports.containsKey(port)) {
                problems.add("CABLE_LENGTH|" + key + ": unknown port '" + port + "'");
            }
            if (m < 0) {
                problems.add("CABLE_LENGTH|" + key + ": '" + m + "m' for " + port + " is not a length like '5m'");
            } else {
                cables.put(port, m);
            }
        }));
        int n = names.size();
        BufferProfile[][] pgs = new BufferProfile[n][8];
        BufferProfile[][] qBuffers = new BufferProfile[n][8];
        WredProfile[][] qWred = new WredProfile[n][8];
        SchedulerConfig[][] qSched = new SchedulerConfig[n][8];
        perPortIndex("BUFFER_PG", t.bufferPgs, names, (where, port, idx, profile) -> {
            BufferProfile p = DYNAMIC_PG_PROFILE.equals(profile) ? nullProfile(where) : t.profiles.get(profile);
            if (p == null && !DYNAMIC_PG_PROFILE.equals(profile)) {
                problems.add(where + ": profile '" + profile + "' is not in BUFFER_PROFILE");
            }
            pgs[port][idx] = p;
        });
        perPortIndex("BUFFER_QUEUE", t.bufferQueues, names, (where, port, idx, profile) -> {
            BufferProfile p = t.profiles.get(profile);
            if (p == null) {
                problems.add(where + ": profile '" + profile + "' is not in BUFFER_PROFILE");
            }
            qBuffers[port][idx] = p;
        });
        perPortIndex("QUEUE", t.queues, names, (where, port, idx, q) -> {
            if (q.scheduler() != null) {
                SchedulerConfig s = t.schedulers.get(q.scheduler());
                if (s == null) {
                    problems.add(where + ": scheduler '" + q.scheduler() + "' is not in SCHEDULER");
                }
                qSched[port][idx] = s;
            }
            if (q.wredProfile() != null) {
                WredProfile w = wreds.get(q.wredProfile());
                if (w == null) {
                    problems.add(where + ": wred_profile '" + q.wredProfile() + "' is not in WRED_PROFILE");
                }
                qWred[port][idx] = w;
            }
        });
        Map<String, PfcWdConfig> wd = new LinkedHashMap<>();
        t.pfcWd.forEach((key, c) -> {
            String where = "PFC_WD|" + key;
            range(where, "detection_time", c.detectionNanos() / MS, 1, 5000);
            range(where, "restoration_time", c.restorationNanos() / MS, 1, 60000);
            for (String p : key.split(",")) {
                if (!t.ports.containsKey(p)) {
                    problems.add(where + ": unknown port '" + p + "'");
                }
                wd.put(p, c);
            }
        });
        Map<String, SwitchConfigBuilder.PortQosMap> qos = new LinkedHashMap<>();
        Map<String, String> qosKey = new LinkedHashMap<>();
        SwitchConfigBuilder.PortQosMap global = globalQos();
        t.portQos.forEach((key, q) -> {
            if (key.equals(GLOBAL_QOS)) {
                return;
            }
            for (String p : key.split(",")) {
                if (!t.ports.containsKey(p)) {
                    problems.add("PORT_QOS_MAP|" + key + ": unknown port '" + p + "'");
                }
                qos.put(p, q);
                qosKey.put(p, key);
            }
        });
        Set<String> qosChecked = new HashSet<>();
        List<PortConfig> ports = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String name = names.get(i);
            String where = "PORT|" + name;
            SwitchConfigBuilder.Port e = t.ports.get(name);
            range(where, "speed", e.speedMbps(), 1, 1_600_000);
            range(where, "mtu", e.mtu(), 68, 9216);
            String channel = memberOf.get(name);
            // SONiC sets a port channel's mtu on its members
            int mtu = channel == null ? e.mtu() : (int) Math.max(68, Math.min(9216, t.portChannels.get(channel).mtu()));
            int cable = cables.getOrDefault(name, DEFAULT_CABLE_METERS);
            SwitchConfigBuilder.PortQosMap q = withGlobalDscpMap(qos.get(name), global);
            // a map bound under "Ethernet0,Ethernet4" is reported once, under that key
            String ownKey = qosKey.get(name);
            boolean report = ownKey != null && qosChecked.add(ownKey);
            String qwhere = "PORT_QOS_MAP|" + (ownKey != null ? ownKey : name);
            int[] dscp = bound(report, qwhere, q == null ? null : q.dscpToTcMap(), "dscp_to_tc_map", t.dscpToTc,
                "DSCP_TO_TC_MAP", new int[64]);
            int[] dot1p = bound(report, qwhere, q == null ? null : q.dot1pToTcMap(), "dot1p_to_tc_map", t.dot1pToTc,
                "DOT1P_TO_TC_MAP", new int[8]);
            int[] tcPg = bound(report, qwhere, q == null ? null : q.tcToPgMap(), "tc_to_pg_map", t.tcToPg,
                "TC_TO_PRIORITY_GROUP_MAP", identity());
            int[] tcQ = bound(report, qwhere, q == null ? null : q.tcToQueueMap(), "tc_to_queue_map", t.tcToQueue,
                "TC_TO_QUEUE_MAP", identity());
            int[] color = bound(report, qwhere, q == null ? null : q.dscpToColorMap(), "dscp_to_color_map",
                t.dscpToColor, "DSCP_TO_COLOR_MAP", null);
            int[] tcDot1p = bound(report, qwhere, q == null ? null : q.tcToDot1pMap(), "tc_to_dot1p_map", t.tcToDot1p,
                "TC_TO_DOT1P_MAP", null);
            int[] tcDscp = bound(report, qwhere, q == null ? null : q.tcToDscpMap(), "tc_to_dscp_map", t.tcToDscp,
                "TC_TO_DSCP_MAP", null);
            Trust trust = q != null && q.dscpToTcMap() != null ? Trust.DSCP
                : q != null && q.dot1pToTcMap() != null ? Trust.DOT1P : Trust.NONE;
            int pfcMask = 0;
            if (q != null) {
                for (int p : q.pfcEnable()) {
                    if (p < 0 || p > 7) {
                        if (report) {
                            problems.add(qwhere + ": pfc_enable '" + q.pfcEnable().stream().map(String::valueOf)
                                .collect(Collectors.joining(",")) + "' must list priorities 0-7 like \"3,4\"");
                        }
                    } else {
                        pfcMask |= 1 << p;
                    }
                }
            }
            long speed = e.speedMbps() * 1_000_000L;
            BufferProfile[] pg = pgs[i];
            for (int g = 0; g < 8; g++) {
                if (pg[g] != null && pg[g].dynamicHeadroom()) {
                    pg[g] = pg[g].withHeadroom(HeadroomModel.profileName(speed, cable),
                        HeadroomModel.SPECTRUM_DYNAMIC.compute(speed, cable, mtu));
                }
            }
            for (int p = 0; p < 8; p++) {
                if ((pfcMask & (1 << p)) == 0 || !validMap(tcPg, 7)) {
                    continue;
                }
                BufferProfile prof = pg[tcPg[p]];
                if (prof == null || !prof.lossless()) {
                    problems.add("PORT_QOS_MAP|" + name + ": priority " + p + " has PFC enabled but BUFFER_PG|" + name
                        + "|" + tcPg[p] + " has no lossless profile (one with an xoff, the headroom, or headroom_type dynamic)");
                } else if (!prof.dynamicHeadroom()) {
                    long need = requiredHeadroom(speed, cable, mtu);
                    if (prof.xoff() < need) {
                        problems.add("BUFFER_PG|" + name + "|" + tcPg[p] + ": the headroom (xoff) of profile '"
                            + prof.name() + "' is " + prof.xoff() + " bytes but " + e.speedMbps() / 1000 + " Gb/s over "
                            + cable + " m of cable needs at least " + need + " bytes (SONiC's headroom formula)");
                    }
                }
            }
            QueueConfig[] queues = new QueueConfig[8];
            for (int k = 0; k < 8; k++) {
                queues[k] = new QueueConfig(qSched[i][k] != null ? qSched[i][k] : SchedulerConfig.DEFAULT,
                    qWred[i][k], qBuffers[i][k]);
            }
            GlobalFlowControl pause = linkPause(t, name, pfcMask, qwhere, pg, problems);
            ports.add(new PortConfig(name, speed, mtu, cable, trust, dscp, dot1p, tcPg, tcQ, pfcMask, pg, queues,
                wd.get(name), color, tcDot1p, vlans.get(name), pause, tcDscp));
        }
        return ports;
    }

    /** SONiC's switch-wide entry, {@code PORT_QOS_MAP|global}. */
    /**
     * The port's 802.3x PAUSE ({@link GlobalFlowControl}, rocelab's {@code PORT} field
     * {@code global_flow_control}). Mistakes: PAUSE beside PFC on one port (IEEE 802.1Qbb: a port
     * runs PFC or PAUSE, never both; mlx5 refuses it too), and a port that sends PAUSE without a
     * lossless {@code BUFFER_PG} profile, whose numbers are its pause thresholds.
     */
    private static GlobalFlowControl linkPause(SwitchConfigBuilder t, String name, int pfcMask, String qwhere,
                                               BufferProfile[] pg, List<String> problems) {
        GlobalFlowControl mode = t.globalFlowControl.getOrDefault(name, GlobalFlowControl.OFF);
        if (mode == GlobalFlowControl.OFF) {
            return mode;
        }
        if (pfcMask != 0) {
            problems.add("PORT|" + name + ": " + GlobalFlowControl.FIELD + " '" + mode.value() + "' (802.3x PAUSE) and "
                + qwhere + " pfc_enable on one port: a port runs PFC or PAUSE, not both");
        }
        if (mode.sends() && pauseProfile(pg) == null) {
            problems.add("PORT|" + name + ": " + GlobalFlowControl.FIELD + " '" + mode.value() + "' sends PAUSE but no "
                + "BUFFER_PG|" + name + "|... has a lossless profile (xon, xoff): its numbers are the port's pause thresholds");
        }
        return mode;
    }

    /** @return the profile whose thresholds a port's PAUSE takes: its first lossless PG's, or null */
    static BufferProfile pauseProfile(BufferProfile[] pg) {
        for (BufferProfile p : pg) {
            if (p != null && p.lossless()) {
                return p;
            }
        }
        return null;
    }

    private static final String GLOBAL_QOS = "global";

    /**
     * {@code PORT_QOS_MAP|global {"dscp_to_tc_map": "AZURE"}}: the switch's own DSCP-to-TC map
     * (qosorch sets it as {@code SAI_SWITCH_ATTR_QOS_DSCP_TO_TC_MAP}), which classifies on every port
     * that binds none of its own. Only {@code dscp_to_tc_map} has a switch-wide meaning.
     *
     * @return the entry, or null if there is none
     */
    private SwitchConfigBuilder.PortQosMap globalQos() {
        SwitchConfigBuilder.PortQosMap g = t.portQos.get(GLOBAL_QOS);
        if (g == null) {
            return null;
        }
        String where = "PORT_QOS_MAP|" + GLOBAL_QOS;
        if (g.dot1pToTcMap() != null || g.tcToPgMap() != null || g.tcToQueueMap() != null || !g.pfcEnable().isEmpty()
            || g.dscpToColorMap() != null || g.tcToDot1pMap() != null) {
            problems.add(where + ": only dscp_to_tc_map is switch-wide; bind the other maps and pfc_enable per port");
        }
        if (g.dscpToTcMap() != null && !t.dscpToTc.containsKey(g.dscpToTcMap())) {
            problems.add(where + ": dscp_to_tc_map '" + g.dscpToTcMap() + "' is not in DSCP_TO_TC_MAP");
            return null;
        }
        return g;
    }

    /** A port's entry, or none, completed with the switch-wide DSCP-to-TC map when it binds none of its own. */
    private static SwitchConfigBuilder.PortQosMap withGlobalDscpMap(SwitchConfigBuilder.PortQosMap q,
                                                                   SwitchConfigBuilder.PortQosMap global) {
        if (global == null || global.dscpToTcMap() == null || q != null && q.dscpToTcMap() != null) {
            return q;
        }
        if (q == null) {
            return new SwitchConfigBuilder.PortQosMap(global.dscpToTcMap(), null, null, null, List.of(), null, null);
        }
        return new SwitchConfigBuilder.PortQosMap(global.dscpToTcMap(), q.dot1pToTcMap(), q.tcToPgMap(),
            q.tcToQueueMap(), q.pfcEnable(), q.dscpToColorMap(), q.tcToDot1pMap(), q.tcToDscpMap());
    }

    private static boolean validMap(int[] map, int max) {
        return Arrays.stream(map).allMatch(v -> v >= 0 && v <= max);
    }

    /**
     * The smallest headroom ({@code xoff}) a lossless PG may have: SONiC's headroom formula
     * ({@link HeadroomModel}) with the parameters behind the Mellanox SN2700's shipped
     * {@code pg_profile_lookup.ini} ({@link HeadroomModel#SN2700_LOOKUP}): the bytes on the cable
     * both ways, the peer's response, an MTU, at the worst cell occupancy. It is what a shipped
     * static profile gives (30720 at 100G over 5 m), so a profile below it is below what SONiC
     * would configure.
     *
     * @param speedBitsPerSecond port speed
     * @param cableMeters        cable length
     * @param mtu                the port's MTU (the lookup's own 9100 is used)
     * @return the smallest headroom SONiC would give the PG
     */
    public static long requiredHeadroom(long speedBitsPerSecond, int cableMeters, int mtu) {
        return HeadroomModel.SN2700_LOOKUP.compute(speedBitsPerSecond, cableMeters, mtu).xoff();
    }

    /**
     * {@code BUFFER_PG ... profile NULL}: SONiC's dynamic buffer model, a lossless PG whose headroom
     * buffermgrd works out from the port's speed, cable and MTU, in {@code ingress_lossless_pool}
     * (else the first pool) with {@code dynamic_th 0} ({@code DEFAULT_LOSSLESS_BUFFER_PARAMETER}).
     */
    private BufferProfile nullProfile(String where) {
        String pool = t.pools.containsKey(LOSSLESS_POOL) ? LOSSLESS_POOL
            : t.pools.keySet().stream().findFirst().orElse(null);
        if (pool == null) {
            problems.add(where + ": profile NULL (dynamic headroom) needs a BUFFER_POOL to draw from");
            return null;
        }
        return BufferProfile.dynamicHeadroom(DYNAMIC_PG_PROFILE, pool, 0);
    }

    private void routes(List<RouteConfig> routes, List<Route6Config> routes6) {
        t.routes.forEach((key, nextHops) -> {
            String where = "STATIC_ROUTE|" + key;
            String prefixText = key.contains("|") ? key.substring(key.indexOf('|') + 1) : key;
            String[] pl = prefixText.split("/");
            boolean v6 = pl[0].contains(":");
            int max = v6 ? 128 : 32;
            byte[] address = null;
            int prefix4 = 0;
            int len;
            try {
                if (v6) {
                    address = Ipv6.parse(pl[0]);
                } else {
                    prefix4 = Ipv4.parse(pl[0]);
                }
                len = pl.length == 2 ? Integer.parseInt(pl[1]) : max;
            } catch (RuntimeException ex) {
                len = -1;
            }
            if (len < 0 || len > max || pl.length > 2) {
                problems.add(where + ": '" + prefixText + "' is not a prefix like 10.0.1.0/24 or fd00:1::/64");
                return;
            }
            if (nextHops.isEmpty()) {
                problems.add(where + ": 'ifname' and 'nexthop_mac' must list the same number (at least one) of next hops");
                return;
            }
            List<RouteConfig.NextHop> hops = new ArrayList<>();
            for (RouteConfig.NextHop hop : nextHops) {
                String memberProblem = memberInsteadOfChannel(where, hop.port(), "route via");
                List<String> channelMembers = membersOf.get(hop.port());
                if (memberProblem != null) {
                    problems.add(memberProblem);
                } else if (channelMembers != null && channelMembers.isEmpty()) {
                    problems.add(where + ": " + hop.port() + " in ifname has no members (PORTCHANNEL_MEMBER): "
                        + "nothing could carry the route");
                } else if (!t.ports.containsKey(hop.port()) && channelMembers == null) {
                    problems.add(where + ": unknown port '" + hop.port() + "' in ifname");
                } else {
                    hops.add(hop);
                }
            }
            if (v6) {
                long[] masked = Prefix6.mask(Prefix6.high(address), Prefix6.low(address), len);
                routes6.add(new Route6Config(masked[0], masked[1], len, hops));
            } else {
                int mask = len == 0 ? 0 : -1 << (32 - len);
                routes.add(new RouteConfig(prefix4 & mask, len, hops));
            }
        });
    }

    // ---- helpers ----

    private interface PortIndexVisitor<T> {
        void visit(String where, int port, int index, T value);
    }

    /** Keys like {@code Ethernet0|3}, {@code Ethernet0|3-4} or {@code Ethernet0,Ethernet4|0}. */
    private <T> void perPortIndex(String table, Map<String, T> entries, List<String> names, PortIndexVisitor<T> visitor) {
        entries.forEach((key, value) -> {
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
                    visitor.visit(where, p, i, value);
                }
            }
        });
    }

    private int[] bound(boolean report, String where, String name, String field, Map<String, int[]> maps,
                        String table, int[] dflt) {
        if (name == null) {
            return dflt;
        }
        int[] map = maps.get(name);
        if (map == null || map.length != dflt(dflt, table)) {
            if (report && map == null) {
                problems.add(where + ": " + field + " '" + name + "' is not in " + table);
            }
            return dflt;
        }
        return map;
    }

    private static int dflt(int[] dflt, String table) {
        return dflt != null ? dflt.length : table.startsWith("DSCP") ? 64 : 8;
    }

    private void range(String where, String field, long value, long min, long max) {
        if (value == SwitchConfigBuilder.UNSET) {
            problems.add(where + ": missing '" + field + "'");
        } else if (value < min || value > max) {
            problems.add(where + ": " + field + " " + value + " is out of range [" + min + ", " + max + "]");
        }
    }

    private static int[] identity() {
        int[] m = new int[8];
        Arrays.setAll(m, i -> i);
        return m;
    }

    private static int parseInt(String s) {
        try {
            return Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
