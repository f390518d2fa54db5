package io.rocelab.sw.routing;

import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.routing.Ipv4Prefix;
import io.rocelab.codec.routing.Ipv6Prefix;
import io.rocelab.codec.routing.RoutePrefix;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.config.Route6Config;
import io.rocelab.sw.config.RouteConfig;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.forward.EcmpGroup;
import io.rocelab.sw.forward.Route6Table;
import io.rocelab.sw.forward.RouteTable;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The switch's route tables (IPv4 and IPv6) as the speaker's {@link Fib}: a route becomes an ECMP
 * group of its next hops' ports and MACs, replacing the one before.
 */
public final class SwitchFib implements Fib {
    private final RouteTable routes;
    private final Route6Table routes6;

    public SwitchFib(RouteTable routes, Route6Table routes6) {
        this.routes = routes;
        this.routes6 = routes6;
    }

    @Override
    public void install(RoutePrefix prefix, List<NextHop> hops) {
        int[] ports = new int[hops.size()];
        long[] macs = new long[hops.size()];
        for (int i = 0; i < ports.length; i++) {
            ports[i] = hops.get(i).port();
            macs[i] = hops.get(i).mac();
        }
        EcmpGroup group = new EcmpGroup(ports, macs);
        if (prefix instanceof Ipv4Prefix p) {
            routes.add(p.address(), p.length(), group);
        } else {
            Ipv6Prefix p = (Ipv6Prefix) prefix;
            routes6.add(p.high(), p.low(), p.length(), group);
        }
    }

    @Override
    public void remove(RoutePrefix prefix) {
        if (prefix instanceof Ipv4Prefix p) {
            routes.remove(p.address(), p.length());
        } else {
            Ipv6Prefix p = (Ipv6Prefix) prefix;
            routes6.remove(p.high(), p.low(), p.length());
        }
    }

    /** @return the speaker of {@code config} (which has a BGP section) programming {@code routes} */
    public static BgpSpeaker speaker(SwitchConfig config, RouteTable routes, Route6Table routes6, Scheduler scheduler,
                                     ByteBufAllocator alloc, ControlPlane out, long seed) {
        Set<RoutePrefix> statics = new HashSet<>();
        for (RouteConfig r : config.routes()) {
            statics.add(new Ipv4Prefix(r.prefix(), r.length()));
        }
        for (Route6Config r : config.routes6()) {
            statics.add(new Ipv6Prefix(r.prefixHigh(), r.prefixLow(), r.length()));
        }
        // interfaces: the ports, then the port channels (a session may run over either, as SONiC's T0-T1 do)
        List<String> names = new java.util.ArrayList<>(config.ports().stream().map(PortConfig::name).toList());
        config.portChannels().forEach(pc -> names.add(pc.name()));
        return new BgpSpeaker(config.hostname(), config.bgp(), names, config.routerMac(), scheduler, alloc, out,
            new SwitchFib(routes, routes6), statics, seed);
    }
}
