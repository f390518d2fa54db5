package io.rocelab.nic;

import io.rocelab.nic.net.Gid;

/**
 * Where a packet goes ({@code struct ibv_ah_attr} with a GRH, the only form RoCEv2 has): the
 * destination GID (IPv4-mapped or IPv6), our source GID index (of the same family), hop limit and
 * traffic class. The destination MAC is resolved by ARP or IPv6 neighbour discovery unless given
 * ({@code destMac} &lt; 0 means "resolve"). As with rxe, the hop limit on the wire is the route's
 * (64), not this one: ib_core overwrites it for RoCE (see {@link Route}). A non-zero flow label
 * (20 bits, as rdma_cm puts in the path it resolves) gives a connected QP its UDP source port
 * ({@code rdma_flow_label_to_udp_sport}); zero lets the NIC derive it from the QPNs like ib_core.
 */
public record AddressHandle(Gid destGid, int sgidIndex, int hopLimit, int trafficClass, long destMac,
                            int flowLabel) {
    /** Without a flow label. */
    public AddressHandle(Gid destGid, int sgidIndex, int hopLimit, int trafficClass, long destMac) {
        this(destGid, sgidIndex, hopLimit, trafficClass, destMac, 0);
    }

    public AddressHandle {
        if (flowLabel < 0 || flowLabel > 0xFFFFF) {
            throw new IllegalArgumentException("flowLabel must be 20 bits: " + flowLabel);
        }
        if (destGid == null) {
            throw new IllegalArgumentException("destGid must not be null");
        }
        if (hopLimit < 0 || hopLimit > 255) {
            throw new IllegalArgumentException("hopLimit must be 0..255: " + hopLimit);
        }
        if (trafficClass < 0 || trafficClass > 255) {
            throw new IllegalArgumentException("trafficClass must be 0..255: " + trafficClass);
        }
    }

    /** To an IPv6 peer from our GID {@code sgidIndex}, MAC resolved by neighbour discovery, traffic class 0. */
    public static AddressHandle ipv6(Gid destGid, int sgidIndex) {
        return new AddressHandle(destGid, sgidIndex, 64, 0, -1);
    }

    /** The same, with traffic class {@code tc} (DSCP &lt;&lt; 2 | ECN). */
    public AddressHandle withTrafficClass(int tc) {
        return new AddressHandle(destGid, sgidIndex, hopLimit, tc, destMac, flowLabel);
    }

    /** The same, with flow label {@code label} (20 bits; 0 for none). */
    public AddressHandle withFlowLabel(int label) {
        return new AddressHandle(destGid, sgidIndex, hopLimit, trafficClass, destMac, label);
    }

    /**
     * To an IPv4 peer, MAC resolved by ARP, TTL 64 and traffic class 0 like rxe, from GID index
     * {@link SoftNic#GID_INDEX_IPV4}: the IPv4-mapped RoCEv2 GID of rxe's table. On a NIC that lists
     * RoCEv1 GIDs too ({@link SoftNic.Builder#roceV1}) use {@link #ipv4(int, int)} with the port's
     * {@link NicPort#ipv4GidIndex}.
     */
    public static AddressHandle ipv4(int destIpv4) {
        return new AddressHandle(Gid.ipv4Mapped(destIpv4), SoftNic.GID_INDEX_IPV4, 64, 0, -1);
    }

    /** To an IPv4 peer from our IPv4-mapped GID at {@code sgidIndex} (its type picks RoCEv1 or RoCEv2). */
    public static AddressHandle ipv4(int destIpv4, int sgidIndex) {
        return new AddressHandle(Gid.ipv4Mapped(destIpv4), sgidIndex, 64, 0, -1);
    }
}
