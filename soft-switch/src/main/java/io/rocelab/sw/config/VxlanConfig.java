package io.rocelab.sw.config;

import java.util.ArrayList;
import java.util.List;

/**
 * The switch as a VXLAN tunnel endpoint (RFC 7348), configured as SONiC configures one
 * (sonic-vxlan.yang; sonic-net/SONiC doc/vxlan): {@code VXLAN_TUNNEL} (the VTEP and its source
 * IP), {@code VXLAN_TUNNEL_MAP} (VLAN to VNI), {@code VXLAN_EVPN_NVO} (the NVO naming the source
 * VTEP), and the remote VTEPs each VNI floods to ({@code VXLAN_REMOTE_VNI}, what SONiC's
 * {@code VXLAN_REMOTE_VNI_TABLE} holds in APPL_DB) or a point-to-point {@code dst_ip}. Read by
 * {@link VxlanTables}.
 *
 * @param tunnel     the VTEP, or null for none
 * @param maps       the VLAN-VNI maps of the tunnel, in file order
 * @param nvo        {@code VXLAN_EVPN_NVO}'s name, or null
 * @param remoteVnis the static flood lists, in file order
 * @param sourceInterface the loopback whose address is the tunnel's {@code src_ip}/32
 *                   ({@code LOOPBACK_INTERFACE|Loopback0|10.1.0.1/32}: {@code Loopback0}), or null
 */
public record VxlanConfig(Tunnel tunnel, List<TunnelMap> maps, String nvo, List<RemoteVni> remoteVnis,
                          String sourceInterface) {
    /** No VTEP. */
    public static final VxlanConfig NONE = new VxlanConfig(null, List.of(), null, List.of(), null);

    /**
     * {@code VXLAN_TUNNEL|name}.
     *
     * @param name       the tunnel's name ({@code vtep})
     * @param srcIp      {@code src_ip}: the outer source address, and the address decapsulated for
     * @param dstIp      {@code dst_ip}: a point-to-point tunnel's remote VTEP, every VNI flooding to it;
     *                   0 for none
     * @param dscpMode   rocelab's {@code dscp_mode} (SONiC's {@code TUNNEL} spelling): uniform (SAI's default) or pipe
     * @param encapDscp  rocelab's {@code encap_dscp}: the outer DSCP in pipe mode
     *                   ({@code SAI_TUNNEL_ATTR_ENCAP_DSCP_VAL}), default 0
     * @param ecnMode    rocelab's {@code ecn_mode}: the decapsulation's ECN (standard, SAI's default)
     * @param ttl        the outer TTL (64)
     */
    public record Tunnel(String name, int srcIp, int dstIp, TunnelDscpMode dscpMode, int encapDscp,
                         TunnelEcnMode ecnMode, int ttl) {
    }

    /**
     * {@code VXLAN_TUNNEL_MAP|tunnel|mapName}.
     *
     * @param mapName e.g. {@code map_10100_Vlan100}
     * @param vni     {@code vni}
     * @param vlan    {@code vlan}, e.g. {@code Vlan100}
     * @param vid     the VLAN's id
     */
    public record TunnelMap(String mapName, int vni, String vlan, int vid) {
    }

    /**
     * A remote VTEP a VNI's flooded frames go to (head-end replication).
     *
     * @param vlan     the VLAN's name
     * @param vid      its id
     * @param remoteIp the remote VTEP
     * @param vni      the VNI
     * @param source   where it came from: {@code VXLAN_REMOTE_VNI} or the tunnel's {@code dst_ip}
     */
    public record RemoteVni(String vlan, int vid, int remoteIp, int vni, String source) {
    }

    public VxlanConfig {
        maps = maps == null ? List.of() : List.copyOf(maps);
        remoteVnis = remoteVnis == null ? List.of() : List.copyOf(remoteVnis);
    }

    /** @return true if the switch is no VTEP */
    public boolean isEmpty() {
        return tunnel == null;
    }

    /** @return the VNI {@code vid} maps to, or -1 */
    public int vniOfVlan(int vid) {
        for (TunnelMap m : maps) {
            if (m.vid() == vid) {
                return m.vni();
            }
        }
        return -1;
    }

    /** @return the VLAN {@code vni} maps to, or -1 */
    public int vlanOfVni(int vni) {
        for (TunnelMap m : maps) {
            if (m.vni() == vni) {
                return m.vid();
            }
        }
        return -1;
    }

    /** @return the remote VTEPs of {@code vid}'s flood list, in order, each once */
    public List<Integer> floodList(int vid) {
        List<Integer> ips = new ArrayList<>();
        for (RemoteVni r : remoteVnis) {
            if (r.vid() == vid && !ips.contains(r.remoteIp())) {
                ips.add(r.remoteIp());
            }
        }
        return ips;
    }

    /** @return every remote VTEP, in order of first mention, each once */
    public List<Integer> remoteVteps() {
        List<Integer> ips = new ArrayList<>();
        for (RemoteVni r : remoteVnis) {
            if (!ips.contains(r.remoteIp())) {
                ips.add(r.remoteIp());
            }
        }
        return ips;
    }
}
