package io.rocelab.lab.demo;

import io.rocelab.codec.capture.CaptureWriter;
import io.rocelab.lab.experiment.IncastExperiment;
import io.rocelab.lab.experiment.IncastResult;
import io.rocelab.lab.experiment.IncastSpec;
import io.rocelab.nic.stats.NicCounter;
import io.rocelab.sw.SonicViews;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

/**
 * The demo's congestion act: host-a and host-c write to host-b at once across one leaf at 100 Gb/s
 * (2:1), DCQCN on the NICs, in virtual time (a real-time run on a laptop cannot push 200 Gb/s; the
 * same NIC and switch code in virtual time can). A first-time user sees it all happen: the queue
 * towards host-b fills, the leaf pauses the senders with PFC, marks packets ECN CE, host-b answers
 * with CNPs, the senders' DCQCN rates are cut and recover to a fair share, and PFC stops. The
 * leaf's frames go into the demo's capture, its decisions as comments.
 */
final class CongestionAct {
    /** Sample times of the rate table, microseconds. */
    private static final double[] TABLE_US = {0, 10, 20, 50, 100, 200, 500, 1000, 2000, 3000};
    private static final long DURATION_US = 3_000;
    /**
     * The senders' PGs pause at 1/16 of the leaf's free pool (some 180 KB), so that the first burst
     * shows PFC too: two senders' windows (1 MiB) never fill the SN2700's half of the pool, and
     * on it the act would show ECN and CNPs alone.
     */
    private static final int PG_DYNAMIC_TH = -4;

    private final PrintStream out;
    private final CaptureWriter capture;

    CongestionAct(PrintStream out, CaptureWriter capture) {
        this.out = out;
        this.capture = capture;
    }

    /** Runs the act on the leaf's thread (which writes the capture); returns 0 when it showed what it should. */
    int run(LeafFabric lab) {
        out.println();
        out.println("== congestion: host-a and host-c write to host-b at once (2:1 across the leaf at 100 Gb/s, 64 KB"
            + " WRITEs), DCQCN on the NICs, in virtual time (" + DURATION_US + " us)");
        out.println("   watch: the queue to host-b fills; the leaf pauses the senders (PFC) and marks ECN CE; host-b"
            + " sends CNPs; the senders' rates are cut and recover to a share each; PFC stops");
        IncastSpec spec = IncastSpec.defaults(2, true).withDuration(DURATION_US).withPgDynamicTh(PG_DYNAMIC_TH);
        long epoch = System.currentTimeMillis() * 1_000_000L;
        Object[] done = lab.onLeaf(() -> {
            IncastExperiment e = IncastExperiment.create(spec);
            if (capture != null) {
                e.capture(capture, epoch);
            }
            IncastResult r = e.execute();
            return new Object[] {r, SonicViews.pfcCounters(e.leaf()), SonicViews.queueCounters(e.leaf()),
                e.nicCounters(1), e.nicCounters(2), e.nicCounters(0)};
        }, 120);
        IncastResult r = (IncastResult) done[0];
        out.println();
        out.printf("%10s  %18s  %18s  %14s%n", "time (us)", "host-a rate (Gb/s)", "host-c rate (Gb/s)",
            "queue to b (KB)");
        for (double t : TABLE_US) {
            out.printf("%10.0f  %18.2f  %18.2f  %14.1f%n", t, t == 0 ? 100.0 : r.rcGbpsAt(0, t),
                t == 0 ? 100.0 : r.rcGbpsAt(1, t), r.queueKbAt(t));
        }
        out.println();
        PrintWriter w = new PrintWriter(out, true);
        r.printSummary(w);
        out.println();
        @SuppressWarnings("unchecked")
        Map<NicCounter, Long> a = (Map<NicCounter, Long>) done[3];
        @SuppressWarnings("unchecked")
        Map<NicCounter, Long> c = (Map<NicCounter, Long>) done[4];
        @SuppressWarnings("unchecked")
        Map<NicCounter, Long> b = (Map<NicCounter, Long>) done[5];
        out.println("== NIC congestion counters (mlx5's names)");
        out.printf("%-28s  %10s  %10s  %10s%n", "counter", "host-a", "host-c", "host-b");
        for (NicCounter k : List.of(NicCounter.RX_PRIO3_PAUSE, NicCounter.RX_PRIO3_PAUSE_DURATION,
                NicCounter.NP_ECN_MARKED_ROCE_PACKETS, NicCounter.NP_CNP_SENT, NicCounter.RP_CNP_HANDLED)) {
            out.printf("%-28s  %10d  %10d  %10d%n", k.rxeName(), a.getOrDefault(k, 0L), c.getOrDefault(k, 0L),
                b.getOrDefault(k, 0L));
        }
        out.println();
        out.println("== incast leaf# show pfc counters");
        out.print((String) done[1]);
        out.println();
        out.println("== incast leaf# show queue counters");
        out.print((String) done[2]);
        boolean showed = r.pfcXoffFrames() > 0 && r.ecnMarked() > 0 && r.cnpsSent() > 0 && r.switchDrops() == 0
            && r.retransmissions() == 0;
        if (!showed) {
            out.println("rocelab demo: the congestion act did not show PFC, ECN and CNPs without loss");
        }
        return showed ? 0 : 1;
    }
}
