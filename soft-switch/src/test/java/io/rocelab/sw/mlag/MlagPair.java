package io.rocelab.sw.mlag;

import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.sw.SoftSwitch;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.config.SwitchConfigBuilder;
import io.rocelab.sw.testkit.ConfigBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * Two leaves of one MLAG domain in virtual time, their Ethernet12 the peer link (or Ethernet12 and
 * Ethernet16 in PortChannel0009): host h bonded to
 * both leaves' Ethernet0 (PortChannel0001), host x to both leaves' Ethernet4 (PortChannel0002),
 * host o on leaf 2's Ethernet8 only (an orphan port). Bridged, VLAN-unaware.
 */
final class MlagPair {
    static final long SPEED = 100_000_000_000L;
    final VirtualTimeScheduler time = new VirtualTimeScheduler();
    final SoftSwitch[] leaf = new SoftSwitch[2];
    final TestHost h;
    final TestHost x;
    final TestHost o;
    final List<InProcessLink> links = new ArrayList<>();
    /** Per leaf, its links: to h, to x, the peer link (and to o on leaf 2). */
    final List<List<InProcessLink>> linksOf = List.of(new ArrayList<>(), new ArrayList<>());

    MlagPair() {
        this(false);
    }

    /** @param peerLinkLag the peer link a port channel of two cables (Ethernet12, Ethernet16), else Ethernet12 */
    MlagPair(boolean peerLinkLag) {
        for (int i = 0; i < 2; i++) {
            leaf[i] = new SoftSwitch(config(i, peerLinkLag), time, ByteBufAllocator.DEFAULT, i + 1);
        }
        List<FramePort> hPorts = new ArrayList<>();
        List<FramePort> xPorts = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            InProcessLink lh = link(i, "h" + i);
            leaf[i].attach("Ethernet0", lh.portB());
            hPorts.add(lh.portA());
            InProcessLink lx = link(i, "x" + i);
            leaf[i].attach("Ethernet4", lx.portB());
            xPorts.add(lx.portA());
        }
        for (String port : peerLinkLag ? List.of("Ethernet12", "Ethernet16") : List.of("Ethernet12")) {
            InProcessLink peer = link(0, "peer-" + port);
            linksOf.get(1).add(peer);
            leaf[0].attach(port, peer.portA());
            leaf[1].attach(port, peer.portB());
        }
        InProcessLink lo = link(1, "o");
        leaf[1].attach("Ethernet8", lo.portB());
        h = new TestHost(time, 0x02_00_00_00_01_01L, Ipv4.parse("10.1.0.1"), hPorts, true);
        x = new TestHost(time, 0x02_00_00_00_01_02L, Ipv4.parse("10.1.0.2"), xPorts, true);
        o = new TestHost(time, 0x02_00_00_00_01_03L, Ipv4.parse("10.1.0.3"), List.of(lo.portA()), false);
    }

    private InProcessLink link(int leafIndex, String name) {
        InProcessLink l = InProcessLink.builder().name(name).rateBitsPerSecond(SPEED).propagationDelayNanos(25)
            .seed(links.size()).build(time);
        links.add(l);
        linksOf.get(leafIndex).add(l);
        return l;
    }

    static SwitchConfig config(int i, boolean peerLinkLag) {
        ConfigBuilder b = new ConfigBuilder(5, 100);
        SwitchConfigBuilder t = b.tables().hostname("leaf" + (i + 1)).mac(0x02_00_00_00_0a_00L + i);
        t.portChannel("PortChannel0001", SwitchConfigBuilder.PortChannel.lacp().withFastRate(true))
            .portChannelMember("PortChannel0001", "Ethernet0")
            .portChannel("PortChannel0002", SwitchConfigBuilder.PortChannel.lacp().withFastRate(true))
            .portChannelMember("PortChannel0002", "Ethernet4")
            .mclagDomain("1", new SwitchConfigBuilder.McLagDomain("10.255.0." + (i + 1), "10.255.0." + (2 - i),
                peerLinkLag ? "PortChannel0009" : "Ethernet12", List.of("PortChannel0001"), null, 1, 3))
            .mclagInterface("1", "PortChannel0002");
        if (peerLinkLag) {
            t.portChannel("PortChannel0009", SwitchConfigBuilder.PortChannel.lacp().withFastRate(true))
                .portChannelMember("PortChannel0009", "Ethernet12").portChannelMember("PortChannel0009", "Ethernet16");
        }
        return b.build();
    }

    /** Leaf {@code i} fails whole: every cable to it pulled. */
    void fail(int i) {
        linksOf.get(i).forEach(l -> l.setUp(false));
    }

    /** Leaf {@code i} dies silently: every cable to it stays up and carries nothing. */
    void silence(int i) {
        for (InProcessLink l : linksOf.get(i)) {
            l.aToB().setFaults(FaultProfile.NONE.withLoss(1.0));
            l.bToA().setFaults(FaultProfile.NONE.withLoss(1.0));
        }
    }

    void close() {
        links.forEach(l -> l.setUp(false));
        time.runFor(1_000_000_000L);
    }
}
