package io.rocelab.sw.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.routing.Ipv4Prefix;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.sw.SoftSwitch;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.sw.forward.EcmpGroup;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * eBGP over a port channel, as SONiC's T0 and T1 run it: the session's address on
 * {@code INTERFACE|PortChannel0001|...}, its frames on whichever member, the learnt route's next hop
 * the port channel, and the session surviving one member but not both.
 */
class PortChannelBgpTest {
    private static String config(String name, String mac, long asn, String local, String peer, long peerAsn,
                                 String extra) {
        return """
            {
              "DEVICE_METADATA": {"localhost": {"hostname": "%s", "mac": "%s", "bgp_asn": "%d"}},
              "PORT": {"Ethernet0": {"speed": "100000"}, "Ethernet4": {"speed": "100000"}, "Ethernet8": {"speed": "100000"}},
              "PORTCHANNEL": {"PortChannel0001": {"static": "true"}},
              "PORTCHANNEL_MEMBER": {"PortChannel0001|Ethernet4": {}, "PortChannel0001|Ethernet8": {}},
              "INTERFACE": {"PortChannel0001|%s/31": {}},
              "BGP_NEIGHBOR": {"%s": {"asn": "%d", "name": "peer", "local_addr": "%s", "holdtime": "9", "keepalive": "3"}}%s
            }
            """.formatted(name, mac, asn, local, peer, peerAsn, local, extra);
    }

    @Test
    void aSessionOverAPortChannelLearnsRoutesThroughItAndOutlivesOneMember() {
        VirtualTimeScheduler time = new VirtualTimeScheduler();
        SoftSwitch t0 = new SoftSwitch(ConfigLoader.parse(config("t0", "02:00:00:00:00:f0", 65001, "10.0.0.1", "10.0.0.0",
            65100, ",\n \"STATIC_ROUTE\": {\"192.168.0.0/24\": {\"ifname\": \"Ethernet0\", "
                + "\"nexthop_mac\": \"02:00:00:00:00:01\"}}")), time, ByteBufAllocator.DEFAULT, 1);
        SoftSwitch t1 = new SoftSwitch(ConfigLoader.parse(config("t1", "02:00:00:00:00:f1", 65100, "10.0.0.0", "10.0.0.1",
            65001, "")), time, ByteBufAllocator.DEFAULT, 2);
        List<InProcessLink> members = new ArrayList<>();
        for (String port : List.of("Ethernet4", "Ethernet8")) {
            InProcessLink l = InProcessLink.builder().name(port).rateBitsPerSecond(100_000_000_000L)
                .propagationDelayNanos(25).seed(members.size()).build(time);
            t0.attach(port, l.portA());
            t1.attach(port, l.portB());
            members.add(l);
        }
        time.runFor(100_000_000L);
        BgpSession s = t1.bgp().sessions().get(0);
        assertEquals(BgpSession.State.Established, s.state());
        Ipv4Prefix net = Ipv4Prefix.parse("192.168.0.0/24");
        assertNotNull(t1.bgp().locRib().get(net));
        EcmpGroup g = t1.forwarding().routes().exact(net.address(), net.length());
        assertEquals(t1.config().interfaceIndex("PortChannel0001"), g.port(0), "the next hop is the port channel");
        members.get(0).setUp(false);
        time.runFor(10_000_000_000L);
        assertEquals(BgpSession.State.Established, s.state(), "one member left: the port channel is up");
        assertEquals(0, s.drops());
        members.get(1).setUp(false);
        time.runFor(1_000_000L);
        assertEquals(BgpSession.State.Idle, s.state(), "both members down: the port channel's carrier is gone");
        assertEquals(null, t1.forwarding().routes().exact(net.address(), net.length()));
    }
}
