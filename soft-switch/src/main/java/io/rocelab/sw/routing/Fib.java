package io.rocelab.sw.routing;

import io.rocelab.codec.routing.RoutePrefix;
import java.util.List;

/**
 * The switch's forwarding table as the speaker programs it (zebra to fpmsyncd to orchagent to the
 * SAI route and next-hop-group entries in SONiC): add or replace a route's next hops, remove it.
 */
public interface Fib {
    /** A next hop: the port and the neighbour's MAC. */
    record NextHop(int port, long mac) {
    }

    /** Installs or replaces {@code prefix}'s route. */
    void install(RoutePrefix prefix, List<NextHop> hops);

    /** Removes {@code prefix}'s route. */
    void remove(RoutePrefix prefix);
}
