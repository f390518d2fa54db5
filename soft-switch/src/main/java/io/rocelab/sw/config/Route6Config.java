package io.rocelab.sw.config;

import java.util.List;

/**
 * One IPv6 {@code STATIC_ROUTE} entry: a prefix, as two 64-bit halves of the address, and its next
 * hops. More than one next hop is an ECMP group.
 *
 * @param prefixHigh first 64 bits of the network address (bits beyond the length are zero)
 * @param prefixLow  last 64 bits of the network address
 * @param length     prefix length, 0..128
 * @param nextHops   members of the group, at least one
 */
public record Route6Config(long prefixHigh, long prefixLow, int length, List<RouteConfig.NextHop> nextHops) {
}
