package io.rocelab.codec.routing;

/**
 * A prefix BGP carries: IPv4 in UPDATE's own fields (RFC 4271), IPv6 in MP_REACH_NLRI and
 * MP_UNREACH_NLRI (RFC 4760, AFI 2, SAFI 1). Ordered IPv4 first, then by address and length.
 */
public sealed interface RoutePrefix extends Comparable<RoutePrefix> permits Ipv4Prefix, Ipv6Prefix {
    /** @return the prefix length */
    int length();

    /** @return whether it is an IPv6 prefix */
    default boolean v6() {
        return this instanceof Ipv6Prefix;
    }

    /** @return the prefix of {@code text}: {@code 10.0.1.0/24} or {@code fd00:0:1::/64} */
    static RoutePrefix parse(String text) {
        return text.contains(":") ? Ipv6Prefix.parse(text) : Ipv4Prefix.parse(text);
    }

    @Override
    default int compareTo(RoutePrefix o) {
        if (v6() != o.v6()) {
            return v6() ? 1 : -1;
        }
        if (this instanceof Ipv4Prefix a && o instanceof Ipv4Prefix b) {
            int c = Integer.compareUnsigned(a.address(), b.address());
            return c != 0 ? c : Integer.compare(a.length(), b.length());
        }
        Ipv6Prefix a = (Ipv6Prefix) this;
        Ipv6Prefix b = (Ipv6Prefix) o;
        int c = Long.compareUnsigned(a.high(), b.high());
        c = c != 0 ? c : Long.compareUnsigned(a.low(), b.low());
        return c != 0 ? c : Integer.compare(a.length(), b.length());
    }
}
