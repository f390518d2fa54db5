package io.rocelab.nic;

import io.rocelab.codec.header.Ipv6;
import io.rocelab.nic.net.Ecn;
import io.rocelab.nic.net.Gid;
import io.rocelab.nic.net.GidType;

/**
 * Where a QP's (or a UD WR's) frames go, resolved once from an {@link AddressHandle} when the QP
 * is connected or the WR is posted, so the data path only reads fields: the IP version, the
 * destination and source addresses, and the IP header fields rxe uses.
 *
 * <p>rxe's choices (rxe_net.c, Linux 6.1): the traffic class is the AH's ({@code grh.traffic_class},
 * IPv4 TOS or IPv6 traffic class); the hop limit is the route's, 64, for both versions, since ib_core
 * replaces the AH's hop limit by the route's for RoCE ({@code ib_resolve_eth_dmac}); the IPv6 flow
 * label is 0 ({@code ip6_flow_hdr(ip6h, prio, 0)}). The reference capture rc_pingpong_ipv6 shows
 * exactly that: traffic class 0, flow label 0, hop limit 64.
 *
 * <p>A route from a RoCEv1 GID ({@link GidType#ROCE_V1}) carries its packets as RoCEv1 (IBA Annex
 * A16): a GRH with the two GIDs, the same traffic class, flow label and hop limit, after EtherType
 * 0x8915; its next hop is still resolved by ARP (IPv4-mapped GIDs) or neighbour discovery, as
 * ib_core resolves a RoCEv1 AH's MAC from the GID's address ({@code ib_resolve_unicast_gid_dmac}).
 */
final class Route {
    static final int HOP_LIMIT = 64;
    static final int FLOW_LABEL = 0;

    final boolean ipv6;
    final int dstIpv4;
    final int srcIpv4;
    final Gid dstGid;
    final Gid srcGid;
    final int trafficClass;
    /**
     * The BTH MigReq bit of the QP's packets along this route: 1 once the QP has migrated to it
     * (path migration state MIGRATED after a migration, IBA 9.2 and 17.2.8), else 0, as rxe, which
     * has no path migration, sends every packet.
     */
    final boolean migReq;
    /** RoCEv1 (EtherType 0x8915, GRH) rather than RoCEv2: the source GID's type. */
    final boolean roceV1;

    private Route(boolean ipv6, int dstIpv4, int srcIpv4, Gid dstGid, Gid srcGid, int trafficClass, boolean roceV1) {
        this(ipv6, dstIpv4, srcIpv4, dstGid, srcGid, trafficClass, false, roceV1);
    }

    private Route(boolean ipv6, int dstIpv4, int srcIpv4, Gid dstGid, Gid srcGid, int trafficClass, boolean migReq,
                  boolean roceV1) {
        this.migReq = migReq;
        this.roceV1 = roceV1;
        this.ipv6 = ipv6;
        this.dstIpv4 = dstIpv4;
        this.srcIpv4 = srcIpv4;
        this.dstGid = dstGid;
        this.srcGid = srcGid;
        this.trafficClass = trafficClass;
    }

    /** The same route, its packets with MigReq {@code bit}. */
    Route withMigReq(boolean bit) {
        return bit == migReq ? this : new Route(ipv6, dstIpv4, srcIpv4, dstGid, srcGid, trafficClass, bit, roceV1);
    }

    /**
     * Whether {@code p} came along this path the other way: from its destination address to its
     * source address, in its IP version. A connected (RC, UC) QP takes packets from its peer only,
     * as rxe's {@code check_addr} does: another host that knows the QPN, the PSN and an R_Key must
     * not get a WRITE executed or an ACK taken.
     */
    boolean isReverseOf(RxPacket p) {
        if (roceV1 || p.roceV1) {
            // the encapsulation is part of the path: a RoCEv1 packet does not belong to a RoCEv2 QP
            int grh = p.ipHeaderOffset;
            return roceV1 && p.roceV1 && dstGid.matches(p.buf, grh + Ipv6.SRC) && srcGid.matches(p.buf, grh + Ipv6.DST);
        }
        if (ipv6) {
            int ip = p.ipHeaderOffset;
            return p.ipVersion == 6 && dstGid.matches(p.buf, ip + Ipv6.SRC) && srcGid.matches(p.buf, ip + Ipv6.DST);
        }
        return p.ipVersion == 4 && p.srcIp == dstIpv4 && p.dstIp == srcIpv4;
    }

    /**
     * The route of {@code ah} from port {@code nic}: the source GID (by {@code sgidIndex}) and the
     * destination GID must be of the same family (IPv4-mapped or IPv6).
     *
     * @throws IllegalArgumentException naming the bad field
     */
    static Route of(NicPort nic, AddressHandle ah) {
        return of(nic, ah, false);
    }

    /**
     * Like {@link #of(NicPort, AddressHandle)}; with {@code ect}, the packets are ECN-capable
     * (ECT(0) in the ECN bits of the AH's traffic class), as mlx5 sends a QP's packets when
     * congestion control is on for it, so that switches mark them (CE) instead of dropping them.
     */
    static Route of(NicPort nic, AddressHandle ah, boolean ect) {
        Route r = ofAh(nic, ah);
        if (!ect || (r.trafficClass & 3) != 0) {
            return r;
        }
        return new Route(r.ipv6, r.dstIpv4, r.srcIpv4, r.dstGid, r.srcGid, r.trafficClass | Ecn.ECT_0, r.roceV1);
    }

    private static Route ofAh(NicPort nic, AddressHandle ah) {
        Gid src = nic.gid(ah.sgidIndex());
        boolean v1 = nic.gidType(ah.sgidIndex()) == GidType.ROCE_V1;
        Gid dst = ah.destGid();
        if (dst.isIpv4Mapped() != src.isIpv4Mapped()) {
            throw new IllegalArgumentException("sgidIndex " + ah.sgidIndex() + " (" + src + ") and destGid " + dst
                    + " are not of the same IP version");
        }
        if (dst.isMulticast() || dst.isUnspecified()) {
            throw new IllegalArgumentException("destGid must be a unicast address: " + dst);
        }
        if (dst.isIpv4Mapped()) {
            return new Route(false, dst.ipv4(), src.ipv4(), dst, src, ah.trafficClass(), v1);
        }
        return new Route(true, 0, 0, dst, src, ah.trafficClass(), v1);
    }
}
