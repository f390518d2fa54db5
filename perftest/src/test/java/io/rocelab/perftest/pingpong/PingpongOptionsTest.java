package io.rocelab.perftest.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.perftest.cli.OptionException;
import org.junit.jupiter.api.Test;

/** The pingpong tools' command lines, read as rdma-core's getopt_long reads them. */
class PingpongOptionsTest {
    @Test
    void defaultsAreRdmaCoresPerTool() {
        PingpongOptions rc = PingpongOptions.parse(PingpongKind.RC, new String[0]);
        assertEquals(18515, rc.port());
        assertEquals(4096, rc.size());
        assertEquals(1024, rc.mtu());
        assertEquals(500, rc.rxDepth());
        assertEquals(1000, rc.iters());
        assertEquals(1, rc.ibPort());
        assertEquals(-1, rc.gidIndex());
        assertTrue(rc.isServer());
        assertEquals(1024, PingpongOptions.parse(PingpongKind.UD, new String[0]).size());
        assertEquals(4096, PingpongOptions.parse(PingpongKind.UC, new String[0]).size());
    }

    @Test
    void shortFlagsGroupAndTakeAttachedOrNextValues() {
        PingpongOptions o = PingpongOptions.parse(PingpongKind.RC,
                new String[] {"-ec", "-s64", "-n", "0x10", "-g1", "-m", "2048", "10.0.2.2", "-p", "030000"});
        assertTrue(o.events());
        assertTrue(o.chk());
        assertEquals(64, o.size());
        assertEquals(16, o.iters());
        assertEquals(1, o.gidIndex());
        assertEquals(2048, o.mtu());
        assertEquals("10.0.2.2", o.server(), "getopt permutes: options after the host are still read");
        assertEquals(12288, o.port(), "strtoul base 0: a leading 0 is octal");
    }

    @Test
    void longOptionsTakeEqualsOrNextAndMayBeAbbreviated() {
        PingpongOptions o = PingpongOptions.parse(PingpongKind.UC,
                new String[] {"--size=512", "--iters", "7", "--rx=9", "--gid-idx", "1", "--chk", "--", "host"});
        assertEquals(512, o.size());
        assertEquals(7, o.iters());
        assertEquals(9, o.rxDepth());
        assertEquals(1, o.gidIndex());
        assertTrue(o.chk());
        assertEquals("host", o.server());
    }

    @Test
    void flagsTheSoftNicCannotHonourAreRememberedForARefusal() {
        assertEquals("-o: rocelab's soft NIC has no on-demand paging",
                PingpongOptions.parse(PingpongKind.RC, new String[] {"-o"}).unsupported());
        assertEquals("-t: rocelab's soft NIC has no CQE timestamps",
                PingpongOptions.parse(PingpongKind.RC, new String[] {"-t", "-j"}).unsupported());
        assertNull(PingpongOptions.parse(PingpongKind.RC, new String[] {"-N", "-e"}).unsupported());
        assertFalse(PingpongOptions.parse(PingpongKind.RC, new String[] {"-N"}).help());
    }

    @Test
    void mistakesAreOneLineNamingTheTool() {
        String[][] rc = {
            {"-x"}, {"-s"}, {"-s", "4k"}, {"-p", "70000"}, {"-p", "-1"}, {"-m", "1000"}, {"-i", "0"},
            {"-n", "0"}, {"-r", "0"}, {"-l", "16"}, {"--bogus"}, {"--events=1"}, {"--port"}, {"a", "b"},
            {"-g", "x"}, {"-d", ""},
        };
        for (String[] args : rc) {
            OptionException e = assertThrows(OptionException.class, () -> PingpongOptions.parse(PingpongKind.RC, args),
                    String.join(" ", args));
            assertTrue(e.getMessage().startsWith("ibv_rc_pingpong: "), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
        // flags one tool has and another has not, as in rdma-core
        OptionException noMtu = assertThrows(OptionException.class,
                () -> PingpongOptions.parse(PingpongKind.UD, new String[] {"-m", "1024"}));
        assertEquals("ibv_ud_pingpong: invalid option -- 'm'", noMtu.getMessage());
        assertThrows(OptionException.class, () -> PingpongOptions.parse(PingpongKind.UC, new String[] {"-o"}));
        assertEquals("ibv_rc_pingpong: option '--s' is ambiguous (--size, --sl)", assertThrows(OptionException.class,
                () -> PingpongOptions.parse(PingpongKind.RC, new String[] {"--s=1"})).getMessage());
    }
}
