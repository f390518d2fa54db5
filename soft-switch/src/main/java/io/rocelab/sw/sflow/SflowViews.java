package io.rocelab.sw.sflow;

import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.config.SflowConfig;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.views.NaturalOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * sFlow as SONiC's CLI shows it (sonic-utilities {@code show/sflow.py}): {@code show sflow} (the
 * global settings and collectors, from {@code config_db}) and {@code show sflow interface} (each
 * port's sampling as sflowmgrd writes it to {@code APP_DB SFLOW_SESSION_TABLE}: no row for a port it
 * writes none for, none at all while sFlow is down), and rocelab's {@code show sflow counters}.
 */
public final class SflowViews {
    private static final int LJUST = 35;

    private SflowViews() {
    }

    /** @return {@code show sflow} */
    public static String global(SflowConfig c) {
        StringBuilder sb = new StringBuilder("\nsFlow Global Information:\n");
        line(sb, "  sFlow Admin State:", c.adminUp() ? "up" : "down");
        line(sb, "  sFlow Sample Direction:", c.direction().text());
        line(sb, "  sFlow Polling Interval:", c.pollingGiven() ? String.valueOf(c.pollingInterval()) : "default");
        line(sb, "  sFlow Drop Notification Limit:", String.valueOf(c.dropMonitorLimit()));
        line(sb, "  sFlow AgentID:", c.agentId() == null ? "default" : c.agentId());
        sb.append("\n  ").append(c.collectors().size()).append(" Collectors configured:\n");
        List<SflowConfig.Collector> sorted = new ArrayList<>(c.collectors());
        sorted.sort(Comparator.comparing(SflowConfig.Collector::name));
        for (SflowConfig.Collector k : sorted) {
            sb.append(pad("    Name: " + k.name(), LJUST)).append(pad("IP addr: " + k.ip() + " ", 25))
                .append(pad("UDP port: " + k.port(), 17)).append("VRF: ").append(k.vrf() == null ? "default" : k.vrf())
                .append('\n');
        }
        return sb.toString();
    }

    private static void line(StringBuilder sb, String label, String value) {
        sb.append(pad(label, LJUST)).append(value).append('\n');
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }

    /** @return {@code show sflow interface}: python tabulate's grid, ports in natural order */
    public static String interfaces(SwitchConfig config) {
        List<PortConfig> ports = new ArrayList<>(config.ports());
        ports.sort(Comparator.comparing(PortConfig::name, NaturalOrder.INSTANCE));
        List<String[]> rows = new ArrayList<>();
        for (PortConfig p : ports) {
            SflowConfig.PortSampling s = config.sflow().session(p.name(), p.speedBitsPerSecond());
            if (s != null) {
                rows.add(new String[] {p.name(), s.adminUp() ? "up" : "down", String.valueOf(s.sampleRate()),
                    s.direction().text()});
            }
        }
        return "\nsFlow interface configurations\n" + grid(new String[] {"Interface", "Admin State", "Sampling Rate",
            "Sampling Direction"}, new boolean[] {false, false, !rows.isEmpty(), false}, rows);
    }

    /** @return rocelab's {@code show sflow counters}: the agent's datagrams and each port's samples */
    public static String counters(SflowCounters c) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "sFlow agent %s: %d datagrams, %d sent to collectors (%d bytes)%n",
            c.agentAddress(), c.datagrams(), c.sent(), c.bytesSent()));
        String row = "%-11s  %7s  %8s  %12s  %10s  %10s  %15s%n";
        sb.append(String.format(Locale.ROOT, row, "Interface", "ifIndex", "Rate", "Sample Pool", "Rx Samples",
            "Tx Samples", "Counter Samples"));
        for (SflowCounters.Port p : c.ports()) {
            sb.append(String.format(Locale.ROOT, row, p.name(), p.ifIndex(), p.rate() == 0 ? "-" : p.rate(), p.pool(),
                p.ingressSamples(), p.egressSamples(), p.counterSamples()));
        }
        return sb.toString();
    }

    /**
     * python-tabulate's {@code grid} format: each column as wide as its widest cell or its header
     * plus 2, numbers right-aligned (their header too), text left-aligned.
     */
    static String grid(String[] headers, boolean[] numeric, List<String[]> rows) {
        int[] width = new int[headers.length];
        for (int i = 0; i < headers.length; i++) {
            width[i] = headers[i].length() + 2;
            for (String[] r : rows) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        rule(sb, width, '-');
        cells(sb, width, numeric, headers);
        rule(sb, width, '=');
        for (String[] r : rows) {
            cells(sb, width, numeric, r);
            rule(sb, width, '-');
        }
        if (rows.isEmpty()) {
            rule(sb, width, '-');
        }
        return sb.toString();
    }

    private static void rule(StringBuilder sb, int[] width, char c) {
        for (int w : width) {
            sb.append('+').append(String.valueOf(c).repeat(w + 2));
        }
        sb.append("+\n");
    }

    private static void cells(StringBuilder sb, int[] width, boolean[] right, String[] values) {
        for (int i = 0; i < width.length; i++) {
            String v = values[i];
            String gap = " ".repeat(width[i] - v.length());
            sb.append("| ").append(right[i] ? gap + v : v + gap).append(' ');
        }
        sb.append("|\n");
    }
}
