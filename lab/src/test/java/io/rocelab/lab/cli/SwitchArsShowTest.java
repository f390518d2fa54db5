package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Adaptive routing in {@code rocelab switch} as a user configures it: SONiC's {@code ARS_PROFILE}
 * and {@code ARS_OBJECT} in the config_db, {@code show ars_nhg_counters} on the running switch, and
 * a mistake in the ARS tables refused in one line with exit code 2.
 */
class SwitchArsShowTest {
    @TempDir
    Path dir;
    @RegisterExtension
    final ToolProcesses tools = ToolProcesses.in(() -> dir);

    private Path config(String assignMode) throws Exception {
        ObjectNode root;
        root = DemoLeaf.tables();
        root.withObject("/STATIC_ROUTE").putObject("10.9.0.0/16").put("ifname", "Ethernet0,Ethernet4")
            .put("nexthop_mac", "02:00:00:00:09:01,02:00:00:00:09:02");
        root.withObject("/ARS_PROFILE").putObject("ars_profile_default").put("algorithm", "ewma")
            .put("ars_nhg_path_selector_mode", "global").put("default_ars_object", "spray")
            .put("sampling_interval", "16");
        root.withObject("/ARS_OBJECT").putObject("spray").put("assign_mode", assignMode);
        Path f = dir.resolve(assignMode + ".json");
        Files.writeString(f, root.toPrettyString());
        return f;
    }

    @Test
    void showArsNhgCountersOfARunningSwitch() throws Exception {
        Path socket = dir.resolve("leaf.sock");
        Process sw = tools.start("switch", "switch", "--config", config("per_packet_quality").toString(),
            "--port", "Ethernet0=udp:" + ToolProcesses.freeUdpPort() + ":" + ToolProcesses.freeUdpPort(),
            "--port", "Ethernet4=udp:" + ToolProcesses.freeUdpPort() + ":" + ToolProcesses.freeUdpPort(),
            "--socket", socket.toString());
        tools.awaitOutput(sw, "switch", "ready", 60);
        CliRun show = CliRun.of("switch", "show", "ars_nhg_counters", "--socket", socket.toString());
        assertEquals(0, show.exitCode(), show.err());
        assertEquals("""
            Vrf      Prefix       Mode        Nexthops  Nexthop reassignments
            -------  -----------  ----------  --------  ---------------------
            default  10.9.0.0/16  per-packet  2         0

            Path changes on this switch: 0
            """, show.out());
    }

    @Test
    void aWrongAssignModeIsOneLineAndExitCode2() throws Exception {
        CliRun check = CliRun.of("switch", "check", config("per_packet").toString());
        assertEquals(2, check.exitCode(), check.out() + check.err());
        assertTrue(check.err().contains(
            "ARS_OBJECT|spray: assign_mode must be per_flowlet_quality or per_packet_quality, not 'per_packet'"),
            check.err());
        assertTrue(check.err().lines().noneMatch(l -> l.contains("Exception")), check.err());
    }
}
