package io.rocelab.perftest.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.perftest.TestKind;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A tool's whole command line: rocelab's flags taken out, perftest's run, in-process mode. */
@Timeout(120)
class NicToolTest {
    @Test
    void inProcessModeRunsBothSidesAndPrintsTheClientsTable() {
        ToolResult r = ToolResult.of(TestKind.WRITE_BW, "--in-process", "-s", "4096", "-n", "300");
        assertEquals(0, r.status(), r.err() + r.out());
        assertTrue(r.out().contains(" 4096       300"), r.out());
        assertEquals(1, NicSessions.BwLine.all(r.out()).size(), r.out());
        assertTrue(NicSessions.BwLine.all(r.out()).get(0).average() > 0);
    }

    @Test
    void bothNicsShareOneOwnerThreadThatPollsWithBusyPoll() {
        ToolResult r = ToolResult.of(TestKind.WRITE_LAT, "--in-process", "--busy-poll", "-s", "8", "-n", "500");
        assertEquals(0, r.status(), r.err() + r.out());
        assertEquals(1, NicSessions.LatLine.all(r.out()).size(), r.out());
        assertEquals(500, NicSessions.LatLine.all(r.out()).get(0).iterations());
        try (InProcessFabric fabric = InProcessFabric.create(true)) {
            assertSame(fabric.sideA().scheduler(), fabric.sideB().scheduler());
            assertTrue(fabric.sideA().scheduler() instanceof io.rocelab.fabric.time.BusyPollScheduler);
        }
        try (InProcessFabric fabric = InProcessFabric.create(false)) {
            assertSame(fabric.sideA().scheduler(), fabric.sideB().scheduler(), "one event loop for both NICs");
            assertTrue(fabric.sideA().scheduler() instanceof io.rocelab.fabric.time.RealTimeScheduler);
        }
    }

    @Test
    void rocelabFlagsAreTakenOutBeforePerftestParses() {
        NicOptions.Split s = NicOptions.split(new String[] {"-s", "64", "--udp-frame=40000:40001", "--ip", "10.77.0.20",
                "--mac", "52:54:00:AA:00:01", "--active-mtu", "1024", "--psn-seed", "0x10", "10.77.0.10"});
        assertEquals(NicOptions.DataPath.UDP_FRAME, s.nic().dataPath());
        assertEquals(40000, s.nic().udpLocal());
        assertEquals(40001, s.nic().udpRemote());
        assertEquals("127.0.0.1", s.nic().udpHost());
        assertEquals("10.77.0.20", s.nic().ipFor(true));
        assertEquals("52:54:00:aa:00:01", s.nic().macFor(false));
        assertEquals(1024, s.nic().activeMtu());
        assertEquals(16L, s.nic().psnSeed());
        assertEquals(java.util.List.of("-s", "64", "10.77.0.10"), java.util.List.of(s.perftestArgs()));
    }

    @Test
    void rawPutsTheNicOnALinuxInterface() {
        NicOptions.Split s = NicOptions.split(new String[] {"--raw", "veth7", "--ip", "10.99.0.11", "-s", "64",
            "10.99.0.2"});
        assertEquals(NicOptions.DataPath.RAW, s.nic().dataPath());
        assertEquals("veth7", s.nic().rawInterface());
        assertEquals(io.rocelab.fabric.raw.RawBackend.AUTO, s.nic().rawBackend());
        NicOptions pcap = NicOptions.split(new String[] {"--raw", "pcap:veth7"}).nic();
        assertEquals("veth7", pcap.rawInterface());
        assertEquals(io.rocelab.fabric.raw.RawBackend.PCAP, pcap.rawBackend());
        assertEquals(io.rocelab.fabric.raw.RawBackend.AF_PACKET,
            NicOptions.split(new String[] {"--raw", "af_packet:veth7"}).nic().rawBackend());
        assertEquals("10.99.0.11", s.nic().ipFor(false));
        assertEquals(java.util.List.of("-s", "64", "10.99.0.2"), java.util.List.of(s.perftestArgs()));
        assertEquals("eth0", NicOptions.split(new String[] {"--raw=eth0"}).nic().rawInterface());
    }

    /**
     * picocli reads rocelab's flags (NicFlags): exact names only, both value forms, the last value
     * wins, perftest's arguments stay in order, and what follows {@code --} is perftest's untouched.
     */
    @Test
    void picocliTakesOutRocelabsFlagsAndLeavesPerftestsInOrder() {
        NicOptions.Split s = NicOptions.split(new String[] {"-s", "64", "--ip=10.77.0.9", "-aF", "--ip", "10.77.0.8",
                "--MAC", "x", "--ipx", "-p", "18515", "--psn-seed", "-5", "@args", "host", "--", "--ip", "1"});
        assertEquals("10.77.0.8", s.nic().ipFor(true));
        assertEquals(-5L, s.nic().psnSeed());
        assertEquals(java.util.List.of("-s", "64", "-aF", "--MAC", "x", "--ipx", "-p", "18515", "@args", "host", "--",
                "--ip", "1"), java.util.List.of(s.perftestArgs()));
        String[][] bad = {
            {"--in-process=x"}, {" --in-process takes no value"},
            {"--busy-poll=1", "--in-process"}, {" --busy-poll takes no value"},
            {"--udp-frame"}, {" --udp-frame needs a value"},
            {"--ip", "--mac", "52:54:00:77:01:09"}, {" --ip needs a value"},
            {"--ip", "-s"}, {" --ip wants an IPv4 address like 10.77.0.1, got '-s'"},
        };
        for (int i = 0; i < bad.length; i += 2) {
            String[] args = bad[i];
            io.rocelab.perftest.cli.OptionException e = org.junit.jupiter.api.Assertions.assertThrows(
                    io.rocelab.perftest.cli.OptionException.class, () -> NicOptions.split(args));
            assertEquals(bad[i + 1][0], e.getMessage(), String.join(" ", args));
        }
    }

    @Test
    void ip6GivesTheNicGlobalIpv6AddressesInGidOrder() {
        NicOptions.Split s = NicOptions.split(new String[] {"--udp-frame", "40000:40001", "--ip6", "fd77::100",
                "-x", "2", "--ip6=2001:db8::7"});
        assertEquals(java.util.List.of("fd77::100", "2001:db8::7"), s.nic().ip6For(true));
        assertEquals(java.util.List.of("fd77::100", "2001:db8::7"), s.nic().ip6For(false));
        assertEquals(java.util.List.of("-x", "2"), java.util.List.of(s.perftestArgs()));
        // perftest's own --ipv6 is left to perftest
        assertEquals(java.util.List.of("--ipv6"), java.util.List.of(NicOptions.split(
                new String[] {"--udp-frame", "40000:40001", "--ipv6"}).perftestArgs()));
        assertTrue(NicOptions.split(new String[] {"--udp-frame", "40000:40001"}).nic().ip6For(true).isEmpty(),
                "a NIC on a shared link has no global IPv6 address unless given one");
        NicOptions inProcess = NicOptions.split(new String[] {"--in-process"}).nic();
        assertEquals(java.util.List.of("fd77::1"), inProcess.ip6For(true));
        assertEquals(java.util.List.of("fd77::2"), inProcess.ip6For(false));
    }

    @Test
    void mistakesAreOneLineAndStatusOne() {
        String[][] cases = {
            {"-s", "4096"},
            {"--udp-frame", "40000"},
            {"--udp-frame", "x:40001"},
            {"--udp-frame", "40000:0"},
            {"--in-process", "--udp-frame", "40000:40001"},
            {"--in-process", "--ip", "10.0.0.1"},
            {"--in-process", "10.77.0.10"},
            {"--udp-frame", "40000:40001", "--active-mtu", "1500"},
            {"--udp-frame", "40000:40001", "--ip"},
            {"--in-process", "--use-srq", "-c", "UC"},
            {"--in-process", "--ip6", "fd77::5"},
            {"--udp-frame", "40000:40001", "--ip6", "fe80::1"},
            {"--udp-frame", "40000:40001", "--ip6", "10.0.0.1"},
            {"--udp-frame", "40000:40001", "--ip6", "ff02::1"},
            {"--udp-frame", "40000:40001", "-x", "2"},
            {"--udp-endpoint", "127.0.0.1", "--ip6", "fd77::5"},
            {"--udp-endpoint", "127.0.0.1", "-x", "2"},
            {"--udp-endpoint", "127.0.0.1", "--ipv6"},
            {"--in-process", "-R", "-x", "2"},
            {"--udp-frame", "40000:40001", "--busy-poll"},
            {"--in-process", "--busy-poll=yes"},
            {"--in-process", "-x", "3"},
            {"--in-process", "-d", "mlx5_0"},
            {"--raw", "veth0", "--udp-frame", "40000:40001"},
            {"--raw", "veth0", "--in-process"},
            {"--raw", "a/b"},
            {"--raw", "an-interface-name-too-long"},
            {"--raw"},
            {"--raw", "tap:veth0"},
            {"--raw", "pcap:"},
        };
        for (String[] args : cases) {
            ToolResult r = ToolResult.of(TestKind.SEND_BW, args);
            assertEquals(1, r.status(), String.join(" ", args) + ": " + r.err());
            assertEquals(1, r.err().strip().lines().count(), String.join(" ", args) + ": " + r.err());
        }
    }

    /**
     * The help's worked example against a qemu VM, each direction: the rocelab command is the one
     * shown, with no --ip, --mac or -u, and what it sets fits the VM the example describes.
     */
    @Test
    void helpShowsHowToReachAQemuVmInBothDirectionsWithTheDefaults() {
        for (TestKind kind : new TestKind[] {TestKind.WRITE_BW, TestKind.SEND_LAT}) {
            ToolResult r = ToolResult.of(kind, "-h");
            String help = r.out();
            assertTrue(help.contains("-netdev socket,id=n0,udp=127.0.0.1:41001,localaddr=127.0.0.1:41000"), help);
            assertTrue(help.contains("hostfwd=tcp:127.0.0.1:18515-:18515"), help);
            assertTrue(help.contains("10.0.2.2"), help);
            java.util.regex.Matcher here = java.util.regex.Pattern.compile("(?m)^    here: +\\./rocelab (\\S+) (.*)$")
                    .matcher(help);
            assertTrue(here.find(), help);
            assertEquals(kind.toolName(), here.group(1));
            NicOptions.Split client = NicOptions.split(here.group(2).split(" "));
            assertTrue(here.find(), help);
            NicOptions.Split server = NicOptions.split(here.group(2).split(" "));
            assertTrue(help.contains("rocelab client, VM server (VM 10.77.0.1"), help);
            assertTrue(help.contains("VM client, rocelab server (VM 10.77.0.2"), help);
            for (NicOptions.Split s : new NicOptions.Split[] {client, server}) {
                assertEquals(NicOptions.DataPath.UDP_FRAME, s.nic().dataPath());
                assertEquals(41001, s.nic().udpLocal(), "where the VM sends");
                assertEquals(41000, s.nic().udpRemote(), "where the VM receives");
            }
            var clientOptions = io.rocelab.perftest.run.PerftestTool.parse(kind, client.perftestArgs(),
                    SessionRunner.nullStream(), SessionRunner.nullStream()).options();
            var serverOptions = io.rocelab.perftest.run.PerftestTool.parse(kind, server.perftestArgs(),
                    SessionRunner.nullStream(), SessionRunner.nullStream()).options();
            assertTrue(clientOptions.isClient() && "127.0.0.1".equals(clientOptions.host()), "through qemu's forward");
            assertEquals(18515, clientOptions.port());
            assertTrue(serverOptions.isServer());
            assertEquals("10.77.0.2", client.nic().ipFor(false), "not the VM's 10.77.0.1");
            assertEquals("10.77.0.1", server.nic().ipFor(true), "not the VM's 10.77.0.2");
            assertEquals(18, NicEngine.qpTimeout(clientOptions,
                    NicEngineFactory.of(client.nic()).create(clientOptions).defaultQpTimeout()), "a VM under TCG");
        }
    }

    @Test
    void helpShowsRocelabsFlagsUnderPerftests() {
        ToolResult r = ToolResult.of(TestKind.READ_LAT, "-h");
        assertEquals(0, r.status());
        assertTrue(r.out().contains("Usage:"), r.out());
        assertTrue(r.out().contains("--udp-frame LPORT:RPORT"), r.out());
    }

    @Test
    void helpSaysUdpEndpointModeSeesNoEcnMarksAndWhy() {
        for (TestKind kind : new TestKind[] {TestKind.WRITE_BW, TestKind.SEND_LAT}) {
            String help = ToolResult.of(kind, "--help").out();
            int endpoint = help.indexOf("  --udp-endpoint LOCAL_IP");
            int next = help.indexOf("  --in-process", endpoint);
            assertTrue(endpoint >= 0 && next > endpoint, help);
            String block = help.substring(endpoint, next);
            assertTrue(block.contains("it sees no ECN marks, so it sends no CNPs and --cc dcqcn never cuts a rate"),
                    block);
            assertTrue(block.contains("IP_RECVTOS"), "the reason: " + block);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(0, PingpongTool.run(io.rocelab.perftest.pingpong.PingpongKind.RC, new String[] {"-h"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream())));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("it sees no ECN marks"), out.toString());
    }

    @Test
    void helpListsTheCongestionFlagsAndTheRateLimiter() {
        String bw = ToolResult.of(TestKind.WRITE_BW, "--help").out();
        for (String flag : new String[] {"  --cc dcqcn|none ", "  --cc-param NAME=VALUE ", "  --pfc-storm PRIO ",
            "      --rate_limit=<rate> ", "      --rate_units=<units> ", "      --rate_limit_type=<type> ",
            "      --burst_size=<size> "}) {
            assertTrue(bw.contains(flag), flag + " in " + bw);
        }
        assertTrue(bw.indexOf(" Rate Limiter:") < bw.indexOf("rocelab data path"), "perftest's flags first: " + bw);
        assertTrue(bw.contains("PP (packet pacing) is the same pacer"), bw);
        String lat = ToolResult.of(TestKind.WRITE_LAT, "--help").out();
        assertTrue(!lat.contains("--rate_limit") && lat.contains("--pfc-storm"),
                "perftest's rate limiter is for bandwidth tests: " + lat);
    }
}
