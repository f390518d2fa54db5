package io.rocelab.lab.captures;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.MacAddress;

/**
 * An endpoint of a reference capture: its MAC, IPv4 and IPv6 addresses (documentation ranges,
 * RFC 5737 and RFC 3849) and the IPv4 identification counter it increments per packet, as Linux
 * rxe does.
 */
final class Host {
    final String name;
    final long mac;
    final int ipv4;
    final byte[] ipv6;
    private int nextIpId;

    Host(String name, String mac, String ipv4, String ipv6, int firstIpId) {
        this.name = name;
        this.mac = MacAddress.parse(mac);
        this.ipv4 = Ipv4.parse(ipv4);
        this.ipv6 = Ipv6.parse(ipv6);
        this.nextIpId = firstIpId;
    }

    int takeIpId() {
        int id = nextIpId;
        nextIpId = (nextIpId + 1) & 0xFFFF;
        return id;
    }

    /** rxe picks a QP's UDP source port as 0xC000 | hash(QPN); any fixed port in the range will do here. */
    static int sourcePort(int qpn) {
        return 0xC000 | ((qpn * 0x9E37) & 0x3FFF);
    }
}
