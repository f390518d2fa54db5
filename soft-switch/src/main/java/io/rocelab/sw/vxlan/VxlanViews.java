package io.rocelab.sw.vxlan;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.sw.config.VxlanConfig;
import io.rocelab.sw.views.NaturalOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * sonic-utilities' {@code show vxlan} views (show/vxlan.py) of a switch's VTEP, in their layouts:
 * {@code tunnel} (tabulate simple: name, source and destination IP, each map and its
 * {@code vni -> vlan}), {@code interface} (the VTEP, its NVO and source loopback), {@code vlanvnimap},
 * {@code remotevni all} and {@code remotevtep} (grid tables with a total count),
 * and {@code counters} (tunnelstat's table of SAI's tunnel counters; the rates are not computed:
 * N/A). Where rocelab differs: {@code remotevtep} lists the static flood lists' VTEPs (SONiC lists
 * STATE_DB's tunnels, made by EVPN), their creation source {@code static} (SONiC's {@code EVPN}), and
 * up while the underlay routes to them; {@code counters} adds rocelab's drop and CE-mark lines.
 */
public final class VxlanViews {
    private static final String NL = System.lineSeparator();
    /** SONiC's name of the tunnel to a remote VTEP (vxlanorch's {@code EVPN_<ip>}). */
    private static final String REMOTE_PREFIX = "EVPN_";

    private VxlanViews() {
    }

    /** @return SONiC's name of the tunnel to a remote VTEP, {@code EVPN_10.1.0.2} (vxlanorch) */
    public static String tunnelName(int remoteIp) {
        return REMOTE_PREFIX + Ipv4.toString(remoteIp);
    }

    /** {@code show vxlan tunnel}. */
    public static String tunnel(VxlanConfig c) {
        String[] head = {"vxlan tunnel name", "source ip", "destination ip", "tunnel map name",
            "tunnel map mapping(vni -> vlan)"};
        List<String[]> rows = new ArrayList<>();
        if (!c.isEmpty()) {
            VxlanConfig.Tunnel t = c.tunnel();
            String dst = t.dstIp() == 0 ? "" : Ipv4.toString(t.dstIp());
            List<VxlanConfig.TunnelMap> maps = sortedMaps(c);
            if (maps.isEmpty()) {
                rows.add(new String[] {t.name(), Ipv4.toString(t.srcIp()), dst, "", ""});
            }
            for (int i = 0; i < maps.size(); i++) {
                VxlanConfig.TunnelMap m = maps.get(i);
                rows.add(i == 0 ? new String[] {t.name(), Ipv4.toString(t.srcIp()), dst, m.mapName(), mapping(m)}
                    : new String[] {"", "", "", m.mapName(), mapping(m)});
            }
        }
        return Tabulate.simple(head, rows, false);
    }

    /**
     * {@code show vxlan interface}: the VTEP's name and source IP, the NVO naming it, and the loopback
     * whose address is the source IP ({@code Not Configured} if none), as show/vxlan.py prints them
     * (the heading's bold and underline only on a terminal, so not here).
     */
    public static String interfaces(VxlanConfig c) {
        StringBuilder b = new StringBuilder("VTEP Information:").append(NL).append(NL);
        if (c.isEmpty()) {
            return b.toString();
        }
        VxlanConfig.Tunnel t = c.tunnel();
        b.append("\tVTEP Name : ").append(t.name()).append(", SIP  : ").append(Ipv4.toString(t.srcIp())).append(NL);
        if (c.nvo() != null) {
            b.append("\tNVO Name  : ").append(c.nvo()).append(",  VTEP : ").append(t.name()).append(NL);
        }
        b.append("\tSource interface  : ").append(c.sourceInterface() == null ? "Not Configured" : c.sourceInterface())
            .append(NL);
        return b.toString();
    }

    /**
     * {@code show vxlan remotevni all}: the VLANs extended to each remote VTEP (SONiC reads APPL_DB's
     * {@code VXLAN_REMOTE_VNI_TABLE}, which EVPN writes; here the config_db's static {@code VXLAN_REMOTE_VNI}),
     * in the order of their keys ({@code VXLAN_REMOTE_VNI_TABLE:Vlan100:10.1.0.2}).
     */
    public static String remoteVni(VxlanConfig c) {
        List<VxlanConfig.RemoteVni> list = new ArrayList<>();
        for (VxlanConfig.RemoteVni r : c.remoteVnis()) {
            if (r.source().equals("VXLAN_REMOTE_VNI")) {
                list.add(r);
            }
        }
        list.sort(Comparator.comparing(r -> r.vlan() + ":" + Ipv4.toString(r.remoteIp()), NaturalOrder.INSTANCE));
        List<String[]> rows = new ArrayList<>();
        for (VxlanConfig.RemoteVni r : list) {
            rows.add(new String[] {r.vlan(), Ipv4.toString(r.remoteIp()), String.valueOf(r.vni())});
        }
        return Tabulate.grid(new String[] {"VLAN", "RemoteVTEP", "VNI"}, rows) + "Total count : " + rows.size()
            + NL + NL;
    }

    /** {@code show vxlan vlanvnimap}. */
    public static String vlanVniMap(VxlanConfig c) {
        List<String[]> rows = new ArrayList<>();
        for (VxlanConfig.TunnelMap m : sortedMaps(c)) {
            rows.add(new String[] {m.vlan(), String.valueOf(m.vni())});
        }
        return Tabulate.grid(new String[] {"VLAN", "VNI"}, rows) + "Total count : " + rows.size() + NL + NL;
    }

    /**
     * {@code show vxlan remotevtep}.
     *
     * @param routed whether the underlay has a route to a remote VTEP (its tunnel is oper up)
     */
    public static String remoteVtep(Vtep vtep, IntPredicate routed) {
        List<String[]> rows = new ArrayList<>();
        if (vtep != null) {
            String src = Ipv4.toString(vtep.config().tunnel().srcIp());
            List<Integer> configured = vtep.config().remoteVteps();
            List<Integer> ips = new ArrayList<>(vtep.counters().keySet());
            ips.sort(Comparator.comparing(VxlanViews::tunnelName, NaturalOrder.INSTANCE));
            for (int ip : ips) {
                rows.add(new String[] {src, Ipv4.toString(ip), configured.contains(ip) ? "static" : "learned",
                    routed.test(ip) ? "oper_up" : "oper_down"});
            }
        }
        return Tabulate.grid(new String[] {"SIP", "DIP", "Creation Source", "OperStatus"}, rows)
            + "Total count : " + rows.size() + NL + NL;
    }

    /**
     * {@code show vxlan remotemac all}: the MACs learned behind remote VTEPs (SONiC's APPL_DB
     * {@code VXLAN_FDB_TABLE}; here learned from decapsulated frames, so their type is {@code dynamic}).
     */
    public static String remoteMac(Vtep vtep, long now) {
        List<String[]> rows = new ArrayList<>();
        if (vtep != null) {
            for (Vtep.RemoteMacEntry e : vtep.remoteMacs(now)) {
                rows.add(new String[] {"Vlan" + e.vid(), io.rocelab.codec.header.MacAddress.toString(e.mac()),
                    Ipv4.toString(e.remote()), String.valueOf(e.vni()), "dynamic"});
            }
        }
        return Tabulate.grid(new String[] {"VLAN", "MAC", "RemoteVTEP", "VNI", "Type"}, rows)
            + "Total count : " + rows.size() + NL + NL;
    }

    /** {@code show vxlan counters} (tunnelstat -T vxlan), then rocelab's drops and CE marks per tunnel. */
    public static String counters(Vtep vtep) {
        String[] head = {"IFACE", "RX_PKTS", "RX_BYTES", "RX_PPS", "TX_PKTS", "TX_BYTES", "TX_PPS"};
        List<String[]> rows = new ArrayList<>();
        List<String> extra = new ArrayList<>();
        if (vtep != null) {
            add(rows, extra, vtep.config().tunnel().name(), vtep.total());
            Map<Integer, TunnelCounters> by = vtep.counters();
            List<Integer> ips = new ArrayList<>(by.keySet());
            ips.sort(Comparator.comparing(VxlanViews::tunnelName, NaturalOrder.INSTANCE));
            for (int ip : ips) {
                add(rows, extra, tunnelName(ip), by.get(ip));
            }
        }
        StringBuilder b = new StringBuilder(Tabulate.simple(head, rows, true));
        if (!extra.isEmpty()) {
            b.append(NL);
            extra.forEach(l -> b.append(l).append(NL));
        }
        return b.toString();
    }

    private static void add(List<String[]> rows, List<String> extra, String name, TunnelCounters c) {
        rows.add(new String[] {name, String.valueOf(c.rxPackets), String.valueOf(c.rxBytes), "N/A",
            String.valueOf(c.txPackets), String.valueOf(c.txBytes), "N/A"});
        extra.add(name + ": " + c.rxDrops + " decapsulated packets dropped, " + c.txDrops
            + " not encapsulated (no route), " + c.ceMarked + " inner packets marked CE (RFC 6040)");
    }

    private static String mapping(VxlanConfig.TunnelMap m) {
        return m.vni() + " -> " + m.vlan();
    }

    private static List<VxlanConfig.TunnelMap> sortedMaps(VxlanConfig c) {
        List<VxlanConfig.TunnelMap> maps = new ArrayList<>(c.maps());
        maps.sort(Comparator.comparing(VxlanConfig.TunnelMap::mapName, NaturalOrder.INSTANCE));
        return maps;
    }
}
