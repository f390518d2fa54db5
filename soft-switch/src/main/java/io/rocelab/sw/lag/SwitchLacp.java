package io.rocelab.sw.lag;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.fabric.lag.LacpActor;
import io.rocelab.fabric.lag.LacpAggregator;
import io.rocelab.fabric.lag.LacpSettings;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.sw.config.SwitchConfig;

/**
 * LACP on a switch's port channels (those not {@code static}): an actor on every member, an
 * aggregator per port channel, the actors' decisions to collect and distribute handed to the
 * {@link LagGroup}. The system id is the switch's MAC (an MLAG pair's shared one on its shared
 * port channels), the key the port channel's {@code lacp_key}, the port number the member's
 * position among the switch's ports, plus an offset on the MLAG peer with the higher address so
 * that the two peers' ports never share a number. Owner thread only.
 */
public final class SwitchLacp {
    /** Where an actor's decision goes: the member {@code port} of {@code group} may now collect/distribute. */
    public interface MemberListener {
        void changed(LagGroup group, int port, boolean collect, boolean distribute);
    }

    /** Sends a frame out of a port, never paused (the switch's control queue). */
    public interface Sender {
        void send(int port, ByteBuf frame);
    }

    /** Port numbers of the MLAG peer with the higher address start here. */
    public static final int MLAG_PORT_OFFSET = 0x8000;

    private final LacpActor[] actorOfPort;

    /**
     * @param systemMacOf the LACP system id of each port channel (the switch's MAC, or an MLAG pair's)
     * @param portOffset  the number added to every member's port number (0, or {@link #MLAG_PORT_OFFSET}
     *                    on the MLAG peer with the higher address)
     */
    public SwitchLacp(SwitchConfig config, PortChannels lags, Scheduler scheduler, ByteBufAllocator alloc,
                      java.util.function.ToLongFunction<LagGroup> systemMacOf, int portOffset, Sender sender,
                      MemberListener listener) {
        this.actorOfPort = new LacpActor[config.ports().size()];
        for (LagGroup g : lags.groups()) {
            if (!g.config().lacp()) {
                continue;
            }
            LacpAggregator aggregator = new LacpAggregator(g.config().fallback());
            for (int port : g.members()) {
                LacpSettings s = new LacpSettings(LacpSettings.DEFAULT_SYSTEM_PRIORITY, systemMacOf.applyAsLong(g),
                    g.config().lacpKey(), LacpSettings.DEFAULT_PORT_PRIORITY, portOffset + port + 1,
                    g.config().fastRate(), true);
                LacpActor a = new LacpActor(scheduler, s, config.routerMac(), alloc, f -> sender.send(port, f));
                a.setListener(x -> listener.changed(g, port, x.collecting(), x.distributing()));
                actorOfPort[port] = a;
                aggregator.add(a);
            }
        }
    }

    /** @return the actor on {@code port}, or null if the port is in no LACP port channel */
    public LacpActor actor(int port) {
        return actorOfPort[port];
    }
}
