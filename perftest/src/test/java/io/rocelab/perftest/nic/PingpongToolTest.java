package io.rocelab.perftest.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.perftest.pingpong.PingpongKind;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The pingpong tools' whole command line and output, on the soft NIC in this process. */
@Timeout(120)
class PingpongToolTest {
    /** The client's four lines as rdma-core prints them (local line of UD: "...: GID"). */
    private static Pattern output(String localGidSeparator, long bytes, int iters) {
        return Pattern.compile("  local address:  LID 0x0000, QPN 0x000011, PSN 0x[0-9a-f]{6}" + localGidSeparator
                + " GID ::ffff:10\\.77\\.0\\.2\n"
                + "  remote address: LID 0x0000, QPN 0x000011, PSN 0x[0-9a-f]{6}, GID ::ffff:10\\.77\\.0\\.1\n"
                + bytes + " bytes in \\d+\\.\\d\\d seconds = \\d+\\.\\d\\d Mbit/sec\n"
                + iters + " iters in \\d+\\.\\d\\d seconds = \\d+\\.\\d\\d usec/iter\n");
    }

    @Test
    void rcPingpongInProcessPrintsRdmaCoresLines() {
        ToolResult r = ToolResult.ofPingpong(PingpongKind.RC, "--in-process", "-n", "50", "-c");
        assertEquals(0, r.status(), r.err() + r.out());
        assertTrue(output(",", 4096L * 50 * 2, 50).matcher(r.out()).matches(), r.out());
        assertEquals("", r.err());
    }

    @Test
    void ucPingpongWithAMessageOfSeveralPackets() {
        ToolResult r = ToolResult.ofPingpong(PingpongKind.UC, "--in-process", "-n", "20", "-s", "10000", "-m", "2048");
        assertEquals(0, r.status(), r.err() + r.out());
        assertTrue(output(",", 10000L * 20 * 2, 20).matcher(r.out()).matches(), r.out());
    }

    @Test
    void udPingpongSendsDatagramsWithTheGrhArea() {
        ToolResult r = ToolResult.ofPingpong(PingpongKind.UD, "--in-process", "-n", "30", "-s", "512", "-c");
        assertEquals(0, r.status(), r.err() + r.out());
        assertTrue(output(":", 512L * 30 * 2, 30).matcher(r.out()).matches(), r.out());
    }

    @Test
    void helpPrintsTheToolsFlagsAndRocelabsAndExitsZero() {
        ToolResult r = ToolResult.ofPingpong(PingpongKind.RC, "-h");
        assertEquals(0, r.status());
        assertTrue(r.out().contains("  -m, --mtu=<size>       path MTU (default 1024)"), r.out());
        assertTrue(r.out().contains("--udp-frame LPORT:RPORT"), r.out());
        assertFalse(ToolResult.ofPingpong(PingpongKind.UD, "--help").out().contains("--mtu"));
    }

    @Test
    void mistakesAreOneLineAndStatusOne() {
        String[][] cases = {
            {"--in-process", "-x"},
            {"--in-process", "-s", "abc"},
            {"--in-process", "-m", "100"},
            {"--in-process", "-o"},
            {"--in-process", "-t"},
            {"--in-process", "-d", "mlx5_0"},
            {"--in-process", "-i", "3"},
            {"--udp-frame", "40000:40001", "-i", "2"},
            {"--in-process", "-g", "3"},
            {"--udp-frame", "40000:40001", "-g", "2"},
            {"--udp-endpoint", "127.0.0.1", "-g", "0"},
            {"--in-process", "--ip6", "fd77::5"},
            {"--in-process", "10.0.0.1"},
            {"-n", "5"},
            {"--udp-frame", "40000"},
            {"--in-process", "--ip", "10.0.0.1"},
        };
        for (String[] c : cases) {
            ToolResult r = ToolResult.ofPingpong(PingpongKind.RC, c);
            String what = String.join(" ", c) + " -> " + r.err();
            assertEquals(1, r.status(), what);
            assertEquals(1, r.err().lines().count(), what);
            assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), what);
        }
        ToolResult big = ToolResult.ofPingpong(PingpongKind.UD, "--in-process", "-s", "8192");
        assertEquals(1, big.status());
        assertEquals("Requested size larger than port MTU (4096)\n", big.err());
    }
}
