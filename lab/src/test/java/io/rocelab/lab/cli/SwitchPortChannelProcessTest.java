package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Port channels in {@code rocelab switch} as a user runs it: two switch processes cabled to each
 * other by two frame-over-UDP links, each with a PORTCHANNEL over both in its config_db, agree by
 * LACP and {@code rocelab switch show interfaces portchannel} prints teamshow's table; a config_db
 * with a port channel or MLAG mistake is refused in one line naming the key, exit code 2.
 */
@Timeout(120)
class SwitchPortChannelProcessTest {
    @TempDir
    Path dir;
    @RegisterExtension
    final ToolProcesses tools = ToolProcesses.in(() -> dir);

    private Path configDb(String name, String mac, String extra) throws Exception {
        Path f = dir.resolve(name + ".json");
        Files.writeString(f, """
            {
              "DEVICE_METADATA": {"localhost": {"hostname": "%s", "mac": "%s"}},
              "PORT": {"Ethernet0": {"speed": "100000"}, "Ethernet4": {"speed": "100000"}, "Ethernet8": {"speed": "100000"}},
              "PORTCHANNEL": {"PortChannel0001": {"admin_status": "up", "min_links": "1", "fast_rate": "true"}},
              "PORTCHANNEL_MEMBER": {"PortChannel0001|Ethernet4": {}, "PortChannel0001|Ethernet8": {}}%s
            }
            """.formatted(name, mac, extra));
        return f;
    }

    @Test
    void twoSwitchProcessesAgreeByLacpAndShowTheirPortChannel() throws Exception {
        int a4 = ToolProcesses.freeUdpPort();
        int a8 = ToolProcesses.freeUdpPort();
        int b4 = ToolProcesses.freeUdpPort();
        int b8 = ToolProcesses.freeUdpPort();
        Path sockA = dir.resolve("a.sock");
        Process a = tools.start("a", "switch", "--config", configDb("leafa", "02:00:00:00:0a:fe", "").toString(),
            "--port", "Ethernet4=udp:" + a4 + ":" + b4, "--port", "Ethernet8=udp:" + a8 + ":" + b8,
            "--socket", sockA.toString());
        Process b = tools.start("b", "switch", "--config", configDb("leafb", "02:00:00:00:0b:fe", "").toString(),
            "--port", "Ethernet4=udp:" + b4 + ":" + a4, "--port", "Ethernet8=udp:" + b8 + ":" + a8,
            "--socket", dir.resolve("b.sock").toString());
        tools.awaitOutput(a, "a", "ready", 60);
        tools.awaitOutput(b, "b", "ready", 60);
        String view = "";
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            CliRun show = CliRun.of("switch", "show", "interfaces", "portchannel", "--socket", sockA.toString());
            assertEquals(0, show.exitCode(), show.err());
            view = show.out();
            // converged: both members selected here and the partner distributing on them too (its
            // D bit comes with the LACPDU after the one that made this side distribute)
            if (view.contains("LACP(A)(Up)") && view.contains("Ethernet4(S) Ethernet8(S)")
                    && view.lines().filter(l -> l.contains("partner ATGSCD..")).count() == 2) {
                break;
            }
            Thread.sleep(500);
        }
        System.out.print(view);
        assertTrue(view.contains("PortChannel0001") && view.contains("LACP(A)(Up)"), view);
        assertTrue(view.contains("Ethernet4(S) Ethernet8(S)"), view);
        assertTrue(view.contains("02:00:00:00:0b:fe"), "A's partner is B: " + view);
        assertTrue(view.lines().anyMatch(l -> l.startsWith("Ethernet4") && l.contains("actor ATGSCD..")
            && l.contains("partner ATGSCD..")), view);
    }

    @Test
    void aPortChannelMistakeIsOneLineNamingItsKeyAndExitTwo() throws Exception {
        String[][] files = {
            // a member in two port channels
            {"{\"PORT\": {\"Ethernet0\": {}, \"Ethernet4\": {}}, \"PORTCHANNEL\": {\"PortChannel0001\": {},"
                + " \"PortChannel0002\": {}}, \"PORTCHANNEL_MEMBER\": {\"PortChannel0001|Ethernet4\": {},"
                + " \"PortChannel0002|Ethernet4\": {}}}",
                "PORTCHANNEL_MEMBER|PortChannel0002|Ethernet4: Ethernet4 is already a member of PortChannel0001"},
            // a member that is not a port
            {"{\"PORT\": {\"Ethernet0\": {}}, \"PORTCHANNEL\": {\"PortChannel0001\": {}},"
                + " \"PORTCHANNEL_MEMBER\": {\"PortChannel0001|Ethernet9\": {}}}",
                "PORTCHANNEL_MEMBER|PortChannel0001|Ethernet9: 'Ethernet9' is not a port"},
            // a port channel without members as a next hop
            {"{\"PORT\": {\"Ethernet0\": {}}, \"PORTCHANNEL\": {\"PortChannel0001\": {}}, \"STATIC_ROUTE\":"
                + " {\"10.9.0.0/16\": {\"ifname\": \"PortChannel0001\", \"nexthop_mac\": \"02:00:00:00:09:01\"}}}",
                "STATIC_ROUTE|10.9.0.0/16: PortChannel0001 in ifname has no members"},
            // an MLAG without a peer link
            {"{\"PORT\": {\"Ethernet0\": {}, \"Ethernet4\": {}}, \"PORTCHANNEL\": {\"PortChannel0001\": {}},"
                + " \"PORTCHANNEL_MEMBER\": {\"PortChannel0001|Ethernet4\": {}}, \"MCLAG_DOMAIN\": {\"1\":"
                + " {\"source_ip\": \"10.255.0.1\", \"peer_ip\": \"10.255.0.2\", \"mclag_interface\": \"PortChannel0001\"}}}",
                "MCLAG_DOMAIN|1: missing 'peer_link'"},
        };
        for (String[] f : files) {
            Path cfg = dir.resolve("bad.json");
            Files.writeString(cfg, f[0]);
            CliRun r = CliRun.of("switch", "--config", cfg.toString(), "--port", "Ethernet0=udp:"
                + ToolProcesses.freeUdpPort() + ":" + ToolProcesses.freeUdpPort());
            String what = f[1] + ": " + r.err();
            assertEquals(2, r.exitCode(), what);
            assertEquals(1, r.err().strip().lines().count(), what);
            assertTrue(r.err().contains(f[1]), what);
            assertFalse(r.err().contains("Exception"), what);
        }
    }
}
