package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rocelab.lab.metrics.Exposition;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The switch as a VXLAN VTEP in {@code rocelab switch} as a user configures it: SONiC's
 * {@code VXLAN_TUNNEL}, {@code VXLAN_TUNNEL_MAP}, {@code VXLAN_EVPN_NVO} and the static
 * {@code VXLAN_REMOTE_VNI} in the config_db, {@code show vxlan tunnel}, {@code vlanvnimap},
 * {@code remotevtep} and {@code counters} on the running switch, its tunnels' counters in the
 * Prometheus metrics, and a mistake in the tables refused in one line with exit code 2.
 */
class SwitchVxlanShowTest {
    @TempDir
    Path dir;
    @RegisterExtension
    final ToolProcesses tools = ToolProcesses.in(() -> dir);

    private Path config(String vni) throws Exception {
        ObjectNode root;
        root = DemoLeaf.tables();
        root.withObject("/VLAN").putObject("Vlan100").put("vlanid", "100");
        root.withObject("/VLAN_MEMBER").putObject("Vlan100|Ethernet0").put("tagging_mode", "untagged");
        root.withObject("/STATIC_ROUTE").putObject("10.1.0.2/32").put("ifname", "Ethernet4")
            .put("nexthop_mac", "02:00:00:00:09:01");
        root.withObject("/VXLAN_TUNNEL").putObject("vtep").put("src_ip", "10.1.0.1");
        root.withObject("/VXLAN_TUNNEL_MAP").putObject("vtep|map_" + vni + "_Vlan100").put("vni", vni)
            .put("vlan", "Vlan100");
        root.withObject("/VXLAN_EVPN_NVO").putObject("nvo").put("source_vtep", "vtep");
        root.withObject("/VXLAN_REMOTE_VNI").putObject("Vlan100|10.1.0.2").put("vni", vni);
        root.withObject("/LOOPBACK_INTERFACE").putObject("Loopback0");
        root.withObject("/LOOPBACK_INTERFACE").putObject("Loopback0|10.1.0.1/32");
        Path f = dir.resolve("vtep-" + vni + ".json");
        Files.writeString(f, root.toPrettyString());
        return f;
    }

    @Test
    void showVxlanOfARunningSwitch() throws Exception {
        Path socket = dir.resolve("leaf.sock");
        Process sw = tools.start("switch", "switch", "--config", config("10100").toString(),
            "--port", "Ethernet0=udp:" + ToolProcesses.freeUdpPort() + ":" + ToolProcesses.freeUdpPort(),
            "--port", "Ethernet4=udp:" + ToolProcesses.freeUdpPort() + ":" + ToolProcesses.freeUdpPort(),
            "--socket", socket.toString());
        tools.awaitOutput(sw, "switch", "ready", 60);
        CliRun tunnel = CliRun.of("switch", "show", "vxlan", "tunnel", "--socket", socket.toString());
        assertEquals(0, tunnel.exitCode(), tunnel.err());
        assertEquals("""
            vxlan tunnel name    source ip    destination ip    tunnel map name    tunnel map mapping(vni -> vlan)
            -------------------  -----------  ----------------  -----------------  ---------------------------------
            vtep                 10.1.0.1                       map_10100_Vlan100  10100 -> Vlan100
            """, tunnel.out());
        CliRun map = CliRun.of("switch", "show", "vxlan", "vlanvnimap", "--socket", socket.toString());
        assertEquals(0, map.exitCode(), map.err());
        assertEquals("""
            +---------+-------+
            | VLAN    |   VNI |
            +=========+=======+
            | Vlan100 | 10100 |
            +---------+-------+
            Total count : 1

            """, map.out());
        CliRun vtep = CliRun.of("switch", "show", "vxlan", "interface", "--socket", socket.toString());
        assertEquals(0, vtep.exitCode(), vtep.err());
        assertEquals("VTEP Information:\n\n\tVTEP Name : vtep, SIP  : 10.1.0.1\n\tNVO Name  : nvo,  VTEP : vtep\n"
            + "\tSource interface  : Loopback0\n", vtep.out());
        CliRun vnis = CliRun.of("switch", "show", "vxlan", "remotevni", "all", "--socket", socket.toString());
        assertEquals(0, vnis.exitCode(), vnis.err());
        assertEquals("""
            +---------+--------------+-------+
            | VLAN    | RemoteVTEP   |   VNI |
            +=========+==============+=======+
            | Vlan100 | 10.1.0.2     | 10100 |
            +---------+--------------+-------+
            Total count : 1

            """, vnis.out());
        CliRun remote = CliRun.of("switch", "show", "vxlan", "remotevtep", "--socket", socket.toString());
        assertEquals(0, remote.exitCode(), remote.err());
        assertEquals("""
            +----------+----------+-------------------+--------------+
            | SIP      | DIP      | Creation Source   | OperStatus   |
            +==========+==========+===================+==============+
            | 10.1.0.1 | 10.1.0.2 | static            | oper_up      |
            +----------+----------+-------------------+--------------+
            Total count : 1

            """, remote.out());
        CliRun macs = CliRun.of("switch", "show", "vxlan", "remotemac", "all", "--socket", socket.toString());
        assertEquals(0, macs.exitCode(), macs.err());
        assertEquals("""
            +--------+-------+--------------+-------+--------+
            | VLAN   | MAC   | RemoteVTEP   | VNI   | Type   |
            +========+=======+==============+=======+========+
            Total count : 0

            """, macs.out(), "nothing learned behind the remote VTEP yet");
        CliRun counters = CliRun.of("switch", "show", "vxlan", "counters", "--socket", socket.toString());
        assertEquals(0, counters.exitCode(), counters.err());
        assertTrue(counters.out().startsWith("""
                    IFACE    RX_PKTS    RX_BYTES    RX_PPS    TX_PKTS    TX_BYTES    TX_PPS
            -------------  ---------  ----------  --------  ---------  ----------  --------
                     vtep          0           0       N/A          0           0       N/A
            EVPN_10.1.0.2          0           0       N/A          0           0       N/A
            """), counters.out());
    }

    /**
     * A frame flooded in the tenant's VLAN goes to the remote VTEP encapsulated (head-end replication),
     * and the tunnel's counters say so alike in {@code show vxlan counters} and in the metrics.
     */
    @Test
    void theTunnelsCountersAreInTheMetrics() throws Exception {
        Path socket = dir.resolve("leaf.sock");
        int tenant = ToolProcesses.freeUdpPort();
        Process sw = tools.start("switch", "switch", "--config", config("10100").toString(),
            "--port", "Ethernet0=udp:" + tenant + ":" + ToolProcesses.freeUdpPort(),
            "--port", "Ethernet4=udp:" + ToolProcesses.freeUdpPort() + ":" + ToolProcesses.freeUdpPort(),
            "--socket", socket.toString(), "--metrics", "127.0.0.1:0");
        tools.awaitOutput(sw, "switch", "ready", 60);
        Matcher url = Pattern.compile("metrics    (http://127\\.0\\.0\\.1:\\d+/metrics)").matcher(tools.stdout("switch"));
        assertTrue(url.find(), tools.output("switch"));
        byte[] frame = new byte[64];
        for (int i = 0; i < 6; i++) {
            frame[i] = (byte) 0xff; // broadcast: flooded in Vlan100, so to the remote VTEP too
        }
        frame[6] = 0x02;
        frame[11] = 0x01;
        frame[12] = (byte) 0x88;
        frame[13] = (byte) 0xb5; // IEEE 802 local experimental EtherType
        try (DatagramSocket udp = new DatagramSocket()) {
            for (int i = 0; i < 3; i++) {
                udp.send(new DatagramPacket(frame, frame.length, InetAddress.getLoopbackAddress(), tenant));
            }
        }
        String counters = "";
        for (int tries = 0; tries < 100 && !counters.contains("EVPN_10.1.0.2          0           0       N/A          3");
             tries++) {
            Thread.sleep(50);
            counters = CliRun.of("switch", "show", "vxlan", "counters", "--socket", socket.toString()).out();
        }
        assertTrue(counters.contains("EVPN_10.1.0.2          0           0       N/A          3"), counters);
        Exposition m = new Exposition(Exposition.scrape(url.group(1), null).body(), false);
        for (String tunnel : new String[] {"vtep", "EVPN_10.1.0.2"}) {
            assertEquals(3, m.value("rocelab_switch_vxlan_tx_packets_total", "switch", "leaf", "tunnel", tunnel),
                tunnel + "\n" + counters);
            assertEquals(0, m.value("rocelab_switch_vxlan_rx_packets_total", "switch", "leaf", "tunnel", tunnel),
                tunnel);
        }
        // the outer headers of each copy: 64 - 4 (no FCS in the UDP frame) + 50 bytes of VXLAN over IPv4
        long txBytes = (long) m.value("rocelab_switch_vxlan_tx_bytes_total", "switch", "leaf", "tunnel", "vtep");
        assertTrue(counters.contains(" " + txBytes + " "), txBytes + "\n" + counters);
        assertEquals(3 * (frame.length + 50), txBytes, counters);
    }

    @Test
    void aVniOutOfRangeIsOneLineAndExitCode2() throws Exception {
        CliRun check = CliRun.of("switch", "check", config("16777216").toString());
        assertEquals(2, check.exitCode(), check.out() + check.err());
        assertTrue(check.err().contains(
            "VXLAN_TUNNEL_MAP|vtep|map_16777216_Vlan100: vni 16777216 is out of range 1-16777215"), check.err());
        assertTrue(check.err().lines().noneMatch(l -> l.contains("Exception")), check.err());
    }
}
