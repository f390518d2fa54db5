package io.rocelab.lab.report;

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

/** Line plots of time series, and bars of one value per category, as PNG files (XChart), headless. */
public final class Plots {
    private static final int WIDTH = 960;
    private static final int HEIGHT = 420;

    private Plots() {
    }

    /**
     * Draws {@code series} over time in one chart and writes it to {@code png}.
     *
     * @param step draw each series as a step function (pause state, stages) instead of a line
     */
    public static void timeChart(Path png, String title, String yAxis, List<TimeSeries> series, boolean step) {
        System.setProperty("java.awt.headless", "true");
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
            .xAxisTitle("time (us)").yAxisTitle(yAxis).build();
        chart.getStyler().setMarkerSize(0);
        chart.getStyler().setXAxisDecimalPattern("#");
        chart.getStyler().setXAxisTickMarkSpacingHint(120);
        chart.getStyler().setPlotMargin(4);
        chart.getStyler().setChartTitleVisible(true);
        chart.getStyler().setLegendVisible(series.size() > 1);
        for (TimeSeries s : series) {
            if (s.size() == 0) {
                continue;
            }
            double[] x = s.timesUs();
            double[] y = s.values();
            if (step) {
                double[][] xy = steps(x, y);
                x = xy[0];
                y = xy[1];
            }
            XYSeries line = chart.addSeries(s.name(), x, y);
            line.setMarker(SeriesMarkers.NONE);
        }
        try {
            BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + png, e);
        }
    }

    /**
     * Draws one bar per category (a variant) and writes it to {@code png}.
     *
     * @param values one per category
     */
    public static void barChart(Path png, String title, String yAxis, List<String> categories, List<Double> values) {
        System.setProperty("java.awt.headless", "true");
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
            .xAxisTitle("variant").yAxisTitle(yAxis).build();
        chart.getStyler().setLegendVisible(false);
        chart.getStyler().setPlotMargin(4);
        chart.addSeries(yAxis, categories, values);
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
