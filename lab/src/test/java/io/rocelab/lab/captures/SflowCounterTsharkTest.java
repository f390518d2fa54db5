package io.rocelab.lab.captures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.capture.LinkType;
import io.rocelab.codec.capture.PcapWriter;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.sw.SoftSwitch;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.sflow.PcapSflowSink;
import io.rocelab.sw.stats.PortCounters;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * tshark reads a switch's sFlow counter samples as the switch counted: RoCE frames cross a soft
 * switch in virtual time, its agent polls every 5 s into a pcap (PcapSflowSink), and the last
 * poll of each port, as tshark decodes it (ifIndex, speed, octets and packets in and out), equals
 * the switch's own counters.
 */
class SflowCounterTsharkTest {
    private static final long SECOND = 1_000_000_000L;

    @TempDir
    Path dir;

    private static final String CONFIG = """
        {"DEVICE_METADATA": {"localhost": {"hostname": "leaf", "mac": "02:00:00:00:00:fe"}},
         "PORT": {"Ethernet0": {"speed": "100000", "mtu": "9100"}, "Ethernet4": {"speed": "25000", "mtu": "9100"}},
         "STATIC_ROUTE": {"10.0.0.1/32": {"nexthop": "10.0.0.1", "ifname": "Ethernet0", "nexthop_mac": "02:00:00:00:01:00"}},
         "SFLOW": {"global": {"admin_state": "up", "polling_interval": "5"}},
         "MGMT_INTERFACE": {"eth0|192.168.0.5/24": {}},
         "SFLOW_COLLECTOR": {"c": {"collector_ip": "192.168.0.9"}}}
        """;

    @Test
    void counterSamplesAreTheSwitchsCounters() throws Exception {
        Assumptions.assumeTrue(TsharkCapturesTest.tsharkAvailable(), "tshark not installed: sFlow counters NOT checked");
        SwitchConfig config = ConfigLoader.parse(CONFIG);
        assertEquals("192.168.0.5", config.sflow().agentAddress(), "the management address, without agent_id");
        VirtualTimeScheduler time = new VirtualTimeScheduler();
        SoftSwitch sw = new SoftSwitch(config, time, ByteBufAllocator.DEFAULT, 1);
        InProcessLink a = InProcessLink.builder().name("a").rateBitsPerSecond(100_000_000_000L).build(time);
        InProcessLink b = InProcessLink.builder().name("b").rateBitsPerSecond(25_000_000_000L).build(time);
        sw.attach("Ethernet0", a.portB());
        sw.attach("Ethernet4", b.portB());
        a.portA().setReceiver((p, f) -> f.release());
        b.portA().setReceiver((p, f) -> f.release());
        Path file = dir.resolve("sflow.pcap");
        PcapWriter pcap = PcapWriter.create(file);
        pcap.addInterface("sflow", LinkType.ETHERNET, 0, 0, null);
        sw.startSflow(new PcapSflowSink(pcap, 0, config.routerMac(), config.sflow().agentAddress(), 0));
        ByteBuf template = new RoceFrame().ethernet(MacAddress.parse("02:00:00:00:00:fe"),
            MacAddress.parse("02:00:00:00:02:00")).ipv4(Ipv4.parse("10.0.0.2"), Ipv4.parse("10.0.0.1"))
            .udp(0xC000, 4791).dscpEcn(26, 2).payload(new byte[1024]).encode(ByteBufAllocator.DEFAULT);
        for (int i = 0; i < 700; i++) {
            sw.receive(1, template.copy());
            time.runFor(1_000);
        }
        template.release();
        time.runFor(11 * SECOND);
        sw.sflow().stop();
        pcap.close();

        List<String> rows = TsharkCapturesTest.tshark(file, "-Y", "sflow_245.ifindex", "-T", "fields", "-E",
            "separator=|", "-E", "aggregator=;", "-e", "sflow_245.agent", "-e", "sflow_245.ifindex", "-e",
            "sflow_245.ifspeed", "-e", "sflow_245.ifinoct", "-e", "sflow_245.ifinpkt", "-e", "sflow_245.ifoutoct",
            "-e", "sflow_245.ifoutpkt");
        assertTrue(rows.size() >= 2, "two polls of each port in 11 s: " + rows);
        assertEquals(List.of(), TsharkCapturesTest.tshark(file, "-o", "ip.check_checksum:TRUE", "-o",
            "udp.check_checksum:TRUE", "-Y", "_ws.malformed || _ws.expert.severity == error || ip.checksum.status == 0 "
            + "|| udp.checksum.status == 0"), "nothing malformed to tshark, IP and UDP checksums good");
        assertEquals(rows.size(), TsharkCapturesTest.tshark(file, "-o", "udp.check_checksum:TRUE", "-Y",
            "udp.checksum.status == 1").size(), "every UDP checksum checked and good");
        String[] lastOf = new String[2];
        for (String r : rows) {
            String[] f = r.split("\\|", -1);
            assertEquals("192.168.0.5", f[0]);
            String[] ifIndex = f[1].split(";");
            for (int i = 0; i < ifIndex.length; i++) {
                int port = ifIndex[i].equals("1") ? 0 : 1;
                lastOf[port] = f[1].split(";")[i] + "|" + f[2].split(";")[i] + "|" + f[3].split(";")[i] + "|"
                    + f[4].split(";")[i] + "|" + f[5].split(";")[i] + "|" + f[6].split(";")[i];
            }
        }
        for (int port = 0; port < 2; port++) {
            PortCounters c = sw.counters(port);
            assertEquals((port == 0 ? "1|100000000000|" : "5|25000000000|") + c.rxBytes + "|" + c.rxFrames + "|"
                + c.txBytes + "|" + c.txFrames, lastOf[port], "port " + port + " as tshark reads its last poll");
        }
        assertEquals(700, sw.counters(1).rxFrames);
        assertEquals(700, sw.counters(0).txFrames);
    }
}
