package io.rocelab.lab.run;

import io.rocelab.lab.expect.Kind;
import io.rocelab.lab.expect.Series;
import java.util.ArrayList;
import java.util.List;

/**
 * A variant's run in one row, to set variants (a sweep's values) side by side: when its flows reached
 * fair shares and stayed there, how deep a queue stood, and how much the flows carried.
 *
 * @param variant            the variant's name
 * @param convergedSeconds   the start of the first {@link #WINDOW_SECONDS} window from which every window to the
 *                           end has Jain's index of the flows' mean rates at least {@link #FAIR}; NaN if the last
 *                           window is not fair, or fewer than two flows' rates were sampled
 * @param standingQueueBytes the deepest probed queue's mean depth over the second half; NaN if none was sampled
 * @param rateBitsPerSecond  the flows' summed mean rate over the second half; NaN if no rate was sampled
 * @param gapSeconds         the longest traffic gap of any flow (its time without a successful completion
 *                           while it ran: what a failure cost); NaN without flows
 * @param errors             the flows' error completions together
 */
record VariantSummary(String variant, double convergedSeconds, double standingQueueBytes, double rateBitsPerSecond,
                      double gapSeconds, double errors) {
    /** Jain's index that counts as fair shares. */
    static final double FAIR = 0.95;
    /** The windows the rates are averaged over (a flow's rate moves in whole messages per sample). */
    static final double WINDOW_SECONDS = 200e-6;

    static VariantSummary of(RunData d) {
        double duration = d.durationNanos() / 1e9;
        List<Series> rates = sampled(d, Kind.FLOW, "rate");
        List<Series> depths = sampled(d, Kind.QUEUE, "depth");
        double queue = Double.NaN;
        for (Series s : depths) {
            double m = mean(s.window(duration / 2, duration));
            queue = Double.isNaN(queue) ? m : Math.max(queue, m);
        }
        double rate = rates.isEmpty() ? Double.NaN : 0;
        for (Series s : rates) {
            rate += mean(s.window(duration / 2, duration));
        }
        double gap = Double.NaN;
        double errors = 0;
        for (String f : d.names(Kind.FLOW)) {
            double g = d.total(Kind.FLOW, f, "gap");
            if (!Double.isNaN(g)) {
                gap = Double.isNaN(gap) ? g : Math.max(gap, g);
            }
            double e = d.total(Kind.FLOW, f, "errors");
            errors += Double.isNaN(e) ? 0 : e;
        }
        return new VariantSummary(d.variant(), converged(rates, duration), queue, rate, gap, errors);
    }

    /** @return when the rates became fair for good, seconds, or NaN */
    static double converged(List<Series> rates, double duration) {
        if (rates.size() < 2) {
            return Double.NaN;
        }
        int windows = (int) Math.ceil(duration / WINDOW_SECONDS - 1e-9);
        double since = Double.NaN;
        for (int k = windows - 1; k >= 0; k--) {
            double[] means = new double[rates.size()];
            for (int f = 0; f < means.length; f++) {
                means[f] = mean(rates.get(f).window(k * WINDOW_SECONDS, Math.min(duration, (k + 1) * WINDOW_SECONDS)));
            }
            if (!(jain(means) >= FAIR)) {
                break;
            }
            since = k * WINDOW_SECONDS;
        }
        return since;
    }

    /** @return Jain's index of {@code x}: 1 for equal shares, 1/n when one takes all; NaN when all are 0 */
    static double jain(double[] x) {
        double sum = 0;
        double squares = 0;
        for (double v : x) {
            sum += v;
            squares += v * v;
        }
        return squares == 0 ? Double.NaN : sum * sum / (x.length * squares);
    }

    private static List<Series> sampled(RunData d, Kind kind, String attribute) {
        List<Series> out = new ArrayList<>();
        for (String n : d.names(kind)) {
            Series s = d.series(kind, n, attribute);
            if (s != null) {
                out.add(s);
            }
        }
        return out;
    }

    private static double mean(double[] v) {
        if (v.length == 0) {
            return Double.NaN;
        }
        double sum = 0;
        for (double x : v) {
            sum += x;
        }
        return sum / v.length;
    }
}
