package io.rocelab.codec.routing;

import io.rocelab.codec.header.Ipv4;

/**
 * An IPv4 prefix as BGP carries it (RFC 4271 section 4.3, "Network Layer Reachability
 * Information"): the address with its host bits cleared and the length.
 *
 * @param address network address, host bits zero
 * @param length  0..32
 */
public record Ipv4Prefix(int address, int length) implements RoutePrefix {
    public Ipv4Prefix {
        if (length < 0 || length > 32) {
            throw new IllegalArgumentException("prefix length " + length);
        }
        address &= mask(length);
    }

    /** @return the mask of a {@code length}-bit prefix */
    public static int mask(int length) {
        return length == 0 ? 0 : -1 << (32 - length);
    }

    /** @return the prefix of {@code text}, e.g. {@code 10.0.1.0/24} */
    public static Ipv4Prefix parse(String text) {
        int slash = text.indexOf('/');
        if (slash < 0) {
            return new Ipv4Prefix(Ipv4.parse(text), 32);
        }
        return new Ipv4Prefix(Ipv4.parse(text.substring(0, slash)), Integer.parseInt(text.substring(slash + 1)));
    }

    /** @return whether {@code ip} is in this prefix */
    public boolean contains(int ip) {
        return (ip & mask(length)) == address;
    }

    @Override
    public String toString() {
        return Ipv4.toString(address) + "/" + length;
    }
}
