package io.rocelab.perftest.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.perftest.TestKind;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code -W, --report-counters}: after each result line, the change of the named counters of the
 * soft NIC's port, as perftest prints it for the sysfs files under {@code ports/1/} (rxe's
 * {@code hw_counters/...}).
 */
@Timeout(120)
class ReportCountersTest {
    /** The values of one report block: the lines right after {@code after}. */
    private static List<Long> block(String out, String after, String... names) {
        int at = out.indexOf(after);
        assertTrue(at >= 0, after + " in " + out);
        String rest = out.substring(at + after.length());
        StringBuilder expected = new StringBuilder("\\A");
        for (String n : names) {
            expected.append("\t").append(Pattern.quote(n)).append("=(\\d+)\n");
        }
        expected.append("\n");
        Matcher m = Pattern.compile(expected.toString()).matcher(rest);
        assertTrue(m.find(), "a report of " + List.of(names) + " right after '" + after.strip() + "': " + out);
        List<Long> values = new ArrayList<>();
        for (int g = 1; g <= names.length; g++) {
            values.add(Long.parseLong(m.group(g)));
        }
        return values;
    }

    @Test
    void writeBwReportsWhatTheClientsNicSentAndReceivedAfterItsResultLine() {
        ToolResult r = ToolResult.of(TestKind.WRITE_BW, "--in-process", "-s", "4096", "-n", "300", "-W",
            "hw_counters/sent_pkts,hw_counters/rcvd_pkts,hw_counters/completer_retry_err");
        assertEquals(0, r.status(), r.err() + r.out());
        List<NicSessions.BwLine> lines = NicSessions.BwLine.all(r.out());
        assertEquals(1, lines.size(), r.out());
        Matcher line = Pattern.compile("(?m)^ 4096 +300 .*\n").matcher(r.out());
        assertTrue(line.find(), r.out());
        List<Long> v = block(r.out(), line.group(), "hw_counters/sent_pkts", "hw_counters/rcvd_pkts",
            "hw_counters/completer_retry_err");
        assertTrue(v.get(0) >= 300, "300 one-packet WRITEs (and the warm-up): " + v);
        assertTrue(v.get(1) >= 1 && v.get(1) <= v.get(0), "their ACKs, coalesced: " + v);
        assertEquals(0L, v.get(2), "nothing resent");
    }

    @Test
    void withDashAEachSizeReportsItsOwnChange() {
        ToolResult r = ToolResult.of(TestKind.WRITE_BW, "--in-process", "-a", "-n", "100",
                "--report-counters=hw_counters/sent_pkts");
        assertEquals(0, r.status(), r.err() + r.out());
        List<NicSessions.BwLine> lines = NicSessions.BwLine.all(r.out());
        assertTrue(lines.size() > 10, r.out());
        Matcher m = Pattern.compile("(?m)^ (\\d+) +100 .*\n\thw_counters/sent_pkts=(\\d+)\n\n").matcher(r.out());
        int blocks = 0;
        while (m.find()) {
            long size = Long.parseLong(m.group(1));
            long packets = Long.parseLong(m.group(2));
            long perMessage = Math.max(1, (size + 4095) / 4096);
            assertTrue(packets >= 100 * perMessage && packets < 2 * 100 * perMessage + 100,
                size + " B x 100 sent " + packets + " packets: " + r.out());
            blocks++;
        }
        assertEquals(lines.size(), blocks, "one report per result line: " + r.out());
    }

    @Test
    void aLatencyToolReportsAfterItsLine() {
        ToolResult r = ToolResult.of(TestKind.READ_LAT, "--in-process", "-n", "200", "-W", "hw_counters/rcvd_pkts");
        assertEquals(0, r.status(), r.err() + r.out());
        Matcher line = Pattern.compile("(?m)^ 2 +200 .*\n").matcher(r.out());
        assertTrue(line.find(), r.out());
        assertTrue(block(r.out(), line.group(), "hw_counters/rcvd_pkts").get(0) >= 200, "the READ responses");
    }

    @Test
    void aCounterTheNicDoesNotHaveStopsTheRunAsPerftestDoes() {
        for (String names : new String[] {"hw_counters/no_such_counter", "counters/port_xmit_data",
            "sent_pkts", "hw_counters/sent_pkts,hw_counters/bogus"}) {
            ToolResult r = ToolResult.of(TestKind.WRITE_BW, "--in-process", "-n", "10", "-W", names);
            assertEquals(1, r.status(), names + ": " + r.out() + r.err());
            assertTrue(r.err().contains(" Unable to access performance counters"), names + ": " + r.err());
            assertTrue(!r.out().contains("#bytes"), "no run: " + r.out());
        }
    }
}
