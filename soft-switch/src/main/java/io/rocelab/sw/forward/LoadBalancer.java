package io.rocelab.sw.forward;

import io.rocelab.sw.pipeline.PacketContext;

/**
 * How a routed packet picks the member of its ECMP group: one strategy per mode (static hash,
 * queue-only flowlets, flowlets by quality, per-packet by quality), chosen per group by
 * {@link LoadBalancing}. Owner thread only; time is the {@code now} passed in.
 */
public interface LoadBalancer {
    /**
     * The member when the group leaves no choice, without computing the flow hash.
     *
     * @return the only live member, -1 if none is up, or {@link EcmpGroup#MANY} to go on to {@link #select}
     */
    default int withoutHash(EcmpGroup group, PortView ports) {
        return group.single(ports);
    }

    /**
     * @param group the route's next hops, more than one of them live (or as {@link #withoutHash} said)
     * @param hash  the packet's seeded flow hash ({@link FlowHash})
     * @param ctx   the packet, classified (its traffic class and lossless flag are set)
     * @param now   the switch's time, ns
     * @return the member, or -1 if all are down
     */
    int select(EcmpGroup group, long hash, PacketContext ctx, long now);

    /** @return the mode's name as the lab file spells it ({@code ecmp}, {@code flowlet}, ...) */
    String mode();
}
