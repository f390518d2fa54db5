package io.rocelab.sw.forward;

import io.rocelab.sw.config.Prefix6;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * IPv6 longest-prefix match over addresses held as two longs. Routes are kept longest first and
 * scanned in order, as {@link RouteTable} does for IPv4: lab route tables have tens of entries,
 * and the scan allocates nothing.
 */
public final class Route6Table {
    private record Route(long high, long low, long highMask, long lowMask, int length, EcmpGroup group) {
    }

    private final List<Route> building = new ArrayList<>();
    private Route[] routes = new Route[0];

    /** Adds (or, for the same prefix, replaces) a route. */
    public void add(long high, long low, int length, EcmpGroup group) {
        long hm = Prefix6.highMask(length);
        long lm = Prefix6.lowMask(length);
        building.removeIf(r -> r.length == length && r.high == (high & hm) && r.low == (low & lm));
        building.add(new Route(high & hm, low & lm, hm, lm, length, group));
        building.sort(Comparator.comparingInt(Route::length).reversed());
        routes = building.toArray(new Route[0]);
    }

    /** One route, for views ({@link #routes()}): the network address as two longs, its length. */
    public record Entry(long high, long low, int length, EcmpGroup group) {
    }

    /** @return the routes, longest prefix first */
    public List<Entry> routes() {
        List<Entry> out = new ArrayList<>(routes.length);
        for (Route r : routes) {
            out.add(new Entry(r.high, r.low, r.length, r.group));
        }
        return out;
    }

    /** Removes the route for exactly this prefix, if there is one (a withdrawn BGP route). */
    public void remove(long high, long low, int length) {
        long hm = Prefix6.highMask(length);
        long lm = Prefix6.lowMask(length);
        if (building.removeIf(r -> r.length == length && r.high == (high & hm) && r.low == (low & lm))) {
            routes = building.toArray(new Route[0]);
        }
    }

    /** @return the group of exactly this prefix, or null */
    public EcmpGroup exact(long high, long low, int length) {
        long hm = Prefix6.highMask(length);
        long lm = Prefix6.lowMask(length);
        for (Route r : routes) {
            if (r.length == length && r.high == (high & hm) && r.low == (low & lm)) {
                return r.group;
            }
        }
        return null;
    }

    /** Link state changed: every group recomputes its live members on its next lookup. */
    public void invalidateGroups() {
        for (Route r : routes) {
            r.group.invalidate();
        }
    }

    /** @return the group of the longest prefix matching the address {@code high}:{@code low}, or null */
    public EcmpGroup lookup(long high, long low) {
        for (Route r : routes) {
            if ((high & r.highMask) == r.high && (low & r.lowMask) == r.low) {
                return r.group;
            }
        }
        return null;
    }
}
