package io.rocelab.nic;

/**
 * Where a packet goes ({@code struct ibv_ah_attr} with a GRH, the only form RoCEv2 has): the
 * destination GID, our source GID index, hop limit and traffic class. The destination MAC is
 * resolved by ARP unless given ({@code destMac} &lt; 0 means "resolve").
 */
public record AddressHandle(Gid destGid, int sgidIndex, int hopLimit, int trafficClass, long destMac) {
    public AddressHandle {
        if (destGid == null) {
            throw new IllegalArgumentException("destGid must not be null");
        }
        if (!destGid.isIpv4Mapped()) {
            throw new IllegalArgumentException("destGid: only IPv4-mapped GIDs are supported: " + destGid);
        }
        if (hopLimit < 0 || hopLimit > 255) {
            throw new IllegalArgumentException("hopLimit must be 0..255: " + hopLimit);
        }
        if (trafficClass < 0 || trafficClass > 255) {
            throw new IllegalArgumentException("trafficClass must be 0..255: " + trafficClass);
        }
    }

    /** To an IPv4 peer, MAC resolved by ARP, TTL 64 and traffic class 0 like rxe. */
    public static AddressHandle ipv4(int destIpv4) {
        return new AddressHandle(Gid.ipv4Mapped(destIpv4), SoftNic.GID_INDEX_IPV4, 64, 0, -1);
    }
}
