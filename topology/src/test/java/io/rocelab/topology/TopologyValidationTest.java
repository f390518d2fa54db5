package io.rocelab.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rocelab.sw.config.SwitchConfigBuilder;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.model.Topology;
import io.rocelab.topology.model.TopologyException;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A topology that cannot work says so in one clear line per mistake. */
class TopologyValidationTest {

    /** host-a -- leaf -- host-b, the leaf bridging on two 100 Gb/s ports. */
    static Topology.Builder good() {
        return Topology.builder()
            .host(Host.builder("host-a").mac("02:00:00:00:0a:01").ipv4("10.0.0.1").build())
            .host(Host.builder("host-b").mac("02:00:00:00:0b:01").ipv4("10.0.0.2").build())
            .switchNode("leaf", leaf())
            .link(Link.between("host-a", "leaf:Ethernet0").build())
            .link(Link.between("host-b", "leaf:Ethernet4").build());
    }

    static SwitchConfigBuilder leaf() {
        return new SwitchConfigBuilder().hostname("leaf").mac(0x02_00_00_00_00_feL).port("Ethernet0", 100_000, 9100)
            .port("Ethernet4", 100_000, 9100).port("Ethernet8", 100_000, 9100).port("Ethernet12", 100_000, 9100);
    }

    @Test
    void aGoodTopologyBuilds() {
        Topology t = good().qos("lossless").build();
        assertEquals(100_000_000_000L, t.link("host-a:eth0--leaf:Ethernet0").speedBitsPerSecond(),
            "a link without a speed takes its switch port's");
        assertEquals("leaf:Ethernet4", t.peerOf(t.host("host-b")).toString());
    }

    static Stream<Arguments> mistakes() {
        return Stream.of(
            Arguments.of("unknown node", (Consumer<Topology.Builder>) b ->
                b.link(Link.between("host-c", "leaf:Ethernet8").build()),
                "link 'host-c:eth0--leaf:Ethernet8': unknown node 'host-c'"),
            Arguments.of("duplicate name", (Consumer<Topology.Builder>) b ->
                b.switchNode("host-a", leaf()), "duplicate node name 'host-a'"),
            Arguments.of("duplicate link name", (Consumer<Topology.Builder>) b -> b.host(Host.builder("host-c")
                .mac("02:00:00:00:0c:01").ipv4("10.0.0.3").build()).link(Link.between("host-c", "leaf:Ethernet8")
                .name("host-a:eth0--leaf:Ethernet0").build()), "duplicate link name 'host-a:eth0--leaf:Ethernet0'"),
            Arguments.of("duplicate IPv4 address", (Consumer<Topology.Builder>) b -> b.host(Host.builder("host-c")
                .mac("02:00:00:00:0c:01").ipv4("10.0.0.1").build()).link(Link.between("host-c", "leaf:Ethernet8").build()),
                "host 'host-c': ipv4 10.0.0.1 is also host 'host-a''s"),
            Arguments.of("duplicate MAC", (Consumer<Topology.Builder>) b -> b.host(Host.builder("host-c")
                .mac("02:00:00:00:0a:01").ipv4("10.0.0.3").build()).link(Link.between("host-c", "leaf:Ethernet8").build()),
                "host 'host-c': mac 02:00:00:00:0a:01 is also host 'host-a''s"),
            Arguments.of("a host with the router's MAC", (Consumer<Topology.Builder>) b -> b.host(Host.builder("host-c")
                .mac("02:00:00:00:00:fe").ipv4("10.0.0.3").build()).link(Link.between("host-c", "leaf:Ethernet8").build()),
                "host 'host-c': mac 02:00:00:00:00:fe is also switch 'leaf''s router MAC"),
            Arguments.of("duplicate IPv6 address", (Consumer<Topology.Builder>) b -> b.host(Host.builder("host-c")
                .mac("02:00:00:00:0c:01").ipv4("10.0.0.3").ipv6("fd00::1").build())
                .host(Host.builder("host-d").mac("02:00:00:00:0d:01").ipv4("10.0.0.4").ipv6("fd00:0::1").build())
                .link(Link.between("host-c", "leaf:Ethernet8").build()).link(Link.between("host-d", "leaf:Ethernet12").build()),
                "host 'host-d': ipv6 fd00::1 is also host 'host-c''s"),
            Arguments.of("a missing switch port", (Consumer<Topology.Builder>) b -> b.host(Host.builder("host-c")
                .mac("02:00:00:00:0c:01").ipv4("10.0.0.3").build()).link(Link.between("host-c", "leaf:Ethernet16").build()),
                "link 'host-c:eth0--leaf:Ethernet16': switch 'leaf' has no port 'Ethernet16'"),
            Arguments.of("a missing host port", (Consumer<Topology.Builder>) b -> b.host(Host.builder("host-c")
                .mac("02:00:00:00:0c:01").ipv4("10.0.0.3").build()).link(Link.between("host-c:eth1", "leaf:Ethernet8").build()),
                "link 'host-c:eth1--leaf:Ethernet8': host 'host-c' has one port, 'eth0', not 'eth1'"
                    + " (only a dual-port host has 'eth1')"),
            Arguments.of("a dual-port host's second port uncabled", (Consumer<Topology.Builder>) b -> b.host(
                Host.builder("host-c").mac("02:00:00:00:0c:01").ipv4("10.0.0.3").secondPort().build())
                .link(Link.between("host-c", "leaf:Ethernet8").build()),
                "host 'host-c': nothing is cabled to host-c:eth1 (it has two ports)"),
            Arguments.of("a second port's default address taken", (Consumer<Topology.Builder>) b -> b.host(
                Host.builder("host-c").mac("02:00:00:00:0c:01").ipv4("10.0.0.3").ipv4Port2("10.0.0.1").build())
                .link(Link.between("host-c", "leaf:Ethernet8").build())
                .link(Link.between("host-c:eth1", "leaf:Ethernet12").build()),
                "host 'host-c': eth1's ipv4 10.0.0.1 is also host 'host-a''s"),
            Arguments.of("a port already used", (Consumer<Topology.Builder>) b -> b.host(Host.builder("host-c")
                .mac("02:00:00:00:0c:01").ipv4("10.0.0.3").build()).link(Link.between("host-c", "leaf:Ethernet4").build()),
                "link 'host-c:eth0--leaf:Ethernet4': leaf:Ethernet4 is already used by link 'host-b:eth0--leaf:Ethernet4'"),
            Arguments.of("a host on no link", (Consumer<Topology.Builder>) b -> b.host(Host.builder("host-c")
                .mac("02:00:00:00:0c:01").ipv4("10.0.0.3").build()), "host 'host-c': not attached to any link"),
            Arguments.of("speeds that disagree", (Consumer<Topology.Builder>) b -> b.host(Host.builder("host-c")
                .mac("02:00:00:00:0c:01").ipv4("10.0.0.3").linkSpeedGbps(25).build())
                .link(Link.between("host-c", "leaf:Ethernet8").build()),
                "link 'host-c:eth0--leaf:Ethernet8': 100 Gb/s at leaf:Ethernet8 but 25 Gb/s at host-c:eth0"),
            Arguments.of("a cable from a switch to itself", (Consumer<Topology.Builder>) b ->
                b.link(Link.between("leaf:Ethernet8", "leaf:Ethernet12").build()),
                "link 'leaf:Ethernet8--leaf:Ethernet12': both ends are on 'leaf'"),
            Arguments.of("an unknown QoS profile", (Consumer<Topology.Builder>) b -> b.qos("losless"),
                "qos: no profile 'losless' (known: lossless, lossy)"),
            Arguments.of("a bad QoS reference in a switch's tables", (Consumer<Topology.Builder>) b -> b.switchNode("leaf2",
                leaf().hostname("leaf2").mac(0x02_00_00_00_00_fdL).portQosMap("Ethernet0",
                    SwitchConfigBuilder.PortQosMap.dscp("AZUR", null, null))),
                "switch 'leaf2': PORT_QOS_MAP|Ethernet0: dscp_to_tc_map 'AZUR' is not in DSCP_TO_TC_MAP"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void eachMistakeHasItsOwnLine(String what, Consumer<Topology.Builder> mistake, String line) {
        Topology.Builder b = good();
        mistake.accept(b);
        TopologyException e = assertThrows(TopologyException.class, b::build);
        assertEquals(List.of(line), e.problems(), what);
    }

    @Test
    void everyMistakeIsReportedAtOnce() {
        Topology.Builder b = good().qos("none").link(Link.between("spine", "leaf:Ethernet8").build())
            .host(Host.builder("host-b").mac("02:00:00:00:0c:01").ipv4("10.0.0.9").build());
        TopologyException e = assertThrows(TopologyException.class, b::build);
        assertEquals(List.of("duplicate node name 'host-b'", "link 'spine:eth0--leaf:Ethernet8': unknown node 'spine'",
            "qos: no profile 'none' (known: lossless, lossy)"), e.problems());
        assertEquals("3 problems in the topology:\n  duplicate node name 'host-b'\n  link 'spine:eth0--leaf:Ethernet8':"
            + " unknown node 'spine'\n  qos: no profile 'none' (known: lossless, lossy)", e.getMessage());
    }
}
