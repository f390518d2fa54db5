package io.rocelab.sw.config;

import java.util.List;
import java.util.Map;

/**
 * A validated switch configuration, built by {@link ConfigLoader} from a SONiC-shaped JSON file.
 * Immutable data only: the switch copies what it needs into its own state.
 *
 * <p>Interfaces: the ports are numbered 0..n-1 in file order; the port channels follow them, n..,
 * in file order ({@link #interfaceIndex}): a route's next hop, the FDB and flooding see a port
 * channel as one interface.
 *
 * @param hostname              {@code DEVICE_METADATA|localhost hostname}
 * @param routerMac             {@code DEVICE_METADATA|localhost mac}: frames to it are routed (L3)
 * @param ecmpHashSeed          {@code SWITCH|switch ecmp_hash_seed}
 * @param flowletTimeoutNanos   {@code SWITCH|switch flowlet_timeout} (µs in the file; 0 = no flowlets)
 * @param fdbAgingNanos         {@code SWITCH|switch fdb_aging_time} (s in the file)
 * @param fdbTableSize          entries the FDB holds at most (rocelab extension {@code SWITCH|switch fdb_table_size},
 *                              the ASIC's {@code SAI_SWITCH_ATTR_FDB_TABLE_SIZE}, which SONiC does not configure;
 *                              default {@value ConfigLoader#DEFAULT_FDB_TABLE_SIZE})
 * @param pools                 {@code BUFFER_POOL} entries by name
 * @param ports                 in file order; index = port number
 * @param routes                {@code STATIC_ROUTE}, IPv4 prefixes
 * @param routes6               {@code STATIC_ROUTE}, IPv6 prefixes
 * @param pfcWdPollNanos        {@code PFC_WD|GLOBAL POLL_INTERVAL} (ms in the file)
 * @param pfcQuanta             pause time sent in an XOFF (rocelab extension {@code SWITCH|switch pfc_quanta},
 *                              default 0xFFFF as switch ASICs do)
 * @param portChannels          {@code PORTCHANNEL} with {@code PORTCHANNEL_MEMBER}, in file order
 * @param mclag                 {@code MCLAG_DOMAIN}, or null
 * @param bgp                   the eBGP speaker ({@code DEVICE_METADATA bgp_asn}, {@code BGP_NEIGHBOR}), or null for
 *                              static routes only
 * @param acl                   {@code ACL_TABLE}, {@code ACL_RULE}, {@code MIRROR_SESSION} ({@link AclConfig#EMPTY}: none)
 * @param sflow                 {@code SFLOW}, {@code SFLOW_COLLECTOR}, {@code SFLOW_SESSION} ({@link SflowConfig#NONE}: none)
 * @param ars                   {@code ARS_PROFILE}, {@code ARS_OBJECT}, {@code ARS_INTERFACES}: adaptive routing
 *                              ({@link ArsConfig#NONE}: none)
 * @param vxlan                 {@code VXLAN_TUNNEL}, {@code VXLAN_TUNNEL_MAP}, {@code VXLAN_EVPN_NVO},
 *                              {@code VXLAN_REMOTE_VNI}: the switch as a VTEP ({@link VxlanConfig#NONE}: none)
 */
public record SwitchConfig(String hostname, long routerMac, long ecmpHashSeed, long flowletTimeoutNanos,
                           long fdbAgingNanos, int fdbTableSize, Map<String, BufferPool> pools, List<PortConfig> ports,
                           List<RouteConfig> routes, List<Route6Config> routes6, long pfcWdPollNanos,
                           int pfcQuanta, List<PortChannelConfig> portChannels, McLagConfig mclag, BgpConfig bgp,
                           AclConfig acl, SflowConfig sflow, ArsConfig ars, VxlanConfig vxlan) {

    /** A configuration without a VTEP. */
    public SwitchConfig(String hostname, long routerMac, long ecmpHashSeed, long flowletTimeoutNanos,
                        long fdbAgingNanos, int fdbTableSize, Map<String, BufferPool> pools, List<PortConfig> ports,
                        List<RouteConfig> routes, List<Route6Config> routes6, long pfcWdPollNanos, int pfcQuanta,
                        List<PortChannelConfig> portChannels, McLagConfig mclag, BgpConfig bgp, AclConfig acl,
                        SflowConfig sflow, ArsConfig ars) {
        this(hostname, routerMac, ecmpHashSeed, flowletTimeoutNanos, fdbAgingNanos, fdbTableSize, pools, ports, routes,
            routes6, pfcWdPollNanos, pfcQuanta, portChannels, mclag, bgp, acl, sflow, ars, VxlanConfig.NONE);
    }

    /** @return this configuration with {@code tables} as its VTEP */
    public SwitchConfig withVxlan(VxlanConfig tables) {
        return new SwitchConfig(hostname, routerMac, ecmpHashSeed, flowletTimeoutNanos, fdbAgingNanos, fdbTableSize,
            pools, ports, routes, routes6, pfcWdPollNanos, pfcQuanta, portChannels, mclag, bgp, acl, sflow, ars, tables);
    }

    /** A configuration without sFlow or adaptive routing. */
    public SwitchConfig(String hostname, long routerMac, long ecmpHashSeed, long flowletTimeoutNanos,
                        long fdbAgingNanos, int fdbTableSize, Map<String, BufferPool> pools, List<PortConfig> ports,
                        List<RouteConfig> routes, List<Route6Config> routes6, long pfcWdPollNanos, int pfcQuanta,
                        List<PortChannelConfig> portChannels, McLagConfig mclag, BgpConfig bgp, AclConfig acl) {
        this(hostname, routerMac, ecmpHashSeed, flowletTimeoutNanos, fdbAgingNanos, fdbTableSize, pools, ports, routes,
            routes6, pfcWdPollNanos, pfcQuanta, portChannels, mclag, bgp, acl, SflowConfig.NONE, ArsConfig.NONE);
    }

    /** @return this configuration with {@code tables} as its adaptive routing */
    public SwitchConfig withArs(ArsConfig tables) {
        return new SwitchConfig(hostname, routerMac, ecmpHashSeed, flowletTimeoutNanos, fdbAgingNanos, fdbTableSize,
            pools, ports, routes, routes6, pfcWdPollNanos, pfcQuanta, portChannels, mclag, bgp, acl, sflow, tables, vxlan);
    }

    /** @return this configuration with {@code nanos} as its {@code SWITCH|switch flowlet_timeout} (0: none) */
    public SwitchConfig withFlowletTimeout(long nanos) {
        return new SwitchConfig(hostname, routerMac, ecmpHashSeed, nanos, fdbAgingNanos, fdbTableSize,
            pools, ports, routes, routes6, pfcWdPollNanos, pfcQuanta, portChannels, mclag, bgp, acl, sflow, ars, vxlan);
    }

    /** @return this configuration with {@code sflowConfig} as its sFlow configuration */
    public SwitchConfig withSflow(SflowConfig sflowConfig) {
        return new SwitchConfig(hostname, routerMac, ecmpHashSeed, flowletTimeoutNanos, fdbAgingNanos, fdbTableSize,
            pools, ports, routes, routes6, pfcWdPollNanos, pfcQuanta, portChannels, mclag, bgp, acl, sflowConfig, ars, vxlan);
    }

    /** A configuration without ACLs. */
    public SwitchConfig(String hostname, long routerMac, long ecmpHashSeed, long flowletTimeoutNanos,
                        long fdbAgingNanos, int fdbTableSize, Map<String, BufferPool> pools, List<PortConfig> ports,
                        List<RouteConfig> routes, List<Route6Config> routes6, long pfcWdPollNanos, int pfcQuanta,
                        List<PortChannelConfig> portChannels, McLagConfig mclag, BgpConfig bgp) {
        this(hostname, routerMac, ecmpHashSeed, flowletTimeoutNanos, fdbAgingNanos, fdbTableSize, pools, ports, routes,
            routes6, pfcWdPollNanos, pfcQuanta, portChannels, mclag, bgp, AclConfig.EMPTY);
    }

    /** @return this configuration with {@code acls} as its ACLs */
    public SwitchConfig withAcl(AclConfig acls) {
        return new SwitchConfig(hostname, routerMac, ecmpHashSeed, flowletTimeoutNanos, fdbAgingNanos, fdbTableSize,
            pools, ports, routes, routes6, pfcWdPollNanos, pfcQuanta, portChannels, mclag, bgp, acls, sflow, ars, vxlan);
    }

    /** A configuration without a BGP speaker. */
    public SwitchConfig(String hostname, long routerMac, long ecmpHashSeed, long flowletTimeoutNanos,
                        long fdbAgingNanos, int fdbTableSize, Map<String, BufferPool> pools, List<PortConfig> ports,
                        List<RouteConfig> routes, List<Route6Config> routes6, long pfcWdPollNanos, int pfcQuanta,
                        List<PortChannelConfig> portChannels, McLagConfig mclag) {
        this(hostname, routerMac, ecmpHashSeed, flowletTimeoutNanos, fdbAgingNanos, fdbTableSize, pools, ports, routes,
            routes6, pfcWdPollNanos, pfcQuanta, portChannels, mclag, null);
    }

    /** @return this configuration with {@code speaker} as its BGP speaker (null: none) */
    public SwitchConfig withBgp(BgpConfig speaker) {
        return new SwitchConfig(hostname, routerMac, ecmpHashSeed, flowletTimeoutNanos, fdbAgingNanos, fdbTableSize,
            pools, ports, routes, routes6, pfcWdPollNanos, pfcQuanta, portChannels, mclag, speaker, acl, sflow, ars, vxlan);
    }

    /** A configuration without port channels or MLAG. */
    public SwitchConfig(String hostname, long routerMac, long ecmpHashSeed, long flowletTimeoutNanos,
                        long fdbAgingNanos, int fdbTableSize, Map<String, BufferPool> pools, List<PortConfig> ports,
                        List<RouteConfig> routes, List<Route6Config> routes6, long pfcWdPollNanos, int pfcQuanta) {
        this(hostname, routerMac, ecmpHashSeed, flowletTimeoutNanos, fdbAgingNanos, fdbTableSize, pools, ports, routes,
            routes6, pfcWdPollNanos, pfcQuanta, List.of(), null);
    }

    public SwitchConfig {
        portChannels = portChannels == null ? List.of() : List.copyOf(portChannels);
        acl = acl == null ? AclConfig.EMPTY : acl;
        sflow = sflow == null ? SflowConfig.NONE : sflow;
        ars = ars == null ? ArsConfig.NONE : ars;
        vxlan = vxlan == null ? VxlanConfig.NONE : vxlan;
    }

    /** @return the port called {@code name}, or -1 */
    public int portIndex(String name) {
        for (int i = 0; i < ports.size(); i++) {
            if (ports.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** @return the port channel called {@code name} (0 = the first), or -1 */
    public int portChannelIndex(String name) {
        for (int i = 0; i < portChannels.size(); i++) {
            if (portChannels.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** @return the interface {@code name}: a port's index, or a port channel's (after the ports), or -1 */
    public int interfaceIndex(String name) {
        int p = portIndex(name);
        if (p >= 0) {
            return p;
        }
        int c = portChannelIndex(name);
        return c < 0 ? -1 : ports.size() + c;
    }

    /** @return the name of interface {@code index} ({@link #interfaceIndex}) */
    public String interfaceName(int index) {
        return index < ports.size() ? ports.get(index).name() : portChannels.get(index - ports.size()).name();
    }
}
