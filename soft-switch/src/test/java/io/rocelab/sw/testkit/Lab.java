package io.rocelab.sw.testkit;

import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.sw.SoftSwitch;
import io.rocelab.sw.config.SwitchConfig;
import java.util.ArrayList;
import java.util.List;

/** One switch with a host on each port, joined by 5 m (25 ns) in-process links, in virtual time. */
public final class Lab {
    public final VirtualTimeScheduler time = new VirtualTimeScheduler();
    public final SoftSwitch sw;
    public final List<HostStub> hosts = new ArrayList<>();
    public final List<InProcessLink> links = new ArrayList<>();
    public final long speed;

    public Lab(SwitchConfig config) {
        this(config, 7);
    }

    /** A switch whose random decisions (WRED, sFlow's samplers) come from {@code seed}. */
    public Lab(SwitchConfig config, long seed) {
        sw = new SoftSwitch(config, time, ByteBufAllocator.DEFAULT, seed);
        speed = config.ports().get(0).speedBitsPerSecond();
        for (int i = 0; i < config.ports().size(); i++) {
            InProcessLink link = InProcessLink.builder().name("h" + i).rateBitsPerSecond(speed)
                .propagationDelayNanos(25).seed(i).build(time);
            links.add(link);
            sw.attach(config.ports().get(i).name(), link.portB());
            hosts.add(new HostStub(time, link.portA(), speed));
        }
    }

    public static long hostMac(int i) {
        return 0x02_00_00_00_01_00L + i;
    }

    public static int hostIp(int i) {
        return Ipv4.parse("10.0.0." + (i + 1));
    }

    /** Adds /32 routes to every host, for {@link ConfigBuilder}. */
    public static ConfigBuilder routes(ConfigBuilder b, int ports) {
        for (int i = 0; i < ports; i++) {
            b.route("10.0.0." + (i + 1) + "/32", ConfigBuilder.name(i),
                io.rocelab.codec.header.MacAddress.toString(hostMac(i)));
        }
        return b;
    }

    /** Host {@code from} sends to host {@code to} with DSCP/ECN and a source port. */
    public HostStub flow(int from, int to, int dscp, int ecn, int sport, int payload) {
        return hosts.get(from).flow(hostMac(from), io.rocelab.codec.header.MacAddress.parse(ConfigBuilder.ROUTER_MAC),
            hostIp(from), hostIp(to), dscp, ecn, sport, payload);
    }

    /** Stops senders, lets everything drain, releases test resources. */
    public void drainAndClose() {
        hosts.forEach(HostStub::stop);
        time.runFor(20_000_000);
        hosts.forEach(HostStub::close);
    }
}
