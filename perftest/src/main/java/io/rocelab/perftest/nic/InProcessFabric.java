package io.rocelab.perftest.nic;

import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.nic.BondMode;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.fabric.FabricMode;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.model.Topology;

/**
 * {@code --in-process}: a {@link Topology} of two hosts cabled to each other (100 Gb/s, 1 us), the
 * server and the client, brought to life as a real-time {@link Fabric} of bare hosts (each tool side opens its NIC on
 * its host's port, as perftest opens the device). Both NICs share one event loop: a frame from one to
 * the other wakes no other thread, and on a machine with two cores, perftest's threads have the other.
 * With busy-poll, that one owner thread polls instead of sleeping in the kernel: the arrangement with
 * the lowest latency (two spinning NIC threads and the application do not fit two cores). The sides do
 * not own the loop or the link; {@link #close()} stops the loop once both engines are closed.
 */
public final class InProcessFabric implements AutoCloseable {
    /** The NICs' line rate: fast enough never to be the bottleneck of a software NIC. */
    public static final long DEFAULT_RATE_GBPS = 100;
    static final String SERVER = "server";
    static final String CLIENT = "client";

    private final Fabric fabric;
    /** The second cable, between the hosts' ports 2 (perftest's {@code -i 2}). */
    private final InProcessLink link2;
    /** The mode both NICs bond their ports in, or null for two ports of their own. */
    private final BondMode bond;
    /** The NICs' line rate, which their transmitters pace at. */
    private final long lineRateBitsPerSecond;

    private InProcessFabric(long rateGbps, long delayNanos, boolean busyPoll, BondMode bond) {
        this.bond = bond;
        this.lineRateBitsPerSecond = (rateGbps > 0 ? rateGbps : DEFAULT_RATE_GBPS) * 1_000_000_000L;
        Fabric.Builder b = Fabric.builder(topology(rateGbps, delayNanos)).mode(FabricMode.REAL_TIME).eventLoops(1)
            .bareHosts();
        this.fabric = (busyPoll ? b.busyPoll() : b).start();
        this.link2 = InProcessLink.builder().name("perftest-2").portNames(SERVER + "-2", CLIENT + "-2")
            .rateBitsPerSecond(lineRateBitsPerSecond).propagationDelayNanos(delayNanos)
            .build(fabric.scheduler(SERVER), fabric.scheduler(CLIENT));
    }

    /** The two hosts at the tools' default addresses, cabled to each other. */
    static Topology topology(long rateGbps, long delayNanos) {
        return Topology.builder()
            .host(Host.builder(SERVER).ipv4(NicOptions.DEFAULT_SERVER_IP).mac(NicOptions.DEFAULT_SERVER_MAC).build())
            .host(Host.builder(CLIENT).ipv4(NicOptions.DEFAULT_CLIENT_IP).mac(NicOptions.DEFAULT_CLIENT_MAC).build())
            .link(Link.between(SERVER, CLIENT).name("perftest").speedBitsPerSecond(rateGbps * 1_000_000_000L).propagationDelayNanos(delayNanos)
                .build())
            .build();
    }

    /** Two hosts on one event loop joined by a 100 Gb/s cable with 1 us of propagation delay. */
    public static InProcessFabric create() {
        return create(false);
    }

    /** The same, on one busy-polling owner thread when {@code busyPoll}. */
    public static InProcessFabric create(boolean busyPoll) {
        return new InProcessFabric(DEFAULT_RATE_GBPS, 1000, busyPoll, null);
    }

    /** The same, each NIC's two ports bonded in {@code bond} (RoCE LAG over the two cables) unless null. */
    public static InProcessFabric create(boolean busyPoll, BondMode bond) {
        return new InProcessFabric(DEFAULT_RATE_GBPS, 1000, busyPoll, bond);
    }

    /** Two hosts joined by a link of the given rate and delay. */
    public static InProcessFabric create(long rateGbps, long delayNanos) {
        return new InProcessFabric(rateGbps, delayNanos, false, null);
    }

    public InProcessLink link() {
        return fabric.link("perftest");
    }

    /** The second cable, between the two NICs' ports 2. */
    public InProcessLink link2() {
        return link2;
    }

    /** The server's side (port A). */
    public NicAttachment sideA() {
        return side(fabric.scheduler(SERVER), fabric.hostPort(SERVER), "in-process link, side A",
            link2.portA(), NicOptions.DEFAULT_SERVER_MAC2, NicOptions.DEFAULT_SERVER_IP2);
    }

    /** The client's side (port B). */
    public NicAttachment sideB() {
        return side(fabric.scheduler(CLIENT), fabric.hostPort(CLIENT), "in-process link, side B",
            link2.portB(), NicOptions.DEFAULT_CLIENT_MAC2, NicOptions.DEFAULT_CLIENT_IP2);
    }

    private NicAttachment side(Scheduler s, FramePort p, String text, FramePort p2, String mac2, String ip2) {
        // the fabric owns the loop and the links; the NIC paces at the line rate; port 2 on the second cable,
        // a port of its own or bonded with port 1
        return new PlainAttachment(s, p, p2, text, () -> { }, (nic, link2) -> bond == null
            ? nic.linkSpeedBitsPerSecond(lineRateBitsPerSecond).port2(link2, mac2, ip2)
            : nic.linkSpeedBitsPerSecond(lineRateBitsPerSecond).bond(link2, bond).lacpRate("fast"));
    }

    @Override
    public void close() {
        fabric.close();
    }
}
