package io.rocelab.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The flow-rate plot reads: a flow sending steadily draws a line that moves by less than 20 % from
 * one sample to the next, where the per-interval samples it is made from jump between 0 and the line
 * rate; many flows become a band with the median and the edge flows named.
 */
class FlowRatePlotTest {
    private static final double INTERVAL_US = 10;
    private static final int SAMPLES = 1_000; // a 10 ms run
    private static final int FRAME = 4_160;

    private static double[] times() {
        double[] t = new double[SAMPLES];
        for (int i = 0; i < SAMPLES; i++) {
            t[i] = (i + 1) * INTERVAL_US;
        }
        return t;
    }

    /** Whole frames per interval at {@code bps} (one fractional frame carried over), as bit/s. */
    private static double[] wire(double bps, double phase) {
        double[] r = new double[SAMPLES];
        double owed = phase * FRAME;
        for (int i = 0; i < SAMPLES; i++) {
            owed += bps * INTERVAL_US * 1e-6 / 8;
            long frames = (long) Math.floor(owed / FRAME);
            owed -= frames * FRAME;
            r[i] = frames * FRAME * 8 / (INTERVAL_US * 1e-6);
        }
        return r;
    }

    /** Whole 64 KiB messages completed per interval at {@code bps}: the barcode, 0 or 52.4 Gb/s. */
    private static double[] completions(double bps, double phase) {
        double[] r = new double[SAMPLES];
        double owed = phase * 65_536;
        for (int i = 0; i < SAMPLES; i++) {
            owed += bps * INTERVAL_US * 1e-6 / 8;
            long messages = (long) Math.floor(owed / 65_536);
            owed -= messages * 65_536;
            r[i] = messages * 65_536 * 8 / (INTERVAL_US * 1e-6);
        }
        return r;
    }

    private static double[] constant(double v) {
        double[] r = new double[SAMPLES];
        java.util.Arrays.fill(r, v);
        return r;
    }

    /** The largest relative move from one sample to the next over the second half. */
    private static double largestMove(double[] y) {
        return largestMove(y, SAMPLES / 2, y.length);
    }

    /** The largest relative move from one sample to the next over samples {@code from} to {@code to}. */
    private static double largestMove(double[] y, int from, int to) {
        double worst = 0;
        for (int i = from + 1; i < to; i++) {
            worst = Math.max(worst, Math.abs(y[i] - y[i - 1]) / y[i - 1]);
        }
        return worst;
    }

    @Test
    void aSteadyFlowsWireRateMovesLessThanTwentyPercentSampleToSample() {
        double[] raw = wire(6.25e9, 0);
        assertTrue(largestMove(raw) > 0.2, "the samples themselves jump: " + largestMove(raw));
        TimePlot p = FlowRatePlot.of(times(), SAMPLES * INTERVAL_US,
            List.of(new FlowRatePlot.Flow("f", completions(6.25e9, 0), raw, constant(6.25e9))));
        TimePlot.Line f = p.line("f");
        assertEquals(TimePlot.Style.SOLID, f.style());
        assertTrue(largestMove(f.y()) < 0.2, "moves by " + largestMove(f.y()));
        assertEquals(6.25, f.y()[SAMPLES - 1], 6.25 * 0.05, "at the flow's rate, Gb/s");
        TimePlot.Line cc = p.line("f CC rate");
        assertEquals(TimePlot.Style.DASHED, cc.style());
        assertEquals(f.colour(), cc.colour(), "a flow's CC rate in its colour");
        assertEquals(6.25, cc.y()[10], 1e-9);
        assertTrue(p.title().contains("on the wire"), p.title());
        assertRoundAxes(p);
    }

    @Test
    void withoutAWireCounterTheCompletionsAreSmoothedOverSeveralMessages() {
        double[] raw = completions(6.25e9, 0);
        TimePlot p = FlowRatePlot.of(times(), SAMPLES * INTERVAL_US,
            List.of(new FlowRatePlot.Flow("f", raw, null, null)));
        TimePlot.Line f = p.line("f");
        assertTrue(largestMove(f.y()) < 0.2, "moves by " + largestMove(f.y()));
        assertTrue(p.title().contains("completed"), p.title());
        assertEquals(List.of("f"), p.names(), "no CC line where none runs");
        assertRoundAxes(p);
    }

    @Test
    void sixteenFlowsAreABandTheMedianAndTheEdgeFlows() {
        List<FlowRatePlot.Flow> flows = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            double bps = i == 3 ? 9e9 : i == 7 ? 4e9 : 6.25e9;
            flows.add(new FlowRatePlot.Flow("incast-h" + (i + 1), completions(bps, i / 16.0), wire(bps, i / 16.0),
                constant(bps)));
        }
        TimePlot p = FlowRatePlot.of(times(), SAMPLES * INTERVAL_US, flows);
        assertEquals(List.of("incast: 16 flows, min to max", "incast: median", "incast: median CC rate",
            "incast-h4 (fastest)", "incast-h8 (slowest)"), p.names());
        TimePlot.Line band = p.line("incast: 16 flows, min to max");
        assertEquals(TimePlot.Style.BAND, band.style());
        int last = SAMPLES - 1;
        assertEquals(9, band.y()[last], 9 * 0.05);
        assertEquals(4, band.low()[last], 4 * 0.05);
        TimePlot.Line median = p.line("incast: median");
        assertEquals(6.25, median.y()[last], 6.25 * 0.05);
        assertTrue(largestMove(median.y()) < 0.2, "the median moves by " + largestMove(median.y()));
        assertTrue(largestMove(p.line("incast-h8 (slowest)").y()) < 0.2);
        assertEquals(TimePlot.Style.DASHED, p.line("incast: median CC rate").style());
        assertEquals(band.colour(), median.colour(), "the median in its band's colour");
        assertRoundAxes(p);
    }

    /** Two tenants: the eight noisy flows a band, the two quiet ones a line each, so neither hides the other. */
    @Test
    void eachLabFlowOfManyIsItsOwnBandAndSmallOnesStayLines() {
        List<FlowRatePlot.Flow> flows = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            flows.add(new FlowRatePlot.Flow("noisy-h" + i, completions(11e9, i / 8.0), wire(11e9, i / 8.0), null));
        }
        flows.add(new FlowRatePlot.Flow("quiet-h17", completions(1e9, 0), wire(1e9, 0), null));
        flows.add(new FlowRatePlot.Flow("quiet-h18", completions(1e9, 0.5), wire(1e9, 0.5), null));
        TimePlot p = FlowRatePlot.of(times(), SAMPLES * INTERVAL_US, flows);
        assertEquals(List.of("noisy: 8 flows, min to max", "noisy: median"), p.names().subList(0, 2));
        assertEquals(List.of("quiet-h17", "quiet-h18"), p.names().subList(4, 6));
        assertEquals(1, p.line("quiet-h17").y()[SAMPLES - 1], 0.1 * 1);
        assertTrue(largestMove(p.line("quiet-h17").y()) < 0.2, "moves by " + largestMove(p.line("quiet-h17").y()));
        assertEquals(List.of(List.of(0), List.of(1)),
            FlowRatePlot.groups(List.of(new FlowRatePlot.Flow("h1-h0", new double[0], null, null),
                new FlowRatePlot.Flow("h2-h0", new double[0], null, null))), "flows of their own stay apart");
    }

    @Test
    void sixFlowsAreALineEach() {
        List<FlowRatePlot.Flow> flows = new ArrayList<>();
        for (int i = 0; i < FlowRatePlot.MAX_LINES; i++) {
            flows.add(new FlowRatePlot.Flow("f" + i, completions(10e9, 0), wire(10e9, 0), null));
        }
        TimePlot p = FlowRatePlot.of(times(), SAMPLES * INTERVAL_US, flows);
        assertEquals(List.of("f0", "f1", "f2", "f3", "f4", "f5"), p.names());
        for (TimePlot.Line l : p.lines()) {
            assertNull(l.low());
            assertTrue(largestMove(l.y()) < 0.2, l.name() + " moves by " + largestMove(l.y()));
        }
    }

    /**
     * A flow that sends for 1 ms of a 10 ms run and then waits (a failed link, a deadlock): the window
     * is sized by its rate while it sends, so the plot shows it at that rate, not smeared over the run.
     */
    @Test
    void aFlowThatStopsIsDrawnAtTheRateItSentAt() {
        double[] w = wire(50e9, 0);
        double[] c = completions(50e9, 0);
        for (int i = 100; i < SAMPLES; i++) {
            w[i] = 0;
            c[i] = 0;
        }
        TimePlot p = FlowRatePlot.of(times(), SAMPLES * INTERVAL_US, List.of(new FlowRatePlot.Flow("f", c, w, null)));
        double[] y = p.line("f").y();
        assertEquals(50, y[90], 50 * 0.05, "at its rate while it sends");
        assertEquals(0, y[150], "and stopped half a millisecond later");
        // 128 KiB at 50 Gb/s is 21 us: three probe intervals, not a tenth of the run
        assertTrue(p.title().contains("sliding 30us"), p.title());
    }

    /**
     * What dual-homed-failover drew: 4 s of LACP and an MLAG converging, then 5 ms of transfers, one
     * vertical stroke at the end of a 0-5 s axis. Drawn from where the flows start, they fill much of
     * the axis; and the window is found over that part, not over 4 s of nothing.
     */
    @Test
    void flowsThatStartLateAreDrawnFromWhereTheyStartNotAsAStroke() {
        int n = 40_100; // 100 us samples of a 4010 ms run
        double[] t = new double[n];
        double[] a = new double[n];
        double[] b = new double[n];
        for (int i = 0; i < n; i++) {
            t[i] = (i + 1) * 100.0;
            boolean sending = t[i] > 4_000_100 && t[i] <= 4_004_300;
            a[i] = sending && t[i] <= 4_002_000 ? 99e9 + (i % 2) * 0.6e9 : 0;
            b[i] = sending ? 49e9 + (i % 3) * 1e9 : 0;
        }
        List<FlowRatePlot.Flow> flows = List.of(new FlowRatePlot.Flow("write", a, a, null),
            new FlowRatePlot.Flow("read", b, b, null));
        assertEquals(4_000_100, FlowRatePlot.startUs(t, 4_010_000, flows), 1e-6);
        TimePlot p = FlowRatePlot.of(t, 4_010_000, flows);
        assertEquals(4_000, p.x().min(), "from the round time before the flows start, ms: " + p.x());
        assertTrue(p.title().contains("on the wire from 4s, when the flows start"), p.title());
        assertTrue(busyShare(p) > 0.3, "the flows' sending takes " + busyShare(p) + " of the time axis");
        double stroke = busyShare(FlowRatePlot.of(t, 0, 4_010_000, flows));
        assertTrue(stroke < 0.01, "drawn from zero, what the lab showed: a stroke, " + stroke + " of the axis");
        assertTrue(p.line("write").x().length < 200, "only the drawn part's samples");
        double[] y = p.line("write").y();
        double[] x = p.line("write").x();
        for (int i = 0; i < x.length; i++) {
            if (x[i] > 4_000.5 && x[i] < 4_001.9) {
                assertEquals(99.3, y[i], 1, "steady at its rate at " + x[i] + " ms");
            }
        }
        assertTrue(p.title().contains("sliding 100us"), "one sample is steady: " + p.title());
        // the same traffic early in the run: drawn from zero, as before
        double[] early = new double[n];
        System.arraycopy(a, 39_000, early, 1_000, 1_100);
        List<FlowRatePlot.Flow> one = List.of(new FlowRatePlot.Flow("write", early, early, null));
        assertEquals(0, FlowRatePlot.startUs(t, 4_010_000, one));
        assertEquals(0, FlowRatePlot.of(t, 4_010_000, one).x().min());
    }

    /**
     * What link-failure and uplink-failure drew: flows that send for the first half of the run and
     * then are done, in bursts (25 Gb/s one probe interval in four, PFC pausing them between). The
     * window is judged over the second half of the time they send, not over the run's quiet second
     * half (where any window reads "steady" and the shortest was taken): they get the window the same
     * flows get when they send to the run's end, and read as steadily.
     */
    @Test
    void flowsThatFinishEarlyGetAsSmoothALineAsFlowsThatSendToTheEnd() {
        int sending = SAMPLES / 2;
        double[] whole = bursts();
        double[] early = whole.clone();
        java.util.Arrays.fill(early, sending, SAMPLES, 0);
        List<FlowRatePlot.Flow> full = List.of(new FlowRatePlot.Flow("f", whole, whole, null));
        List<FlowRatePlot.Flow> done = List.of(new FlowRatePlot.Flow("f", early, early, null));
        int window = FlowRatePlot.windowSamples(times(), full);
        assertEquals(window, FlowRatePlot.windowSamples(times(), done), "the window of the flow that sends throughout");
        double[] y = FlowRatePlot.of(times(), SAMPLES * INTERVAL_US, done).line("f").y();
        double move = largestMove(y, sending / 2, sending);
        assertTrue(move < 0.2, "over the second half of its sending it moves by " + move);
        assertEquals(6.25, y[sending - 1], 6.25 * 0.1, "at its rate, Gb/s");
        assertEquals(List.of(0, sending - 4), java.util.Arrays.stream(FlowRatePlot.sendingSpan(done)).boxed().toList());
    }

    /** 25 Gb/s one probe interval in four, the first: 6.25 Gb/s on average. */
    private static double[] bursts() {
        double[] r = new double[SAMPLES];
        for (int i = 0; i < SAMPLES; i += 4) {
            r[i] = 25e9;
        }
        return r;
    }

    /**
     * What the DCQCN incast labs drew at t=0: a flow bursting at 25 Gb/s one probe interval in four
     * (6.25 Gb/s on average, PFC pausing it between), its first burst in the first interval. The window's
     * mean over the one sample there is drew a spike to 25 Gb/s; over the window's time (nothing sent
     * before the run) the line rises to the flow's rate and never reads above it.
     */
    @Test
    void atTheStartTheWindowIsNotItsFirstSampleAlone() {
        double[] r = bursts();
        TimePlot p = FlowRatePlot.of(times(), SAMPLES * INTERVAL_US, List.of(new FlowRatePlot.Flow("f", r, r, null)));
        double[] y = p.line("f").y();
        int window = FlowRatePlot.windowSamples(times(), List.of(new FlowRatePlot.Flow("f", r, r, null)));
        assertTrue(window > 1, "a window of " + window);
        for (int i = 0; i < y.length; i++) {
            assertTrue(y[i] < 6.25 * 1.2, "at sample " + i + " the line reads " + y[i] + " Gb/s");
        }
        assertEquals(25.0 / window, y[0], 1e-9, "the first burst over the window's time");
        assertTrue(largestMove(y) < 0.2, "moves by " + largestMove(y));
    }

    /**
     * What reconnect's patient variant drew: 60 ms of transfers in an 8 s run (a QP then waits for
     * its peer), a line at zero on the run's axis. The run's panel stays as it is (its quiet is the
     * lab's point); a second one is zoomed on the time the flows send, where they fill the axis.
     */
    @Test
    void flowsThatSendForAFewPercentOfTheRunGetAZoomedPanel() {
        int n = 80_000; // 100 us samples of an 8 s run
        double[] t = new double[n];
        double[] a = new double[n];
        for (int i = 0; i < n; i++) {
            t[i] = (i + 1) * 100.0;
            a[i] = t[i] <= 60_000 ? 99e9 + (i % 2) * 0.6e9 : 0;
        }
        List<FlowRatePlot.Flow> flows = List.of(new FlowRatePlot.Flow("write", a, a, null));
        TimePlot run = FlowRatePlot.of(t, 8_000_000, flows);
        assertEquals(8, run.x().max(), "the run's panel keeps its quiet tail, s: " + run.x());
        assertTrue(busyShare(run) < 0.01, "on the run's axis a stroke: " + busyShare(run));
        TimePlot zoom = FlowRatePlot.zoomed(t, 8_000_000, flows);
        assertTrue(zoom != null, "a zoomed panel");
        assertTrue(busyShare(zoom) > 0.6, "the flows' sending takes " + busyShare(zoom) + " of its time axis");
        assertTrue(zoom.title().startsWith("Zoomed on the 60ms the flows send in"), zoom.title());
        assertEquals(99.3, zoom.line("write").y()[300], 1, "at its rate, Gb/s");
        assertEquals(0, zoom.line("write").y()[zoom.line("write").y().length - 1], "and stopped at its end");
        assertRoundAxes(zoom);
    }

    /**
     * pfc-deadlock's and a black hole's flows stop for good a fifth of the way in: the quiet after is
     * the point, drawn on the run's axis, and no zoom takes its place or is added.
     */
    @Test
    void flowsThatSendForMoreOfTheRunGetNoZoom() {
        double[] w = wire(50e9, 0);
        java.util.Arrays.fill(w, SAMPLES / 5, SAMPLES, 0);
        assertNull(FlowRatePlot.zoomed(times(), SAMPLES * INTERVAL_US, List.of(new FlowRatePlot.Flow("f", w, w, null))));
        assertNull(FlowRatePlot.zoomed(times(), SAMPLES * INTERVAL_US,
            List.of(new FlowRatePlot.Flow("f", new double[SAMPLES], null, null))), "nor where nothing is sent");
        double[] few = new double[SAMPLES];
        java.util.Arrays.fill(few, 0, FlowRatePlot.ZOOM_SAMPLES - 1, 50e9);
        assertNull(FlowRatePlot.zoomed(times(), SAMPLES * INTERVAL_US, List.of(new FlowRatePlot.Flow("f", few, few, null))),
            "nor where the probes sampled too few intervals of it to draw more");
        few[FlowRatePlot.ZOOM_SAMPLES - 1] = 50e9;
        assertTrue(FlowRatePlot.zoomed(times(), SAMPLES * INTERVAL_US, List.of(new FlowRatePlot.Flow("f", few, few, null))) != null,
            "a zoom from " + FlowRatePlot.ZOOM_SAMPLES + " on");
    }

    /**
     * The share of the time axis over which some line is above a tenth of the plot's highest value:
     * a transfer drawn as a stroke has next to none.
     */
    static double busyShare(TimePlot p) {
        double peak = TimePlot.maxOf(p.lines());
        double first = Double.NaN;
        double last = Double.NaN;
        for (TimePlot.Line l : p.lines()) {
            for (int i = 0; i < l.x().length; i++) {
                if (l.y()[i] > peak / 10) {
                    first = Double.isNaN(first) ? l.x()[i] : Math.min(first, l.x()[i]);
                    last = Double.isNaN(last) ? l.x()[i] : Math.max(last, l.x()[i]);
                }
            }
        }
        return Double.isNaN(first) ? 0 : (last - first) / (p.x().max() - p.x().min());
    }

    /** The trailing window: the bits of the last samples over their time, fewer at the start. */
    @Test
    void smoothingIsTheTrailingMeanOverTheWindow() {
        double[] t = {10, 20, 30, 40};
        double[] r = {0, 40, 0, 40};
        double[] s = FlowRatePlot.smooth(t, r, 2);
        assertEquals(0, s[0]);
        assertEquals(20, s[1]);
        assertEquals(20, s[2]);
        assertEquals(20, s[3]);
        assertEquals(1, FlowRatePlot.windowSamples(t, List.of()));
    }

    static void assertRoundAxes(TimePlot p) {
        assertTrue(Axis.isOneTwoFive(p.x().step()), "x step " + p.x().step());
        assertTrue(Axis.isOneTwoFive(p.y().step()), "y step " + p.y().step());
        assertEquals(0, p.x().ticks()[0]);
        assertEquals(0, p.y().ticks()[0]);
        for (TimePlot.Line l : p.lines()) {
            assertTrue(!(l.max() > p.y().max()), l.name() + " fits: " + l.max() + " > " + p.y().max());
            assertTrue(l.x()[l.x().length - 1] <= p.x().max() + 1e-9, l.name() + " ends inside the time axis");
        }
    }
}
