package io.rocelab.sw.forward;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * IPv4 longest-prefix match. A lookup probes one hash table per prefix length present, longest
 * first (a fat tree's leaf has three or four lengths: its hosts' /31s or /24s, the other leaves'
 * subnets, the default): its cost follows the lengths, not the routes (a k=16 fat tree's switch
 * holds 128 edge subnets), and it allocates nothing. Static routes are added when the switch is
 * built; a routing protocol adds, replaces and removes its own at run time, on the owner thread
 * (each change builds a new index, which the data path picks up on its next lookup).
 */
public final class RouteTable {
    private record Route(int prefix, int mask, int length, EcmpGroup group) {
    }

    /** The routes of one prefix length, by their network address. */
    private record Level(int mask, Int2ObjectHashMap<EcmpGroup> byPrefix) {
    }

    private final List<Route> building = new ArrayList<>();
    private Route[] routes = new Route[0];
    private Level[] levels = new Level[0];

    /** Adds (or, for the same prefix, replaces) a route. */
    public void add(int prefix, int length, EcmpGroup group) {
        int mask = length == 0 ? 0 : -1 << (32 - length);
        building.removeIf(r -> r.length == length && r.prefix == (prefix & mask));
        building.add(new Route(prefix & mask, mask, length, group));
        building.sort(Comparator.comparingInt(Route::length).reversed());
        rebuild();
    }

    /** Removes the route for exactly this prefix, if there is one (a withdrawn BGP route). */
    public void remove(int prefix, int length) {
        int mask = length == 0 ? 0 : -1 << (32 - length);
        if (building.removeIf(r -> r.length == length && r.prefix == (prefix & mask))) {
            rebuild();
        }
    }

    /** The routes longest first, and a level per length present, longest first. */
    private void rebuild() {
        routes = building.toArray(new Route[0]);
        List<Level> out = new ArrayList<>();
        for (Route r : routes) {
            if (out.isEmpty() || out.get(out.size() - 1).mask != r.mask) {
                out.add(new Level(r.mask, new Int2ObjectHashMap<>()));
            }
            out.get(out.size() - 1).byPrefix.put(r.prefix, r.group);
        }
        levels = out.toArray(new Level[0]);
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
        for (Level level : levels) {
            EcmpGroup g = level.byPrefix.get(dst & level.mask);
            if (g != null) {
                return g;
            }
        }
        return null;
    }
}
