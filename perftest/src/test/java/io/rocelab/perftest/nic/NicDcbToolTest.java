package io.rocelab.perftest.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.nic.dcb.DcbSettings;
import io.rocelab.perftest.TestKind;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code --trust}, {@code --pfc} and {@code --dcbx} on the tools, as mlnx_qos spells them, run as a
 * user runs them: the whole command line, {@code --in-process}.
 */
@Timeout(120)
class NicDcbToolTest {
    private static long counter(String out, String name) {
        Matcher m = Pattern.compile(Pattern.quote(name) + "[=\\s]+(\\d+)").matcher(out);
        assertTrue(m.find(), name + " in " + out);
        return Long.parseLong(m.group(1));
    }

    /**
     * The server's NIC storms priority 0, the traffic's; with PFC only on 3 (mlnx_qos's
     * {@code --pfc 0,0,0,1,0,0,0,0}) the client's NIC counts the pauses and is never held.
     */
    @Test
    void aStormOnAPriorityWithoutPfcIsCountedAndHoldsNothing() {
        ToolResult r = ToolResult.of(TestKind.WRITE_BW, "--in-process", "-s", "4096", "-n", "2000", "--pfc-storm", "0",
            "--pfc", "0,0,0,1,0,0,0,0", "-W",
            "hw_counters/rx_prio0_pause,hw_counters/rx_prio0_pause_duration,hw_counters/rx_pfc_ignored");
        assertEquals(0, r.status(), r.err() + r.out());
        assertTrue(counter(r.out(), "hw_counters/rx_prio0_pause") > 0, r.out());
        assertEquals(counter(r.out(), "hw_counters/rx_prio0_pause"), counter(r.out(), "hw_counters/rx_pfc_ignored"),
            r.out());
        assertEquals(0, counter(r.out(), "hw_counters/rx_prio0_pause_duration"), r.out());
        assertTrue(r.err().contains("dcb: trust dscp, pfc 0,0,0,1,0,0,0,0, dcbx willing"), r.err());
    }

    @Test
    void theFlagsReachTheNicsSettings() {
        assertEquals(DcbSettings.DEFAULTS, NicOptions.split(new String[] {"--in-process"}).nic().congestion().dcb());
        NicOptions nic = NicOptions.split(new String[] {"--in-process", "--trust", "pcp", "--pfc=0,0,0,1,1,0,0,0",
            "--dcbx", "off"}).nic();
        DcbSettings s = nic.congestionFor(false).dcb();
        assertEquals(DcbSettings.Trust.PCP, s.trust());
        assertEquals(0x18, s.pfcEnable());
        assertEquals(DcbSettings.DcbxMode.OFF, s.dcbx());
    }

    @Test
    void mistakesAreOneLineNamingTheFlag() {
        String[][] bad = {{"--trust", "dot1p"}, {"--pfc", "3"}, {"--pfc", "0,0,0,2,0,0,0,0"}, {"--dcbx", "on"},
            {"--pfc"}};
        String[] named = {"--trust", "--pfc", "--pfc", "--dcbx", "--pfc"};
        for (int i = 0; i < bad.length; i++) {
            List<String> args = new ArrayList<>(List.of("--in-process", "-n", "10"));
            args.addAll(List.of(bad[i]));
            ToolResult r = ToolResult.of(TestKind.WRITE_BW, args.toArray(new String[0]));
            String what = String.join(" ", bad[i]);
            assertEquals(1, r.status(), what);
            assertEquals("", r.out(), what);
            assertEquals(1, r.err().lines().count(), what + ": " + r.err());
            assertTrue(r.err().contains(named[i]), what + ": " + r.err());
        }
    }
}
