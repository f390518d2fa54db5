package io.rocelab.perftest.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.pingpong.PingpongKind;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code -i 2}: the tools on port 2 of dual-port NICs, cabled twice by {@code --in-process}. */
@Timeout(120)
class DualPortToolTest {
    private static long reported(String out, String counter) {
        Matcher m = Pattern.compile("\t" + Pattern.quote(counter) + "=(\\d+)").matcher(out);
        assertTrue(m.find(), counter + " in " + out);
        return Long.parseLong(m.group(1));
    }

    @Test
    void writeBwOnPortTwoSendsThroughPortTwo() {
        ToolResult r = ToolResult.of(TestKind.WRITE_BW, "--in-process", "-i", "2", "-s", "4096", "-n", "300", "-W",
                "hw_counters/sent_pkts");
        assertEquals(0, r.status(), r.err() + r.out());
        assertEquals(1, NicSessions.BwLine.all(r.out()).size(), r.out());
        // -W reads ports/2/hw_counters, as perftest does for -i 2: port 2 carried the 300 WRITEs
        assertTrue(reported(r.out(), "hw_counters/sent_pkts") >= 300, r.out());
        assertTrue(r.out().contains("GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:78:00:0"), "port 2's GID: " + r.out());
    }

    @Test
    void rdmaCmOnPortTwoConnectsAndRunsThere() {
        // the client binds to its port-2 address and connects to the server's (10.78.0.1): REQ, REP
        // and RTU on the port-2 cable, the exchange's QP and the data QPs on port 2
        for (TestKind kind : java.util.List.of(TestKind.WRITE_BW, TestKind.READ_BW, TestKind.SEND_BW,
                TestKind.WRITE_LAT)) {
            ToolResult r = ToolResult.of(kind, "--in-process", "-R", "-i", "2", "-s", "4096", "-n", "200", "-W",
                    "hw_counters/sent_pkts");
            assertEquals(0, r.status(), kind + ": " + r.err() + r.out());
            assertTrue(r.out().contains(" rdma_cm QPs\t : ON\n"), kind + ": " + r.out());
            assertTrue(r.out().contains("GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:78:00:02"),
                    kind + ": port 2's GID: " + r.out());
            // -W reads port 2's counters: the 200 messages (WRITE/SEND requests or READ requests) left there
            assertTrue(reported(r.out(), "hw_counters/sent_pkts") >= 200, kind + ": " + r.out());
        }
    }

    @Test
    void dualPortModeRunsTheFirstHalfOfTheQpsOnPortOneAndTheSecondOnPortTwo() {
        for (TestKind kind : java.util.List.of(TestKind.WRITE_BW, TestKind.READ_BW, TestKind.SEND_BW)) {
            ToolResult r = ToolResult.of(kind, "--in-process", "-O", "-q", "2", "-s", "4096", "-n", "200");
            assertEquals(0, r.status(), kind + ": " + r.err() + r.out());
            assertTrue(r.out().contains(" Dual-port       : ON\t\tDevice         : rocelab0\n"), r.out());
            assertTrue(r.out().contains(" Number of qps   : 4\t\t"), "-q 2 doubled: " + r.out());
            assertTrue(r.out().contains(" GID index2      : 1\n"), r.out());
            // perftest's address lines, one per QP: port 1's GID for the first half, port 2's for the second
            java.util.List<String> local = r.out().lines().filter(l -> l.startsWith(" GID: ")).toList();
            assertEquals(8, local.size(), "4 local and 4 remote addresses: " + r.out());
            for (int i = 0; i < 4; i++) {
                String net = i < 2 ? ":10:77:00:" : ":10:78:00:";
                assertTrue(local.get(i).contains(net + "02"), "local QP " + i + ": " + local.get(i));
                assertTrue(local.get(4 + i).contains(net + "01"), "remote QP " + i + ": " + local.get(4 + i));
            }
            java.util.List<NicSessions.BwLine> rows = NicSessions.BwLine.all(r.out());
            assertEquals(1, rows.size(), r.out());
            // the row counts the iterations of all four QPs, as with -q 4
            assertEquals(800, rows.get(0).iterations(), r.out());
        }
    }

    @Test
    void dualPortModeRunsUdToo() {
        // UD QPs are not connected: each send names the peer's QP at its port's GID, from its own port
        ToolResult r = ToolResult.of(TestKind.SEND_BW, "--in-process", "-O", "-c", "UD", "-s", "1024", "-n", "200");
        assertEquals(0, r.status(), r.err() + r.out());
        assertTrue(r.out().contains(" Connection type : UD"), r.out());
        java.util.List<String> gids = r.out().lines().filter(l -> l.startsWith(" GID: ")).toList();
        assertEquals(4, gids.size(), r.out());
        assertTrue(gids.get(1).endsWith(":10:78:00:02") && gids.get(3).endsWith(":10:78:00:01"), r.out());
        assertEquals(1, NicSessions.BwLine.all(r.out()).size(), r.out());
    }

    @Test
    void dualPortModeSendsOnBothPorts() throws Exception {
        NicSessions p = NicSessions.run(TestKind.WRITE_BW, "-O", "-s", "4096", "-n", "300");
        assertEquals(0, p.client.status, p.client.toString());
        assertEquals(0, p.server.status, p.server.toString());
        // one QP per port, 300 one-MTU WRITEs each
        for (int port : new int[] {1, 2}) {
            long sent = p.client.engine.nic().port(port).counters().get(io.rocelab.nic.stats.NicCounter.SENT_PKTS);
            assertTrue(sent >= 300 && sent < 600, "port " + port + " sent " + sent);
        }
    }

    @Test
    void dualPortModeNeedsASecondPort() {
        ToolResult r = ToolResult.of(TestKind.WRITE_BW, "--udp-frame", "40000:40001", "-O");
        assertEquals(1, r.status(), r.out());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith(" Unable to query port 2 attributes"), r.err());
        ToolResult bonded = ToolResult.of(TestKind.WRITE_BW, "--in-process", "--bond", "active-backup", "-O");
        assertEquals(1, bonded.status(), bonded.out());
        assertTrue(bonded.err().startsWith(" Unable to query port 2 attributes"), bonded.err());
    }

    @Test
    void rcPingpongOnPortTwo() {
        ToolResult r = ToolResult.ofPingpong(PingpongKind.RC, "--in-process", "-i", "2", "-n", "200");
        assertEquals(0, r.status(), r.err() + r.out());
        assertTrue(r.out().contains("200 iters in"), r.out());
        assertTrue(r.out().contains("::ffff:10.78.0."), "port 2's GID in the exchange: " + r.out());
    }

    @Test
    void portTwoIsRefusedWhereNoSecondPortIsCabled() {
        ToolResult r = ToolResult.of(TestKind.WRITE_BW, "--udp-frame", "40000:40001", "-i", "2");
        assertEquals(1, r.status(), r.out());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains("-i 2"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        ToolResult three = ToolResult.of(TestKind.WRITE_BW, "--in-process", "-i", "3");
        assertEquals(1, three.status(), three.out());
        assertTrue(three.err().contains("two ports"), three.err());
    }

    @Test
    void bondedNicsRunTheToolsInEveryMode() {
        for (String mode : new String[] {"active-backup", "balance-xor", "802.3ad"}) {
            ToolResult r = ToolResult.of(TestKind.WRITE_BW, "--in-process", "--bond", mode, "-s", "4096", "-n", "300",
                    "-q", "4", "-W", "hw_counters/sent_pkts");
            assertEquals(0, r.status(), mode + ": " + r.err() + r.out());
            assertEquals(1, NicSessions.BwLine.all(r.out()).size(), r.out());
            // -W counts both links of the bond: 4 QPs x 300 WRITEs of one MTU each
            assertTrue(reported(r.out(), "hw_counters/sent_pkts") >= 1200, mode + ": " + r.out());
        }
        // rdma_cm on a bond: one QP1 behind both links, whichever link a MAD takes
        for (String mode : new String[] {"active-backup", "balance-xor"}) {
            ToolResult cm = ToolResult.of(TestKind.WRITE_BW, "--in-process", "--bond", mode, "-R", "-s", "4096",
                    "-n", "200", "-q", "4");
            assertEquals(0, cm.status(), mode + " -R: " + cm.err() + cm.out());
            assertEquals(1, NicSessions.BwLine.all(cm.out()).size(), cm.out());
        }
        ToolResult pp = ToolResult.ofPingpong(PingpongKind.RC, "--in-process", "--bond", "balance-xor", "-n", "100");
        assertEquals(0, pp.status(), pp.err() + pp.out());
        assertTrue(pp.out().contains("100 iters in"), pp.out());
    }

    @Test
    void badBondsAreOneLine() {
        String[][] cases = {
            {"--in-process", "--bond", "broadcast"},
            {"--udp-frame", "40000:40001", "--bond", "active-backup"},
            {"--in-process", "--bond", "active-backup", "-i", "2"},
        };
        for (String[] c : cases) {
            ToolResult r = ToolResult.of(TestKind.WRITE_BW, c);
            String what = String.join(" ", c) + " -> " + r.err();
            assertEquals(1, r.status(), what);
            assertEquals(1, r.err().lines().count(), what);
            assertFalse(r.err().contains("Exception"), what);
        }
        assertTrue(ToolResult.of(TestKind.WRITE_BW, "--in-process", "--bond", "broadcast").err()
                .contains("active-backup, balance-xor or 802.3ad"));
    }

    /**
     * Server and client of {@code kind} in two threads, as two processes would run them. The
     * server's output is read while it runs (the client starts once it waits), so it is captured
     * here; the client runs through {@link ToolResult#of}.
     */
    private static ToolResult[] twoSides(TestKind kind, String[] server, String[] client) throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            ByteArrayOutputStream sOut = new ByteArrayOutputStream();
            ByteArrayOutputStream sErr = new ByteArrayOutputStream();
            java.util.concurrent.Future<Integer> s = pool.submit(() -> NicTool.run(kind, server,
                    new PrintStream(sOut, true, StandardCharsets.UTF_8), new PrintStream(sErr, true, StandardCharsets.UTF_8)));
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!sOut.toString(StandardCharsets.UTF_8).contains("Waiting for client") && !s.isDone()
                    && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            ToolResult c = pool.submit(() -> ToolResult.of(kind, client))
                    .get(90, java.util.concurrent.TimeUnit.SECONDS);
            int status = s.get(30, java.util.concurrent.TimeUnit.SECONDS);
            return new ToolResult[] {new ToolResult(status, sOut.toString(StandardCharsets.UTF_8),
                    sErr.toString(StandardCharsets.UTF_8)), c};
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aSecondFrameOverUdpLinkIsPortTwo() throws Exception {
        ToolResult[] r = twoSides(TestKind.WRITE_BW,
                new String[] {"--udp-frame", "41200:41201", "--udp-frame2", "41202:41203", "-i", "2", "-p", "18790",
                    "-s", "4096", "-n", "200", "-W", "hw_counters/sent_pkts"},
                new String[] {"--udp-frame", "41201:41200", "--udp-frame2", "41203:41202", "-i", "2", "-p", "18790",
                    "-s", "4096", "-n", "200", "-W", "hw_counters/sent_pkts", "127.0.0.1"});
        assertEquals(0, r[1].status(), r[1].err() + r[1].out() + r[0].err());
        assertEquals(0, r[0].status(), r[0].err() + r[0].out());
        assertTrue(reported(r[1].out(), "hw_counters/sent_pkts") >= 200, "port 2 carried the WRITEs: " + r[1].out());
        assertTrue(r[1].out().contains(":10:78:00:02"), "the client's port-2 GID: " + r[1].out());
    }

    @Test
    void aBondOverTwoFrameOverUdpLinks() throws Exception {
        ToolResult[] r = twoSides(TestKind.WRITE_BW,
                new String[] {"--udp-frame", "41210:41211", "--udp-frame2", "41212:41213", "--bond", "balance-xor",
                    "-p", "18791", "-q", "4", "-s", "4096", "-n", "200"},
                new String[] {"--udp-frame", "41211:41210", "--udp-frame2", "41213:41212", "--bond", "balance-xor",
                    "-p", "18791", "-q", "4", "-s", "4096", "-n", "200", "127.0.0.1"});
        assertEquals(0, r[1].status(), r[1].err() + r[1].out() + r[0].err());
        assertEquals(1, NicSessions.BwLine.all(r[1].out()).size(), r[1].out());
    }

    @Test
    void portTwoFlagsGoTogether() {
        String[][] cases = {
            {"--udp-frame2", "41202:41203", "--in-process"},
            {"--udp-frame", "41200:41201", "--raw2", "veth1"},
            {"--udp-frame", "41200:41201", "--ip2", "10.9.0.1"},
            {"--udp-frame", "41200:41201", "--udp-frame2", "41202:41203", "--bond", "active-backup", "--mac2",
                "52:54:00:00:00:09"},
            {"--udp-frame", "41200:41201", "--udp-frame2", "x"},
        };
        for (String[] c : cases) {
            ToolResult r = ToolResult.of(TestKind.WRITE_BW, c);
            String what = String.join(" ", c) + " -> " + r.err();
            assertEquals(1, r.status(), what);
            assertEquals(1, r.err().lines().count(), what);
            assertFalse(r.err().contains("Exception"), what);
        }
    }

    @Test
    void aFailedRunNamesPortTwosLink() {
        assertEquals("link rocelab0/2 sent_pkts 5",
                ToolRun.line(2, java.util.Map.of(io.rocelab.nic.stats.NicCounter.SENT_PKTS, 5L)));
        assertEquals("link rocelab0/1 sent_pkts 5",
                ToolRun.line(java.util.Map.of(io.rocelab.nic.stats.NicCounter.SENT_PKTS, 5L)));
    }
}
