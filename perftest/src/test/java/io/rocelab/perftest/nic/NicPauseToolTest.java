package io.rocelab.perftest.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.nic.FlowControlMode;
import io.rocelab.perftest.TestKind;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code --pause on|off} on the tools (ethtool's {@code --pause DEV rx on tx on}): the NICs run
 * 802.3x PAUSE instead of PFC; mlx5's PAUSE counters are there to read with {@code -W}; a bad value,
 * or PAUSE beside {@code --pfc-storm}'s PFC, is one line.
 */
@Timeout(120)
class NicPauseToolTest {
    @Test
    void pauseOnReachesBothNicsAndOffOrNothingIsPfc() {
        assertEquals(FlowControlMode.PFC, NicOptions.split(new String[] {"--in-process"}).nic().congestion()
            .flowControl());
        assertEquals(FlowControlMode.PFC, NicOptions.split(new String[] {"--in-process", "--pause", "off"}).nic()
            .congestion().flowControl());
        NicOptions nic = NicOptions.split(new String[] {"--in-process", "--pause=on"}).nic();
        assertEquals(FlowControlMode.PAUSE, nic.congestion().flowControl());
        assertEquals(FlowControlMode.PAUSE, nic.congestionFor(false).flowControl(), "the client's NIC too");
    }

    @Test
    void aTestRunsOnPauseNicsWithMlx5sCounters() {
        ToolResult r = ToolResult.of(TestKind.WRITE_BW, "--in-process", "--pause", "on", "-s", "4096", "-n", "200",
            "-W", "hw_counters/rx_pause_ctrl_phy,hw_counters/tx_pause_ctrl_phy,hw_counters/rx_global_pause_duration");
        assertEquals(0, r.status(), r.err() + r.out());
        for (String c : new String[] {"rx_pause_ctrl_phy", "tx_pause_ctrl_phy", "rx_global_pause_duration"}) {
            Matcher m = Pattern.compile("\thw_counters/" + c + "=(\\d+)\n").matcher(r.out());
            assertTrue(m.find(), c + " in " + r.out());
            assertEquals(0, Long.parseLong(m.group(1)), "nobody paused: " + c);
        }
    }

    @Test
    void aBadValueOrPauseBesidePfcIsOneLine() {
        String[][] bad = {{"--pause", "rx"}, {"--pause", "on", "--pfc-storm", "3"}};
        for (String[] b : bad) {
            String[] args = new String[b.length + 3];
            args[0] = "--in-process";
            args[1] = "-n";
            args[2] = "10";
            System.arraycopy(b, 0, args, 3, b.length);
            ToolResult r = ToolResult.of(TestKind.WRITE_BW, args);
            String what = String.join(" ", b);
            assertEquals(1, r.status(), what);
            assertEquals("", r.out(), what);
            assertEquals(1, r.err().lines().count(), what + ": " + r.err());
            assertTrue(r.err().contains("--pause"), what + ": " + r.err());
        }
    }
}
