package io.rocelab.lab.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.config.Trust;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The leaf's shipped configuration and the demo's options. */
class DemoConfigTest {

    @Test
    void leafIsALosslessRoceSwitch() {
        SwitchConfig c = LeafFabric.loadConfig();
        assertEquals("leaf", c.hostname());
        assertEquals(List.of(LeafFabric.PORT_A, LeafFabric.PORT_B), c.ports().stream().map(PortConfig::name).toList());
        for (PortConfig p : c.ports()) {
            assertEquals(100_000_000_000L, p.speedBitsPerSecond());
            assertEquals(Trust.DSCP, p.trust());
            assertEquals(3, p.dscpToTc()[26], "RoCE: DSCP 26 -> TC 3");
            assertEquals(6, p.dscpToTc()[48], "CNP: DSCP 48 -> TC 6");
            assertEquals(0, p.dscpToTc()[0]);
            assertEquals(3, p.tcToQueue()[3]);
            assertEquals(1 << 3, p.pfcEnableMask(), "PFC on priority 3 only");
            assertTrue(p.pgProfiles()[p.tcToPg()[3]].lossless());
            assertFalse(p.pgProfiles()[p.tcToPg()[0]].lossless());
            assertNotNull(p.queues()[3].wred(), "WRED/ECN on queue 3");
            assertTrue(p.queues()[3].wred().ecnGreen());
            assertFalse(p.queues()[3].wred().wredEnabled(), "a lossless queue marks, never drops");
            assertNull(p.queues()[0].wred());
            assertNotNull(p.pfcWd());
        }
        assertEquals(LeafFabric.ROCE_TRAFFIC_CLASS >> 2, 26, "the hosts send DSCP 26");
        assertEquals(2, LeafFabric.ROCE_TRAFFIC_CLASS & 3, "with ECT(0), so that WRED can mark");
    }

    @Test
    void optionsHaveTheDefaultsOfTheReadme() {
        DemoOptions d = DemoFlags.parse(List.of());
        assertEquals(DemoOptions.defaults(), d);
        assertEquals(List.of("-s", "65536", "-n", "5000", "-u", "18"), d.writeBwArgs(), "perftest's 5000 iterations");
        assertTrue(d.warmup());
        assertEquals(List.of("-s", "65536", "-n", "16384", "-u", "18"), d.warmupArgs(), "1 GB of 64 KB WRITEs");
        assertFalse(DemoFlags.parse(List.of("--no-warmup")).warmup());
        assertEquals(List.of("-n", "1000", "-u", "18"), d.readLatArgs());
        assertEquals(Path.of("rocelab-demo.pcapng"), d.capture());

        DemoOptions o = DemoFlags.parse(List.of("--size=4096", "--duration", "2", "--capture", "/tmp/x.pcapng"));
        assertEquals(List.of("-s", "4096", "-D", "2", "-u", "18"), o.writeBwArgs());
        assertEquals(Path.of("/tmp/x.pcapng"), o.capture());
        assertNull(DemoFlags.parse(List.of("--no-capture")).capture());

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> DemoFlags.parse(List.of("--size", "-1")));
        assertEquals("--size must be 1..8388608, got -1", e.getMessage());
    }

    /** picocli reads the flags (the DemoFlags mixin); the mistakes are still the demo's own one-line messages. */
    @Test
    void flagsAreReadByPicocliWithTheDemosMessages() {
        assertEquals(4096, DemoFlags.parse(List.of("--size", "5", "--size=4096")).size(), "the last one counts");
        assertFalse(DemoFlags.parse(List.of("--no-congestion")).congestion());
        assertEquals(7, DemoFlags.parse(List.of("--capture-frames", "7")).framesPerPort());
        String[][] bad = {
            {"--iters"}, {"--iters needs a value"},
            {"--no-warmup=1"}, {"--no-warmup takes no value"},
            {"--capture="}, {"--capture needs a file name"},
            {"--size", "abc", "--size", "64"}, {"--size wants a whole number 1..8388608, got 'abc'"},
            {"--iters=3"}, {"--iters must be 5..100000, got 3"},
            {"--bogus"}, {"unknown option '--bogus' (options: --size, --iters, --duration, --lat-iters, --capture,"
                + " --capture-frames, --no-capture, --no-congestion, --no-warmup)"},
            {"extra"}, {"unexpected argument 'extra': the demo takes options only"},
            {"--iters=10", "--duration=2"}, {"--iters and --duration both set the length of ib_write_bw; give one"},
            {"--capture=x.pcapng", "--no-capture"}, {"--capture and --no-capture contradict each other; give one"},
        };
        for (int i = 0; i < bad.length; i += 2) {
            List<String> args = List.of(bad[i]);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DemoFlags.parse(args));
            assertEquals(bad[i + 1][0], e.getMessage(), args.toString());
        }
    }
}
