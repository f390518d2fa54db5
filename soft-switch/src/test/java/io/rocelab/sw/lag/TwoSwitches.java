package io.rocelab.sw.lag;

import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.sw.SoftSwitch;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.config.SwitchConfigBuilder;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.HostStub;
import io.rocelab.sw.testkit.Lab;
import java.util.ArrayList;
import java.util.List;

/**
 * Host a -- switch A == switch B -- host b in virtual time: each switch's Ethernet0 to its host,
 * its Ethernet4 and Ethernet8 in PortChannel0001, cabled to the other's; A routes 10.0.0.2 via
 * its port channel to B, B routes 10.0.0.1 via its port channel to A.
 */
final class TwoSwitches {
    static final long SPEED = 100_000_000_000L;
    static final long MAC_A = MacAddress.parse("02:00:00:00:0a:fe");
    static final long MAC_B = MacAddress.parse("02:00:00:00:0b:fe");
    final VirtualTimeScheduler time = new VirtualTimeScheduler();
    final SoftSwitch a;
    final SoftSwitch b;
    final HostStub hostA;
    final HostStub hostB;
    /** The two member cables: A's side is port A, B's side port B. */
    final List<InProcessLink> members = new ArrayList<>();
    private final List<InProcessLink> links = new ArrayList<>();

    TwoSwitches(boolean fastRate, boolean lacp) {
        this(fastRate, lacp, true);
    }

    /** @param aUp A's PortChannel0001 admin_status up */
    TwoSwitches(boolean fastRate, boolean lacp, boolean aUp) {
        a = new SoftSwitch(config("A", MAC_A, 0, MAC_B, fastRate, lacp, aUp), time, ByteBufAllocator.DEFAULT, 1);
        b = new SoftSwitch(config("B", MAC_B, 1, MAC_A, fastRate, lacp, true), time, ByteBufAllocator.DEFAULT, 2);
        InProcessLink la = link("a");
        InProcessLink lb = link("b");
        a.attach("Ethernet0", la.portB());
        b.attach("Ethernet0", lb.portB());
        hostA = new HostStub(time, la.portA(), SPEED);
        hostB = new HostStub(time, lb.portA(), SPEED);
        for (String port : List.of("Ethernet4", "Ethernet8")) {
            InProcessLink m = link(port);
            a.attach(port, m.portA());
            b.attach(port, m.portB());
            members.add(m);
        }
    }

    private InProcessLink link(String name) {
        InProcessLink l = InProcessLink.builder().name(name).rateBitsPerSecond(SPEED).propagationDelayNanos(25)
            .seed(links.size()).build(time);
        links.add(l);
        return l;
    }

    /** Host {@code self} on Ethernet0; the other host behind PortChannel0001. */
    static SwitchConfig config(String name, long mac, int self, long peerMac, boolean fastRate, boolean lacp,
                               boolean up) {
        ConfigBuilder b = new ConfigBuilder(3, 100)
            .route("10.0.0." + (self + 1) + "/32", "Ethernet0", MacAddress.toString(Lab.hostMac(self)))
            .route("10.0.0." + (2 - self) + "/32", "PortChannel0001", MacAddress.toString(peerMac));
        SwitchConfigBuilder t = b.tables().hostname(name).mac(mac);
        SwitchConfigBuilder.PortChannel pc = SwitchConfigBuilder.PortChannel.lacp().withFastRate(fastRate).withStatic(!lacp);
        if (!up) {
            pc = new SwitchConfigBuilder.PortChannel("down", pc.mtu(), pc.minLinks(), pc.isStatic(), pc.fastRate(),
                pc.fallback(), pc.lacpKey());
        }
        t.portChannel("PortChannel0001", pc)
            .portChannelMember("PortChannel0001", "Ethernet4").portChannelMember("PortChannel0001", "Ethernet8");
        return b.build();
    }

    /** Host b sends one frame of flow {@code sport} to host a, through B's port channel. */
    void bToA(int sport) {
        hostB.flow(Lab.hostMac(1), MAC_B, Lab.hostIp(1), Lab.hostIp(0), 26, 2, sport, 64).sendOne();
    }

    /** Host a sends one frame of flow {@code sport} to host b, through A's port channel. */
    void aToB(int sport) {
        hostA.flow(Lab.hostMac(0), MAC_A, Lab.hostIp(0), Lab.hostIp(1), 26, 2, sport, 64).sendOne();
    }

    LagGroup groupA() {
        return a.portChannels().groups().get(0);
    }

    LagGroup groupB() {
        return b.portChannels().groups().get(0);
    }

    /** Every link down (no more LACPDUs), what is in flight lands, the hosts let go of their frames. */
    void close() {
        links.forEach(l -> l.setUp(false));
        time.runFor(1_000_000_000L);
        hostA.close();
        hostB.close();
    }
}
