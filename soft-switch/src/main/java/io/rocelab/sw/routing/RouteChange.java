package io.rocelab.sw.routing;

import io.rocelab.codec.routing.RoutePrefix;
import java.util.List;

/**
 * One change the speaker made to its switch's forwarding table, for the run's timeline.
 *
 * @param nanos    the switch's clock when the route was programmed
 * @param prefix   the route
 * @param nextHops the ports it now leaves by ({@code Ethernet8}), empty when removed
 */
public record RouteChange(long nanos, RoutePrefix prefix, List<String> nextHops) {
    public RouteChange {
        nextHops = List.copyOf(nextHops);
    }

    /** @return whether the route was removed */
    public boolean withdrawn() {
        return nextHops.isEmpty();
    }
}
