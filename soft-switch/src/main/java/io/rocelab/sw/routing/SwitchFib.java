package io.rocelab.sw.routing;

import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.routing.Ipv4Prefix;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.config.RouteConfig;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.forward.EcmpGroup;
import io.rocelab.sw.forward.RouteTable;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The switch's IPv4 route table as the speaker's {@link Fib}: a route becomes an ECMP group of its
 * next hops' ports and MACs, replacing the one before.
 */
public final class SwitchFib implements Fib {
    private final RouteTable routes;

    public SwitchFib(RouteTable routes) {
        this.routes = routes;
    }

    @Override
    public void install(Ipv4Prefix prefix, List<NextHop> hops) {
        int[] ports = new int[hops.size()];
        long[] macs = new long[hops.size()];
        for (int i = 0; i < ports.length; i++) {
            ports[i] = hops.get(i).port();
            macs[i] = hops.get(i).mac();
        }
        routes.add(prefix.address(), prefix.length(), new EcmpGroup(ports, macs));
    }

    @Override
    public void remove(Ipv4Prefix prefix) {
        routes.remove(prefix.address(), prefix.length());
    }

    /** @return the speaker of {@code config} (which has a BGP section) programming {@code routes} */
    public static BgpSpeaker speaker(SwitchConfig config, RouteTable routes, Scheduler scheduler, ByteBufAllocator alloc,
                                     ControlPlane out, long seed) {
        Set<Ipv4Prefix> statics = new HashSet<>();
        for (RouteConfig r : config.routes()) {
            statics.add(new Ipv4Prefix(r.prefix(), r.length()));
        }
        // interfaces: the ports, then the port channels (a session may run over either, as SONiC's T0-T1 do)
        List<String> names = new java.util.ArrayList<>(config.ports().stream().map(PortConfig::name).toList());
        config.portChannels().forEach(pc -> names.add(pc.name()));
        return new BgpSpeaker(config.hostname(), config.bgp(), names, config.routerMac(), scheduler, alloc, out,
            new SwitchFib(routes), statics, seed);
    }
}
