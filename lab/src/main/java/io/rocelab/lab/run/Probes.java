package io.rocelab.lab.run;

import io.rocelab.lab.expect.Kind;
import io.rocelab.lab.labfile.ProbeSpec;
import io.rocelab.lab.labfile.RunSpec;
import io.rocelab.nic.stats.NicCounter;
import io.rocelab.nic.SoftNic;
import io.rocelab.sw.SoftSwitch;
import io.rocelab.sw.pfcwd.QueueWatch;
import io.rocelab.sw.stats.PortCounters;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.model.Attachment;
import io.rocelab.topology.model.SwitchNode;
import io.rocelab.topology.workload.FlowProgress;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a running fabric into a {@link RunData}: every interval the probes the lab asked for (per
 * flow rate, queue depth, pause state, ECN marks, CNPs, PFC frames, drops), and at the end every
 * attribute of {@link Schema}. Runs on the thread that drives the virtual clock, between events.
 */
final class Probes {
    private static final NicCounter[] RX_PAUSE = new NicCounter[8];
    private static final String RETRY_EXC_ERR = io.rocelab.nic.WcStatus.RETRY_EXC_ERR.verbsName();
    private static final NicCounter[] TX_PAUSE = new NicCounter[8];

    static {
        for (int p = 0; p < 8; p++) {
            RX_PAUSE[p] = NicCounter.valueOf("RX_PRIO" + p + "_PAUSE");
            TX_PAUSE[p] = NicCounter.valueOf("TX_PRIO" + p + "_PAUSE");
        }
    }

    /**
     * A flow's frame bytes on the wire per interval, bit/s (its QPs' bytes sent, retransmissions
     * included): for the plots, not a {@link Schema} attribute. Sampled with {@code flow-rate} where
     * the flow's QPs count them.
     */
    static final String WIRE_RATE = "wire_rate";
    /**
     * The sum of a flow's QPs' congestion control rates, bit/s (DCQCN's Rc), at each sample: for the
     * plots, not a {@link Schema} attribute. Sampled with {@code flow-rate} where congestion control runs.
     */
    static final String CC_RATE = "cc_rate";

    private record Port(String name, SoftSwitch sw, int index) {
    }

    private record Queue(String name, SoftSwitch sw, int port, int queue) {
    }

    private final Fabric fabric;
    private final RunData data;
    private final ProbeSpec spec;
    private final List<String> flows;
    private final List<FlowProgress> progress = new ArrayList<>();
    private final long[] lastBytes;
    private final long[] lastWireBytes;
    private final List<Port> allPorts = new ArrayList<>();
    private final List<Port> probePorts = new ArrayList<>();
    private final List<Queue> queues = new ArrayList<>();
    private final List<String> hosts;
    private final List<String> switches;
    private long lastNanos;

    /** The fabric's clock: its virtual time, or the wall clock every real-time node shares. */
    private static io.rocelab.fabric.time.Scheduler clockOf(Fabric fabric) {
        var t = fabric.topology();
        return fabric.scheduler(!t.hosts().isEmpty() ? t.hosts().get(0).name() : t.switches().get(0).name());
    }

    /** @param progressOf each flow's live progress (the workload engine's, or a real program's) */
    Probes(Fabric fabric, java.util.function.Function<String, FlowProgress> progressOf, RunSpec run, RunData data) {
        this.fabric = fabric;
        this.data = data;
        this.spec = run.probes();
        this.flows = data.names(Kind.FLOW);
        for (String f : flows) {
            progress.add(progressOf.apply(f));
        }
        lastBytes = new long[flows.size()];
        lastWireBytes = new long[flows.size()];
        for (String p : data.names(Kind.PORT)) {
            Attachment a = Attachment.parse(p);
            SoftSwitch sw = fabric.softSwitch(a.node());
            Port port = new Port(p, sw, sw.port(a.port()));
            allPorts.add(port);
            if (spec.ports().contains(p)) {
                probePorts.add(port);
            }
        }
        for (String q : data.names(Kind.QUEUE)) {
            int colon = q.lastIndexOf(':');
            Attachment a = Attachment.parse(q.substring(0, colon));
            SoftSwitch sw = fabric.softSwitch(a.node());
            queues.add(new Queue(q, sw, sw.port(a.port()), Integer.parseInt(q.substring(colon + 1))));
        }
        hosts = data.names(Kind.NIC);
        switches = data.names(Kind.SWITCH);
    }

    /** @return the names a run of {@code run} reports on: flows, cabled switch ports, probed queues, hosts, switches */
    static java.util.Map<Kind, List<String>> names(RunSpec run) {
        java.util.Map<Kind, List<String>> m = new java.util.EnumMap<>(Kind.class);
        m.put(Kind.FLOW, run.flows().stream().map(io.rocelab.lab.labfile.LabFlow::name).toList());
        m.put(Kind.PORT, io.rocelab.lab.labfile.TopologyRefs.switchPorts(run.topology()));
        m.put(Kind.QUEUE, run.probes().queues());
        m.put(Kind.NIC, run.nicHosts());
        m.put(Kind.SWITCH, run.topology().switches().stream().map(SwitchNode::name).toList());
        m.put(Kind.COLLECTIVE, run.collectives().stream().map(io.rocelab.lab.labfile.CollectiveSpec::name).toList());
        return m;
    }

    /**
     * Records one sample of zeros for everything {@link #sample} would sample: a run's data as
     * {@code rocelab lab check} sees it before any run, so a check naming a series no probe samples
     * is found without running.
     */
    static void plan(RunSpec run, RunData data) {
        ProbeSpec spec = run.probes();
        data.beginSample(0);
        for (String f : data.names(Kind.FLOW)) {
            if (spec.samples("flow-rate")) {
                data.sample(Kind.FLOW, f, "bytes", 0);
                data.sample(Kind.FLOW, f, "rate", 0);
            }
        }
        for (String q : data.names(Kind.QUEUE)) {
            for (String[] pa : new String[][] {{"queue-depth", "depth"}, {"ecn-marks", "ecn_marks"}, {"drops", "drops"}}) {
                if (spec.samples(pa[0])) {
                    data.sample(Kind.QUEUE, q, pa[1], 0);
                }
            }
        }
        for (String p : spec.ports()) {
            for (String[] pa : new String[][] {{"pause", "paused"}, {"ecn-marks", "ecn_marks"}, {"pfc-frames", "pfc_tx"},
                {"pfc-frames", "pfc_rx"}, {"drops", "drops"}, {"pfc-frames", "pause_tx"}, {"pfc-frames", "pause_rx"}}) {
                if (spec.samples(pa[0])) {
                    data.sample(Kind.PORT, p, pa[1], 0);
                }
            }
        }
        for (String s : data.names(Kind.SWITCH)) {
            for (String[] pa : new String[][] {{"ecn-marks", "ecn_marks"}, {"pfc-frames", "pfc_tx"},
                {"pfc-frames", "pfc_rx"}, {"drops", "drops"}, {"pfc-frames", "pause_tx"}, {"pfc-frames", "pause_rx"}}) {
                if (spec.samples(pa[0])) {
                    data.sample(Kind.SWITCH, s, pa[1], 0);
                }
            }
        }
        for (String h : data.names(Kind.NIC)) {
            for (String[] pa : new String[][] {{"pause", "paused"}, {"ecn-marks", "ecn_marked"}, {"pfc-frames", "pfc_tx"},
                {"pfc-frames", "pfc_rx"}, {"cnps", "cnps_sent"}, {"cnps", "cnps_handled"}, {"pfc-frames", "pause_tx"},
                {"pfc-frames", "pause_rx"}}) {
                if (spec.samples(pa[0])) {
                    data.sample(Kind.NIC, h, pa[1], 0);
                }
            }
        }
    }

    /** Samples the probes at {@code nanos} from the start of the run. */
    void sample(long nanos) {
        data.beginSample(nanos);
        long interval = Math.max(1, nanos - lastNanos);
        lastNanos = nanos;
        if (spec.samples("flow-rate")) {
            for (int i = 0; i < flows.size(); i++) {
                long b = progress.get(i).bytesCompleted();
                data.sample(Kind.FLOW, flows.get(i), "bytes", b);
                data.sample(Kind.FLOW, flows.get(i), "rate", (b - lastBytes[i]) * 8e9 / interval);
                lastBytes[i] = b;
                long w = progress.get(i).bytesSent();
                if (w >= 0) {
                    data.sample(Kind.FLOW, flows.get(i), WIRE_RATE, (w - lastWireBytes[i]) * 8e9 / interval);
                    lastWireBytes[i] = w;
                }
                double cc = progress.get(i).congestionRateBitsPerSecond();
                if (!Double.isNaN(cc)) {
                    data.sample(Kind.FLOW, flows.get(i), CC_RATE, cc);
                }
            }
        }
        if (spec.samples("queue-depth")) {
            for (Queue q : queues) {
                data.sample(Kind.QUEUE, q.name, "depth", q.sw.mmu().queueBytes(q.port, q.queue));
            }
        }
        long now = clockOf(fabric).nanoTime();
        if (spec.samples("pause")) {
            for (Port p : probePorts) {
                data.sample(Kind.PORT, p.name, "paused", paused(p, now) ? 1 : 0);
            }
            for (String h : hosts) {
                data.sample(Kind.NIC, h, "paused", nicPaused(fabric.nic(h)) ? 1 : 0);
            }
        }
        boolean ecn = spec.samples("ecn-marks");
        boolean pfc = spec.samples("pfc-frames");
        boolean drops = spec.samples("drops");
        if (ecn || pfc || drops) {
            for (Port p : probePorts) {
                PortCounters c = p.sw.counters(p.index);
                if (ecn) {
                    data.sample(Kind.PORT, p.name, "ecn_marks", sum(c.queueEcnMarked));
                }
                if (pfc) {
                    data.sample(Kind.PORT, p.name, "pfc_tx", sum(c.txPfc));
                    data.sample(Kind.PORT, p.name, "pfc_rx", sum(c.rxPfc));
                    data.sample(Kind.PORT, p.name, "pause_tx", c.txPause);
                    data.sample(Kind.PORT, p.name, "pause_rx", c.rxPause);
                }
                if (drops) {
                    data.sample(Kind.PORT, p.name, "drops", c.totalDrops());
                }
            }
            for (Queue q : queues) {
                PortCounters c = q.sw.counters(q.port);
                if (ecn) {
                    data.sample(Kind.QUEUE, q.name, "ecn_marks", c.queueEcnMarked[q.queue]);
                }
                if (drops) {
                    data.sample(Kind.QUEUE, q.name, "drops", c.queueDropPackets[q.queue]);
                }
            }
            for (String s : switches) {
                SwitchTotals t = SwitchTotals.of(fabric.softSwitch(s));
                if (ecn) {
                    data.sample(Kind.SWITCH, s, "ecn_marks", t.ecnMarks);
                }
                if (pfc) {
                    data.sample(Kind.SWITCH, s, "pfc_tx", t.pfcTx);
                    data.sample(Kind.SWITCH, s, "pfc_rx", t.pfcRx);
                    data.sample(Kind.SWITCH, s, "pause_tx", t.pauseTx);
                    data.sample(Kind.SWITCH, s, "pause_rx", t.pauseRx);
                }
                if (drops) {
                    data.sample(Kind.SWITCH, s, "drops", t.drops);
                }
            }
        }
        boolean cnps = spec.samples("cnps");
        if (ecn || pfc || cnps) {
            for (String h : hosts) {
                SoftNic nic = fabric.nic(h);
                if (ecn) {
                    data.sample(Kind.NIC, h, "ecn_marked", count(nic, NicCounter.NP_ECN_MARKED_ROCE_PACKETS));
                }
                if (pfc) {
                    data.sample(Kind.NIC, h, "pfc_tx", sum(nic, TX_PAUSE));
                    data.sample(Kind.NIC, h, "pfc_rx", sum(nic, RX_PAUSE));
                    data.sample(Kind.NIC, h, "pause_tx", count(nic, NicCounter.TX_PAUSE_CTRL_PHY));
                    data.sample(Kind.NIC, h, "pause_rx", count(nic, NicCounter.RX_PAUSE_CTRL_PHY));
                }
                if (cnps) {
                    data.sample(Kind.NIC, h, "cnps_sent", count(nic, NicCounter.NP_CNP_SENT));
                    data.sample(Kind.NIC, h, "cnps_handled", count(nic, NicCounter.RP_CNP_HANDLED));
                }
            }
        }
    }

    private static boolean paused(Port p, long now) {
        var egress = p.sw.egress(p.index);
        for (int prio = 0; prio < 8; prio++) {
            if (egress.priorityPaused(prio, now)) {
                return true;
            }
        }
        return egress.portPaused(now);
    }

    private static boolean nicPaused(SoftNic nic) {
        for (int prio = 0; prio < 8; prio++) {
            if (nic.isPaused(prio)) {
                return true;
            }
        }
        return false;
    }

    /** A switch's counters summed over its ports. */
    private record SwitchTotals(long ecnMarks, long pfcTx, long pfcRx, long drops, long pauseTx, long pauseRx) {
        static SwitchTotals of(SoftSwitch sw) {
            long e = 0;
            long tx = 0;
            long rx = 0;
            long d = 0;
            long ptx = 0;
            long prx = 0;
            for (int i = 0; i < sw.portCount(); i++) {
                PortCounters c = sw.counters(i);
                e += sum(c.queueEcnMarked);
                tx += sum(c.txPfc);
                rx += sum(c.rxPfc);
                d += c.totalDrops();
                ptx += c.txPause;
                prx += c.rxPause;
            }
            return new SwitchTotals(e, tx, rx, d, ptx, prx);
        }
    }

    private static long sum(long[] a) {
        long s = 0;
        for (long v : a) {
            s += v;
        }
        return s;
    }

    private static long sum(SoftNic nic, NicCounter[] cs) {
        long s = 0;
        for (NicCounter c : cs) {
            s += count(nic, c);
        }
        return s;
    }

    /** A NIC counter summed over its ports (a dual-port NIC counts per port, as rdma statistic does). */
    private static long count(SoftNic nic, NicCounter c) {
        long s = 0;
        for (int port = 1; port <= nic.portCount(); port++) {
            s += nic.port(port).counters().get(c);
        }
        return s;
    }

    /** What a NIC's transmitters sent, over its ports. */
    private static long bytesSent(SoftNic nic) {
        long s = 0;
        for (int port = 1; port <= nic.portCount(); port++) {
            s += nic.port(port).transmitter().bytesSent();
        }
        return s;
    }

    /** Every attribute's value at the end of the run (call after the last sample, before closing). */
    void finish(List<io.rocelab.topology.workload.FlowResult> results) {
        for (var r : results) {
            if (!flows.contains(r.name())) {
                continue;
            }
            String f = r.name();
            data.total(Kind.FLOW, f, "bytes", r.bytes());
            data.total(Kind.FLOW, f, "goodput", r.goodputBitsPerSecond());
            data.total(Kind.FLOW, f, "fct", r.fctNanos() < 0 ? Double.POSITIVE_INFINITY : r.fctNanos() / 1e9);
            data.total(Kind.FLOW, f, "messages", r.messages());
            data.total(Kind.FLOW, f, "errors", r.errors());
            data.total(Kind.FLOW, f, "latency_p50", r.latencyP50Nanos() < 0 ? Double.NaN : r.latencyP50Nanos() / 1e9);
            data.total(Kind.FLOW, f, "latency_p99", r.latencyP99Nanos() < 0 ? Double.NaN : r.latencyP99Nanos() / 1e9);
            data.total(Kind.FLOW, f, "gap", r.maxGapNanos() < 0 ? Double.NaN : r.maxGapNanos() / 1e9);
            data.total(Kind.FLOW, f, "reconnects", r.reconnects());
            data.total(Kind.FLOW, f, "retry_exceeded", r.errorCompletions().getOrDefault(RETRY_EXC_ERR, 0L));
            data.total(Kind.FLOW, f, "migrations", r.migrations());
            data.total(Kind.FLOW, f, "verified", r.verifiedBytes());
            data.total(Kind.FLOW, f, "corrupt", r.corruptBytes());
        }
        for (Port p : allPorts) {
            PortCounters c = p.sw.counters(p.index);
            data.total(Kind.PORT, p.name, "pfc_tx", sum(c.txPfc));
            data.total(Kind.PORT, p.name, "pfc_rx", sum(c.rxPfc));
            data.total(Kind.PORT, p.name, "pause_tx", c.txPause);
            data.total(Kind.PORT, p.name, "pause_rx", c.rxPause);
            data.total(Kind.PORT, p.name, "ecn_marks", sum(c.queueEcnMarked));
            data.total(Kind.PORT, p.name, "drops", c.totalDrops());
            data.total(Kind.PORT, p.name, "no_l3_header", c.drops(io.rocelab.sw.pipeline.DropReason.NO_L3_HEADER));
            data.total(Kind.PORT, p.name, "tx_bytes", c.txBytes);
            long storms = 0;
            long restores = 0;
            if (p.sw.watchdog() != null) {
                for (int q = 0; q < 8; q++) {
                    QueueWatch w = p.sw.watchdog().watch(p.index, q);
                    if (w != null) {
                        storms += w.stormDetected;
                        restores += w.stormRestored;
                    }
                }
            }
            data.total(Kind.PORT, p.name, "watchdog_storms", storms);
            data.total(Kind.PORT, p.name, "watchdog_restores", restores);
            data.total(Kind.PORT, p.name, "path_changes", p.sw.forwarding().balancing().changes().onto(p.index));
        }
        for (Queue q : queues) {
            PortCounters c = q.sw.counters(q.port);
            data.total(Kind.QUEUE, q.name, "watermark", q.sw.egress(q.port).queue(q.queue).watermarkBytes());
            data.total(Kind.QUEUE, q.name, "drops", c.queueDropPackets[q.queue]);
            data.total(Kind.QUEUE, q.name, "ecn_marks", c.queueEcnMarked[q.queue]);
            data.total(Kind.QUEUE, q.name, "tx_bytes", c.queueTxBytes[q.queue]);
        }
        java.util.Map<String, Long> errorsBySource = new java.util.HashMap<>();
        for (var r : results) {
            errorsBySource.merge(r.source(), r.errors(), Long::sum);
        }
        for (String h : hosts) {
            SoftNic nic = fabric.nic(h);
            data.total(Kind.NIC, h, "cnps_sent", count(nic, NicCounter.NP_CNP_SENT));
            data.total(Kind.NIC, h, "cnps_handled", count(nic, NicCounter.RP_CNP_HANDLED));
            data.total(Kind.NIC, h, "ecn_marked", count(nic, NicCounter.NP_ECN_MARKED_ROCE_PACKETS));
            data.total(Kind.NIC, h, "pfc_tx", sum(nic, TX_PAUSE));
            data.total(Kind.NIC, h, "pfc_rx", sum(nic, RX_PAUSE));
            data.total(Kind.NIC, h, "pause_tx", count(nic, NicCounter.TX_PAUSE_CTRL_PHY));
            data.total(Kind.NIC, h, "pause_rx", count(nic, NicCounter.RX_PAUSE_CTRL_PHY));
            data.total(Kind.NIC, h, "retransmissions", count(nic, NicCounter.COMPLETER_RETRY_ERR)
                + count(nic, NicCounter.RCVD_SEQ_ERR));
            data.total(Kind.NIC, h, "errors", errorsBySource.getOrDefault(h, 0L));
            data.total(Kind.NIC, h, "tx_bytes", bytesSent(nic));
            data.total(Kind.NIC, h, "failovers", nic.bond() == null ? 0 : nic.bond().failovers());
            data.total(Kind.NIC, h, "migrations", nic.pathMigrations());
            data.total(Kind.NIC, h, "pfc_ignored", count(nic, NicCounter.RX_PFC_IGNORED));
            data.total(Kind.NIC, h, "dcbx_adoptions", count(nic, NicCounter.DCBX_ADOPTIONS));
            data.total(Kind.NIC, h, "out_of_sequence", count(nic, NicCounter.OUT_OF_SEQUENCE));
            data.total(Kind.NIC, h, "duplicate_request", count(nic, NicCounter.DUPLICATE_REQUEST));
            data.total(Kind.NIC, h, "ooo_placed", count(nic, NicCounter.OOO_PLACED_PACKETS));
            data.total(Kind.NIC, h, "pfc_enable", nic.dcb().operational(1).settings().pfcEnable());
        }
        for (String s : switches) {
            SoftSwitch sw = fabric.softSwitch(s);
            SwitchTotals t = SwitchTotals.of(sw);
            long storms = 0;
            long restores = 0;
            if (sw.watchdog() != null) {
                for (QueueWatch w : sw.watchdog().watches()) {
                    storms += w.stormDetected;
                    restores += w.stormRestored;
                }
            }
            data.total(Kind.SWITCH, s, "ecn_marks", t.ecnMarks);
            data.total(Kind.SWITCH, s, "pfc_tx", t.pfcTx);
            data.total(Kind.SWITCH, s, "pfc_rx", t.pfcRx);
            data.total(Kind.SWITCH, s, "pause_tx", t.pauseTx);
            data.total(Kind.SWITCH, s, "pause_rx", t.pauseRx);
            data.total(Kind.SWITCH, s, "drops", t.drops);
            long noL3 = 0;
            for (int i = 0; i < sw.portCount(); i++) {
                noL3 += sw.counters(i).drops(io.rocelab.sw.pipeline.DropReason.NO_L3_HEADER);
            }
            data.total(Kind.SWITCH, s, "no_l3_header", noL3);
            data.total(Kind.SWITCH, s, "watchdog_storms", storms);
            data.total(Kind.SWITCH, s, "watchdog_restores", restores);
            data.total(Kind.SWITCH, s, "path_changes", sw.forwarding().balancing().changes().total());
            if (sw.vtep() != null) {
                io.rocelab.sw.vxlan.TunnelCounters v = sw.vtep().total();
                data.total(Kind.SWITCH, s, "vxlan_encap", v.txPackets);
                data.total(Kind.SWITCH, s, "vxlan_decap", v.rxPackets);
                data.total(Kind.SWITCH, s, "vxlan_ce_marked", v.ceMarked);
                data.total(Kind.SWITCH, s, "vxlan_drops", v.rxDrops + v.txDrops);
            }
        }
    }
}
