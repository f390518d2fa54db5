package io.rocelab.sw.config;

import java.util.List;

/**
 * The switch's eBGP speaker, as SONiC's bgpcfgd renders FRR's {@code router bgp} from config_db
 * (rocelab's model of {@code DEVICE_METADATA|localhost bgp_asn}, {@code BGP_NEIGHBOR}, {@code INTERFACE}
 * addresses, and FRR's timers), or as a topology generator assigns it (RFC 7938).
 *
 * <p>Null in {@link SwitchConfig#bgp()} means static routes only, the default.
 *
 * @param asn                 {@code DEVICE_METADATA|localhost bgp_asn}
 * @param routerId            the BGP identifier (SONiC: the Loopback0 address)
 * @param keepaliveNanos      {@code timers bgp KEEPALIVE HOLD}: SONiC's template 60 s, FRR's datacenter profile 3 s
 * @param holdNanos           180 s in SONiC's template, 9 s in FRR's datacenter profile; 0 = no hold timer
 * @param connectRetryNanos   {@code timers connect}: SONiC's template 10 s
 * @param mraiNanos           {@code neighbor X advertisement-interval}: the minimum time between two UPDATEs
 *                            that advertise, per neighbour (RFC 4271 section 9.2.1.1); 0 = none
 * @param processingNanos     how long the speaker takes to process one received UPDATE (parse, best path,
 *                            FIB programming), a rocelab model parameter
 * @param bfd                 BFD on every session, or null for none
 * @param fastExternalFailover FRR's {@code bgp fast-external-failover} (on by default): an eBGP session on a
 *                            link whose carrier is lost goes down at once
 * @param neighbors           one per fabric link ({@code BGP_NEIGHBOR})
 * @param networks            prefixes the speaker originates (FRR {@code network A.B.C.D/M}: the rack's
 *                            subnet or its hosts' /32s)
 */
public record BgpConfig(long asn, int routerId, long keepaliveNanos, long holdNanos, long connectRetryNanos,
                        long mraiNanos, long processingNanos, Bfd bfd, boolean fastExternalFailover,
                        List<Neighbor> neighbors, List<String> networks) {
    /** SONiC's bgpd template: {@code timers bgp 60 180}. */
    public static final long SONIC_KEEPALIVE_NANOS = 60_000_000_000L;
    public static final long SONIC_HOLD_NANOS = 180_000_000_000L;
    /** SONiC's bgpd template: {@code timers connect 10}. */
    public static final long SONIC_CONNECT_NANOS = 10_000_000_000L;
    /** 50 µs per UPDATE: a few FIB writes through the SAI, on a switch CPU (rocelab's default). */
    public static final long DEFAULT_PROCESSING_NANOS = 50_000L;

    public BgpConfig {
        neighbors = List.copyOf(neighbors);
        networks = List.copyOf(networks);
    }

    /** Adds a line per mistake to {@code problems}: neighbours on ports the switch lacks, timers out of range. */
    public void check(SwitchConfig config, List<String> problems) {
        if (asn < 1 || asn > 0xFFFF_FFFFL) {
            problems.add("DEVICE_METADATA|localhost: bgp_asn must be 1..4294967295, not " + asn);
        }
        if (holdNanos != 0 && (holdNanos < 3_000_000_000L || keepaliveNanos <= 0 || keepaliveNanos > holdNanos)) {
            problems.add("BGP: hold time must be 0 or at least 3 s and keepalive 1 s..hold (RFC 4271 section 4.2), not "
                + keepaliveNanos / 1_000_000_000L + "/" + holdNanos / 1_000_000_000L);
        }
        if (bfd != null && (bfd.intervalNanos() < 1_000 || bfd.multiplier() < 1 || bfd.multiplier() > 255)) {
            problems.add("BGP: BFD needs an interval of at least 1 us and a multiplier of 1..255");
        }
        for (Neighbor n : neighbors) {
            if (config.interfaceIndex(n.port()) < 0) {
                problems.add("BGP_NEIGHBOR|" + io.rocelab.codec.header.Ipv4.toString(n.peerAddr())
                    + ": no port '" + n.port() + "' holds local_addr " + io.rocelab.codec.header.Ipv4.toString(n.localAddr()));
            }
        }
    }

    /**
     * FRR's BFD for a neighbour ({@code neighbor X bfd}; bfdd's profile: receive-interval, transmit-interval,
     * detect-multiplier; FRR's default 300 ms x 3).
     *
     * @param intervalNanos desired min TX and required min RX interval
     * @param multiplier    detect multiplier
     */
    public record Bfd(long intervalNanos, int multiplier) {
        public static final Bfd FRR_DEFAULT = new Bfd(300_000_000L, 3);
    }

    /**
     * One {@code BGP_NEIGHBOR|<ip>} entry: a session on the point-to-point link of {@code port}.
     *
     * @param port      the local interface the session runs over, a port or a port channel (the
     *                  {@code INTERFACE} holding {@code localAddr})
     * @param localAddr {@code local_addr}: this side's address on the link
     * @param peerAddr  the neighbour's address (the table's key)
     * @param peerAsn   {@code asn}
     * @param name      {@code name}: the neighbour's hostname
     * @param adminUp   {@code admin_status}
     */
    public record Neighbor(String port, int localAddr, int peerAddr, long peerAsn, String name, boolean adminUp) {
    }
}
