package io.rocelab.sw.config;

import static io.rocelab.sw.config.ConfigFields.number;

import com.fasterxml.jackson.databind.JsonNode;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.routing.Ipv4Prefix;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The config_db tables of the eBGP speaker, as SONiC's bgpcfgd reads them to render FRR's
 * {@code router bgp}: {@code DEVICE_METADATA|localhost bgp_asn}, {@code BGP_NEIGHBOR|<ip>}
 * ({@code asn}, {@code name}, {@code local_addr}, {@code holdtime}, {@code keepalive},
 * {@code admin_status}; a {@code <vrf>|<ip>} key too), {@code INTERFACE|<port>|<ip/len>} (the
 * port a neighbour's {@code local_addr} is on) and {@code LOOPBACK_INTERFACE|Loopback0|<ip/32>}
 * (the router ID, and a network announced, as SONiC's T0/T1 templates do).
 *
 * <p>Announced besides: every {@code STATIC_ROUTE} prefix (FRR's {@code redistribute static}; in SONiC
 * a T0 announces its VLAN subnets, which rocelab's switch reaches by its static host routes).
 * Timers come from the first neighbour (SONiC's template: 60/180 s when absent); no BFD (SONiC's
 * bgpcfgd configures none), MRAI 0, fast-external-failover on (FRR's defaults).
 */
public final class BgpTables {
    /** The tables read here (beside DEVICE_METADATA's {@code bgp_asn}). */
    public static final Set<String> TABLES = Set.of("BGP_NEIGHBOR", "INTERFACE", "LOOPBACK_INTERFACE");
    /** The key of DEVICE_METADATA|localhost read here. */
    public static final String BGP_ASN = "bgp_asn";

    private BgpTables() {
    }

    /**
     * Fills {@code b}'s BGP speaker from {@code root} if {@code bgp_asn} and at least one neighbour are
     * given; one line in {@code problems} per mistake, naming TABLE|key.
     */
    public static void read(JsonNode root, SwitchConfigBuilder b, List<String> problems) {
        JsonNode meta = root.path("DEVICE_METADATA").path("localhost");
        JsonNode neighbors = root.path("BGP_NEIGHBOR");
        if (!meta.has(BGP_ASN)) {
            if (neighbors.size() > 0) {
                problems.add("BGP_NEIGHBOR: neighbours without DEVICE_METADATA|localhost bgp_asn");
            }
            return;
        }
        long asn = number(problems, "DEVICE_METADATA|localhost", meta, BGP_ASN, -1);
        Map<Ipv4Prefix, String> addresses = new LinkedHashMap<>();
        for (Iterator<String> it = root.path("INTERFACE").fieldNames(); it.hasNext(); ) {
            String key = it.next();
            String[] parts = key.split("\\|");
            // an IPv6 address (a /126 beside the /31, as SONiC's T1 files number links) holds no session:
            // the speaker's sessions are IPv4, and IPv6 prefixes ride on them (MP-BGP)
            if (parts.length == 2 && !parts[1].contains(":")) {
                try {
                    addresses.put(interfaceAddress(parts[1]), parts[0]);
                } catch (IllegalArgumentException e) {
                    problems.add("INTERFACE|" + key + ": not an IPv4 address/length (" + e.getMessage() + ")");
                }
            }
        }
        int routerId = 0;
        List<String> networks = new ArrayList<>();
        for (Iterator<String> it = root.path("LOOPBACK_INTERFACE").fieldNames(); it.hasNext(); ) {
            String key = it.next();
            String[] parts = key.split("\\|");
            if (parts.length == 2 && parts[0].equals("Loopback0") && !parts[1].contains(":")) {
                try {
                    routerId = interfaceAddress(parts[1]).address();
                    networks.add(Ipv4.toString(routerId) + "/32");
                } catch (IllegalArgumentException e) {
                    problems.add("LOOPBACK_INTERFACE|" + key + ": not an IPv4 address/length");
                }
            }
        }
        networks.addAll(b.routes.keySet());
        long keepalive = -1;
        long hold = -1;
        List<BgpConfig.Neighbor> list = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = neighbors.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String where = "BGP_NEIGHBOR|" + e.getKey();
            JsonNode n = e.getValue();
            // its fields are checked against SONiC's schema with the other modelled tables (SonicTables)
            String ip = e.getKey().contains("|") ? e.getKey().substring(e.getKey().indexOf('|') + 1) : e.getKey();
            if (ip.contains(":")) {
                continue; // IPv6 neighbours: rocelab's speaker carries IPv4 only
            }
            int peer;
            int local;
            try {
                peer = Ipv4.parse(ip);
                local = Ipv4.parse(n.path("local_addr").asText(""));
            } catch (IllegalArgumentException ex) {
                problems.add(where + ": needs an IPv4 neighbour address and local_addr");
                continue;
            }
            String port = null;
            for (Map.Entry<Ipv4Prefix, String> a : addresses.entrySet()) {
                if (a.getKey().contains(local) && a.getKey().contains(peer)) {
                    port = a.getValue();
                }
            }
            if (port == null) {
                problems.add(where + ": no INTERFACE|<port>|<ip/len> holds local_addr " + Ipv4.toString(local)
                    + " and the neighbour");
                continue;
            }
            long peerAsn = number(problems, where, n, "asn", -1);
            if (peerAsn < 1 || peerAsn > 0xFFFF_FFFFL) {
                problems.add(where + ": asn must be 1..4294967295");
            }
            if (keepalive < 0) {
                keepalive = number(problems, where, n, "keepalive", 60) * 1_000_000_000L;
                hold = number(problems, where, n, "holdtime", 180) * 1_000_000_000L;
            }
            list.add(new BgpConfig.Neighbor(port, local, peer, peerAsn, n.path("name").asText(ip),
                !n.path("admin_status").asText("up").equals("down")));
        }
        if (routerId == 0 && !list.isEmpty()) {
            routerId = list.get(0).localAddr();
        }
        b.bgp(new BgpConfig(asn, routerId, keepalive < 0 ? BgpConfig.SONIC_KEEPALIVE_NANOS : keepalive,
            hold < 0 ? BgpConfig.SONIC_HOLD_NANOS : hold, BgpConfig.SONIC_CONNECT_NANOS, 0,
            BgpConfig.DEFAULT_PROCESSING_NANOS, null, true, list, networks));
    }

    private static Ipv4Prefix interfaceAddress(String text) {
        int slash = text.indexOf('/');
        if (slash < 0 || text.contains(":")) {
            throw new IllegalArgumentException(text);
        }
        int address = Ipv4.parse(text.substring(0, slash));
        int length = Integer.parseInt(text.substring(slash + 1));
        return new Ipv4Prefix(address, length);
    }
}
