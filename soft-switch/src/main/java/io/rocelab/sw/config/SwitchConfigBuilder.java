package io.rocelab.sw.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A switch configuration as SONiC's {@code config_db} tables, filled in from Java: the same tables,
 * keys and references by name that {@link ConfigLoader} reads from JSON, with typed values. So a
 * generated fabric needs no JSON text, and {@link #build()} checks it with the same
 * {@link ConfigValidator} the loader uses: every mistake is one line naming the table and key.
 *
 * <p>Keys are SONiC's: {@code Ethernet0} for a port, {@code Ethernet0,Ethernet4} for several,
 * {@code Ethernet0|3} or {@code Ethernet0,Ethernet4|0-2} for a port's priority groups or queues.
 * Units are the file's: {@code PORT speed} in Mb/s, cable lengths in metres, {@code SWITCH}
 * times in s and µs and watchdog times in ms as {@link PfcWdConfig} holds them (ns).
 *
 * <pre>{@code
 * SwitchConfig c = new SwitchConfigBuilder().hostname("leaf0").mac(0x02_00_00_00_00_feL)
 *     .port("Ethernet0", 100_000, 9100).port("Ethernet4", 100_000, 9100)
 *     .staticRoute("10.0.0.1/32", List.of(new RouteConfig.NextHop("Ethernet0", hostMac)))
 *     .build();
 * }</pre>
 */
public final class SwitchConfigBuilder {
    /** A required value that was not given; {@link ConfigValidator} reports it as missing. */
    public static final long UNSET = Long.MIN_VALUE;
    /** The {@code CABLE_LENGTH} entry SONiC's templates use. */
    public static final String CABLE_TABLE_KEY = "AZURE";

    /**
     * One {@code PORT} entry.
     *
     * @param speedMbps line rate in Mb/s, as SONiC gives it
     * @param mtu       largest frame, bytes
     */
    public record Port(long speedMbps, int mtu) {
    }

    /**
     * One {@code PORT_QOS_MAP} entry: the maps bound to the port, by name (null = not bound), and
     * the priorities with PFC on ({@code pfc_enable "3,4"}).
     */
    public record PortQosMap(String dscpToTcMap, String dot1pToTcMap, String tcToPgMap, String tcToQueueMap,
                             List<Integer> pfcEnable, String dscpToColorMap, String tcToDot1pMap, String tcToDscpMap) {
        public PortQosMap {
            pfcEnable = List.copyOf(pfcEnable);
        }

        /** An entry without {@code tc_to_dscp_map}. */
        public PortQosMap(String dscpToTcMap, String dot1pToTcMap, String tcToPgMap, String tcToQueueMap,
                          List<Integer> pfcEnable, String dscpToColorMap, String tcToDot1pMap) {
            this(dscpToTcMap, dot1pToTcMap, tcToPgMap, tcToQueueMap, pfcEnable, dscpToColorMap, tcToDot1pMap, null);
        }

        /** @return a copy with {@code tc_to_dscp_map} bound: the DSCP frames of each TC leave the port with */
        public PortQosMap withTcToDscpMap(String name) {
            return new PortQosMap(dscpToTcMap, dot1pToTcMap, tcToPgMap, tcToQueueMap, pfcEnable, dscpToColorMap,
                tcToDot1pMap, name);
        }

        /** Trust DSCP with {@code dscpToTcMap}, TC to PG and queue by the maps named, PFC on {@code pfcEnable}. */
        public static PortQosMap dscp(String dscpToTcMap, String tcToPgMap, String tcToQueueMap, Integer... pfcEnable) {
            return new PortQosMap(dscpToTcMap, null, tcToPgMap, tcToQueueMap, List.of(pfcEnable), null, null);
        }

        /** @return a copy with {@code dscp_to_color_map} bound */
        public PortQosMap withDscpToColorMap(String name) {
            return new PortQosMap(dscpToTcMap, dot1pToTcMap, tcToPgMap, tcToQueueMap, pfcEnable, name, tcToDot1pMap,
                tcToDscpMap);
        }

        /** @return a copy with {@code tc_to_dot1p_map} bound */
        public PortQosMap withTcToDot1pMap(String name) {
            return new PortQosMap(dscpToTcMap, dot1pToTcMap, tcToPgMap, tcToQueueMap, pfcEnable, dscpToColorMap, name,
                tcToDscpMap);
        }

        /** @return a copy with {@code dot1p_to_tc_map} bound */
        public PortQosMap withDot1pToTcMap(String name) {
            return new PortQosMap(dscpToTcMap, name, tcToPgMap, tcToQueueMap, pfcEnable, dscpToColorMap, tcToDot1pMap,
                tcToDscpMap);
        }

        /** @return a copy with {@code dscp_to_tc_map} unbound (the port then trusts PCP, or nothing) */
        public PortQosMap withoutDscpToTcMap() {
            return new PortQosMap(null, dot1pToTcMap, tcToPgMap, tcToQueueMap, pfcEnable, dscpToColorMap, tcToDot1pMap,
                tcToDscpMap);
        }
    }

    /**
     * One {@code PORTCHANNEL} entry, as the file gives it (the validator checks the values).
     *
     * @param adminStatus {@code admin_status}: "up" or "down"
     * @param mtu         {@code mtu}
     * @param minLinks    {@code min_links}
     * @param isStatic    {@code static}: true for a LAG without LACP
     * @param fastRate    {@code fast_rate}: LACPDUs every second rather than every 30 s
     * @param fallback    {@code fallback}
     * @param lacpKey     {@code lacp_key}: "auto" or a number
     */
    public record PortChannel(String adminStatus, long mtu, long minLinks, boolean isStatic, boolean fastRate,
                              boolean fallback, String lacpKey) {
        /** SONiC's defaults: up, mtu 9100, min_links 1, LACP at the slow rate, no fallback, key "auto". */
        public static PortChannel lacp() {
            return new PortChannel("up", PortChannelConfig.DEFAULT_MTU, 1, false, false, false, "auto");
        }

        /** @return a copy with {@code fast_rate} as given */
        public PortChannel withFastRate(boolean fast) {
            return new PortChannel(adminStatus, mtu, minLinks, isStatic, fast, fallback, lacpKey);
        }

        /** @return a copy with {@code min_links} as given */
        public PortChannel withMinLinks(long links) {
            return new PortChannel(adminStatus, mtu, links, isStatic, fastRate, fallback, lacpKey);
        }

        /** @return a copy with {@code static} as given (true: no LACP) */
        public PortChannel withStatic(boolean noLacp) {
            return new PortChannel(adminStatus, mtu, minLinks, noLacp, fastRate, fallback, lacpKey);
        }
    }

    /**
     * One {@code MCLAG_DOMAIN} entry as the file gives it (the validator checks the values).
     *
     * @param sourceIp        {@code source_ip}
     * @param peerIp          {@code peer_ip}
     * @param peerLink        {@code peer_link}, or null if not given
     * @param interfaces      {@code mclag_interface}: the shared port channels listed in the domain (SONiC's
     *                        older form; {@code MCLAG_INTERFACE} entries add to them)
     * @param systemMac       {@code system_mac}, or null to derive one
     * @param keepaliveSeconds {@code keepalive_interval}
     * @param sessionTimeoutSeconds {@code session_timeout}
     */
    public record McLagDomain(String sourceIp, String peerIp, String peerLink, List<String> interfaces,
                              String systemMac, long keepaliveSeconds, long sessionTimeoutSeconds) {
        public McLagDomain {
            interfaces = List.copyOf(interfaces);
        }

        /** SONiC's defaults: keepalive every second, the peer gone after 15 s. */
        public static McLagDomain of(String sourceIp, String peerIp, String peerLink) {
            return new McLagDomain(sourceIp, peerIp, peerLink, List.of(), null, 1, 15);
        }
    }

    /**
     * One {@code QUEUE} entry: its scheduler and WRED profile by name (null = none).
     */
    public record Queue(String scheduler, String wredProfile) {
    }

    // DEVICE_METADATA|localhost, SWITCH|switch, PFC_WD|GLOBAL
    String hostname = "switch";
    long mac = 0x02_00_00_00_00_01L;
    long ecmpHashSeed;
    long fdbAgingSeconds = 600;
    long fdbTableSize = ConfigLoader.DEFAULT_FDB_TABLE_SIZE;
    long flowletTimeoutMicros;
    long pfcQuanta = 0xFFFF;
    long pfcWdPollMillis = 200;

    final Map<String, Port> ports = new LinkedHashMap<>();
    final Map<String, Map<String, Integer>> cableLengths = new LinkedHashMap<>();
    final Map<String, int[]> dscpToTc = new LinkedHashMap<>();
    final Map<String, int[]> dot1pToTc = new LinkedHashMap<>();
    final Map<String, int[]> tcToPg = new LinkedHashMap<>();
    final Map<String, int[]> tcToQueue = new LinkedHashMap<>();
    final Map<String, int[]> tcToDot1p = new LinkedHashMap<>();
    final Map<String, int[]> tcToDscp = new LinkedHashMap<>();
    final Map<String, int[]> dscpToColor = new LinkedHashMap<>();
    final Map<String, PortQosMap> portQos = new LinkedHashMap<>();
    final Map<String, BufferPool> pools = new LinkedHashMap<>();
    final Map<String, BufferProfile> profiles = new LinkedHashMap<>();
    final Map<String, String> bufferPgs = new LinkedHashMap<>();
    final Map<String, String> bufferQueues = new LinkedHashMap<>();
    final Map<String, WredProfile> wreds = new LinkedHashMap<>();
    final Map<String, SchedulerConfig> schedulers = new LinkedHashMap<>();
    final Map<String, Queue> queues = new LinkedHashMap<>();
    final Map<String, PfcWdConfig> pfcWd = new LinkedHashMap<>();
    /** rocelab's {@code PORT} field {@code global_flow_control}, by port. */
    final Map<String, GlobalFlowControl> globalFlowControl = new LinkedHashMap<>();
    final Map<String, List<RouteConfig.NextHop>> routes = new LinkedHashMap<>();
    final Map<String, Long> vlans = new LinkedHashMap<>();
    final Map<String, Boolean> vlanMembers = new LinkedHashMap<>();
    final Map<String, PortChannel> portChannels = new LinkedHashMap<>();
    /** {@code PORTCHANNEL_MEMBER} keys, {@code PortChannel0001|Ethernet0}, in the order given. */
    final List<String> portChannelMembers = new ArrayList<>();
    final Map<String, McLagDomain> mclagDomains = new LinkedHashMap<>();
    /** {@code MCLAG_INTERFACE} keys, {@code 1|PortChannel0001}. */
    final List<String> mclagInterfaces = new ArrayList<>();
    /** The eBGP speaker, or null: static routes only. */
    BgpConfig bgp;
    /** {@code ACL_TABLE}, {@code ACL_RULE}, {@code MIRROR_SESSION}. */
    AclConfig acl = AclConfig.EMPTY;
    /** {@code SFLOW}, {@code SFLOW_COLLECTOR}, {@code SFLOW_SESSION} ({@link SflowTables}). */
    SflowConfig sflow = SflowConfig.NONE;
    /** {@code ARS_PROFILE}, {@code ARS_OBJECT}, {@code ARS_INTERFACES}. */
    ArsConfig ars = ArsConfig.NONE;
    /** {@code VXLAN_TUNNEL}, {@code VXLAN_TUNNEL_MAP}, ... ({@link VxlanTables}). */
    VxlanConfig vxlan = VxlanConfig.NONE;
    /** config_db tables laid over these at {@link #build()} ({@link ConfigOverlay}), or null. */
    private String overlay;

    /** {@code DEVICE_METADATA|localhost hostname} */
    public SwitchConfigBuilder hostname(String name) {
        hostname = Objects.requireNonNull(name, "name");
        return this;
    }

    /** {@code DEVICE_METADATA|localhost mac}: the router MAC, frames to it are routed */
    public SwitchConfigBuilder mac(long routerMac) {
        mac = routerMac;
        return this;
    }

    /** {@code SWITCH|switch ecmp_hash_seed} */
    public SwitchConfigBuilder ecmpHashSeed(long seed) {
        ecmpHashSeed = seed;
        return this;
    }

    /** {@code SWITCH|switch fdb_aging_time}, seconds */
    public SwitchConfigBuilder fdbAgingTime(long seconds) {
        fdbAgingSeconds = seconds;
        return this;
    }

    /** {@code SWITCH|switch fdb_table_size}: the most FDB entries (a rocelab key; SONiC's ASICs fix it) */
    public SwitchConfigBuilder fdbTableSize(long entries) {
        fdbTableSize = entries;
        return this;
    }

    /** {@code SWITCH|switch flowlet_timeout}, µs (0 = no flowlets) */
    public SwitchConfigBuilder flowletTimeout(long micros) {
        flowletTimeoutMicros = micros;
        return this;
    }

    /** {@code SWITCH|switch pfc_quanta}: the pause time of an XOFF */
    public SwitchConfigBuilder pfcQuanta(long quanta) {
        pfcQuanta = quanta;
        return this;
    }

    /** {@code PFC_WD|GLOBAL POLL_INTERVAL}, ms */
    public SwitchConfigBuilder pfcWdPollInterval(long millis) {
        pfcWdPollMillis = millis;
        return this;
    }

    /** A {@code PORT} entry; ports are numbered in the order added. */
    public SwitchConfigBuilder port(String name, long speedMbps, int mtu) {
        ports.put(Objects.requireNonNull(name, "name"), new Port(speedMbps, mtu));
        return this;
    }

    /**
     * 802.3x PAUSE on a port: rocelab's {@code PORT} field {@code global_flow_control}
     * ({@link GlobalFlowControl}, SAI's {@code SAI_PORT_ATTR_GLOBAL_FLOW_CONTROL_MODE}).
     */
    public SwitchConfigBuilder globalFlowControl(String port, GlobalFlowControl mode) {
        globalFlowControl.put(Objects.requireNonNull(port, "port"), Objects.requireNonNull(mode, "mode"));
        return this;
    }

    /** {@code CABLE_LENGTH|AZURE port} in metres (5 m when not given). */
    public SwitchConfigBuilder cableLength(String port, int meters) {
        return cableLength(CABLE_TABLE_KEY, port, meters);
    }

    /** {@code CABLE_LENGTH|key port} in metres. */
    public SwitchConfigBuilder cableLength(String key, String port, int meters) {
        cableLengths.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(port, meters);
        return this;
    }

    /** {@code DSCP_TO_TC_MAP|name}: 64 entries. */
    public SwitchConfigBuilder dscpToTcMap(String name, int[] map) {
        dscpToTc.put(name, map.clone());
        return this;
    }

    /** {@code DOT1P_TO_TC_MAP|name}: 8 entries. */
    public SwitchConfigBuilder dot1pToTcMap(String name, int[] map) {
        dot1pToTc.put(name, map.clone());
        return this;
    }

    /** {@code TC_TO_PRIORITY_GROUP_MAP|name}: 8 entries. */
    public SwitchConfigBuilder tcToPriorityGroupMap(String name, int[] map) {
        tcToPg.put(name, map.clone());
        return this;
    }

    /** {@code TC_TO_QUEUE_MAP|name}: 8 entries. */
    public SwitchConfigBuilder tcToQueueMap(String name, int[] map) {
        tcToQueue.put(name, map.clone());
        return this;
    }

    /** {@code TC_TO_DSCP_MAP|name}: 8 entries, the DSCP a frame of each TC leaves with (qosorch's TcToDscpMapHandler). */
    public SwitchConfigBuilder tcToDscpMap(String name, int[] map) {
        tcToDscp.put(name, map.clone());
        return this;
    }

    /** {@code TC_TO_DOT1P_MAP|name}: 8 entries. */
    public SwitchConfigBuilder tcToDot1pMap(String name, int[] map) {
        tcToDot1p.put(name, map.clone());
        return this;
    }

    /** {@code DSCP_TO_COLOR_MAP|name}: 64 entries of {@link Color}. */
    public SwitchConfigBuilder dscpToColorMap(String name, int[] map) {
        dscpToColor.put(name, map.clone());
        return this;
    }

    /** {@code PORT_QOS_MAP|ports}, {@code ports} one port or several separated by commas. */
    public SwitchConfigBuilder portQosMap(String ports, PortQosMap map) {
        portQos.put(ports, Objects.requireNonNull(map, "map"));
        return this;
    }

    /** {@code BUFFER_POOL|name size} in bytes: a dynamic pool without a shared headroom pool. */
    public SwitchConfigBuilder bufferPool(String name, long sizeBytes) {
        return bufferPool(BufferPool.dynamic(name, sizeBytes));
    }

    /** {@code BUFFER_POOL|pool.name()}. */
    public SwitchConfigBuilder bufferPool(BufferPool pool) {
        pools.put(pool.name(), pool);
        return this;
    }

    /** {@code BUFFER_PROFILE|profile.name()}. */
    public SwitchConfigBuilder bufferProfile(BufferProfile profile) {
        profiles.put(profile.name(), profile);
        return this;
    }

    /** {@code BUFFER_PG|key profile}, key like {@code Ethernet0|3} or {@code Ethernet0,Ethernet4|0-2}. */
    public SwitchConfigBuilder bufferPg(String key, String profile) {
        bufferPgs.put(key, profile);
        return this;
    }

    /** {@code BUFFER_QUEUE|key profile}, key like {@code Ethernet0|3}. */
    public SwitchConfigBuilder bufferQueue(String key, String profile) {
        bufferQueues.put(key, profile);
        return this;
    }

    /** {@code WRED_PROFILE|profile.name()}. */
    public SwitchConfigBuilder wredProfile(WredProfile profile) {
        wreds.put(profile.name(), profile);
        return this;
    }

    /** {@code SCHEDULER|scheduler.name()}. */
    public SwitchConfigBuilder scheduler(SchedulerConfig scheduler) {
        schedulers.put(scheduler.name(), scheduler);
        return this;
    }

    /** {@code QUEUE|key}: scheduler and WRED profile by name, either may be null. */
    public SwitchConfigBuilder queue(String key, String scheduler, String wredProfile) {
        queues.put(key, new Queue(scheduler, wredProfile));
        return this;
    }

    /** {@code PFC_WD|ports}, one port or several separated by commas. */
    public SwitchConfigBuilder pfcWd(String ports, PfcWdConfig watchdog) {
        pfcWd.put(ports, Objects.requireNonNull(watchdog, "watchdog"));
        return this;
    }

    /** {@code STATIC_ROUTE|prefix}, IPv4 or IPv6 ({@code 10.0.1.0/24}, {@code fd00:1::/64}); several next hops are an ECMP group. */
    public SwitchConfigBuilder staticRoute(String prefix, List<RouteConfig.NextHop> nextHops) {
        routes.put(prefix, List.copyOf(nextHops));
        return this;
    }

    /** The eBGP speaker ({@code DEVICE_METADATA bgp_asn}, {@code BGP_NEIGHBOR}, timers); null: static routes only. */
    public SwitchConfigBuilder bgp(BgpConfig speaker) {
        bgp = speaker;
        return this;
    }

    /** {@code config} with this table's BGP speaker, checked against it (one line per mistake). */
    /**
     * config_db tables to lay over this switch's when it is built, after whatever fills it in
     * (routes, the fabric's QoS profile): a lab switch's {@code tables}, {@link ConfigOverlay}.
     *
     * @param json a JSON object of tables
     */
    public SwitchConfigBuilder overlay(String json) {
        overlay = Objects.requireNonNull(json, "json");
        return this;
    }

    /** The tables as JSON with the overlay laid over them, read as a config_db file is; the BGP speaker kept. */
    private SwitchConfig buildWithOverlay() {
        SwitchConfig config = ConfigLoader.read(ConfigOverlay.merge(ConfigWriter.toJson(this), overlay)).config();
        if (config.ars().isEmpty() && !ars.isEmpty()) {
            config = config.withArs(ars);
        }
        if (config.vxlan().isEmpty() && !vxlan.isEmpty()) {
            config = config.withVxlan(vxlan);
        }
        if (bgp == null) {
            return config;
        }
        List<String> problems = new ArrayList<>();
        bgp.check(config, problems);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return config.withBgp(bgp);
    }

    /** The ACLs and mirror sessions ({@link AclTables}). */
    public SwitchConfigBuilder acl(AclConfig acls) {
        acl = Objects.requireNonNull(acls, "acls");
        return this;
    }

    /** sFlow's tables ({@link SflowTables}). */
    public SwitchConfigBuilder sflow(SflowConfig sflowConfig) {
        sflow = Objects.requireNonNull(sflowConfig, "sflowConfig");
        return this;
    }

    /** Adaptive routing and switching of the ECMP groups ({@link ArsTables}). */
    public SwitchConfigBuilder ars(ArsConfig tables) {
        ars = Objects.requireNonNull(tables, "tables");
        return this;
    }

    /** The switch as a VXLAN tunnel endpoint ({@link VxlanTables}). */
    public SwitchConfigBuilder vxlan(VxlanConfig tables) {
        vxlan = Objects.requireNonNull(tables, "tables");
        return this;
    }

    SwitchConfig withBgp(SwitchConfig config, List<String> problems) {
        if (config != null && !vxlan.isEmpty()) {
            config = config.withVxlan(vxlan);
        }
        if (config != null && !acl.isEmpty()) {
            config = config.withAcl(acl);
        }
        if (config != null && sflow != SflowConfig.NONE) {
            config = config.withSflow(sflow);
        }
        if (config != null && !ars.isEmpty()) {
            config = config.withArs(ars);
        }
        if (config == null || bgp == null) {
            return config;
        }
        bgp.check(config, problems);
        return config.withBgp(bgp);
    }

    /** @return the eBGP speaker given, or null */
    public BgpConfig bgp() {
        return bgp;
    }

    /** {@code VLAN|name vlanid}; SONiC names VLAN 100 {@code Vlan100}. */
    public SwitchConfigBuilder vlan(String name, long vlanId) {
        vlans.put(name, vlanId);
        return this;
    }

    /** {@code VLAN_MEMBER|vlan|port tagging_mode}. */
    public SwitchConfigBuilder vlanMember(String vlan, String port, boolean tagged) {
        vlanMembers.put(vlan + "|" + port, tagged);
        return this;
    }

    /** {@code PORTCHANNEL|name}. */
    public SwitchConfigBuilder portChannel(String name, PortChannel portChannel) {
        portChannels.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(portChannel, "portChannel"));
        return this;
    }

    /** {@code PORTCHANNEL_MEMBER|portChannel|port}. */
    public SwitchConfigBuilder portChannelMember(String portChannel, String port) {
        portChannelMembers.add(portChannel + "|" + port);
        return this;
    }

    /** {@code MCLAG_DOMAIN|domainId}. */
    public SwitchConfigBuilder mclagDomain(String domainId, McLagDomain domain) {
        mclagDomains.put(Objects.requireNonNull(domainId, "domainId"), Objects.requireNonNull(domain, "domain"));
        return this;
    }

    /** {@code MCLAG_INTERFACE|domainId|portChannel}. */
    public SwitchConfigBuilder mclagInterface(String domainId, String portChannel) {
        mclagInterfaces.add(domainId + "|" + portChannel);
        return this;
    }

    /** @return the router MAC given so far ({@code DEVICE_METADATA|localhost mac}) */
    public long routerMac() {
        return mac;
    }

    /** @return the {@code PORT speed} of {@code port} in Mb/s, or 0 if there is no such port */
    public long portSpeedMbps(String port) {
        Port p = ports.get(port);
        return p == null ? 0 : p.speedMbps();
    }

    /** @return whether a {@code STATIC_ROUTE} for {@code prefix} (as written) is there already */
    public boolean hasStaticRoute(String prefix) {
        return routes.containsKey(prefix);
    }

    /** @return whether {@code CABLE_LENGTH} gives a length for {@code port} */
    public boolean hasCableLength(String port) {
        return cableLengths.values().stream().anyMatch(m -> m.containsKey(port));
    }

    /** @return the {@code PORT} entry of {@code name}, or null */
    public Port port(String name) {
        return ports.get(name);
    }

    /** @return the {@code CABLE_LENGTH} of {@code port} in metres, or -1 when none is given */
    public int cableLengthOf(String port) {
        return cableLengths.values().stream().filter(m -> m.containsKey(port)).map(m -> m.get(port)).findFirst()
            .orElse(-1);
    }

    /** @return the port names, in port order */
    public List<String> portNames() {
        return new ArrayList<>(ports.keySet());
    }

    /**
     * @return the configuration
     * @throws ConfigException with one line per mistake
     */
    public SwitchConfig build() {
        if (overlay != null) {
            return buildWithOverlay();
        }
        List<String> problems = new ArrayList<>();
        SwitchConfig config = withBgp(ConfigValidator.resolve(this, problems), problems);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return config;
    }
}
