package io.rocelab.sw.config;

import java.util.List;

/**
 * One {@code STATIC_ROUTE} entry: an IPv4 prefix and its next hops. More than one next hop is an
 * ECMP group.
 *
 * @param prefix    network address
 * @param length    prefix length, 0..32
 * @param nextHops  members of the group, at least one
 */
public record RouteConfig(int prefix, int length, List<NextHop> nextHops) {

    /**
     * @param port port name
     * @param mac  MAC address the frame is rewritten to (the neighbour)
     */
    public record NextHop(String port, long mac) {
    }
}
