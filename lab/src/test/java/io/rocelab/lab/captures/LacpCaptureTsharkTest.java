package io.rocelab.lab.captures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.capture.PcapngWriter;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.fabric.lag.LacpActor;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.sw.SoftSwitch;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.config.SwitchConfigBuilder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Wireshark reads the LACPDUs two switches exchange over a port channel's member as LACP, with
 * the actor's and the partner's systems, keys, ports and state bits the switches' actors hold,
 * and nothing malformed.
 */
class LacpCaptureTsharkTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long MAC_A = MacAddress.parse("02:00:00:00:0a:fe");
    private static final long MAC_B = MacAddress.parse("02:00:00:00:0b:fe");

    @TempDir
    Path dir;

    private static SwitchConfig config(String name, long mac) {
        return new SwitchConfigBuilder().hostname(name).mac(mac).port("Ethernet4", 100_000, 9100)
            .port("Ethernet8", 100_000, 9100)
            .portChannel("PortChannel0007", SwitchConfigBuilder.PortChannel.lacp().withFastRate(true))
            .portChannelMember("PortChannel0007", "Ethernet4").portChannelMember("PortChannel0007", "Ethernet8")
            .build();
    }

    @Test
    void tsharkDecodesTheLacpdusAsTheActorsSentThem() throws Exception {
        Assumptions.assumeTrue(TsharkCapturesTest.tsharkAvailable(), "tshark not installed: LACPDUs NOT checked");
        VirtualTimeScheduler time = new VirtualTimeScheduler();
        SoftSwitch a = new SoftSwitch(config("A", MAC_A), time, ByteBufAllocator.DEFAULT, 1);
        SoftSwitch b = new SoftSwitch(config("B", MAC_B), time, ByteBufAllocator.DEFAULT, 2);
        Path file = dir.resolve("lacp.pcapng");
        PcapngWriter writer = PcapngWriter.create(file);
        a.capture(writer, 0);
        List<InProcessLink> links = new ArrayList<>();
        for (String port : List.of("Ethernet4", "Ethernet8")) {
            InProcessLink l = InProcessLink.builder().name(port).rateBitsPerSecond(100_000_000_000L)
                .propagationDelayNanos(25).seed(links.size()).build(time);
            a.attach(port, l.portA());
            b.attach(port, l.portB());
            links.add(l);
        }
        time.runFor(6 * SECOND);
        LacpActor actor = a.lacpActor(0);
        LacpActor far = b.lacpActor(0);
        assertTrue(actor.distributing() && far.distributing());
        links.forEach(l -> l.setUp(false));
        time.runFor(SECOND);
        writer.close();

        List<String> rows = TsharkCapturesTest.tshark(file, "-Y", "lacp && frame.interface_id == 0", "-T", "fields",
            "-E", "separator=,", "-e", "eth.src", "-e", "lacp.actor.sysid", "-e", "lacp.actor.key", "-e",
            "lacp.actor.port", "-e", "lacp.actor.state", "-e", "lacp.partner.sysid", "-e", "lacp.partner.port", "-e",
            "lacp.partner.state");
        long sent = actor.lacpduTx();
        long received = far.lacpduTx();
        assertEquals(sent + received, rows.size(), "every LACPDU of Ethernet4, both ways, is LACP to tshark");
        String lastFromA = null;
        String lastFromB = null;
        for (String r : rows) {
            if (r.startsWith("02:00:00:00:0a:fe,")) {
                lastFromA = r;
            } else {
                lastFromB = r;
            }
        }
        assertEquals("02:00:00:00:0a:fe,02:00:00:00:0a:fe,7,1,0x3f,02:00:00:00:0b:fe,1,0x3f", lastFromA,
            "A, key 7 (PortChannel0007's number), port 1, in sync, collecting and distributing, and its view of B");
        assertEquals("02:00:00:00:0b:fe,02:00:00:00:0b:fe,7,1,0x3f,02:00:00:00:0a:fe,1,0x3f", lastFromB);
        assertEquals(List.of(), TsharkCapturesTest.tshark(file, "-Y", TsharkCapturesTest.PROBLEMS),
            "nothing malformed");
    }
}
