package io.rocelab.sw.lag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rocelab.sw.config.ConfigException;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.sw.config.ConfigWriter;
import io.rocelab.sw.config.PortChannelConfig;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.config.SwitchConfigBuilder;
import io.rocelab.sw.testkit.ConfigBuilder;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** SONiC's PORTCHANNEL and PORTCHANNEL_MEMBER tables: read, written back, and each mistake one line naming its key. */
class PortChannelConfigTest {

    private static ConfigBuilder withChannel() {
        ConfigBuilder b = new ConfigBuilder(4, 100);
        ObjectNode r = b.root();
        r.withObject("/PORTCHANNEL").putObject("PortChannel0001").put("admin_status", "up").put("mtu", "9000")
            .put("min_links", "2").put("lacp_key", "auto").put("fallback", "false").put("fast_rate", "true");
        r.withObject("/PORTCHANNEL_MEMBER").putObject("PortChannel0001|Ethernet4");
        r.withObject("/PORTCHANNEL_MEMBER").putObject("PortChannel0001|Ethernet8");
        return b;
    }

    @Test
    void sonicsKeysAreRead() {
        SwitchConfig c = withChannel().build();
        PortChannelConfig pc = c.portChannels().get(0);
        assertEquals("PortChannel0001", pc.name());
        assertTrue(pc.adminUp());
        assertEquals(9000, pc.mtu());
        assertEquals(2, pc.minLinks());
        assertTrue(pc.lacp(), "SONiC's port channels run LACP unless static");
        assertTrue(pc.fastRate());
        assertFalse(pc.fallback());
        assertEquals(1, pc.lacpKey(), "lacp_key auto: the name's number");
        assertEquals(List.of("Ethernet4", "Ethernet8"), pc.members());
        assertEquals(9000, c.ports().get(1).mtu(), "the port channel's mtu is set on its members");
        assertEquals(9100, c.ports().get(0).mtu(), "other ports keep theirs");
        assertEquals(4, c.interfaceIndex("PortChannel0001"), "interfaces: the 4 ports, then the port channels");
    }

    @Test
    void theWriterWritesWhatTheLoaderReadsBack() {
        ConfigBuilder b = new ConfigBuilder(4, 100);
        SwitchConfigBuilder t = b.tables();
        t.portChannel("PortChannel0002", SwitchConfigBuilder.PortChannel.lacp().withFastRate(true).withMinLinks(2))
            .portChannelMember("PortChannel0002", "Ethernet4").portChannelMember("PortChannel0002", "Ethernet12");
        SwitchConfig built = t.build();
        SwitchConfig read = ConfigLoader.parse(ConfigWriter.toJson(t));
        assertEquals(built.portChannels(), read.portChannels());
        assertEquals(built.ports(), read.ports());
    }

    static Stream<Arguments> mistakes() {
        return Stream.of(
            Arguments.of("a member in two port channels", (Consumer<ObjectNode>) r -> {
                r.withObject("/PORTCHANNEL").putObject("PortChannel0002");
                r.withObject("/PORTCHANNEL_MEMBER").putObject("PortChannel0002|Ethernet4");
            }, "PORTCHANNEL_MEMBER|PortChannel0002|Ethernet4: Ethernet4 is already a member of PortChannel0001"),
            Arguments.of("a member that is not a port", (Consumer<ObjectNode>) r ->
                r.withObject("/PORTCHANNEL_MEMBER").putObject("PortChannel0001|Ethernet99"),
                "PORTCHANNEL_MEMBER|PortChannel0001|Ethernet99: 'Ethernet99' is not a port (not in PORT)"),
            Arguments.of("a member of a port channel not configured", (Consumer<ObjectNode>) r ->
                r.withObject("/PORTCHANNEL_MEMBER").putObject("PortChannel0009|Ethernet12"),
                "PORTCHANNEL_MEMBER|PortChannel0009|Ethernet12: port channel 'PortChannel0009' is not in PORTCHANNEL"),
            Arguments.of("a port channel with no members as a next hop", (Consumer<ObjectNode>) r -> {
                r.withObject("/PORTCHANNEL").putObject("PortChannel0003");
                r.withObject("/STATIC_ROUTE").putObject("10.9.0.0/16").put("ifname", "PortChannel0003")
                    .put("nexthop_mac", "02:00:00:00:09:01");
            }, "STATIC_ROUTE|10.9.0.0/16: PortChannel0003 in ifname has no members (PORTCHANNEL_MEMBER)"),
            Arguments.of("a route via a member port", (Consumer<ObjectNode>) r ->
                r.withObject("/STATIC_ROUTE").putObject("10.9.0.0/16").put("ifname", "Ethernet4")
                    .put("nexthop_mac", "02:00:00:00:09:01"),
                "STATIC_ROUTE|10.9.0.0/16: Ethernet4 is a member of PortChannel0001: route via PortChannel0001"),
            Arguments.of("a member port in a VLAN of its own", (Consumer<ObjectNode>) r -> {
                r.withObject("/VLAN").putObject("Vlan100").put("vlanid", "100");
                r.withObject("/VLAN_MEMBER").putObject("Vlan100|Ethernet8").put("tagging_mode", "untagged");
            }, "VLAN_MEMBER|Vlan100|Ethernet8: Ethernet8 is a member of PortChannel0001: make it a VLAN member as"),
            Arguments.of("a name SONiC would refuse", (Consumer<ObjectNode>) r ->
                r.withObject("/PORTCHANNEL").putObject("Bond0"),
                "PORTCHANNEL|Bond0: the name must be 'PortChannel' and up to four digits"),
            Arguments.of("min_links above the members", (Consumer<ObjectNode>) r ->
                r.withObject("/PORTCHANNEL/PortChannel0001").put("min_links", "3"),
                "PORTCHANNEL|PortChannel0001: min_links 3 is more than its 2 member(s): it could never come up"),
            Arguments.of("min_links out of range", (Consumer<ObjectNode>) r ->
                r.withObject("/PORTCHANNEL/PortChannel0001").put("min_links", "0"),
                "PORTCHANNEL|PortChannel0001: min_links 0 is out of range [1, 1024]"),
            Arguments.of("a bad lacp_key", (Consumer<ObjectNode>) r ->
                r.withObject("/PORTCHANNEL/PortChannel0001").put("lacp_key", "key1"),
                "PORTCHANNEL|PortChannel0001: lacp_key must be 'auto' or 1-65535, not 'key1'"),
            Arguments.of("a bad admin_status", (Consumer<ObjectNode>) r ->
                r.withObject("/PORTCHANNEL/PortChannel0001").put("admin_status", "enabled"),
                "PORTCHANNEL|PortChannel0001: admin_status must be 'up' or 'down', not 'enabled'"),
            Arguments.of("fast_rate not a boolean", (Consumer<ObjectNode>) r ->
                r.withObject("/PORTCHANNEL/PortChannel0001").put("fast_rate", "yes"),
                "PORTCHANNEL|PortChannel0001: fast_rate must be \"true\" or \"false\", not 'yes'"),
            Arguments.of("a key SONiC's PORTCHANNEL does not have", (Consumer<ObjectNode>) r ->
                r.withObject("/PORTCHANNEL/PortChannel0001").put("min_link", "1"),
                "PORTCHANNEL|PortChannel0001: unknown key 'min_link' (did you mean 'min_links'?)"),
            Arguments.of("members of different speeds", (Consumer<ObjectNode>) r ->
                r.withObject("/PORT/Ethernet8").put("speed", "25000"),
                "PORTCHANNEL|PortChannel0001: its members differ in speed (Ethernet4 100000 Mb/s, Ethernet8 25000 Mb/s)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void eachMistakeIsOneLineNamingItsKey(String what, Consumer<ObjectNode> mistake, String message) {
        ConfigBuilder b = withChannel();
        mistake.accept(b.root());
        ConfigException e = assertThrows(ConfigException.class, b::build);
        assertEquals(1, e.problems().size(), () -> what + ": " + e.problems());
        assertTrue(e.problems().get(0).startsWith(message), () -> what + ": got " + e.problems().get(0));
    }
}
