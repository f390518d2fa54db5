package io.rocelab.sw.config;

import io.rocelab.fabric.random.SplitMix64;
import java.util.List;
import java.util.Objects;

/**
 * An MLAG (multi-chassis LAG) domain, from SONiC's {@code MCLAG_DOMAIN|<id>} with its
 * {@code MCLAG_INTERFACE|<id>|<PortChannel>} entries (or the older {@code mclag_interface} list
 * in the domain): two switches joined by a peer link present the listed port channels to
 * dual-homed hosts as one LAG each.
 *
 * @param domainId     the domain, 1-4095, the same on both peers
 * @param sourceIp     this switch's address in the domain ({@code source_ip})
 * @param peerIp       the peer's ({@code peer_ip})
 * @param peerLink     the port or port channel to the peer ({@code peer_link})
 * @param interfaces   the port channels shared with the peer
 * @param systemMac    the LACP system id both peers send on the shared port channels: {@code system_mac}
 *                     if given, else one derived from the domain and the two addresses, so both peers
 *                     compute the same without asking each other
 */
public record McLagConfig(int domainId, int sourceIp, int peerIp, String peerLink, List<String> interfaces,
                          long systemMac) {
    public McLagConfig {
        Objects.requireNonNull(peerLink, "peerLink");
        interfaces = List.copyOf(interfaces);
    }

    /** @return whether this switch is the one with the lower address: its member port numbers come first */
    public boolean lowerAddress() {
        return Integer.compareUnsigned(sourceIp, peerIp) < 0;
    }

    /**
     * The system MAC both peers derive when none is configured: locally administered, from the domain
     * and the two addresses in a fixed order.
     */
    public static long derivedSystemMac(int domainId, int ipA, int ipB) {
        boolean aFirst = Integer.compareUnsigned(ipA, ipB) <= 0;
        long lo = Integer.toUnsignedLong(aFirst ? ipA : ipB);
        long hi = Integer.toUnsignedLong(aFirst ? ipB : ipA);
        long h = SplitMix64.mix(SplitMix64.mix(((long) domainId << 32) | lo) ^ hi);
        // locally administered (bit 1 of the first byte), unicast (bit 0 clear)
        return (h & 0xFC_FF_FF_FF_FF_FFL) | 0x02_00_00_00_00_00L;
    }
}
