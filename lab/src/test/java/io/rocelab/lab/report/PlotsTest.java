package io.rocelab.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The queue-depth and pause plots, the variants' bars, and what they look like as PNG files. */
class PlotsTest {
    @TempDir
    Path tmp;

    private static TimeSeries series(String name, int samples, double intervalUs, java.util.function.IntToDoubleFunction v) {
        TimeSeries s = new TimeSeries(name, "x");
        for (int i = 0; i < samples; i++) {
            s.add((i + 1) * intervalUs, v.applyAsDouble(i));
        }
        return s;
    }

    /** A standing queue: drawn as sampled, named as the lab names it, on round axes. */
    @Test
    void queueDepthIsNamedAsTheLabNamesItOnRoundAxes() {
        TimeSeries q = series("leaf0:Ethernet0:3", 600, 10, i -> 3290 + (i % 2 == 0 ? 4 : -4));
        TimePlot p = TimePlot.of("Queue depth", "KB", 6_000, List.of(q), TimePlot.Style.SOLID, 0);
        assertEquals(List.of("leaf0:Ethernet0:3"), p.names());
        assertEquals("time (ms)", p.x().title());
        assertEquals(6, p.x().max());
        assertEquals(0.01, p.line("leaf0:Ethernet0:3").x()[0], 1e-12, "10 us in ms");
        double[] y = p.line("leaf0:Ethernet0:3").y();
        for (int i = 301; i < y.length; i++) {
            assertTrue(Math.abs(y[i] - y[i - 1]) / y[i - 1] < 0.2, "a standing queue reads as one");
        }
        FlowRatePlotTest.assertRoundAxes(p);
        assertEquals(3500, p.y().max());
        assertEquals(500, p.y().step());
    }

    @Test
    void pauseCountsStepInWholeNumbers() {
        TimeSeries nics = series("NICs paused", 200, 10, i -> i < 20 ? 16 : 15);
        TimeSeries ports = series("switch ports paused", 200, 10, i -> 0);
        TimePlot p = TimePlot.of("Pause", "paused", 2_000, List.of(nics, ports), TimePlot.Style.STEP, 1);
        assertEquals(TimePlot.Style.STEP, p.line("NICs paused").style());
        assertEquals(16, p.y().max());
        assertEquals(2, p.y().step());
        assertEquals("time (ms)", p.x().title());
        FlowRatePlotTest.assertRoundAxes(p);
        TimePlot idle = TimePlot.of("Pause", "paused", 2_000, List.of(ports), TimePlot.Style.STEP, 1);
        assertEquals(1, idle.y().step(), "nobody paused: still a count axis");
    }

    @Test
    void barsTickRoundFromZero() {
        Axis a = Plots.barAxis("KB", List.of(118.3, 3290.4));
        assertEquals(3500, a.max());
        assertTrue(Axis.isOneTwoFive(a.step()));
        assertEquals(1, Plots.barAxis("us", List.of(Double.NaN, 0.0)).max(), "no data, still an axis");
    }

    /** Every kind of plot is written as a PNG of the plot's size, with more than a background in it. */
    @Test
    void everyPlotKindIsWrittenAsAPng() throws IOException {
        List<FlowRatePlot.Flow> flows = new ArrayList<>();
        double[] t = new double[500];
        for (int i = 0; i < t.length; i++) {
            t[i] = (i + 1) * 10;
        }
        for (int f = 0; f < 16; f++) {
            double[] r = new double[t.length];
            java.util.Arrays.fill(r, 6.25e9 + f * 1e8);
            flows.add(new FlowRatePlot.Flow("incast-h" + f, r, r, r));
        }
        Path rate = tmp.resolve("flow-rate.png");
        Plots.render(FlowRatePlot.of(t, 5_000, flows), rate);
        Path few = tmp.resolve("few.png");
        Plots.render(FlowRatePlot.of(t, 5_000, flows.subList(0, 2)), few);
        Path depth = tmp.resolve("queue-depth.png");
        Plots.render(TimePlot.of("Queue depth", "KB", 5_000, List.of(series("leaf0:Ethernet0:3", 500, 10, i -> i)),
            TimePlot.Style.SOLID, 0), depth);
        Path pause = tmp.resolve("pause.png");
        Plots.render(TimePlot.of("Pause", "paused", 5_000, List.of(series("NICs paused", 500, 10, i -> i % 3)),
            TimePlot.Style.STEP, 1), pause);
        Path bars = tmp.resolve("variants-queue.png");
        Plots.barChart(bars, "Standing queue", "KB", List.of("dcqcn", "pfc_only"), List.of(118.3, 3290.4));
        for (Path png : List.of(rate, few, depth, pause, bars)) {
            BufferedImage img = ImageIO.read(png.toFile());
            assertEquals(960, img.getWidth(), png.toString());
            assertEquals(420, img.getHeight(), png.toString());
            Set<Integer> colours = new HashSet<>();
            for (int x = 0; x < img.getWidth(); x += 3) {
                for (int y = 0; y < img.getHeight(); y += 3) {
                    colours.add(img.getRGB(x, y));
                }
            }
            assertTrue(colours.size() > 10, png + ": " + colours.size() + " colours");
        }
    }

    /** A run's flow rates with a zoomed panel: one PNG, the panels one above the other. */
    @Test
    void panelsAreDrawnOneAboveTheOther() throws IOException {
        TimeSeries q = series("q", 100, 10, i -> i);
        TimePlot p = TimePlot.of("Queue depth", "KB", 1_000, List.of(q), TimePlot.Style.SOLID, 0);
        Path one = tmp.resolve("one.png");
        Path two = tmp.resolve("two.png");
        Plots.render(List.of(p), one);
        Plots.render(List.of(p, p), two);
        BufferedImage a = ImageIO.read(one.toFile());
        BufferedImage b = ImageIO.read(two.toFile());
        assertEquals(a.getWidth(), b.getWidth());
        assertEquals(2 * a.getHeight(), b.getHeight());
        for (int y = 0; y < a.getHeight(); y += 7) {
            for (int x = 0; x < a.getWidth(); x += 7) {
                assertEquals(a.getRGB(x, y), b.getRGB(x, y + a.getHeight()), "the second panel as drawn alone at " + x + "," + y);
            }
        }
    }
}
