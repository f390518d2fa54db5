package io.rocelab.sw.config;

import static io.rocelab.sw.config.ConfigFields.number;

import com.fasterxml.jackson.databind.JsonNode;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Vxlan;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The config_db tables of a VXLAN tunnel endpoint, as sonic-vxlan.yang (sonic-buildimage) and
 * SONiC's VXLAN HLDs (sonic-net/SONiC doc/vxlan) define them:
 * <ul>
 *   <li>{@code VXLAN_TUNNEL|vtep}: {@code src_ip} (the VTEP's IPv4 address), {@code dst_ip} (a
 *       point-to-point tunnel's remote VTEP: every mapped VLAN floods to it), {@code ttl_mode}; and
 *       rocelab's own {@code dscp_mode} ({@code uniform}, the default, or {@code pipe}),
 *       {@code encap_dscp} (pipe's outer DSCP, 0) and {@code ecn_mode} ({@code standard}, the default,
 *       {@code copy_from_outer} or {@code ignore_outer}): SONiC's VXLAN_TUNNEL has no QoS fields, so
 *       rocelab takes the names SONiC's {@code TUNNEL} table (IP-in-IP) gives SAI's
 *       {@code SAI_TUNNEL_ATTR_*_DSCP_MODE} and {@code SAI_TUNNEL_ATTR_DECAP_ECN_MODE};</li>
 *   <li>{@code VXLAN_TUNNEL_MAP|vtep|map_<vni>_Vlan<id>}: {@code vni} (1-16777215), {@code vlan} (a
 *       {@code VLAN}'s name); a VNI and a VLAN are mapped once;</li>
 *   <li>{@code VXLAN_EVPN_NVO|nvo}: {@code source_vtep}, the tunnel (one NVO);</li>
 *   <li>{@code VXLAN_REMOTE_VNI|Vlan<id>|<remote ip>}: {@code vni}, a remote VTEP the VLAN's flooded
 *       frames go to. SONiC keeps these in APPL_DB ({@code VXLAN_REMOTE_VNI_TABLE:Vlan100:10.1.0.2},
 *       written by fdbsyncd from EVPN's type-3 routes); rocelab has no EVPN and reads the same entry
 *       from config_db as a static flood list.</li>
 * </ul>
 * One VTEP per switch (SONiC's model has at most two tunnels, the second for other uses); IPv6 VTEPs
 * are not modelled. Each mistake is one line naming {@code TABLE|key}.
 */
public final class VxlanTables {
    /** The tables, for {@link SonicTables}. */
    static final List<String> TABLES = List.of("VXLAN_TUNNEL", "VXLAN_TUNNEL_MAP", "VXLAN_EVPN_NVO",
        "VXLAN_REMOTE_VNI");
    private static final Set<String> TUNNEL_FIELDS = Set.of("src_ip", "dst_ip", "ttl_mode", "dscp_mode",
        "encap_dscp", "ecn_mode");
    private static final Set<String> MAP_FIELDS = Set.of("vni", "vlan");
    private static final Set<String> NVO_FIELDS = Set.of("source_vtep");
    private static final Set<String> REMOTE_FIELDS = Set.of("vni");

    private VxlanTables() {
    }

    /**
     * @param problems one line per mistake, naming TABLE|key
     * @param notes    one line per thing accepted but not acted on
     * @return the VTEP, {@link VxlanConfig#NONE} if the file has no {@code VXLAN_TUNNEL}
     */
    public static VxlanConfig read(JsonNode root, List<String> problems, Collection<String> notes) {
        JsonNode tunnels = root.path("VXLAN_TUNNEL");
        if (tunnels.size() > 1) {
            problems.add("VXLAN_TUNNEL: rocelab models one VTEP per switch, not " + tunnels.size());
        }
        VxlanConfig.Tunnel tunnel = null;
        for (Iterator<Map.Entry<String, JsonNode>> it = tunnels.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String where = "VXLAN_TUNNEL|" + e.getKey();
            JsonNode t = e.getValue();
            if (!fields(where, t, TUNNEL_FIELDS, problems)) {
                continue;
            }
            int src = address(where, t, "src_ip", true, problems);
            int dst = address(where, t, "dst_ip", false, problems);
            TunnelDscpMode dscpMode = TunnelDscpMode.parse(t.path("dscp_mode").asText("uniform"));
            if (dscpMode == null) {
                problems.add(where + ": dscp_mode must be uniform or pipe, not '" + t.get("dscp_mode").asText() + "'");
                dscpMode = TunnelDscpMode.UNIFORM;
            }
            TunnelEcnMode ecnMode = TunnelEcnMode.parse(t.path("ecn_mode").asText("standard"));
            if (ecnMode == null) {
                problems.add(where + ": ecn_mode must be standard, copy_from_outer or ignore_outer, not '"
                    + t.get("ecn_mode").asText() + "'");
                ecnMode = TunnelEcnMode.STANDARD;
            }
            int encapDscp = (int) number(problems, where, t, "encap_dscp", 0, 0, 63);
            if (t.has("encap_dscp") && dscpMode == TunnelDscpMode.UNIFORM) {
                notes.add(where + " encap_dscp (used in dscp_mode pipe only)");
            }
            String ttlMode = t.path("ttl_mode").asText("pipe");
            if (!ttlMode.equals("pipe") && !ttlMode.equals("uniform")) {
                problems.add(where + ": ttl_mode must be uniform or pipe, not '" + ttlMode + "'");
            } else if (ttlMode.equals("uniform")) {
                notes.add("VXLAN_TUNNEL ttl_mode uniform (a bridged inner frame has no TTL: the outer TTL is 64)");
            }
            tunnel = new VxlanConfig.Tunnel(e.getKey(), src, dst, dscpMode, encapDscp, ecnMode, 64);
        }
        Map<String, Integer> vlans = vlans(root);
        List<VxlanConfig.TunnelMap> maps = new ArrayList<>();
        Map<Integer, String> vniOwner = new HashMap<>();
        Map<Integer, String> vlanOwner = new HashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("VXLAN_TUNNEL_MAP").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String where = "VXLAN_TUNNEL_MAP|" + e.getKey();
            JsonNode m = e.getValue();
            if (!fields(where, m, MAP_FIELDS, problems)) {
                continue;
            }
            String[] key = e.getKey().split("\\|", 2);
            if (key.length != 2) {
                problems.add(where + ": the key must be TUNNEL|MAP_NAME, e.g. vtep|map_10100_Vlan100");
                continue;
            }
            if (!tunnels.has(key[0])) {
                problems.add(where + ": no VXLAN_TUNNEL '" + key[0] + "'");
            }
            if (!m.has("vni") || !m.has("vlan")) {
                problems.add(where + ": needs vni and vlan");
                continue;
            }
            int vni = (int) number(problems, where, m, "vni", -1, 1, Vxlan.MAX_VNI);
            String vlan = m.get("vlan").asText();
            Integer vid = vlans.get(vlan);
            if (vid == null) {
                problems.add(where + ": vlan '" + vlan + "' is no VLAN of this switch");
                continue;
            }
            if (vni < 0) {
                continue;
            }
            String other = vniOwner.putIfAbsent(vni, e.getKey());
            if (other != null) {
                problems.add(where + ": vni " + vni + " is also mapped by " + other);
            }
            other = vlanOwner.putIfAbsent(vid, e.getKey());
            if (other != null) {
                problems.add(where + ": " + vlan + " is also mapped by " + other);
            }
            maps.add(new VxlanConfig.TunnelMap(key[1], vni, vlan, vid));
        }
        String nvo = null;
        JsonNode nvos = root.path("VXLAN_EVPN_NVO");
        if (nvos.size() > 1) {
            problems.add("VXLAN_EVPN_NVO: one NVO per switch (sonic-vxlan.yang max-elements 1), not " + nvos.size());
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = nvos.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String where = "VXLAN_EVPN_NVO|" + e.getKey();
            if (!fields(where, e.getValue(), NVO_FIELDS, problems)) {
                continue;
            }
            String vtep = e.getValue().path("source_vtep").asText("");
            if (!tunnels.has(vtep)) {
                problems.add(where + ": source_vtep '" + vtep + "' is no VXLAN_TUNNEL");
            }
            nvo = e.getKey();
        }
        List<VxlanConfig.RemoteVni> remotes = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("VXLAN_REMOTE_VNI").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String where = "VXLAN_REMOTE_VNI|" + e.getKey();
            if (!fields(where, e.getValue(), REMOTE_FIELDS, problems)) {
                continue;
            }
            String[] key = e.getKey().split("\\|", 2);
            int ip = key.length == 2 ? ipv4(key[1]) : 0;
            if (key.length != 2 || ip == 0) {
                problems.add(where + ": the key must be VLAN|REMOTE_VTEP_IPV4, e.g. Vlan100|10.1.0.2");
                continue;
            }
            VxlanConfig.TunnelMap map = maps.stream().filter(m -> m.vlan().equals(key[0])).findFirst().orElse(null);
            if (map == null) {
                problems.add(where + ": " + key[0] + " is mapped to no VNI (VXLAN_TUNNEL_MAP)");
                continue;
            }
            long vni = number(problems, where, e.getValue(), "vni", map.vni(), 1, Vxlan.MAX_VNI);
            if (vni != map.vni()) {
                problems.add(where + ": vni " + vni + " is not " + key[0] + "'s VNI " + map.vni()
                    + " (rocelab uses one VNI a VLAN at both ends)");
                continue;
            }
            remotes.add(new VxlanConfig.RemoteVni(key[0], map.vid(), ip, map.vni(), "VXLAN_REMOTE_VNI"));
        }
        if (tunnel == null) {
            if (!maps.isEmpty() || !remotes.isEmpty()) {
                problems.add("VXLAN_TUNNEL_MAP: no VXLAN_TUNNEL with a src_ip to map to");
            }
            return VxlanConfig.NONE;
        }
        if (tunnel.dstIp() != 0) {
            for (VxlanConfig.TunnelMap m : maps) {
                remotes.add(new VxlanConfig.RemoteVni(m.vlan(), m.vid(), tunnel.dstIp(), m.vni(), "dst_ip"));
            }
        }
        return new VxlanConfig(tunnel, maps, nvo, remotes, loopbackOf(root, tunnel.srcIp()));
    }

    /**
     * @return the first {@code LOOPBACK_INTERFACE} whose address is {@code ip}/32, or null (what
     *         {@code show vxlan interface} names as the VTEP's source interface)
     */
    private static String loopbackOf(JsonNode root, int ip) {
        String wanted = Ipv4.toString(ip) + "/32";
        for (Iterator<String> it = root.path("LOOPBACK_INTERFACE").fieldNames(); it.hasNext(); ) {
            String key = it.next();
            String[] parts = key.split("\\|");
            if (parts.length == 2 && parts[1].equals(wanted)) {
                return parts[0];
            }
        }
        return null;
    }

    /** The VLANs by name: {@code vlanid}, else the number in the name. */
    private static Map<String, Integer> vlans(JsonNode root) {
        Map<String, Integer> out = new HashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("VLAN").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String id = e.getValue().path("vlanid").asText(e.getKey().replaceFirst("^Vlan", ""));
            try {
                out.put(e.getKey(), Integer.parseInt(id.trim()));
            } catch (NumberFormatException x) {
                // ConfigLoader names the bad vlanid
            }
        }
        return out;
    }

    private static int address(String where, JsonNode e, String field, boolean required, List<String> problems) {
        if (!e.has(field)) {
            if (required) {
                problems.add(where + ": needs " + field + ", the VTEP's IPv4 address");
            }
            return 0;
        }
        String text = e.get(field).asText().trim();
        int ip = ipv4(text);
        if (ip == 0) {
            problems.add(where + ": " + field + " must be an IPv4 address (IPv6 VTEPs are not modelled), not '"
                + text + "'");
        }
        return ip;
    }

    /** @return the address, or 0 if {@code text} is not a dotted quad (0.0.0.0 is no VTEP either) */
    private static int ipv4(String text) {
        if (!text.matches("\\d{1,3}(\\.\\d{1,3}){3}")) {
            return 0;
        }
        for (String part : text.split("\\.")) {
            if (Integer.parseInt(part) > 255) {
                return 0;
            }
        }
        return Ipv4.parse(text);
    }

    private static boolean fields(String where, JsonNode e, Set<String> known, List<String> problems) {
        if (!e.isObject()) {
            problems.add(where + ": must be an object of fields");
            return false;
        }
        boolean ok = true;
        for (Iterator<String> it = e.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!known.contains(f)) {
                problems.add(where + ": unknown field '" + f + "'");
                ok = false;
            }
        }
        return ok;
    }
}
