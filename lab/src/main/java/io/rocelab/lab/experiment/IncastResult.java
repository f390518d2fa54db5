package io.rocelab.lab.experiment;

import io.rocelab.lab.report.Csv;
import io.rocelab.lab.report.Plots;
import io.rocelab.lab.report.TimeSeries;
import io.rocelab.nic.stats.NicCounter;
import io.rocelab.nic.SoftNic;
import io.rocelab.sw.SoftSwitch;
import io.rocelab.sw.stats.PortCounters;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What an incast run measured: time series (per-flow sending rate, goodput and DCQCN rate Rc, the
 * bottleneck queue, the fraction of senders paused, the switch's XOFFs so far) and the run's totals
 * (drops, retransmissions, CNPs, ECN marks, error completions).
 */
public final class IncastResult {
    final IncastSpec spec;
    final List<TimeSeries> rate = new ArrayList<>();
    final List<TimeSeries> goodput = new ArrayList<>();
    final List<TimeSeries> rc = new ArrayList<>();
    final TimeSeries queue = new TimeSeries("queue_kb", "KB");
    final TimeSeries paused = new TimeSeries("paused_fraction", "");
    final TimeSeries switchXoff = new TimeSeries("switch_xoff", "frames");
    private long[] completedBytes;
    private long switchDrops;
    private final java.util.Map<String, Long> dropsByReason = new java.util.TreeMap<>();
    private long retransmissions;
    private long errorCompletions;
    private long cnpsSent;
    private long cnpsHandled;
    private long ecnMarked;
    private long pfcXoffFrames;
    private long hostPauseFrames;
    private long events;

    IncastResult(IncastSpec spec) {
        this.spec = spec;
        for (int i = 1; i <= spec.senders(); i++) {
            rate.add(new TimeSeries("rate_h" + i + "_gbps", "Gb/s"));
            goodput.add(new TimeSeries("goodput_h" + i + "_gbps", "Gb/s"));
            rc.add(new TimeSeries("rc_h" + i + "_gbps", "Gb/s"));
        }
    }

    void finish(SoftSwitch leaf, List<SoftNic> nics, long[] completed, long errors, long eventsExecuted) {
        this.completedBytes = completed;
        this.errorCompletions = errors;
        this.events = eventsExecuted;
        for (int p = 0; p < leaf.portCount(); p++) {
            PortCounters c = leaf.counters(p);
            switchDrops += c.totalDrops();
            for (io.rocelab.sw.pipeline.DropReason reason : io.rocelab.sw.pipeline.DropReason.values()) {
                if (c.drops(reason) > 0) {
                    dropsByReason.merge(reason.name().toLowerCase(Locale.ROOT), c.drops(reason), Long::sum);
                }
            }
            pfcXoffFrames += c.txPfc[IncastExperiment.LOSSLESS_PRIORITY];
        }
        ecnMarked = leaf.counters(0).queueEcnMarked[IncastExperiment.LOSSLESS_PRIORITY];
        SoftNic rx = nics.get(0);
        retransmissions = IncastExperiment.sendersCounter(nics, NicCounter.COMPLETER_RETRY_ERR)
            + IncastExperiment.sendersCounter(nics, NicCounter.RCVD_SEQ_ERR)
            + rx.counters().get(NicCounter.DUPLICATE_REQUEST) + rx.counters().get(NicCounter.OUT_OF_SEQ_REQUEST);
        cnpsSent = rx.counters().get(NicCounter.NP_CNP_SENT);
        cnpsHandled = IncastExperiment.sendersCounter(nics, NicCounter.RP_CNP_HANDLED);
        hostPauseFrames = IncastExperiment.sendersCounter(nics, NicCounter.RX_PRIO3_PAUSE);
    }

    public IncastSpec spec() {
        return spec;
    }

    /** Jain's fairness index of the senders' goodput between two times (the flows given, 0-based). */
    public double jain(double fromUs, double toUs, int... flows) {
        double sum = 0;
        double squares = 0;
        for (int f : flows) {
            double x = mean(goodput.get(f), fromUs, toUs);
            sum += x;
            squares += x * x;
        }
        return squares == 0 ? 0 : sum * sum / (flows.length * squares);
    }

    /** Jain's index of every sender over the steady state (the second half of the run). */
    public double jainSteady() {
        return jain(steadyFromUs(), spec.durationUs(), allFlows());
    }

    public int[] allFlows() {
        int[] all = new int[spec.senders()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        return all;
    }

    /** The start of the steady state: the second half of the run. */
    public double steadyFromUs() {
        return spec.durationUs() / 2.0;
    }

    /** Mean goodput of sender {@code flow} (0-based) between two times, Gb/s. */
    public double goodputGbps(int flow, double fromUs, double toUs) {
        return mean(goodput.get(flow), fromUs, toUs);
    }

    /** Total goodput of all senders between two times, Gb/s. */
    public double totalGoodputGbps(double fromUs, double toUs) {
        double sum = 0;
        for (int f = 0; f < goodput.size(); f++) {
            sum += goodputGbps(f, fromUs, toUs);
        }
        return sum;
    }

    static double mean(TimeSeries s, double fromUs, double toUs) {
        double sum = 0;
        int n = 0;
        for (int i = 0; i < s.size(); i++) {
            if (s.timeUs(i) > fromUs && s.timeUs(i) <= toUs) {
                sum += s.value(i);
                n++;
            }
        }
        return n == 0 ? 0 : sum / n;
    }

    /** The bottleneck queue's largest depth between two times, KB. */
    public double maxQueueKb(double fromUs, double toUs) {
        double max = 0;
        for (int i = 0; i < queue.size(); i++) {
            if (queue.timeUs(i) > fromUs && queue.timeUs(i) <= toUs) {
                max = Math.max(max, queue.value(i));
            }
        }
        return max;
    }

    public double meanQueueKb(double fromUs, double toUs) {
        return mean(queue, fromUs, toUs);
    }

    /** XOFF frames the switch sent to the senders between two times. */
    public long switchXoffBetween(double fromUs, double toUs) {
        return at(switchXoff, toUs) - at(switchXoff, fromUs);
    }

    /** The fraction of the time some sender was paused between two times. */
    public double pausedTime(double fromUs, double toUs) {
        return mean(paused, fromUs, toUs);
    }

    private static long at(TimeSeries s, double us) {
        long v = 0;
        for (int i = 0; i < s.size() && s.timeUs(i) <= us; i++) {
            v = (long) s.value(i);
        }
        return v;
    }

    public long switchDrops() {
        return switchDrops;
    }

    public long retransmissions() {
        return retransmissions;
    }

    public long errorCompletions() {
        return errorCompletions;
    }

    public long cnpsSent() {
        return cnpsSent;
    }

    public long cnpsHandled() {
        return cnpsHandled;
    }

    public long ecnMarked() {
        return ecnMarked;
    }

    public long pfcXoffFrames() {
        return pfcXoffFrames;
    }

    public long hostPauseFrames() {
        return hostPauseFrames;
    }

    /** Sender {@code flow}'s (0-based) DCQCN rate Rc at the sample at or before {@code us}, Gb/s. */
    public double rcGbpsAt(int flow, double us) {
        return at(rc.get(flow), us, 0);
    }

    /** The bottleneck queue at the sample at or before {@code us}, KB. */
    public double queueKbAt(double us) {
        return at(queue, us, 0);
    }

    private static double at(TimeSeries s, double us, double none) {
        double v = none;
        for (int i = 0; i < s.size() && s.timeUs(i) <= us; i++) {
            v = s.value(i);
        }
        return v;
    }

    public long events() {
        return events;
    }

    public long completedBytes(int flow) {
        return completedBytes[flow];
    }

    /** The run's figures, one per line. */
    public void printSummary(PrintWriter out) {
        double from = steadyFromUs();
        double to = spec.durationUs();
        out.printf(Locale.ROOT, "incast %d:1 at %d Gb/s, %s, %d us simulated (steady state: %.0f-%.0f us)%n",
            spec.senders(), spec.linkGbps(), spec.dcqcn() ? "DCQCN" : "no congestion control", spec.durationUs(),
            from, to);
        out.printf(Locale.ROOT, "  goodput, steady state: total %.2f Gb/s, per sender %s%n", totalGoodputGbps(from, to),
            perFlow(from, to));
        out.printf(Locale.ROOT, "  Jain's fairness index, steady state: %.4f%n", jainSteady());
        out.printf(Locale.ROOT, "  bottleneck queue, steady state: mean %.1f KB, max %.1f KB (ECN %d-%d KB)%n",
            meanQueueKb(from, to), maxQueueKb(from, to), spec.ecnMinBytes() / 1000, spec.ecnMaxBytes() / 1000);
        out.printf(Locale.ROOT, "  PFC: switch XOFF frames %d (%d in the steady state), senders paused %.1f %% of the "
            + "steady state%n", pfcXoffFrames, switchXoffBetween(from, to), 100 * pausedTime(from, to));
        out.printf(Locale.ROOT, "  ECN marks %d, CNPs sent %d, handled %d; pause frames received by the senders %d%n",
            ecnMarked, cnpsSent, cnpsHandled, hostPauseFrames);
        out.printf(Locale.ROOT, "  switch drops %d %s, retransmissions %d, error completions %d; %d events%n",
            switchDrops, dropsByReason, retransmissions, errorCompletions, events);
    }

    private String perFlow(double from, double to) {
        StringBuilder b = new StringBuilder();
        for (int f = 0; f < goodput.size(); f++) {
            b.append(f == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.2f", goodputGbps(f, from, to)));
        }
        return b.toString();
    }

    /** Writes {@code prefix.csv} (every series) and PNG plots of rates, queue and pause state into {@code dir}. */
    public List<Path> write(Path dir, String prefix) {
        List<TimeSeries> all = new ArrayList<>(rate);
        all.addAll(goodput);
        all.addAll(rc);
        all.add(queue);
        all.add(paused);
        all.add(switchXoff);
        List<Path> files = new ArrayList<>();
        Path csv = dir.resolve(prefix + ".csv");
        Csv.write(csv, all);
        files.add(csv);
        String what = String.format(Locale.ROOT, "%d:1 incast, %s", spec.senders(), spec.dcqcn() ? "DCQCN" : "no CC");
        Path rates = dir.resolve(prefix + "-rates.png");
        Plots.timeChart(rates, what + ": sending rate per flow", "Gb/s", rate, false);
        files.add(rates);
        Path q = dir.resolve(prefix + "-queue.png");
        Plots.timeChart(q, what + ": bottleneck queue (lossless class)", "KB", List.of(queue), false);
        files.add(q);
        Path p = dir.resolve(prefix + "-pause.png");
        Plots.timeChart(p, what + ": fraction of senders paused by PFC", "fraction", List.of(paused), true);
        files.add(p);
        return files;
    }
}
