package io.rocelab.sw.mlag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.sw.config.ConfigException;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.sw.config.ConfigWriter;
import io.rocelab.sw.config.McLagConfig;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.testkit.ConfigBuilder;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** SONiC's MCLAG_DOMAIN and MCLAG_INTERFACE: read, written back, and each mistake one line naming its key. */
class McLagConfigTest {

    private static ConfigBuilder domain() {
        ConfigBuilder b = new ConfigBuilder(4, 100);
        ObjectNode r = b.root();
        r.withObject("/PORTCHANNEL").putObject("PortChannel0001").put("fast_rate", "true");
        r.withObject("/PORTCHANNEL").putObject("PortChannel0002");
        r.withObject("/PORTCHANNEL_MEMBER").putObject("PortChannel0001|Ethernet0");
        r.withObject("/PORTCHANNEL_MEMBER").putObject("PortChannel0002|Ethernet4");
        r.withObject("/MCLAG_DOMAIN").putObject("1").put("source_ip", "10.255.0.1").put("peer_ip", "10.255.0.2")
            .put("peer_link", "Ethernet12").put("mclag_interface", "PortChannel0001");
        r.withObject("/MCLAG_INTERFACE").putObject("1|PortChannel0002").put("if_type", "PortChannel");
        return b;
    }

    @Test
    void sonicsKeysAreRead() {
        SwitchConfig c = domain().build();
        McLagConfig m = c.mclag();
        assertEquals(1, m.domainId());
        assertEquals(Ipv4.parse("10.255.0.1"), m.sourceIp());
        assertEquals(Ipv4.parse("10.255.0.2"), m.peerIp());
        assertEquals("Ethernet12", m.peerLink());
        assertEquals(List.of("PortChannel0001", "PortChannel0002"), m.interfaces(), "mclag_interface and MCLAG_INTERFACE");
        assertEquals(1_000_000_000L, m.keepaliveNanos());
        assertEquals(15_000_000_000L, m.sessionTimeoutNanos());
        assertTrue(m.lowerAddress());
        assertEquals(McLagConfig.derivedSystemMac(1, Ipv4.parse("10.255.0.2"), Ipv4.parse("10.255.0.1")), m.systemMac(),
            "the peer derives the same system id from the same two addresses");
        assertNull(new ConfigBuilder(2, 100).build().mclag());
    }

    @Test
    void aSystemMacGivenIsUsedAndTheWriterWritesWhatTheLoaderReads() {
        ConfigBuilder b = domain();
        b.root().withObject("/MCLAG_DOMAIN/1").put("system_mac", "02:11:22:33:44:55");
        SwitchConfig c = b.build();
        assertEquals(MacAddress.parse("02:11:22:33:44:55"), c.mclag().systemMac());
        SwitchConfig again = ConfigLoader.parse(ConfigWriter.toJson(ConfigLoader.tables(b.json())));
        assertEquals(c.mclag(), again.mclag());
    }

    static Stream<Arguments> mistakes() {
        return Stream.of(
            Arguments.of("an MLAG without a peer link", (Consumer<ObjectNode>) r ->
                r.withObject("/MCLAG_DOMAIN/1").remove("peer_link"),
                "MCLAG_DOMAIN|1: missing 'peer_link': an MLAG needs a peer link to its peer switch"),
            Arguments.of("a peer link that is not there", (Consumer<ObjectNode>) r ->
                r.withObject("/MCLAG_DOMAIN/1").put("peer_link", "Ethernet99"),
                "MCLAG_DOMAIN|1: peer_link 'Ethernet99' is not a port or a port channel"),
            Arguments.of("a peer link that is a member port", (Consumer<ObjectNode>) r ->
                r.withObject("/MCLAG_DOMAIN/1").put("peer_link", "Ethernet4"),
                "MCLAG_DOMAIN|1: peer_link Ethernet4 is a member of PortChannel0002: use PortChannel0002"),
            Arguments.of("a shared interface that is not a port channel", (Consumer<ObjectNode>) r ->
                r.withObject("/MCLAG_DOMAIN/1").put("mclag_interface", "Ethernet8"),
                "MCLAG_DOMAIN|1: mclag interface 'Ethernet8' is not a port channel (PORTCHANNEL)"),
            Arguments.of("the peer link shared too", (Consumer<ObjectNode>) r ->
                r.withObject("/MCLAG_DOMAIN/1").put("peer_link", "PortChannel0001"),
                "MCLAG_DOMAIN|1: PortChannel0001 is the peer link: it cannot also be shared with the peer"),
            Arguments.of("a bad peer address", (Consumer<ObjectNode>) r ->
                r.withObject("/MCLAG_DOMAIN/1").put("peer_ip", "10.255.0"),
                "MCLAG_DOMAIN|1: peer_ip '10.255.0' is not an IPv4 address"),
            Arguments.of("the peer's address is ours", (Consumer<ObjectNode>) r ->
                r.withObject("/MCLAG_DOMAIN/1").put("peer_ip", "10.255.0.1"),
                "MCLAG_DOMAIN|1: source_ip and peer_ip are both 10.255.0.1"),
            Arguments.of("a domain id out of range", (Consumer<ObjectNode>) r -> {
                r.withObject("/MCLAG_DOMAIN").set("5000", r.withObject("/MCLAG_DOMAIN").remove("1"));
                r.remove("MCLAG_INTERFACE");
            }, "MCLAG_DOMAIN|5000: the domain id must be 1-4095, not '5000'"),
            Arguments.of("an interface of another domain", (Consumer<ObjectNode>) r ->
                r.withObject("/MCLAG_INTERFACE").putObject("2|PortChannel0002"),
                "MCLAG_INTERFACE|2|PortChannel0002: key must be '1|PortChannel<n>' (MCLAG_DOMAIN 1)"),
            Arguments.of("a session timeout shorter than three keepalives", (Consumer<ObjectNode>) r ->
                r.withObject("/MCLAG_DOMAIN/1").put("keepalive_interval", "5").put("session_timeout", "10"),
                "MCLAG_DOMAIN|1: session_timeout 10 must be at least 3 x keepalive_interval 5"),
            Arguments.of("a bad if_type", (Consumer<ObjectNode>) r ->
                r.withObject("/MCLAG_INTERFACE/1|PortChannel0002").put("if_type", "Ethernet"),
                "MCLAG_INTERFACE|1|PortChannel0002: if_type must be 'PortChannel', not 'Ethernet'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void eachMistakeIsOneLineNamingItsKey(String what, Consumer<ObjectNode> mistake, String message) {
        ConfigBuilder b = domain();
        mistake.accept(b.root());
        ConfigException e = assertThrows(ConfigException.class, b::build);
        assertEquals(1, e.problems().size(), () -> what + ": " + e.problems());
        assertTrue(e.problems().get(0).startsWith(message), () -> what + ": got " + e.problems().get(0));
    }
}
