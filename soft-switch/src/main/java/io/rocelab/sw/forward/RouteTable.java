package io.rocelab.sw.forward;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * IPv4 longest-prefix match. Routes are kept longest first and scanned in order: lab route
 * tables have tens of entries, and the scan allocates nothing. Static routes are added when the
 * switch is built; a routing protocol adds, replaces and removes its own at run time, on the owner
 * thread (each change builds a new array, which the data path picks up on its next lookup).
 */
public final class RouteTable {
    private record Route(int prefix, int mask, int length, EcmpGroup group) {
    }

    private final List<Route> building = new ArrayList<>();
    private Route[] routes = new Route[0];

    /** Adds (or, for the same prefix, replaces) a route. */
    public void add(int prefix, int length, EcmpGroup group) {
        int mask = length == 0 ? 0 : -1 << (32 - length);
        building.removeIf(r -> r.length == length && r.prefix == (prefix & mask));
        building.add(new Route(prefix & mask, mask, length, group));
        building.sort(Comparator.comparingInt(Route::length).reversed());
        routes = building.toArray(new Route[0]);
    }

    /** Removes the route for exactly this prefix, if there is one (a withdrawn BGP route). */
    public void remove(int prefix, int length) {
        int mask = length == 0 ? 0 : -1 << (32 - length);
        if (building.removeIf(r -> r.length == length && r.prefix == (prefix & mask))) {
            routes = building.toArray(new Route[0]);
        }
    }

    /** @return the group of exactly this prefix, or null */
    public EcmpGroup exact(int prefix, int length) {
        int mask = length == 0 ? 0 : -1 << (32 - length);
        for (Route r : routes) {
            if (r.length == length && r.prefix == (prefix & mask)) {
                return r.group;
            }
        }
        return null;
    }

    /** One route, for views ({@link #routes()}). @param prefix the network address @param length its length */
    public record Entry(int prefix, int length, EcmpGroup group) {
    }

    /** @return the routes, longest prefix first */
    public List<Entry> routes() {
        List<Entry> out = new ArrayList<>(routes.length);
        for (Route r : routes) {
            out.add(new Entry(r.prefix, r.length, r.group));
        }
        return out;
    }

    /** Link state changed: every group recomputes its live members on its next lookup. */
    public void invalidateGroups() {
        for (Route r : routes) {
            r.group.invalidate();
        }
    }

    /** @return the group of the longest matching prefix, or null */
    public EcmpGroup lookup(int dst) {
        for (Route r : routes) {
            if ((dst & r.mask) == r.prefix) {
                return r.group;
            }
        }
        return null;
    }
}
