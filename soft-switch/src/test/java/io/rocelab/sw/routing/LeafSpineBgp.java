package io.rocelab.sw.routing;

import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.sw.SoftSwitch;
import io.rocelab.sw.config.BgpConfig;
import io.rocelab.sw.testkit.ConfigBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * Two leaves and two spines running eBGP in virtual time, no hosts: leaf i (AS 65001 + i) has its
 * host port Ethernet0 (a static /32 to a host, 10.0.i.1) and Ethernet4 to spine0, Ethernet8 to
 * spine1; spine j (AS 65100, both) Ethernet0 to leaf0 and Ethernet4 to leaf1. Link (leaf i, spine
 * j) is 10.1.0.(2k)/31 with k = 2i + j, the spine's the even address. Each leaf originates its
 * 10.0.i.0/24. 100 Gb/s, 25 ns cables.
 */
final class LeafSpineBgp {
    static final long SPEED = 100_000_000_000L;
    static final long PROPAGATION = 25;
    final VirtualTimeScheduler time = new VirtualTimeScheduler();
    final SoftSwitch[] leaves = new SoftSwitch[2];
    final SoftSwitch[] spines = new SoftSwitch[2];
    /** links[i][j]: leaf i to spine j; port A is the leaf's. */
    final InProcessLink[][] links = new InProcessLink[2][2];

    /** Timers for every switch. */
    record Timers(long keepalive, long hold, long mrai, long processing, BgpConfig.Bfd bfd, boolean fastFailover) {
        static Timers datacenter() {
            return new Timers(3_000_000_000L, 9_000_000_000L, 0, 50_000L, null, true);
        }

        Timers withBfd(BgpConfig.Bfd b) {
            return new Timers(keepalive, hold, mrai, processing, b, fastFailover);
        }

        Timers withMrai(long nanos) {
            return new Timers(keepalive, hold, nanos, processing, bfd, fastFailover);
        }

        Timers withHold(long keepaliveNanos, long holdNanos) {
            return new Timers(keepaliveNanos, holdNanos, mrai, processing, bfd, fastFailover);
        }

        Timers withoutFastFailover() {
            return new Timers(keepalive, hold, mrai, processing, bfd, false);
        }
    }

    LeafSpineBgp(Timers timers) {
        this(timers, null);
    }

    /** @param leaf0Static a prefix leaf0 also routes statically to spine1, or null */
    LeafSpineBgp(Timers timers, String leaf0Static) {
        this(timers, leaf0Static, List.of());
    }

    /** @param leaf0Networks prefixes leaf0 originates besides its rack */
    LeafSpineBgp(Timers timers, String leaf0Static, List<String> leaf0Networks) {
        for (int i = 0; i < 2; i++) {
            List<BgpConfig.Neighbor> ns = new ArrayList<>();
            for (int j = 0; j < 2; j++) {
                ns.add(new BgpConfig.Neighbor(ConfigBuilder.name(1 + j), linkAddress(i, j, false),
                    linkAddress(i, j, true), 65100, "spine" + j, true));
            }
            ConfigBuilder b = new ConfigBuilder(3, 100).route("10.0." + i + ".1/32", "Ethernet0", "02:00:00:00:00:0" + i);
            if (i == 0 && leaf0Static != null) {
                b.route(leaf0Static, "Ethernet8", MacAddress.toString(spineMac(1)));
            }
            b.tables().hostname("leaf" + i).mac(leafMac(i)).ecmpHashSeed(i + 1)
                .bgp(config(65001 + i, Ipv4.parse("10.255.0." + (i + 1)), ns, networks(i, leaf0Networks), timers));
            leaves[i] = new SoftSwitch(b.build(), time, ByteBufAllocator.DEFAULT, 10 + i);
        }
        for (int j = 0; j < 2; j++) {
            List<BgpConfig.Neighbor> ns = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                ns.add(new BgpConfig.Neighbor(ConfigBuilder.name(i), linkAddress(i, j, true), linkAddress(i, j, false),
                    65001 + i, "leaf" + i, true));
            }
            ConfigBuilder b = new ConfigBuilder(2, 100);
            b.tables().hostname("spine" + j).mac(spineMac(j)).ecmpHashSeed(5 + j)
                .bgp(config(65100, Ipv4.parse("10.255.0." + (11 + j)), ns, List.of(), timers));
            spines[j] = new SoftSwitch(b.build(), time, ByteBufAllocator.DEFAULT, 20 + j);
        }
        for (int i = 0; i < 2; i++) {
            for (int j = 0; j < 2; j++) {
                links[i][j] = InProcessLink.builder().name("leaf" + i + "-spine" + j).rateBitsPerSecond(SPEED)
                    .propagationDelayNanos(PROPAGATION).seed(i * 2 + j).build(time);
                leaves[i].attach(ConfigBuilder.name(1 + j), links[i][j].portA());
                spines[j].attach(ConfigBuilder.name(i), links[i][j].portB());
            }
        }
    }

    private static List<String> networks(int leaf, List<String> extra) {
        List<String> n = new ArrayList<>(List.of("10.0." + leaf + ".0/24"));
        if (leaf == 0) {
            n.addAll(extra);
        }
        return n;
    }

    static long leafMac(int i) {
        return MacAddress.parse("02:01:00:00:00:0" + (i + 1));
    }

    static long spineMac(int j) {
        return MacAddress.parse("02:01:00:00:01:0" + (j + 1));
    }

    /** @return the address of leaf i's link to spine j: the spine's side (even) or the leaf's (odd) */
    static int linkAddress(int i, int j, boolean spineSide) {
        int k = 2 * i + j;
        return Ipv4.parse("10.1.0." + (2 * k + (spineSide ? 0 : 1)));
    }

    private static BgpConfig config(long asn, int routerId, List<BgpConfig.Neighbor> ns, List<String> networks,
                                    Timers t) {
        return new BgpConfig(asn, routerId, t.keepalive(), t.hold(), BgpConfig.SONIC_CONNECT_NANOS, t.mrai(),
            t.processing(), t.bfd(), t.fastFailover(), ns, networks);
    }

    /** @return whether every speaker has settled */
    boolean converged() {
        for (SoftSwitch s : all()) {
            if (!s.bgp().converged()) {
                return false;
            }
        }
        return true;
    }

    List<SoftSwitch> all() {
        return List.of(leaves[0], leaves[1], spines[0], spines[1]);
    }

    /** Converges (at most 5 s of virtual time) and runs on until the FIBs have been still for 10 ms. */
    void converge() {
        if (!time.runUntil(this::converged, 5_000_000_000L)) {
            throw new AssertionError("the fabric did not converge in 5 s");
        }
        time.runFor(10_000_000L);
    }
}
