package io.rocelab.sw.lldp;

import io.rocelab.codec.lldp.Dcbx;
import io.rocelab.codec.lldp.DcbxApp;
import io.rocelab.codec.lldp.DcbxEts;
import io.rocelab.codec.lldp.Lldpdu;
import io.rocelab.fabric.lldp.LldpAgent;
import io.rocelab.fabric.lldp.LldpNeighbor;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * The LLDP views a SONiC user knows: {@code show lldp neighbors} (lldpctl's text, which SONiC's
 * {@code show lldp neighbors} prints), {@code show lldp table} (sonic-utilities' lldpshow: a
 * tabulate table and the count) and {@code show lldp statistics} (lldpcli's {@code show
 * statistics}: per port transmitted, received, discarded, aged out, inserted, deleted). Below
 * each neighbour's port, rocelab adds the DCBX TLVs it advertised (lldpd shows none). Owner thread
 * (or after the run): they read the agents.
 */
public final class LldpViews {
    private static final String RULE = "-".repeat(79) + "\n";
    /** lldpd's capability names in its display order, with their bits. */
    private static final String[] CAP_NAMES = {"Other", "Repeater", "Bridge", "Router", "Wlan", "Tel", "Docsis",
        "Station"};
    private static final int[] CAP_BITS = {Lldpdu.Capabilities.OTHER, Lldpdu.Capabilities.REPEATER,
        Lldpdu.Capabilities.BRIDGE, Lldpdu.Capabilities.ROUTER, Lldpdu.Capabilities.WLAN_ACCESS_POINT,
        Lldpdu.Capabilities.TELEPHONE, Lldpdu.Capabilities.DOCSIS, Lldpdu.Capabilities.STATION_ONLY};

    private LldpViews() {
    }

    /** A port's name and its agent. */
    public record Port(String name, LldpAgent agent) {
    }

    /**
     * lldpctl's neighbours, as {@code show lldp neighbors} prints them.
     *
     * @param nowNanos the scheduler's time, for each entry's age
     */
    public static String neighbors(List<Port> ports, long nowNanos) {
        StringBuilder sb = new StringBuilder();
        sb.append(RULE).append("LLDP neighbors:\n").append(RULE);
        for (Port p : ports) {
            LldpNeighbor n = p.agent().neighbor();
            if (n == null) {
                continue;
            }
            Lldpdu pdu = n.pdu();
            sb.append(String.format("Interface:    %s, via: LLDP, RID: %d, Time: %s%n", p.name(), n.index(),
                age(nowNanos - n.changedNanos())));
            sb.append("  Chassis:     \n");
            line(sb, "ChassisID", pdu.chassisId().kind(true) + " " + pdu.chassisId().value());
            if (pdu.systemName() != null) {
                line(sb, "SysName", pdu.systemName());
            }
            if (pdu.systemDescription() != null) {
                line(sb, "SysDescr", pdu.systemDescription());
            }
            if (pdu.managementAddress() != null) {
                line(sb, "MgmtIP", pdu.managementAddress().address());
                line(sb, "MgmtIface", String.valueOf(pdu.managementAddress().ifIndex()));
            }
            if (pdu.capabilities() != null) {
                for (int c = 0; c < CAP_NAMES.length; c++) {
                    if ((pdu.capabilities().supported() & CAP_BITS[c]) != 0) {
                        line(sb, "Capability", CAP_NAMES[c] + ", "
                            + ((pdu.capabilities().enabled() & CAP_BITS[c]) != 0 ? "on" : "off"));
                    }
                }
            }
            sb.append("  Port:        \n");
            line(sb, "PortID", pdu.portId().kind(false) + " " + pdu.portId().value());
            if (pdu.portDescription() != null) {
                line(sb, "PortDescr", pdu.portDescription());
            }
            line(sb, "TTL", String.valueOf(pdu.ttl()));
            dcbx(sb, pdu.dcbx());
            sb.append(RULE);
        }
        return sb.toString();
    }

    private static void line(StringBuilder sb, String key, String value) {
        sb.append("    ").append(String.format("%-14s", key + ":")).append(value).append('\n');
    }

    /** lldpd's age: {@code 0 day, 00:00:10}. */
    private static String age(long nanos) {
        long s = Math.max(0, nanos) / LldpAgent.SECOND;
        long days = s / 86_400;
        return String.format("%d day%s, %02d:%02d:%02d", days, days > 1 ? "s" : "", s / 3600 % 24, s / 60 % 60, s % 60);
    }

    private static void dcbx(StringBuilder sb, Dcbx d) {
        if (d.isEmpty()) {
            return;
        }
        sb.append("  DCBX:        \n");
        if (d.pfc() != null) {
            line(sb, "PFC", "willing " + yesNo(d.pfc().willing()) + ", cap " + d.pfc().capability() + ", enabled "
                + priorities(d.pfc().enableMask()));
        }
        if (d.etsConfiguration() != null) {
            DcbxEts e = d.etsConfiguration();
            line(sb, "ETS", "willing " + yesNo(e.willing()) + ", max TCs " + e.maxTcs() + ", " + ets(e));
        }
        if (d.etsRecommendation() != null) {
            line(sb, "ETS-Reco", ets(d.etsRecommendation()));
        }
        if (d.applications() != null) {
            StringJoiner j = new StringJoiner(", ");
            for (DcbxApp a : d.applications()) {
                j.add(selector(a.selector()) + " " + (a.selector() == DcbxApp.SELECTOR_ETHERTYPE
                    ? String.format("0x%04x", a.protocol()) : String.valueOf(a.protocol())) + " prio " + a.priority());
            }
            line(sb, "App", j.length() == 0 ? "none" : j.toString());
        }
    }

    private static String yesNo(boolean b) {
        return b ? "yes" : "no";
    }

    private static String priorities(int mask) {
        StringJoiner j = new StringJoiner(",");
        for (int p = 0; p < 8; p++) {
            if ((mask & (1 << p)) != 0) {
                j.add(String.valueOf(p));
            }
        }
        return j.length() == 0 ? "none" : j.toString();
    }

    private static String ets(DcbxEts e) {
        StringJoiner tc = new StringJoiner(",");
        for (int v : e.priorityToTc()) {
            tc.add(String.valueOf(v));
        }
        StringJoiner bw = new StringJoiner(",");
        for (int v : e.tcBandwidth()) {
            bw.add(String.valueOf(v));
        }
        StringJoiner tsa = new StringJoiner(",");
        for (int v : e.tsa()) {
            tsa.add(switch (v) {
                case DcbxEts.TSA_STRICT -> "strict";
                case DcbxEts.TSA_CBS -> "cbs";
                case DcbxEts.TSA_ETS -> "ets";
                default -> String.valueOf(v);
            });
        }
        return "prio2tc " + tc + ", tcbw " + bw + ", tsa " + tsa;
    }

    private static String selector(int s) {
        return switch (s) {
            case DcbxApp.SELECTOR_ETHERTYPE -> "ethertype";
            case DcbxApp.SELECTOR_TCP -> "tcp";
            case DcbxApp.SELECTOR_UDP -> "udp";
            case DcbxApp.SELECTOR_TCP_UDP -> "tcp/udp";
            case DcbxApp.SELECTOR_DSCP -> "dscp";
            default -> "selector" + s;
        };
    }

    /**
     * lldpshow's table, as {@code show lldp table} prints it: local port, the neighbour's system
     * name, port ID, enabled capabilities ((R)outer, (B)ridge, (O)ther, one letter per enabled
     * capability in lldpd's order) and port description, tabulate's plain layout, then the count.
     */
    public static String table(List<Port> ports) {
        List<String[]> rows = new ArrayList<>();
        for (Port p : ports) {
            LldpNeighbor n = p.agent().neighbor();
            if (n == null) {
                continue;
            }
            Lldpdu pdu = n.pdu();
            StringBuilder caps = new StringBuilder();
            if (pdu.capabilities() != null) {
                for (int c = 0; c < CAP_NAMES.length; c++) {
                    if ((pdu.capabilities().enabled() & pdu.capabilities().supported() & CAP_BITS[c]) != 0) {
                        caps.append(CAP_NAMES[c].equals("Router") ? "R" : CAP_NAMES[c].equals("Bridge") ? "B" : "O");
                    }
                }
            }
            rows.add(new String[] {p.name(), pdu.systemName() == null ? "" : pdu.systemName(), pdu.portId().value(),
                caps.toString(), pdu.portDescription() == null ? "" : pdu.portDescription()});
        }
        StringBuilder sb = new StringBuilder("Capability codes: (R) Router, (B) Bridge, (O) Other\n");
        sb.append(tabulate(new String[] {"LocalPort", "RemoteDevice", "RemotePortID", "Capability", "RemotePortDescr"},
            rows));
        sb.append("-".repeat(50)).append('\n');
        sb.append("Total entries displayed:  ").append(rows.size()).append('\n');
        return sb.toString();
    }

    /**
     * Python tabulate's default ("simple") layout of strings: left-aligned, two spaces apart, a dashed
     * rule, each column at least its header and tabulate's MIN_PADDING (2) wide, every cell padded
     * (so lines end in spaces, as lldpshow's do).
     */
    private static String tabulate(String[] header, List<String[]> rows) {
        int[] w = new int[header.length];
        for (int c = 0; c < header.length; c++) {
            w[c] = header[c].length() + 2;
            for (String[] r : rows) {
                w[c] = Math.max(w[c], r[c].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        row(sb, header, w);
        String[] rule = new String[header.length];
        for (int c = 0; c < header.length; c++) {
            rule[c] = "-".repeat(w[c]);
        }
        row(sb, rule, w);
        for (String[] r : rows) {
            row(sb, r, w);
        }
        return sb.toString();
    }

    private static void row(StringBuilder sb, String[] cells, int[] w) {
        for (int c = 0; c < cells.length; c++) {
            sb.append(c == 0 ? "" : "  ").append(cells[c]).append(" ".repeat(w[c] - cells[c].length()));
        }
        sb.append('\n');
    }

    /** lldpcli's {@code show statistics}: per port, what LLDP sent, received, discarded and aged out. */
    public static String statistics(List<Port> ports) {
        StringBuilder sb = new StringBuilder();
        sb.append(RULE).append("LLDP statistics:\n").append(RULE);
        for (Port p : ports) {
            LldpAgent a = p.agent();
            sb.append("Interface:    ").append(p.name()).append('\n');
            stat(sb, "Transmitted", a.framesOut());
            stat(sb, "Received", a.framesIn());
            stat(sb, "Discarded", a.framesDiscarded());
            stat(sb, "Ageout", a.ageouts());
            stat(sb, "Inserted", a.inserts());
            stat(sb, "Deleted", a.deletes());
            sb.append(RULE);
        }
        return sb.toString();
    }

    private static void stat(StringBuilder sb, String key, long v) {
        sb.append("  ").append(String.format("%-14s", key + ":")).append(v).append('\n');
    }
}
