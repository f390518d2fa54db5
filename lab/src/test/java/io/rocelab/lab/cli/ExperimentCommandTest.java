package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rocelab experiment incast} as a user runs it: figures on stdout, a CSV and plots in --out. */
class ExperimentCommandTest {
    @TempDir
    Path out;

    @Test
    void anIncastPrintsItsFiguresAndWritesTheSeriesAndThePlots() throws IOException {
        CliRun run = CliRun.of("experiment", "incast", "--senders", "2", "--duration-us", "600", "--out",
            out.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("incast 2:1 at 100 Gb/s, DCQCN, 600 us simulated"), run.out());
        assertTrue(run.out().contains("Jain's fairness index"), run.out());
        assertTrue(run.out().contains("switch drops 0"), run.out());
        List<String> csv = Files.readAllLines(out.resolve("incast-2to1-dcqcn.csv"));
        assertTrue(csv.get(0).startsWith("time_us,rate_h1_gbps,rate_h2_gbps,goodput_h1_gbps"), csv.get(0));
        assertEquals(1 + 60, csv.size(), "a row per 10 us sample");
        for (String plot : List.of("rates", "queue", "pause")) {
            BufferedImage png = ImageIO.read(out.resolve("incast-2to1-dcqcn-" + plot + ".png").toFile());
            assertTrue(png.getWidth() > 500 && png.getHeight() > 300, plot);
        }
    }

    @Test
    void badArgumentsAreOneLineAndExitTwo() {
        CliRun cc = CliRun.of("experiment", "incast", "--cc", "hpcc");
        assertEquals(2, cc.exitCode());
        assertEquals("rocelab: --cc must be dcqcn or none: 'hpcc'\n", cc.err());
        CliRun param = CliRun.of("experiment", "incast", "--cc-param", "rp_gd=99");
        assertEquals(2, param.exitCode());
        assertEquals("rocelab: --cc-param: rp_gd must be 0..15 (log2): 99\n", param.err());
        CliRun senders = CliRun.of("experiment", "incast", "--senders", "0");
        assertEquals(2, senders.exitCode());
        assertEquals("rocelab: senders must be 1..256: 0\n", senders.err());
    }
}
