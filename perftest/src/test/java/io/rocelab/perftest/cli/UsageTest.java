package io.rocelab.perftest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.perftest.TestKind;
import org.junit.jupiter.api.Test;

class UsageTest {

    @Test
    void helpGoesToStdoutAndIsTailoredToTheTool() {
        ToolRun r = ToolRun.of(TestKind.WRITE_BW, "-h");
        assertEquals(0, r.exitStatus());
        assertEquals("", r.err());
        assertTrue(r.out().startsWith("Usage:\n"
                + "  ib_write_bw            start a server and wait for connection\n"
                + "  ib_write_bw <host>     connect to server at <host>\n\nOptions:\n"), r.out());
        assertTrue(r.out().contains("  -n, --iters=<iters>  Number of exchanges (at least 5, default 5000)\n"));
        assertTrue(r.out().contains("  -c, --connection=<RC/UC>  Connection type RC/UC (default RC)\n"));
        assertTrue(r.out().contains("      --report_gbits "));
        assertTrue(r.out().contains("  -O, --dualport  Run test in dual-port mode. (SYMMETRIC)\n"));
        assertFalse(r.out().contains("--atomic_type"));
        assertFalse(r.out().contains("--report-histogram"));

        String atomic = ToolRun.of(TestKind.ATOMIC_LAT, "--help").out();
        assertTrue(atomic.contains("  -A, --atomic_type=<type>"));
        assertTrue(atomic.contains("  -n, --iters=<iters>  Number of exchanges (at least 5, default 1000)\n"));
        assertTrue(atomic.contains("  -H, --report-histogram"));
        assertFalse(atomic.contains("  -s, --size"), "atomic messages are always 8 bytes");
        assertFalse(atomic.contains("--report_gbits"));
    }

    @Test
    void versionIsTheProtocolVersionSpoken() {
        ToolRun r = ToolRun.of(TestKind.READ_LAT, "-V");
        assertEquals(0, r.exitStatus());
        assertEquals("Version: 6.06" + System.lineSeparator(), r.out());
    }
}
