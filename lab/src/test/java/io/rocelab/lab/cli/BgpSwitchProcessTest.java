package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * eBGP between two {@code rocelab switch} processes, as a user runs them: a leaf and a spine from
 * config_db files with {@code bgp_asn}, {@code BGP_NEIGHBOR} and {@code INTERFACE} /31s, cabled by
 * frame-over-UDP; their BGP and BFD frames cross that link, the session comes up on the wall clock,
 * and {@code show ip bgp summary} and {@code show ip route} say so as SONiC and FRR would.
 */
@Timeout(120)
class BgpSwitchProcessTest {
    @TempDir
    Path dir;
    @RegisterExtension
    final ToolProcesses tools = ToolProcesses.in(() -> dir);

    private static String config(String name, String mac, long asn, String port, String local, String peer,
                                 long peerAsn, String peerName, String extra) {
        return """
            {
              "DEVICE_METADATA": {"localhost": {"hostname": "%s", "mac": "%s", "bgp_asn": "%d"}},
              "PORT": {"Ethernet0": {"speed": "100000"}, "Ethernet4": {"speed": "100000"}},
              "INTERFACE": {"%s|%s/31": {}},
              "BGP_NEIGHBOR": {"%s": {"asn": "%d", "name": "%s", "local_addr": "%s", "holdtime": "9", "keepalive": "3"}}%s
            }
            """.formatted(name, mac, asn, port, local, peer, peerAsn, peerName, local, extra);
    }

    @Test
    void aLeafAndASpineProcessEstablishAndExchangeRoutes() throws Exception {
        Path leafCfg = dir.resolve("leaf.json");
        Path spineCfg = dir.resolve("spine.json");
        Files.writeString(leafCfg, config("leaf0", "02:01:00:00:00:01", 65001, "Ethernet4", "10.254.0.1", "10.254.0.0",
            65100, "spine0", ",\n  \"STATIC_ROUTE\": {\"10.0.0.1/32\": {\"ifname\": \"Ethernet0\", "
                + "\"nexthop_mac\": \"02:00:0a:00:00:01\"}}"));
        Files.writeString(spineCfg, config("spine0", "02:01:00:00:01:01", 65100, "Ethernet0", "10.254.0.0", "10.254.0.1",
            65001, "leaf0", ""));
        int leafPort = ToolProcesses.freeUdpPort();
        int spinePort = ToolProcesses.freeUdpPort();
        Path leafSock = dir.resolve("leaf.sock");
        Path spineSock = dir.resolve("spine.sock");
        var leaf = tools.start("leaf", "switch", "--config", leafCfg.toString(),
            "--port", "Ethernet4=udp:" + leafPort + ":" + spinePort, "--socket", leafSock.toString());
        tools.awaitOutput(leaf, "leaf", "ready", 60);
        var spine = tools.start("spine", "switch", "--config", spineCfg.toString(),
            "--port", "Ethernet0=udp:" + spinePort + ":" + leafPort, "--socket", spineSock.toString());
        tools.awaitOutput(spine, "spine", "ready", 60);

        // the leaf's first OPEN went to a spine not yet listening: it is sent again a second later
        Pattern established = Pattern.compile("(?m)^10\\.254\\.0\\.1 +4 +65001 +\\d+ +\\d+ +0 +0 +0 +\\d\\d:\\d\\d:\\d\\d +1 +leaf0$");
        String summary = "";
        for (int i = 0; i < 100 && !established.matcher(summary).find(); i++) {
            Thread.sleep(200);
            CliRun show = CliRun.of("switch", "show", "ip", "bgp", "summary", "--socket", spineSock.toString());
            assertEquals(0, show.exitCode(), show.err());
            summary = show.out();
        }
        assertTrue(established.matcher(summary).find(), summary);
        assertTrue(summary.contains("BGP router identifier 10.254.0.0, local AS number 65100 vrf-id 0"), summary);
        CliRun route = CliRun.of("switch", "show", "ip", "route", "--socket", spineSock.toString());
        assertEquals(0, route.exitCode(), route.err());
        assertTrue(route.out().contains("B>* 10.0.0.1/32 [20/0] via 10.254.0.1, Ethernet0, weight 1, "), route.out());
        assertTrue(route.out().contains("C>* 10.254.0.0/31 is directly connected, Ethernet0, "), route.out());
        CliRun leafRoute = CliRun.of("switch", "show", "ip", "route", "--socket", leafSock.toString());
        assertTrue(leafRoute.out().contains("S>* 10.0.0.1/32 [1/0] is directly connected, Ethernet0, "), leafRoute.out());
    }
}
