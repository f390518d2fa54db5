package io.rocelab.topology.route;

import io.rocelab.sw.config.BgpConfig;
import io.rocelab.topology.model.RouteFiller;
import java.util.Objects;

/**
 * How a generated fabric routes: static ECMP routes over every shortest path ({@link EcmpRoutes},
 * the default, rocelab's behaviour before routing protocols), or eBGP on every fabric link as RFC
 * 7938 lays it out ({@link BgpRoutes}), with these timers. Lab files: {@code routing: {protocol:
 * static|bgp, bfd: {interval, multiplier} | none, hold, keepalive, mrai, processing}}.
 *
 * @param protocol     static or bgp
 * @param bfd          BFD on every session (FRR's default 300 ms x 3 when asked for), or null
 * @param keepaliveNanos FRR's datacenter profile: 3 s (SONiC's template: 60 s)
 * @param holdNanos    FRR's datacenter profile: 9 s (SONiC's template: 180 s)
 * @param mraiNanos    the advertisement interval: 0, FRR's datacenter profile
 * @param processingNanos the time the speaker takes for one UPDATE or session loss
 */
public record Routing(Protocol protocol, BgpConfig.Bfd bfd, long keepaliveNanos, long holdNanos, long mraiNanos,
                      long processingNanos) {
    /** The routing protocol. */
    public enum Protocol { STATIC, BGP }

    /** Static routes: the default. */
    public static final Routing STATIC = new Routing(Protocol.STATIC, null, 0, 0, 0, 0);

    public Routing {
        Objects.requireNonNull(protocol, "protocol");
    }

    /** eBGP with FRR's datacenter profile (3/9 s, MRAI 0), no BFD, 50 µs per UPDATE. */
    public static Routing bgp() {
        return new Routing(Protocol.BGP, null, 3_000_000_000L, 9_000_000_000L, 0, BgpConfig.DEFAULT_PROCESSING_NANOS);
    }

    public Routing withBfd(BgpConfig.Bfd b) {
        return new Routing(protocol, b, keepaliveNanos, holdNanos, mraiNanos, processingNanos);
    }

    public Routing withTimers(long keepalive, long hold) {
        return new Routing(protocol, bfd, keepalive, hold, mraiNanos, processingNanos);
    }

    public Routing withMrai(long nanos) {
        return new Routing(protocol, bfd, keepaliveNanos, holdNanos, nanos, processingNanos);
    }

    public Routing withProcessing(long nanos) {
        return new Routing(protocol, bfd, keepaliveNanos, holdNanos, mraiNanos, nanos);
    }

    /** @return what fills the switches' routes */
    public RouteFiller filler() {
        return protocol == Protocol.STATIC ? new EcmpRoutes() : new BgpRoutes(this);
    }
}
