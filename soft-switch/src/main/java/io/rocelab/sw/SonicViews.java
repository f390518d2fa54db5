package io.rocelab.sw;

import io.rocelab.codec.header.MacAddress;
import io.rocelab.fabric.lag.LacpActor;
import io.rocelab.sw.lag.LagGroup;
import io.rocelab.sw.mmu.Mmu;
import io.rocelab.sw.mmu.PgState;
import io.rocelab.sw.pfcwd.QueueWatch;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.sw.stats.FdbCounters;
import io.rocelab.sw.stats.PortCounters;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * Text views of a switch's counters laid out like SONiC's CLI, so that what a lab shows reads the
 * same as on a real switch: {@code show interfaces counters}, {@code show pfc counters},
 * {@code show queue counters}, {@code show pfcwd stats}, {@code crm show resources fdb},
 * {@code show buffer_pool watermark} and {@code show priority-group watermark shared}. The
 * counter views work from any thread: they print a
 * {@link SoftSwitch#countersSnapshot() snapshot} taken on the switch's owner thread, so a CLI can
 * show them while traffic runs. The watermark view reads the MMU: owner thread or after the run.
 */
public final class SonicViews {
    private SonicViews() {
    }

    /** SONiC prints this for a counter the platform does not have, as here the rates (they need two samples). */
    private static final String NA = "N/A";

    /** @return {@code show interfaces counters} */
    public static String interfaceCounters(SoftSwitch sw) {
        return interfaceCounters(sw.countersSnapshot());
    }

    /**
     * {@code show interfaces counters} of a snapshot, SONiC's portstat columns. RX_ERR are frames
     * with errors ({@code SAI_PORT_STAT_IF_IN_ERRORS}): runts and malformed headers; RX_OVR frames
     * over the port's MTU ({@code SAI_PORT_STAT_ETHER_RX_OVERSIZE_PKTS}); RX_DRP every other frame
     * the switch dropped after it came in on the port ({@code SAI_PORT_STAT_IF_IN_DISCARDS}); RX_OK
     * the frames without an error. TX_DRP are the port's queue drops. The rates, and the transmit
     * errors the switch has no cause for, print {@code N/A}.
     */
    public static String interfaceCounters(SwitchCounters s) {
        String row = "%11s  %5s  %10s  %10s  %7s  %8s  %8s  %8s  %10s  %10s  %7s  %8s  %8s  %8s%n";
        String head = String.format(row, "IFACE", "STATE", "RX_OK", "RX_BPS", "RX_UTIL", "RX_ERR", "RX_DRP",
            "RX_OVR", "TX_OK", "TX_BPS", "TX_UTIL", "TX_ERR", "TX_DRP", "TX_OVR");
        StringBuilder sb = new StringBuilder(head);
        sb.append("-".repeat(head.length() - System.lineSeparator().length())).append(System.lineSeparator());
        for (int i = 0; i < s.ports().size(); i++) {
            PortCounters c = s.ports().get(i);
            long errors = c.drops(DropReason.UNDERSIZE) + c.drops(DropReason.MALFORMED);
            long oversize = c.drops(DropReason.OVERSIZE);
            long discards = c.totalDrops() - errors - oversize;
            long queueDrops = 0;
            for (long d : c.queueDropPackets) {
                queueDrops += d;
            }
            sb.append(String.format(row, s.portNames().get(i), s.portsUp().get(i) ? "U" : "D",
                c.rxFrames - errors - oversize, NA, NA, errors, discards, oversize, c.txFrames, NA, NA, NA,
                queueDrops, NA));
        }
        return sb.toString();
    }

    /** @return {@code crm show resources fdb}, and the MACs not learned because the table was full */
    public static String crmFdb(SoftSwitch sw) {
        return crmFdb(sw.countersSnapshot());
    }

    /** {@code crm show resources fdb} of a snapshot, with rocelab's {@code fdb_learn_refused} under it. */
    public static String crmFdb(SwitchCounters s) {
        FdbCounters f = s.fdb();
        String row = "%-15s  %12s  %17s%n";
        return String.format(row, "Resource Name", "Used Count", "Available Count")
            + String.format(row, "-".repeat(15), "-".repeat(12), "-".repeat(17))
            + String.format(row, "fdb_entry", f.entries(), f.available())
            + String.format("%nfdb_learn_refused (new MACs not learned, table full): %d%n", f.learnRefused());
    }

    /** @return {@code show pfc counters} */
    public static String pfcCounters(SoftSwitch sw) {
        return pfcCounters(sw.countersSnapshot());
    }

    /** @return {@code show pfc counters} of a snapshot */
    public static String pfcCounters(SwitchCounters s) {
        StringBuilder sb = new StringBuilder();
        for (boolean rx : new boolean[] {true, false}) {
            sb.append(String.format("%11s", rx ? "Port Rx" : "Port Tx"));
            for (int p = 0; p < 8; p++) {
                sb.append(String.format("  %6s", "PFC" + p));
            }
            sb.append('\n').append("-".repeat(11 + 8 * 8)).append('\n');
            for (int i = 0; i < s.ports().size(); i++) {
                PortCounters c = s.ports().get(i);
                sb.append(String.format("%11s", s.portNames().get(i)));
                for (int p = 0; p < 8; p++) {
                    sb.append(String.format("  %6d", rx ? c.rxPfc[p] : c.txPfc[p]));
                }
                sb.append('\n');
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** @return rocelab's {@code show pause counters} */
    public static String pauseCounters(SoftSwitch sw) {
        return pauseCounters(sw.countersSnapshot());
    }

    /**
     * rocelab's {@code show pause counters}: per port the 802.3x PAUSE frames received and sent,
     * pause and resume alike (SAI's {@code SAI_PORT_STAT_PAUSE_RX_PKTS}, {@code _TX_PKTS}, which
     * orchagent polls into COUNTERS_DB). sonic-utilities has no view of them ({@code show interfaces
     * counters} prints no PAUSE column, {@code show pfc counters} only PFC's), so this one is
     * rocelab's own, laid out as {@code show pfc counters}.
     */
    public static String pauseCounters(SwitchCounters s) {
        String row = "%11s  %8s  %8s%n";
        String head = String.format(row, "Port", "Rx PAUSE", "Tx PAUSE");
        StringBuilder sb = new StringBuilder(head);
        sb.append("-".repeat(head.length() - System.lineSeparator().length())).append(System.lineSeparator());
        for (int i = 0; i < s.ports().size(); i++) {
            PortCounters c = s.ports().get(i);
            sb.append(String.format(row, s.portNames().get(i), c.rxPause, c.txPause));
        }
        return sb.toString();
    }

    /** @return {@code show queue counters} (unicast queues UC0-UC7) */
    public static String queueCounters(SoftSwitch sw) {
        return queueCounters(sw.countersSnapshot());
    }

    /** @return {@code show queue counters} of a snapshot */
    public static String queueCounters(SwitchCounters s) {
        StringBuilder sb = new StringBuilder(String.format("%11s  %5s  %12s  %14s  %12s  %14s  %10s%n", "Port", "TxQ",
            "Counter/pkts", "Counter/bytes", "Drop/pkts", "Drop/bytes", "ECN/pkts"));
        sb.append("-".repeat(92)).append('\n');
        for (int i = 0; i < s.ports().size(); i++) {
            PortCounters c = s.ports().get(i);
            for (int q = 0; q < 8; q++) {
                sb.append(String.format("%11s  %5s  %12d  %14d  %12d  %14d  %10d%n", s.portNames().get(i),
                    "UC" + q, c.queueTxPackets[q], c.queueTxBytes[q], c.queueDropPackets[q], c.queueDropBytes[q],
                    c.queueEcnMarked[q]));
            }
        }
        return sb.toString();
    }

    /** @return {@code show pfcwd stats} */
    public static String pfcwdStats(SoftSwitch sw) {
        return pfcwdStats(sw.countersSnapshot());
    }

    /** @return {@code show pfcwd stats} of a snapshot */
    public static String pfcwdStats(SwitchCounters s) {
        StringBuilder sb = new StringBuilder(String.format("%16s  %12s  %24s  %12s  %12s  %16s  %16s%n", "QUEUE",
            "STATUS", "STORM DETECTED/RESTORED", "TX OK/DROP", "RX OK/DROP", "TX LAST OK/DROP", "RX LAST OK/DROP"));
        sb.append("-".repeat(122)).append('\n');
        for (QueueWatch w : s.watches()) {
            sb.append(String.format("%16s  %12s  %24s  %12s  %12s  %16s  %16s%n",
                s.portNames().get(w.port()) + ":" + w.queue(), w.stormed() ? "stormed" : "operational",
                w.stormDetected + "/" + w.stormRestored, w.txOk + "/" + w.txDrop, w.rxOk + "/" + w.rxDrop,
                w.txLastOk + "/" + w.txLastDrop, w.rxLastOk + "/" + w.rxLastDrop));
        }
        return sb.toString();
    }

    /**
     * @return {@code show buffer_pool watermark}, {@code show priority-group watermark shared} and
     *         {@code show priority-group watermark headroom} one after the other
     */
    public static String watermarks(SoftSwitch sw) {
        return bufferPoolWatermark(sw, false) + "\n" + pgWatermark(sw, false, false) + "\n" + pgWatermark(sw, true, false);
    }

    /**
     * {@code show buffer_pool watermark} ({@code persistent-watermark}): each pool's most shared
     * bytes held ({@code SAI_BUFFER_POOL_STAT_WATERMARK_BYTES}), as SONiC's watermarkstat prints it.
     */
    public static String bufferPoolWatermark(SoftSwitch sw, boolean persistent) {
        Mmu mmu = sw.mmu();
        List<String[]> rows = new ArrayList<>();
        for (int p = 0; p < mmu.poolCount(); p++) {
            rows.add(new String[] {mmu.poolName(p),
                String.valueOf(persistent ? mmu.poolPersistentWatermark(p) : mmu.poolWatermark(p))});
        }
        return "Shared pool maximum occupancy:\n" + table(new String[] {"Pool", "Bytes"}, rows);
    }

    /**
     * {@code show headroom-pool watermark}: the most bytes each pool's shared headroom pool
     * ({@code BUFFER_POOL xoff}) held ({@code SAI_BUFFER_POOL_STAT_XOFF_ROOM_WATERMARK_BYTES}).
     */
    public static String headroomPoolWatermark(SoftSwitch sw) {
        Mmu mmu = sw.mmu();
        List<String[]> rows = new ArrayList<>();
        for (int p = 0; p < mmu.poolCount(); p++) {
            if (mmu.poolHeadroom(p) > 0) {
                rows.add(new String[] {mmu.poolName(p), String.valueOf(mmu.poolHeadroomWatermark(p))});
            }
        }
        return "Headroom pool maximum occupancy:\n" + table(new String[] {"Pool", "Bytes"}, rows);
    }

    /**
     * {@code show priority-group watermark shared|headroom} ({@code persistent-watermark}): per port
     * and PG, the most bytes held in the shared pool
     * ({@code SAI_INGRESS_PRIORITY_GROUP_STAT_SHARED_WATERMARK_BYTES}) or in the headroom
     * ({@code XOFF_ROOM_WATERMARK_BYTES}), as watermarkstat prints them.
     */
    public static String pgWatermark(SoftSwitch sw, boolean headroom, boolean persistent) {
        return (headroom ? "Ingress headroom per PG:\n" : "Ingress shared pool occupancy per PG:\n")
            + perPg(sw, pg -> headroom ? (persistent ? pg.persistentHeadroomWatermark() : pg.headroomWatermark())
                : (persistent ? pg.persistentSharedWatermark() : pg.sharedWatermark()));
    }

    /**
     * {@code show priority-group drop counters}: per port and PG the frames the MMU refused
     * ({@code SAI_INGRESS_PRIORITY_GROUP_STAT_DROPPED_PACKETS}: a lossy PG over its share, a lossless
     * one whose headroom was spent), as pg-drop prints them.
     */
    public static String pgDropCounters(SoftSwitch sw) {
        return "Ingress PG dropped packets:\n" + perPg(sw, PgState::drops);
    }

    /** A table of one number per port (rows) and PG (columns PG0..PG7), as watermarkstat and pg-drop lay it out. */
    private static String perPg(SoftSwitch sw, ToLongFunction<PgState> value) {
        Mmu mmu = sw.mmu();
        String[] header = new String[9];
        header[0] = "Port";
        for (int g = 0; g < 8; g++) {
            header[g + 1] = "PG" + g;
        }
        List<String[]> rows = new ArrayList<>();
        for (int i = 0; i < sw.config().ports().size(); i++) {
            String[] row = new String[9];
            row[0] = sw.config().ports().get(i).name();
            for (int g = 0; g < 8; g++) {
                row[g + 1] = String.valueOf(value.applyAsLong(mmu.pg(i, g)));
            }
            rows.add(row);
        }
        return table(header, rows);
    }

    /** A table as SONiC's tabulate prints it: right-aligned columns, a dashed rule under the header. */
    private static String table(String[] header, List<String[]> rows) {
        int[] w = new int[header.length];
        for (int c = 0; c < header.length; c++) {
            w[c] = header[c].length();
            for (String[] r : rows) {
                w[c] = Math.max(w[c], r[c].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int c = 0; c < header.length; c++) {
            sb.append(c == 0 ? "" : "  ").append(" ".repeat(w[c] - header[c].length())).append(header[c]);
        }
        sb.append('\n');
        for (int c = 0; c < header.length; c++) {
            sb.append(c == 0 ? "" : "  ").append("-".repeat(w[c]));
        }
        sb.append('\n');
        for (String[] r : rows) {
            for (int c = 0; c < header.length; c++) {
                sb.append(c == 0 ? "" : "  ").append(" ".repeat(w[c] - r[c].length())).append(r[c]);
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /**
     * {@code show interfaces portchannel}, as SONiC's teamshow prints it: each port channel's number,
     * name, protocol ({@code LACP}, or {@code LOADBALANCE} for a static one, teamd's runner names),
     * (A)ctive, its state ({@code Up} or {@code Dw}) and its members, (S)elected or (D)eselected, with
     * {@code *} for a member selected but not (yet) in sync. Below it rocelab's LACP detail per
     * member: the actor's and the partner's state bits, the partner's system and port, LACPDUs in
     * and out. Owner thread (or after the run): it reads the live LACP state.
     */
    public static String portChannels(SoftSwitch sw) {
        StringBuilder sb = new StringBuilder();
        sb.append("Flags: A - active, I - inactive, Up - up, Dw - Down, N/A - not available,\n");
        sb.append("       S - selected, D - deselected, * - not synced\n");
        String row = "%5s  %-15s  %-18s  %s%n";
        sb.append(String.format(row, "No.", "Team Dev", "Protocol", "Ports"));
        sb.append(String.format(row, "-".repeat(5), "-".repeat(15), "-".repeat(18), "-".repeat(40)));
        StringBuilder detail = new StringBuilder();
        for (LagGroup g : sw.portChannels().groups()) {
            String number = g.name().substring("PortChannel".length());
            boolean lacp = g.config().lacp();
            String protocol = (lacp ? "LACP" : "LOADBALANCE") + "(A)(" + (g.isUp() ? "Up" : "Dw") + ")";
            StringBuilder members = new StringBuilder();
            for (int port : g.members()) {
                String name = sw.config().ports().get(port).name();
                LacpActor a = sw.lacpActor(port);
                String flag;
                if (a == null) {
                    flag = g.distributing(port) ? "S" : "D";
                } else {
                    flag = !a.selected() && !a.inFallback() ? "D" : a.distributing() ? "S" : "S*";
                    detail.append(String.format("%-11s  actor %s  partner %s %s port %d key %d  %s  rx %d tx %d%n",
                        name, a.actorInfo().stateString(), a.partner().stateString(),
                        MacAddress.toString(a.partner().system()), a.partner().port(), a.partner().key(),
                        a.rxState(), a.lacpduRx(), a.lacpduTx()));
                }
                members.append(members.length() == 0 ? "" : " ").append(name).append('(').append(flag).append(')');
            }
            sb.append(String.format(row, number, g.name(), protocol, members));
        }
        if (detail.length() > 0) {
            sb.append("\nLACP (rocelab): member, actor and partner state (ATGSCDFE), partner system, port, key, "
                + "receive state, LACPDUs\n").append(detail);
        }
        if (sw.mlag() != null) {
            sb.append(sw.mlag().describe(sw.config()));
        }
        return sb.toString();
    }
}
