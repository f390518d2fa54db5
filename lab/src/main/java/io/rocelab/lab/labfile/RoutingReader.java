package io.rocelab.lab.labfile;

import io.rocelab.sw.config.BgpConfig;
import io.rocelab.topology.route.Routing;

/**
 * {@code routing:}: how the fabric's switches route. {@code protocol: static} (the default: ECMP
 * static routes over every shortest path) or {@code bgp} (eBGP on every fabric link, RFC 7938), with
 * {@code bfd: {interval: 300ms, multiplier: 3}} (FRR's default when {@code bfd: true}; {@code none}
 * or absent: no BFD), {@code hold} and {@code keepalive} (FRR's datacenter profile, 9s and 3s, unless
 * given; SONiC's template is 180s/60s), {@code mrai} (the advertisement interval, 0s) and
 * {@code processing} (the time a speaker takes per UPDATE, 50us).
 */
final class RoutingReader {
    static final String KEY = "routing";

    private RoutingReader() {
    }

    /** @return the routing the lab asks for; {@link Routing#STATIC} if none (mistakes reported) */
    static Routing read(Section top) {
        if (!top.has(KEY)) {
            return Routing.STATIC;
        }
        Section s = top.section(KEY, "protocol", "bfd", "hold", "keepalive", "mrai", "processing");
        if (s == null) {
            return Routing.STATIC;
        }
        String protocol = s.text("protocol");
        if (protocol == null || protocol.equals("static")) {
            for (String k : new String[] {"bfd", "hold", "keepalive", "mrai", "processing"}) {
                if (s.has(k)) {
                    s.mistake(k, "only with protocol: bgp (static routes have no " + k + ")");
                }
            }
            return Routing.STATIC;
        }
        if (!protocol.equals("bgp")) {
            s.mistake("protocol", "must be static or bgp, not '" + protocol + "'");
            return Routing.STATIC;
        }
        Routing r = Routing.bgp();
        long keepalive = s.nanos("keepalive", r.keepaliveNanos());
        long hold = s.nanos("hold", r.holdNanos());
        if (hold != 0 && (hold < 3_000_000_000L || hold % 1_000_000_000L != 0)) {
            s.mistake("hold", "the hold time is 0 or whole seconds of at least 3s (RFC 4271 section 4.2)");
        } else if (hold != 0 && (keepalive <= 0 || keepalive > hold || keepalive % 1_000_000_000L != 0)) {
            s.mistake("keepalive", "the keepalive interval is whole seconds, at least 1s and at most the hold time");
        }
        r = r.withTimers(keepalive, hold);
        long mrai = s.nanos("mrai", 0);
        if (mrai < 0) {
            s.mistake("mrai", "must be 0 or more");
        }
        long processing = s.nanos("processing", r.processingNanos());
        if (processing < 0) {
            s.mistake("processing", "must be 0 or more");
        }
        r = r.withMrai(Math.max(0, mrai)).withProcessing(Math.max(0, processing));
        return r.withBfd(bfd(s));
    }

    private static BgpConfig.Bfd bfd(Section s) {
        if (!s.has("bfd")) {
            return null;
        }
        if (s.get("bfd") instanceof YNode.YScalar sc) {
            String t = sc.value() == null ? "none" : String.valueOf(sc.value());
            if (t.equals("none") || t.equals("false")) {
                return null;
            }
            if (t.equals("true")) {
                return BgpConfig.Bfd.FRR_DEFAULT;
            }
            s.mistake("bfd", "give {interval, multiplier}, true (FRR's 300ms x 3) or none, not '" + t + "'");
            return null;
        }
        Section b = s.section("bfd", "interval", "multiplier");
        if (b == null) {
            return null;
        }
        long interval = b.nanos("interval", BgpConfig.Bfd.FRR_DEFAULT.intervalNanos());
        if (interval < 1_000) {
            b.mistake("interval", "BFD intervals are at least 1us (RFC 5880 counts microseconds)");
            interval = BgpConfig.Bfd.FRR_DEFAULT.intervalNanos();
        }
        int multiplier = (int) b.integer("multiplier", 3, 1, 255);
        return new BgpConfig.Bfd(interval, multiplier);
    }
}
