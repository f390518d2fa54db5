package io.rocelab.lab.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Objects;

/**
 * The flows' rates as a person reads them: what each flow puts on the wire, averaged over a
 * sliding window long enough to be smooth, with its congestion control's rate (DCQCN's Rc) dashed
 * beside it; with many flows, per lab flow (its sources' flows, {@code incast-h1} ...) a band from
 * the slowest to the fastest, their median, and the two flows at the band's edges by name.
 *
 * <p>Why a window: a flow's completions come in whole work requests (a 64 KiB message at 100 Gb/s
 * is 5.2 us), and even its frames on the wire come one MTU at a time and in bursts (PFC pauses, a
 * transmitter shared with other QPs), so per probe interval a flow at a fair share of 6 Gb/s reads
 * 0 or 52 Gb/s. The window ({@link #windowSamples}) holds at least {@link #WIRE_WINDOW_BYTES} at the
 * flows' mean rate while they send and is made longer (1, 2, 5 x 10^k probe intervals, at most a tenth of the time they send)
 * until the typical flow reads steadily over the second half of the time the flows send, from the
 * first probe interval in which one sends to the last (if none does, the flows really move and the
 * shortest window shows how): flows that finish early in a run get as smooth a line as flows that send
 * to its end. A trailing mean, so a change shows up to one window late, the flows' start too: the
 * time before the run counts as the nothing sent in it, and the line rises over the first window
 * rather than drawing the first sample alone as the window's mean ({@link #smooth}); the title says
 * how long the window is. Without a wire counter (real
 * programs, the live UDP endpoint) the completed bytes stand in, over at least
 * {@link #COMPLETION_WINDOW_BYTES}.
 */
public final class FlowRatePlot {
    /** Bytes a flow at the mean rate sends in the smoothing window, wire counter. */
    public static final long WIRE_WINDOW_BYTES = 128 * 1024;
    /** Bytes a flow at the mean rate completes in the smoothing window: several messages. */
    public static final long COMPLETION_WINDOW_BYTES = 1024 * 1024;
    /**
     * The typical flow's typical move from one sample to the next, of its mean, that reads as steady:
     * below the 20 % a reader takes for a change.
     */
    public static final double STEADY = 0.15;
    /**
     * Above this many flows: each lab flow of three or more a band, its median and its edge flows
     * instead of a line each.
     */
    public static final int MAX_LINES = 6;
    /**
     * The part of a run its flows may wait before they send and still be drawn from zero; a longer
     * wait is cut off the time axis ({@link #startUs}).
     */
    public static final double LATE_START = 0.25;
    /**
     * Below this part of the drawn run, the time the flows send in gets a second panel zoomed on it
     * ({@link #zoomed}): 60 ms of transfers in an 8 s run are a line at zero on the run's axis.
     */
    public static final double ZOOM = 0.05;
    /**
     * The probe intervals the flows must send over for a zoomed panel: a zoom shows no more than the
     * probes sampled, and a few samples (reconnect's 10 ms probes over its 60 ms of traffic) read no
     * better zoomed; there a shorter {@code probes: interval} is what helps.
     */
    public static final int ZOOM_SAMPLES = 20;

    private FlowRatePlot() {
    }

    /**
     * One flow's samples, bit/s per probe interval.
     *
     * @param completed completed bytes' rate (always there)
     * @param wire      the rate its QPs put on the wire, or null if unknown
     * @param cc        its congestion control's rate, or null if none runs
     */
    public record Flow(String name, double[] completed, double[] wire, double[] cc) {
        public Flow {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(completed, "completed");
        }

        /** @return its samples from the {@code k}th on */
        Flow from(int k) {
            return k == 0 ? this : new Flow(name, tail(completed, k), tail(wire, k), tail(cc, k));
        }

        /** @return its first {@code n} samples */
        Flow until(int n) {
            return new Flow(name, head(completed, n), head(wire, n), head(cc, n));
        }

        private static double[] head(double[] v, int n) {
            return v == null || v.length <= n ? v : Arrays.copyOf(v, n);
        }

        private static double[] tail(double[] v, int k) {
            return v == null ? null : Arrays.copyOfRange(v, Math.min(k, v.length), v.length);
        }

        /** @return what the plot smooths: the wire rate if known and ever non-zero, else completions */
        double[] offered() {
            return wire != null && Arrays.stream(wire).anyMatch(v -> v > 0) ? wire : completed;
        }
    }

    /**
     * The window, in samples, of {@link #smooth}: the shortest of 1, 2, 5, 10, 20, 50 ... probe
     * intervals, at least the time the flows' mean rate while they send (the samples they sent in)
     * takes to send (or complete) the window's bytes, in which the typical flow reads steadily over the second half of the time they send
     * ({@link #sendingSpan}): the median over the flows of the 90th percentile of its sample-to-sample
     * moves is under {@link #STEADY} of its mean. At most a tenth of the samples they send over; if no window up to that reads steady, the shortest.
     * Found for each lab flow's flows ({@link #groups}) apart, the longest of them: a quiet tenant's
     * slow flows read as steadily as the noisy ones.
     */
    public static int windowSamples(double[] timesUs, List<Flow> flows) {
        int w = 1;
        for (List<Integer> g : groups(flows)) {
            w = Math.max(w, windowOf(timesUs, g.stream().map(flows::get).toList()));
        }
        return w;
    }

    private static int windowOf(double[] timesUs, List<Flow> flows) {
        int n = timesUs.length;
        if (n < 2 || flows.isEmpty()) {
            return 1;
        }
        boolean wire = flows.stream().allMatch(f -> f.offered() == f.wire());
        double sum = 0;
        for (Flow f : flows) {
            sum += activeMean(f.offered());
        }
        double meanBps = sum / flows.size();
        double intervalUs = timesUs[n - 1] / n;
        if (!(meanBps > 0) || !(intervalUs > 0)) {
            return 1;
        }
        int[] span = sendingSpan(flows);
        int most = Math.max(1, (span[1] - span[0] + 1) / 10);
        double windowUs = (wire ? WIRE_WINDOW_BYTES : COMPLETION_WINDOW_BYTES) * 8 / meanBps * 1e6;
        int least = Math.min(most, Math.max(1, (int) Math.ceil(windowUs / intervalUs - 1e-9)));
        return least == most || unsteadiness(timesUs, flows, least, span) < STEADY ? least
            : smallestSteady(timesUs, flows, least, most, span);
    }

    /**
     * The samples over which {@code flows} send: from the first probe interval in which one of them
     * puts something on the wire (or completes something) to the last, both included; the whole run
     * if none does. A link-failure lab's flows that finish in the run's first tenth are judged and
     * windowed over that tenth, as if it were the run.
     */
    static int[] sendingSpan(List<Flow> flows) {
        int first = Integer.MAX_VALUE;
        int last = -1;
        int n = 0;
        for (Flow f : flows) {
            double[] r = f.offered();
            n = Math.max(n, r.length);
            for (int i = 0; i < r.length; i++) {
                if (r[i] > 0) {
                    first = Math.min(first, i);
                    last = Math.max(last, i);
                }
            }
        }
        return last < 0 ? new int[] {0, Math.max(0, n - 1)} : new int[] {first, last};
    }

    /**
     * The first of 1, 2, 5, 10, 20, 50 ... samples above {@code least} that reads steady; if none
     * does, the flows really move (a lossy incast's bursts and timeouts): {@code least}, which shows how.
     */
    private static int smallestSteady(double[] timesUs, List<Flow> flows, int least, int most, int[] span) {
        for (long scale = 1; scale <= most; scale *= 10) {
            for (int m : new int[] {1, 2, 5}) {
                long w = m * scale;
                if (w > least && w <= most && unsteadiness(timesUs, flows, (int) w, span) < STEADY) {
                    return (int) w;
                }
            }
        }
        return least;
    }

    /**
     * The median over the flows (those sending there) of the 90th percentile of the smoothed rate's
     * sample-to-sample moves over the second half of the time the flows send ({@link #sendingSpan}),
     * relative to the flow's mean there.
     */
    static double unsteadiness(double[] timesUs, List<Flow> flows, int window) {
        return unsteadiness(timesUs, flows, window, sendingSpan(flows));
    }

    private static double unsteadiness(double[] timesUs, List<Flow> flows, int window, int[] span) {
        int n = Math.min(timesUs.length, span[1] + 1);
        int from = span[0] + (n - span[0]) / 2 + 1;
        List<Double> perFlow = new ArrayList<>();
        for (Flow f : flows) {
            double[] s = smooth(timesUs, f.offered(), window);
            if (n - from < 2 || s.length < n) {
                continue;
            }
            double mean = 0;
            for (int i = from - 1; i < n; i++) {
                mean += s[i];
            }
            mean /= n - from + 1;
            if (!(mean > 0)) {
                continue;
            }
            double[] moves = new double[n - from];
            for (int i = from; i < n; i++) {
                moves[i - from] = Math.abs(s[i] - s[i - 1]) / mean;
            }
            Arrays.sort(moves);
            perFlow.add(moves[(int) Math.floor(0.9 * (moves.length - 1))]);
        }
        if (perFlow.isEmpty()) {
            return 0;
        }
        double[] v = perFlow.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return median(v);
    }

    /**
     * The trailing mean of {@code rate} over {@code window} samples, each weighted by its interval:
     * at sample i, the bits of samples i-window+1..i over the window's time. Before the run's first
     * sample nothing was sent, and the window counts that time as the nothing it is: over the first
     * window the line rises as the window fills (the one window's lag the trailing mean has at every
     * change), where a mean over the few samples there are would draw the first sample alone, a flow
     * that starts at line rate as a spike, as if it were the window's mean.
     */
    public static double[] smooth(double[] timesUs, double[] rate, int window) {
        int n = rate.length;
        double[] out = new double[n];
        double[] bits = new double[n + 1];
        double[] time = new double[n + 1];
        for (int i = 0; i < n; i++) {
            double dt = timesUs[i] - (i == 0 ? 0 : timesUs[i - 1]);
            double v = Double.isFinite(rate[i]) ? rate[i] : 0;
            bits[i + 1] = bits[i] + v * dt;
            time[i + 1] = time[i] + dt;
        }
        for (int i = 0; i < n; i++) {
            int from = Math.max(0, i + 1 - window);
            double t = time[i + 1] - time[from];
            if (i + 1 < window) {
                // the window reaches before the run: its missing samples at the mean interval so far
                t += (window - i - 1) * (time[i + 1] / (i + 1));
            }
            out[i] = t > 0 ? (bits[i + 1] - bits[from]) / t : 0;
        }
        return out;
    }

    /**
     * The plot of {@code flows}' rates in Gb/s over a run of {@code durationUs}.
     *
     * @param timesUs the probe's sample times, us
     */
    public static TimePlot of(double[] timesUs, double durationUs, List<Flow> flows) {
        return of(timesUs, startUs(timesUs, durationUs, flows), durationUs, flows);
    }

    /**
     * Where a run's plots start, us: 0, or where its flows begin to send (the start of the first probe
     * interval in which one does) if they wait more than {@link #LATE_START} of the run first: a lab
     * that lets LACP, an MLAG or a routing protocol converge before its traffic (dual-homed-failover:
     * 4 s, then 5 ms of transfers; silent-member-failure: 4 s of 14). Drawn from zero, those
     * milliseconds would be one vertical stroke at the axis' end, and nothing is sent before them.
     */
    public static double startUs(double[] timesUs, double durationUs, List<Flow> flows) {
        for (int i = 0; i < timesUs.length; i++) {
            for (Flow f : flows) {
                if (sends(f.completed(), i) || (f.wire() != null && sends(f.wire(), i))) {
                    double begins = i == 0 ? 0 : timesUs[i - 1];
                    return begins > durationUs * LATE_START ? begins : 0;
                }
            }
        }
        return 0;
    }

    private static boolean sends(double[] rate, int i) {
        return i < rate.length && rate[i] > 0;
    }

    /**
     * The plot of {@code flows}' rates in Gb/s from {@code fromUs} (its time axis from a round time at
     * or before it) to the run's end: the window is found over that part, as if it were the run.
     *
     * @param timesUs the probe's sample times, us
     * @param fromUs  where the plot starts ({@link #startUs}), us
     */
    public static TimePlot of(double[] timesUs, double fromUs, double durationUs, List<Flow> flows) {
        return of(timesUs, fromUs, durationUs, flows, "");
    }

    /**
     * The second panel of a run whose flows send for less than {@link #ZOOM} of the drawn time (reconnect's
     * patient variant: 60 ms of traffic, then 8 s of a QP waiting; uplink-failure's hold variant) over
     * at least {@link #ZOOM_SAMPLES} probe intervals, or null: the flows' rates from the start of the first probe interval in which one sends to a quarter
     * of that time after the last, as {@link #of} draws them, the window found over that part. The
     * run's own panel stays as it is: where the flows stop for good, the quiet after is the lab's point
     * (pfc-deadlock, a black hole), and that panel shows how long it lasts.
     */
    public static TimePlot zoomed(double[] timesUs, double durationUs, List<Flow> flows) {
        int[] span = sendingSpan(flows);
        if (span[1] >= timesUs.length || flows.stream().allMatch(f -> Arrays.stream(f.offered()).noneMatch(v -> v > 0))) {
            return null;
        }
        double fromUs = startUs(timesUs, durationUs, flows);
        double begins = span[0] == 0 ? 0 : timesUs[span[0] - 1];
        double ends = timesUs[span[1]];
        double sending = ends - begins;
        if (!(sending > 0) || sending >= ZOOM * (durationUs - fromUs) || span[1] - span[0] + 1 < ZOOM_SAMPLES) {
            return null;
        }
        double toUs = Math.min(durationUs, ends + sending / 4);
        return of(timesUs, begins, toUs, flows, "Zoomed on the " + duration(sending) + " the flows send in: ");
    }

    private static TimePlot of(double[] timesUs, double fromUs, double toUs, List<Flow> flows, String prefix) {
        Axis xAxis = Axis.time(fromUs, toUs);
        Axis.TimeUnit unit = Axis.TimeUnit.of(toUs - fromUs);
        int k = TimePlot.firstAtOrAfter(timesUs, xAxis.min() * unit.us());
        int end = timesUs.length;
        while (end > k && timesUs[end - 1] > xAxis.max() * unit.us() + 1e-9) {
            end--;
        }
        int kEnd = end;
        // the drawn part as a run of its own: its samples, their times from the start of the first one's interval
        double t0 = k == 0 ? 0 : timesUs[k - 1];
        double[] part = new double[kEnd - k];
        double[] x = new double[part.length];
        for (int i = 0; i < part.length; i++) {
            part[i] = timesUs[k + i] - t0;
            x[i] = timesUs[k + i] / unit.us();
        }
        List<Flow> drawn = flows.stream().map(f -> f.from(k).until(kEnd - k)).toList();
        int window = windowSamples(part, drawn);
        double windowUs = part.length < 2 ? 0 : window * (part[part.length - 1] / part.length);
        boolean wire = flows.stream().allMatch(f -> f.offered() == f.wire());
        boolean anyCc = flows.stream().anyMatch(f -> f.cc() != null);
        List<double[]> smoothed = new ArrayList<>();
        for (Flow f : flows) {
            // over the whole run, so that the window at the part's start holds the quiet samples before it
            double[] s = smooth(timesUs, f.offered(), window);
            smoothed.add(gbps(Arrays.copyOfRange(s, k, Math.min(s.length, kEnd))));
        }
        double[] drawnUs = Arrays.copyOfRange(timesUs, k, kEnd);
        List<TimePlot.Line> lines = new ArrayList<>();
        int colour = 0;
        for (List<Integer> group : groups(drawn)) {
            if (drawn.size() <= MAX_LINES || group.size() <= 2) {
                for (int i : group) {
                    Flow f = drawn.get(i);
                    lines.add(new TimePlot.Line(f.name(), x, smoothed.get(i), null, TimePlot.Style.SOLID, colour));
                    if (f.cc() != null) {
                        lines.add(new TimePlot.Line(f.name() + " CC rate", x, gbps(f.cc()), null,
                            TimePlot.Style.DASHED, colour));
                    }
                    colour++;
                }
            } else {
                band(lines, drawnUs, x, fromUs, toUs, drawn, smoothed, group, colour);
                colour += 3;
            }
        }
        String title = prefix + String.format(Locale.ROOT, "%s rate %s%s, mean over a sliding %s%s",
            prefix.isEmpty() ? "Per-flow" : "per-flow", wire ? "on the wire" : "completed", fromUs > 0 && prefix.isEmpty() ? " from " + duration(xAxis.min() * unit.us()) + ", when the flows start" : "",
            duration(windowUs), anyCc ? "; dashed: congestion control's rate" : "");
        return new TimePlot(title, xAxis, Axis.upTo("Gb/s", TimePlot.maxOf(lines), 0), lines);
    }

    /**
     * The flows of one lab flow ({@code incast} from {@code h[1-16]}: {@code incast-h1} ...), in the
     * order they come: a name's part before its last '-', where two or more flows share it.
     */
    static List<List<Integer>> groups(List<Flow> flows) {
        Map<String, Integer> count = new HashMap<>();
        for (Flow f : flows) {
            count.merge(prefix(f.name()), 1, Integer::sum);
        }
        Map<String, List<Integer>> groups = new LinkedHashMap<>();
        for (int i = 0; i < flows.size(); i++) {
            String p = prefix(flows.get(i).name());
            groups.computeIfAbsent(count.get(p) >= 2 ? p : "\u0000" + flows.get(i).name(), k -> new ArrayList<>()).add(i);
        }
        return new ArrayList<>(groups.values());
    }

    private static String prefix(String name) {
        int dash = name.lastIndexOf('-');
        return dash > 0 ? name.substring(0, dash) : name;
    }

    /** A group's band (min to max), median, median CC rate, and its fastest and slowest flows by name. */
    private static void band(List<TimePlot.Line> lines, double[] timesUs, double[] x, double fromUs, double durationUs,
                             List<Flow> all, List<double[]> smoothed, List<Integer> group, int colour) {
        int n = x.length;
        String name = prefix(all.get(group.get(0)).name());
        double[] lo = new double[n];
        double[] med = new double[n];
        double[] hi = new double[n];
        double[] col = new double[group.size()];
        for (int t = 0; t < n; t++) {
            for (int k = 0; k < col.length; k++) {
                col[k] = smoothed.get(group.get(k))[t];
            }
            Arrays.sort(col);
            lo[t] = col[0];
            hi[t] = col[col.length - 1];
            med[t] = median(col);
        }
        List<Flow> flows = group.stream().map(all::get).toList();
        lines.add(new TimePlot.Line(name + ": " + group.size() + " flows, min to max", x, hi, lo,
            TimePlot.Style.BAND, colour));
        lines.add(new TimePlot.Line(name + ": median", x, med, null, TimePlot.Style.SOLID, colour));
        if (flows.stream().anyMatch(f -> f.cc() != null)) {
            lines.add(new TimePlot.Line(name + ": median CC rate", x, gbps(medianOf(flows, n)), null,
                TimePlot.Style.DASHED, colour));
        }
        // the flows at the band's edges over the second half: what a band alone would hide
        double half = (fromUs + durationUs) / 2;
        List<Integer> order = new ArrayList<>(group);
        order.sort(Comparator.comparingDouble(i -> mean(timesUs, all.get(i).offered(), half)));
        int low = order.get(0);
        int high = order.get(order.size() - 1);
        lines.add(new TimePlot.Line(all.get(high).name() + " (fastest)", x, smoothed.get(high), null,
            TimePlot.Style.SOLID, colour + 1));
        lines.add(new TimePlot.Line(all.get(low).name() + " (slowest)", x, smoothed.get(low), null,
            TimePlot.Style.SOLID, colour + 2));
    }

    private static double[] medianOf(List<Flow> flows, int n) {
        double[] out = new double[n];
        List<double[]> cc = flows.stream().map(Flow::cc).filter(Objects::nonNull).toList();
        double[] col = new double[cc.size()];
        for (int t = 0; t < n; t++) {
            int k = 0;
            for (double[] c : cc) {
                if (Double.isFinite(c[t])) {
                    col[k++] = c[t];
                }
            }
            double[] v = Arrays.copyOf(col, k);
            Arrays.sort(v);
            out[t] = k == 0 ? Double.NaN : median(v);
        }
        return out;
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** The mean of the samples at which the flow sent: its rate while it sends, not while it waits. */
    private static double activeMean(double[] rate) {
        double sum = 0;
        int n = 0;
        for (double v : rate) {
            if (v > 0) {
                sum += v;
                n++;
            }
        }
        return n == 0 ? 0 : sum / n;
    }

    /** Mean rate from {@code fromUs} on, weighted by interval. */
    private static double mean(double[] timesUs, double[] rate, double fromUs) {
        double bits = 0;
        double time = 0;
        for (int i = 0; i < rate.length; i++) {
            double dt = timesUs[i] - (i == 0 ? 0 : timesUs[i - 1]);
            if (timesUs[i] > fromUs && Double.isFinite(rate[i])) {
                bits += rate[i] * dt;
                time += dt;
            }
        }
        return time > 0 ? bits / time : 0;
    }

    private static double[] gbps(double[] bps) {
        double[] out = new double[bps.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = bps[i] / 1e9;
        }
        return out;
    }

    private static String duration(double us) {
        return io.rocelab.lab.labfile.Quantity.formatNanos(Math.round(us * 1e3));
    }
}
