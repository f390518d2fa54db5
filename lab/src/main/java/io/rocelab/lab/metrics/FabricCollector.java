package io.rocelab.lab.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import io.rocelab.nic.stats.NicCounter;
import io.rocelab.sw.SwitchCounters;
import io.rocelab.sw.pfcwd.QueueWatch;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.sw.stats.PortCounters;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Prometheus collector of a fabric: on each scrape it reads one {@link Telemetry} from its
 * {@link TelemetrySource} and turns it into metric families. Names follow Prometheus' naming
 * practices (https://prometheus.io/docs/practices/naming/): the {@code rocelab_} namespace (the
 * process that exports them, whatever device it models), then {@code switch_} or {@code nic_}, base
 * units ({@code _bytes}, {@code _seconds}), {@code _total} on counters, and what tells series apart
 * in labels, never in the name: {@code switch}, {@code port}, {@code queue}, {@code priority},
 * {@code pg}, {@code pool}, {@code reason} on a switch; {@code host}, {@code device}, {@code port},
 * {@code priority} on a NIC. The words after the namespace are SONiC's column names
 * ({@code show interfaces counters}' RX_OK, RX_ERR, RX_DRP, RX_OVR, TX_OK, TX_DRP) and the NIC's own
 * counter names (rxe's {@code rxe_hw_counters.c}, mlx5's ethtool and congestion counters), every
 * {@link NicCounter} by its name, so a counter added to the NIC is exported without a change here;
 * mlx5's per-priority counters ({@code rx_prio3_pause}) become one family with a {@code priority}
 * label ({@code rocelab_nic_rx_prio_pause_total{priority="3"}}), and their microseconds become
 * seconds.
 */
public final class FabricCollector implements MultiCollector {
    /** mlx5's per-priority PFC counters: {@code rx_prio<N>_pause}, {@code _pause_duration}, {@code _pause_transition}. */
    private static final Pattern PER_PRIORITY = Pattern.compile("(rx|tx)_prio([0-7])_(.+)");
    private static final String SW = "rocelab_switch_";
    private static final String NIC = "rocelab_nic_";
    private static final double MICROS = 1e-6;

    private final TelemetrySource source;

    public FabricCollector(TelemetrySource source) {
        this.source = source;
    }

    @Override
    public MetricSnapshots collect() {
        return families(source.read()).build();
    }

    /** The families of one telemetry, in a fixed order: switches, then NICs. */
    static MetricFamilies families(Telemetry t) {
        MetricFamilies f = new MetricFamilies();
        for (SwitchTelemetry s : t.switches()) {
            switchFamilies(f, s);
        }
        for (NicTelemetry n : t.nics()) {
            nicFamilies(f, n);
        }
        if (t.run() != null) {
            Telemetry.RunProgress r = t.run();
            f.gauge("rocelab_lab_time_seconds", "the lab run's time since its start, virtual or wall as its clock goes",
                Unit.SECONDS, r.seconds(), "lab", r.lab(), "variant", r.variant());
            f.gauge("rocelab_lab_duration_seconds", "how long the lab run lasts", Unit.SECONDS, r.durationSeconds(),
                "lab", r.lab(), "variant", r.variant());
        }
        return f;
    }

    private static void switchFamilies(MetricFamilies f, SwitchTelemetry s) {
        SwitchCounters c = s.counters();
        String sw = s.name();
        for (int i = 0; i < c.ports().size(); i++) {
            String port = c.portNames().get(i);
            PortCounters p = c.ports().get(i);
            long errors = p.drops(DropReason.UNDERSIZE) + p.drops(DropReason.MALFORMED);
            long oversize = p.drops(DropReason.OVERSIZE);
            long queueDrops = sum(p.queueDropPackets);
            f.gauge(SW + "port_oper_up", "1 while the port's link is up (show interfaces counters STATE U)", null,
                c.portsUp().get(i) ? 1 : 0, "switch", sw, "port", port);
            f.counter(SW + "port_rx_ok_packets", "frames received without error (show interfaces counters RX_OK)", null,
                p.rxFrames - errors - oversize, "switch", sw, "port", port);
            f.counter(SW + "port_rx_error_packets", "frames received with errors, runts and malformed headers "
                + "(RX_ERR, SAI_PORT_STAT_IF_IN_ERRORS)", null, errors, "switch", sw, "port", port);
            f.counter(SW + "port_rx_discard_packets", "frames received and then dropped by the switch "
                + "(RX_DRP, SAI_PORT_STAT_IF_IN_DISCARDS)", null, p.totalDrops() - errors - oversize,
                "switch", sw, "port", port);
            f.counter(SW + "port_rx_oversize_packets", "frames received over the port's MTU "
                + "(RX_OVR, SAI_PORT_STAT_ETHER_RX_OVERSIZE_PKTS)", null, oversize, "switch", sw, "port", port);
            f.counter(SW + "port_tx_ok_packets", "frames sent (show interfaces counters TX_OK)", null, p.txFrames,
                "switch", sw, "port", port);
            f.counter(SW + "port_tx_discard_packets", "packets dropped from the port's queues (TX_DRP)", null, queueDrops,
                "switch", sw, "port", port);
            f.counter(SW + "port_rx_bytes", "bytes received (SAI_PORT_STAT_IF_IN_OCTETS)", Unit.BYTES, p.rxBytes,
                "switch", sw, "port", port);
            f.counter(SW + "port_tx_bytes", "bytes sent (SAI_PORT_STAT_IF_OUT_OCTETS)", Unit.BYTES, p.txBytes,
                "switch", sw, "port", port);
            for (DropReason r : DropReason.values()) {
                f.counter(SW + "port_drop_packets", "frames the switch dropped after they came in on the port, by reason",
                    null, p.drops(r), "switch", sw, "port", port, "reason", r.name().toLowerCase(Locale.ROOT));
            }
            f.counter(SW + "port_pause_rx_frames", "802.3x PAUSE frames received, pause and resume "
                + "(SAI_PORT_STAT_PAUSE_RX_PKTS)", null, p.rxPause, "switch", sw, "port", port);
            f.counter(SW + "port_pause_tx_frames", "802.3x PAUSE frames sent, pause and resume "
                + "(SAI_PORT_STAT_PAUSE_TX_PKTS)", null, p.txPause, "switch", sw, "port", port);
            SwitchTelemetry.PortBuffers b = s.ports().get(i);
            f.gauge(SW + "port_paused", "1 while an 802.3x PAUSE from the link partner holds the port", null,
                b.portPaused() ? 1 : 0, "switch", sw, "port", port);
            for (int pr = 0; pr < 8; pr++) {
                String prio = String.valueOf(pr);
                f.counter(SW + "pfc_rx_frames", "PFC frames received naming the priority, XOFF and XON "
                    + "(show pfc counters Rx, SAI_PORT_STAT_PFC_N_RX_PKTS)", null, p.rxPfc[pr],
                    "switch", sw, "port", port, "priority", prio);
                f.counter(SW + "pfc_tx_frames", "PFC frames sent naming the priority, XOFF and XON "
                    + "(show pfc counters Tx, SAI_PORT_STAT_PFC_N_TX_PKTS)", null, p.txPfc[pr],
                    "switch", sw, "port", port, "priority", prio);
                f.counter(SW + "pfc_tx_xon_frames", "of the PFC frames sent, the XON ones (pause time 0)", null,
                    p.txXon[pr], "switch", sw, "port", port, "priority", prio);
                f.counter(SW + "pfc_rx_ignored_frames", "PFC frames received for a priority the port does not enable",
                    null, p.rxPfcIgnored[pr], "switch", sw, "port", port, "priority", prio);
                f.gauge(SW + "pfc_paused", "1 while a PFC frame from the link partner holds the priority on this port",
                    null, b.priorityPaused()[pr] ? 1 : 0, "switch", sw, "port", port, "priority", prio);
            }
            for (int q = 0; q < 8; q++) {
                String queue = String.valueOf(q);
                f.counter(SW + "queue_tx_packets", "packets sent from the unicast queue (show queue counters "
                    + "Counter/pkts)", null, p.queueTxPackets[q], "switch", sw, "port", port, "queue", queue);
                f.counter(SW + "queue_tx_bytes", "bytes sent from the unicast queue (Counter/bytes)", Unit.BYTES,
                    p.queueTxBytes[q], "switch", sw, "port", port, "queue", queue);
                f.counter(SW + "queue_drop_packets", "packets dropped at the queue (Drop/pkts)", null,
                    p.queueDropPackets[q], "switch", sw, "port", port, "queue", queue);
                f.counter(SW + "queue_drop_bytes", "bytes dropped at the queue (Drop/bytes)", Unit.BYTES,
                    p.queueDropBytes[q], "switch", sw, "port", port, "queue", queue);
                f.counter(SW + "queue_ecn_marked_packets", "packets CE-marked by WRED/ECN at the queue (ECN/pkts)", null,
                    p.queueEcnMarked[q], "switch", sw, "port", port, "queue", queue);
                f.gauge(SW + "queue_depth_bytes", "bytes queued now", Unit.BYTES, b.queueDepthBytes()[q],
                    "switch", sw, "port", port, "queue", queue);
                f.gauge(SW + "queue_watermark_bytes", "the most bytes the queue has held since the switch started "
                    + "(SAI_QUEUE_STAT_WATERMARK_BYTES)", Unit.BYTES, b.queueWatermarkBytes()[q],
                    "switch", sw, "port", port, "queue", queue);
            }
            for (int g = 0; g < 8; g++) {
                String pg = String.valueOf(g);
                f.gauge(SW + "pg_shared_watermark_bytes", "the most shared-pool bytes the ingress priority group held "
                    + "since the last clear watermark (show priority-group watermark shared)", Unit.BYTES,
                    b.pgSharedWatermark()[g], "switch", sw, "port", port, "pg", pg);
                f.gauge(SW + "pg_headroom_watermark_bytes", "the most headroom bytes the ingress priority group held "
                    + "since the last clear watermark (show priority-group watermark headroom)", Unit.BYTES,
                    b.pgHeadroomWatermark()[g], "switch", sw, "port", port, "pg", pg);
                f.gauge(SW + "pg_shared_persistent_watermark_bytes", "the most shared-pool bytes the priority group "
                    + "held since the switch started (persistent-watermark shared)", Unit.BYTES,
                    b.pgSharedPersistent()[g], "switch", sw, "port", port, "pg", pg);
                f.gauge(SW + "pg_headroom_persistent_watermark_bytes", "the most headroom bytes the priority group "
                    + "held since the switch started (persistent-watermark headroom)", Unit.BYTES,
                    b.pgHeadroomPersistent()[g], "switch", sw, "port", port, "pg", pg);
                f.counter(SW + "pg_drop_packets", "frames the MMU refused for the priority group "
                    + "(show priority-group drop counters)", null, b.pgDrops()[g], "switch", sw, "port", port, "pg", pg);
            }
        }
        for (QueueWatch w : c.watches()) {
            String port = c.portNames().get(w.port());
            String queue = String.valueOf(w.queue());
            f.gauge(SW + "pfcwd_stormed", "1 while the PFC watchdog declares the queue stormed (show pfcwd stats STATUS)",
                null, w.stormed() ? 1 : 0, "switch", sw, "port", port, "queue", queue);
            f.counter(SW + "pfcwd_storms_detected", "PFC storms detected (STORM DETECTED)", null, w.stormDetected,
                "switch", sw, "port", port, "queue", queue);
            f.counter(SW + "pfcwd_storms_restored", "PFC storms restored (STORM RESTORED)", null, w.stormRestored,
                "switch", sw, "port", port, "queue", queue);
            f.counter(SW + "pfcwd_tx_ok_packets", "packets sent while stormed, over all storms (TX OK)", null, w.txOk,
                "switch", sw, "port", port, "queue", queue);
            f.counter(SW + "pfcwd_tx_drop_packets", "packets dropped on egress while stormed (TX DROP)", null, w.txDrop,
                "switch", sw, "port", port, "queue", queue);
            f.counter(SW + "pfcwd_rx_ok_packets", "packets received while stormed (RX OK)", null, w.rxOk,
                "switch", sw, "port", port, "queue", queue);
            f.counter(SW + "pfcwd_rx_drop_packets", "packets dropped on ingress while stormed (RX DROP)", null, w.rxDrop,
                "switch", sw, "port", port, "queue", queue);
        }
        s.tunnels().forEach((tunnel, t) -> {
            f.counter(SW + "vxlan_rx_packets", "VXLAN packets decapsulated (show vxlan counters RX_PKTS, "
                + "SAI_TUNNEL_STAT_IN_PACKETS)", null, t.rxPackets, "switch", sw, "tunnel", tunnel);
            f.counter(SW + "vxlan_rx_bytes", "bytes of the VXLAN packets decapsulated, outer headers included "
                + "(RX_BYTES, SAI_TUNNEL_STAT_IN_OCTETS)", Unit.BYTES, t.rxBytes, "switch", sw, "tunnel", tunnel);
            f.counter(SW + "vxlan_tx_packets", "VXLAN packets encapsulated (TX_PKTS, SAI_TUNNEL_STAT_OUT_PACKETS)",
                null, t.txPackets, "switch", sw, "tunnel", tunnel);
            f.counter(SW + "vxlan_tx_bytes", "bytes of the VXLAN packets encapsulated (TX_BYTES, "
                + "SAI_TUNNEL_STAT_OUT_OCTETS)", Unit.BYTES, t.txBytes, "switch", sw, "tunnel", tunnel);
            f.counter(SW + "vxlan_rx_drop_packets", "VXLAN packets dropped at decapsulation: an unknown VNI, or an "
                + "outer CE on a Not-ECT inner packet (RFC 6040)", null, t.rxDrops, "switch", sw, "tunnel", tunnel);
            f.counter(SW + "vxlan_tx_drop_packets", "frames not encapsulated: no route to the remote VTEP", null,
                t.txDrops, "switch", sw, "tunnel", tunnel);
            f.counter(SW + "vxlan_ce_marked_packets", "inner packets marked CE at decapsulation because the "
                + "underlay marked the outer (RFC 6040)", null, t.ceMarked, "switch", sw, "tunnel", tunnel);
        });
        for (SwitchTelemetry.Pool p : s.pools()) {
            f.gauge(SW + "buffer_pool_used_bytes", "shared bytes the pool's priority groups hold now", Unit.BYTES,
                p.usedBytes(), "switch", sw, "pool", p.name());
            f.gauge(SW + "buffer_pool_watermark_bytes", "the most shared bytes the pool held since the last clear "
                + "watermark (show buffer_pool watermark)", Unit.BYTES, p.watermarkBytes(), "switch", sw, "pool", p.name());
            f.gauge(SW + "buffer_pool_persistent_watermark_bytes", "the most shared bytes the pool held since the "
                + "switch started (show buffer_pool persistent-watermark)", Unit.BYTES, p.persistentBytes(),
                "switch", sw, "pool", p.name());
            f.gauge(SW + "buffer_pool_headroom_watermark_bytes", "the most bytes the pool's shared headroom pool "
                + "held (show headroom-pool watermark)", Unit.BYTES, p.headroomWatermarkBytes(),
                "switch", sw, "pool", p.name());
        }
        f.gauge(SW + "fdb_entries", "MAC addresses in the FDB (crm show resources fdb Used Count)", null,
            c.fdb().entries(), "switch", sw);
        f.counter(SW + "fdb_learn_refused", "new MACs not learned because the FDB was full", null,
            c.fdb().learnRefused(), "switch", sw);
    }

    private static void nicFamilies(MetricFamilies f, NicTelemetry n) {
        String port = String.valueOf(n.port());
        for (var e : n.counters().entrySet()) {
            String name = e.getKey().rxeName();
            double value = e.getValue();
            Matcher m = PER_PRIORITY.matcher(name);
            if (m.matches()) {
                String base = m.group(1) + "_prio_" + m.group(3);
                boolean micros = m.group(3).endsWith("_duration");
                f.counter(NIC + base + (micros ? "_seconds" : ""), "mlx5's " + m.group(1) + "_prio<N>_" + m.group(3)
                    + (micros ? " (microseconds there, seconds here)" : "") + ", per priority", micros ? Unit.SECONDS : null,
                    micros ? value * MICROS : value, "host", n.host(), "device", n.device(), "port", port,
                    "priority", m.group(2));
            } else if (name.endsWith("_duration")) {
                f.counter(NIC + name + "_seconds", "mlx5's " + name + " (microseconds there, seconds here)",
                    Unit.SECONDS, value * MICROS, "host", n.host(), "device", n.device(), "port", port);
            } else {
                f.counter(NIC + name, "the NIC's " + name + " counter (rdma statistic / ethtool -S name)", null, value,
                    "host", n.host(), "device", n.device(), "port", port);
            }
        }
        for (int pr = 0; pr < 8; pr++) {
            f.gauge(NIC + "pfc_paused", "1 while a PFC frame from the switch holds the priority on the NIC", null,
                n.paused()[pr] ? 1 : 0, "host", n.host(), "device", n.device(), "port", port,
                "priority", String.valueOf(pr));
        }
    }

    private static long sum(long[] a) {
        long s = 0;
        for (long v : a) {
            s += v;
        }
        return s;
    }
}
