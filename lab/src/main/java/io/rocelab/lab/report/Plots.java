package io.rocelab.lab.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Draws {@link TimePlot}s, and bars of one value per category, as PNG files (XChart), headless. The
 * axes start where the plot's {@link Axis} says (zero, or a round time where a late start is cut)
 * and tick where it says (1, 2 or 5 x 10^k), whatever the sample times.
 */
public final class Plots {
    private static final int WIDTH = 960;
    private static final int HEIGHT = 420;
    /** Plot area widths XChart leaves, without and with a legend (for the tick spacing hint). */
    private static final int PLOT_WIDTH = 860;
    private static final int PLOT_WIDTH_LEGEND = 640;
    private static final int PLOT_HEIGHT = 330;
    /** XChart subtracts this from the spacing hint before use. */
    private static final int HINT_OFFSET = 5;
    private static final Color[] PALETTE = {
        new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728),
        new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f),
    };

    private Plots() {
    }

    /** Draws {@code plot} and writes it to {@code png}. */
    public static void render(TimePlot plot, Path png) {
        save(chart(plot), png);
    }

    /**
     * Draws {@code panels} one above the other, each as {@link #render(TimePlot, Path)} draws it, and
     * writes them to {@code png} as one image (a run's flow rates and a panel zoomed on the time they send).
     */
    public static void render(List<TimePlot> panels, Path png) {
        if (panels.size() == 1) {
            render(panels.get(0), png);
            return;
        }
        java.awt.image.BufferedImage out = new java.awt.image.BufferedImage(WIDTH, HEIGHT * panels.size(),
            java.awt.image.BufferedImage.TYPE_INT_RGB);
        java.awt.Graphics2D g = out.createGraphics();
        for (int i = 0; i < panels.size(); i++) {
            g.drawImage(BitmapEncoder.getBufferedImage(chart(panels.get(i))), 0, HEIGHT * i, null);
        }
        g.dispose();
        try {
            javax.imageio.ImageIO.write(out, "png", png.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + png, e);
        }
    }

    private static XYChart chart(TimePlot plot) {
        System.setProperty("java.awt.headless", "true");
        boolean legend = !plot.lines().isEmpty(); // names the queue, port or flow even when alone
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(plot.title())
            .xAxisTitle(plot.x().title()).yAxisTitle(plot.y().title()).build();
        var st = chart.getStyler();
        st.setMarkerSize(0);
        st.setPlotMargin(4);
        st.setChartTitleVisible(true);
        st.setLegendVisible(legend);
        st.setXAxisMin(plot.x().min());
        st.setXAxisMax(plot.x().max());
        st.setYAxisMin(0.0);
        st.setYAxisMax(plot.y().max());
        st.setXAxisTickMarkSpacingHint(hint(legend ? PLOT_WIDTH_LEGEND : PLOT_WIDTH, plot.x()));
        st.setYAxisTickMarkSpacingHint(hint(PLOT_HEIGHT, plot.y()));
        chart.setCustomXAxisTickLabelsFormatter(v -> plot.x().label(v));
        chart.setCustomYAxisTickLabelsFormatter(v -> plot.y().label(v));
        // the axis' two ends as the first series, not drawn: XChart ticks an axis whose samples are
        // equally spaced at the samples themselves (10, 570, 1130 us); with these it ticks from its start
        XYSeries ends = chart.addSeries(" ", new double[] {plot.x().min(), plot.x().max()}, new double[] {0, 0});
        ends.setMarker(SeriesMarkers.NONE);
        ends.setLineColor(new Color(0, 0, 0, 0));
        ends.setShowInLegend(false);
        for (TimePlot.Line l : plot.lines()) {
            if (l.x().length == 0) {
                continue;
            }
            Color c = PALETTE[l.colour() % PALETTE.length];
            XYSeries s;
            switch (l.style()) {
                case BAND -> {
                    int n = l.x().length;
                    double[] px = new double[2 * n];
                    double[] py = new double[2 * n];
                    for (int i = 0; i < n; i++) {
                        px[i] = l.x()[i];
                        py[i] = l.y()[i];
                        px[2 * n - 1 - i] = l.x()[i];
                        py[2 * n - 1 - i] = l.low()[i];
                    }
                    s = chart.addSeries(l.name(), px, py);
                    s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.PolygonArea);
                    Color band = new Color(c.getRed(), c.getGreen(), c.getBlue(), 0x40);
                    s.setFillColor(band);
                    s.setLineColor(band);
                }
                case STEP -> {
                    double[][] xy = steps(l.x(), l.y());
                    s = chart.addSeries(l.name(), xy[0], xy[1]);
                    s.setLineColor(c);
                }
                case DASHED -> {
                    s = chart.addSeries(l.name(), l.x(), l.y());
                    s.setLineColor(c);
                    s.setLineStyle(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f,
                        new float[] {6f, 4f}, 0f));
                }
                default -> {
                    s = chart.addSeries(l.name(), l.x(), l.y());
                    s.setLineColor(c);
                    s.setLineStyle(new BasicStroke(1.5f));
                }
            }
            s.setMarker(SeriesMarkers.NONE);
        }
        return chart;
    }

    /**
     * Draws {@code series} as they are over time (the last sample ends the time axis) and writes the
     * plot to {@code png}.
     *
     * @param step draw each series as a step function (pause state, stages) instead of a line
     */
    public static void timeChart(Path png, String title, String yAxis, List<TimeSeries> series, boolean step) {
        double end = series.stream().filter(s -> s.size() > 0).mapToDouble(s -> s.timeUs(s.size() - 1)).max()
            .orElse(1);
        render(TimePlot.of(title, yAxis, end, series, step ? TimePlot.Style.STEP : TimePlot.Style.SOLID, 0), png);
    }

    /**
     * Draws one bar per category (a variant) and writes it to {@code png}; the value axis from zero
     * with round ticks.
     *
     * @param values one per category
     */
    public static void barChart(Path png, String title, String yAxis, List<String> categories, List<Double> values) {
        barChart(png, title, "variant", yAxis, categories, values);
    }

    /** Like {@link #barChart(Path, String, String, List, List)}, the categories' axis titled {@code xAxis}. */
    public static void barChart(Path png, String title, String xAxis, String yAxis, List<String> categories,
                                List<Double> values) {
        System.setProperty("java.awt.headless", "true");
        Axis y = barAxis(yAxis, values);
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
            .xAxisTitle(xAxis).yAxisTitle(y.title()).build();
        chart.getStyler().setLegendVisible(false);
        chart.getStyler().setPlotMargin(4);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisMax(y.max());
        chart.getStyler().setYAxisTickMarkSpacingHint(hint(PLOT_HEIGHT, y));
        chart.setCustomYAxisTickLabelsFormatter(y::label);
        chart.getStyler().setSeriesColors(new Color[] {PALETTE[0]});
        chart.addSeries(yAxis, categories, values);
        save(chart, png);
    }

    /** The value axis of a bar chart of {@code values}. */
    public static Axis barAxis(String title, List<Double> values) {
        double max = values.stream().filter(Double::isFinite).mapToDouble(Double::doubleValue).max().orElse(0);
        return Axis.upTo(title, max, 0);
    }

    /** XChart's tick spacing hint (pixels between ticks) that makes it choose the axis' own step. */
    private static int hint(int pixels, Axis a) {
        return (int) Math.round(pixels * a.step() / (a.max() - a.min())) + HINT_OFFSET;
    }

    private static void save(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, Path png) {
        try {
            BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + png, e);
        }
    }

    /** The corners of a step function through the samples. */
    private static double[][] steps(double[] x, double[] y) {
        int n = x.length;
        double[] sx = new double[Math.max(0, 2 * n - 1)];
        double[] sy = new double[sx.length];
        for (int i = 0; i < n; i++) {
            sx[2 * i] = x[i];
            sy[2 * i] = y[i];
            if (i + 1 < n) {
                sx[2 * i + 1] = x[i + 1];
                sy[2 * i + 1] = y[i];
            }
        }
        return new double[][] {sx, sy};
    }
}
