package io.rocelab.sw.sflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rocelab.sw.config.ConfigException;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.sw.config.LoadedConfig;
import io.rocelab.sw.config.SflowConfig;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.testkit.ConfigBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sFlow tables as a config_db file gives them: sonic-sflow.yang's defaults and ranges, each
 * mistake one line, sflowmgrd's per-port sessions, and the show views laid out as sonic-utilities
 * prints them (its tests/sflow_test.py data).
 */
class SflowConfigTest {

    private static ObjectNode sflow(ObjectNode root) {
        ObjectNode g = root.withObject("/SFLOW").putObject("global");
        g.put("admin_state", "up");
        root.withObject("/SFLOW_COLLECTOR").putObject("c1").put("collector_ip", "127.0.0.1");
        return g;
    }

    @Test
    void defaultsAreSonicsAndTheRateFollowsTheSpeed() {
        ConfigBuilder b = new ConfigBuilder(3, 100);
        sflow(b.root());
        SwitchConfig c = b.build();
        SflowConfig s = c.sflow();
        assertTrue(s.adminUp());
        assertEquals(20, s.pollingInterval());
        assertEquals(SflowConfig.Direction.RX, s.direction());
        assertEquals(6343, s.collectors().get(0).port());
        assertEquals("0.0.0.0", s.agentAddress());
        // 100G: 10^11 / 10^6 = 1-in-100,000 (SONiC sFlow HLD); sampled rx, admin up
        assertEquals(new SflowConfig.PortSampling(true, 100_000, SflowConfig.Direction.RX),
            s.session("Ethernet0", c.ports().get(0).speedBitsPerSecond()));
        assertEquals(1_000, SflowConfig.defaultRate(1_000_000_000L));
        assertEquals(400_000, SflowConfig.defaultRate(400_000_000_000L));
    }

    @Test
    void noTablesNoSflowAndDownShowsNoInterface() {
        SwitchConfig none = new ConfigBuilder(2, 100).build();
        assertEquals(SflowConfig.NONE, none.sflow());
        assertNull(none.sflow().session("Ethernet0", 100_000_000_000L));
        ConfigBuilder b = new ConfigBuilder(2, 100);
        sflow(b.root()).put("admin_state", "down");
        SwitchConfig down = b.build();
        assertNull(down.sflow().session("Ethernet0", 100_000_000_000L));
        assertEquals("\nsFlow interface configurations\n"
            + "+-------------+---------------+-----------------+----------------------+\n"
            + "| Interface   | Admin State   | Sampling Rate   | Sampling Direction   |\n"
            + "+=============+===============+=================+======================+\n"
            + "+-------------+---------------+-----------------+----------------------+\n",
            SflowViews.interfaces(down));
    }

    @Test
    void sessionsAsSflowmgrdWritesThem() {
        ConfigBuilder b = new ConfigBuilder(4, 100);
        ObjectNode root = b.root();
        sflow(root).put("sample_direction", "tx");
        ObjectNode sessions = root.withObject("/SFLOW_SESSION");
        sessions.putObject("Ethernet0").put("admin_state", "down");
        sessions.putObject("Ethernet4").put("sample_rate", "4096");
        sessions.putObject("all").put("sample_direction", "both");
        SflowConfig s = b.build().sflow();
        long speed = 100_000_000_000L;
        assertEquals(new SflowConfig.PortSampling(false, 100_000, SflowConfig.Direction.RX), s.session("Ethernet0", speed));
        // a port's own entry: rx unless it says (the HLD: "irrespective of global configuration")
        assertEquals(new SflowConfig.PortSampling(true, 4096, SflowConfig.Direction.RX), s.session("Ethernet4", speed));
        // the others: SFLOW_SESSION|all's direction over SFLOW|global's
        assertEquals(new SflowConfig.PortSampling(true, 100_000, SflowConfig.Direction.BOTH),
            s.session("Ethernet8", speed));
        sessions.putObject("all").put("admin_state", "down");
        SflowConfig allDown = b.build().sflow();
        assertNull(allDown.session("Ethernet8", speed));
        assertEquals(4096, allDown.session("Ethernet4", speed).sampleRate());
    }

    @Test
    void everyMistakeIsOneLineNamingTableAndKey() {
        ConfigBuilder b = new ConfigBuilder(2, 100);
        ObjectNode root = b.root();
        ObjectNode g = sflow(root);
        g.put("admin_state", "enable").put("polling_interval", "3").put("sample_direction", "in")
            .put("agent_id", "Ethernet99").put("sampel_rate", "1");
        root.withObject("/SFLOW").putObject("local");
        root.withObject("/SFLOW_COLLECTOR").putObject("c2").put("collector_ip", "10.0.0.300")
            .put("collector_port", "70000").put("collector_vrf", "blue");
        root.withObject("/SFLOW_COLLECTOR").putObject("c3");
        ObjectNode sessions = root.withObject("/SFLOW_SESSION");
        sessions.putObject("Ethernet4").put("sample_rate", "100");
        sessions.putObject("Ethernet8").put("sample_rate", "1000");
        sessions.putObject("all").put("sample_rate", "1000");
        ConfigException e = assertThrows(ConfigException.class, b::build);
        List<String> p = e.problems();
        for (String expected : List.of(
            "SFLOW|global: admin_state must be 'up' or 'down', not 'enable'",
            "SFLOW|global: polling_interval must be 0 or 5-300 seconds (sonic-sflow.yang), not '3'",
            "SFLOW|global: sample_direction must be rx, tx or both, not 'in'",
            "SFLOW|global: agent_id 'Ethernet99' is not a port, port channel, loopback, management port or VLAN of"
                + " this switch",
            "SFLOW|local: the table has one entry, 'global'",
            "SFLOW_COLLECTOR|c2: collector_ip '10.0.0.300' is not an IPv4 or IPv6 address",
            "SFLOW_COLLECTOR|c2: collector_port must be 0-65535, not '70000'",
            "SFLOW_COLLECTOR|c2: collector_vrf must be 'default' or 'mgmt', not 'blue'",
            "SFLOW_COLLECTOR|c3: missing 'collector_ip': the collector's IPv4 or IPv6 address",
            "SFLOW_COLLECTOR: at most 2 collectors (sonic-sflow.yang), not 3",
            "SFLOW_SESSION|Ethernet4: sample_rate must be 256-8388608 (one packet in N), not '100'",
            "SFLOW_SESSION|Ethernet8: 'Ethernet8' is not a port (or 'all')",
            "SFLOW_SESSION|all: sample_rate is per port, not for 'all' (sonic-sflow.yang)")) {
            assertTrue(p.contains(expected), "missing: " + expected + "\nin " + p);
        }
        assertTrue(p.stream().anyMatch(l -> l.startsWith("SFLOW|global") && l.contains("sampel_rate")), p.toString());
        assertTrue(p.stream().noneMatch(l -> l.contains("\n")));
    }

    @Test
    void dropMonitorLimitIsAcceptedAndNoted() {
        ConfigBuilder b = new ConfigBuilder(2, 100);
        sflow(b.root()).put("drop_monitor_limit", "50");
        LoadedConfig loaded = ConfigLoader.read(b.root().toString());
        assertEquals(50, loaded.config().sflow().dropMonitorLimit());
        assertTrue(loaded.lines().stream().anyMatch(l -> l.contains("SFLOW drop_monitor_limit")), loaded.lines().toString());
    }

    @Test
    void agentAddressFromAgentIdOrLoopback0() {
        ConfigBuilder b = new ConfigBuilder(2, 100);
        ObjectNode root = b.root();
        sflow(root);
        root.withObject("/LOOPBACK_INTERFACE").putObject("Loopback0");
        root.withObject("/LOOPBACK_INTERFACE").putObject("Loopback0|10.1.0.1/32");
        assertEquals("10.1.0.1", b.build().sflow().agentAddress());
        root.withObject("/INTERFACE").putObject("Ethernet4");
        root.withObject("/INTERFACE").putObject("Ethernet4|10.0.0.0/31");
        root.withObject("/SFLOW/global").put("agent_id", "Ethernet4");
        assertEquals("10.0.0.0", b.build().sflow().agentAddress());
    }

    /** sonic-utilities tests/sflow_test.py's configuration and expected tables, in today's show/sflow.py layout. */
    @Test
    void showViewsAsSonicUtilitiesPrintsThem() {
        ConfigBuilder b = new ConfigBuilder(30, 100);
        ObjectNode root = b.root();
        ObjectNode g = root.withObject("/SFLOW").putObject("global");
        g.put("admin_state", "up").put("polling_interval", "0").put("sample_direction", "both");
        root.withObject("/SFLOW_COLLECTOR").putObject("prod").put("collector_ip", "fe80::6e82:6aff:fe1e:cd8e")
            .put("collector_port", "6343").put("collector_vrf", "mgmt");
        root.withObject("/SFLOW_COLLECTOR").putObject("ser5").put("collector_ip", "172.21.35.15")
            .put("collector_port", "6343");
        ObjectNode s = root.withObject("/SFLOW_SESSION");
        s.putObject("all").put("admin_state", "down");
        s.putObject("Ethernet0").put("admin_state", "up").put("sample_rate", "2500").put("sample_direction", "both");
        s.putObject("Ethernet4").put("admin_state", "up").put("sample_rate", "1000").put("sample_direction", "tx");
        s.putObject("Ethernet112").put("admin_state", "up").put("sample_rate", "1000").put("sample_direction", "both");
        s.putObject("Ethernet116").put("admin_state", "up").put("sample_rate", "5000").put("sample_direction", "rx");
        SwitchConfig c = b.build();
        assertEquals(String.join("",
            "\n",
            "sFlow Global Information:\n",
            "  sFlow Admin State:               up\n",
            "  sFlow Sample Direction:          both\n",
            "  sFlow Polling Interval:          0\n",
            "  sFlow Drop Notification Limit:   0\n",
            "  sFlow AgentID:                   default\n",
            "\n",
            "  2 Collectors configured:\n",
            "    Name: prod                     IP addr: fe80::6e82:6aff:fe1e:cd8e UDP port: 6343   VRF: mgmt\n",
            "    Name: ser5                     IP addr: 172.21.35.15    UDP port: 6343   VRF: default\n"),
            SflowViews.global(c.sflow()));
        assertEquals("""

            sFlow interface configurations
            +-------------+---------------+-----------------+----------------------+
            | Interface   | Admin State   |   Sampling Rate | Sampling Direction   |
            +=============+===============+=================+======================+
            | Ethernet0   | up            |            2500 | both                 |
            +-------------+---------------+-----------------+----------------------+
            | Ethernet4   | up            |            1000 | tx                   |
            +-------------+---------------+-----------------+----------------------+
            | Ethernet112 | up            |            1000 | both                 |
            +-------------+---------------+-----------------+----------------------+
            | Ethernet116 | up            |            5000 | rx                   |
            +-------------+---------------+-----------------+----------------------+
            """, SflowViews.interfaces(c));
    }
}
