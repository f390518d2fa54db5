package io.rocelab.sw.forward;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code show ars_nhg_counters}, as SONiC's Local ARS HLD lays it out (Vrf, Prefix, reassignment
 * counters per next-hop group), with the mode of each group's load balancing and the switch's
 * total: how often a flowlet or a packet took another next hop than its flow had. Drops and port
 * reassignments (of ARS over LAG members) are not counted by rocelab and not shown. Read on the
 * switch's thread.
 */
public final class ArsViews {
    private static final String NL = System.lineSeparator();

    private ArsViews() {
    }

    /** @return the table of every ECMP group with more than one next hop, then the switch's total */
    public static String nhgCounters(ForwardStage forward) {
        LoadBalancing lb = forward.balancing();
        List<String[]> rows = new ArrayList<>();
        for (RouteTable.Entry e : forward.routes().routes()) {
            if (e.group().size() > 1) {
                rows.add(row(Ipv4.toString(e.prefix()) + "/" + e.length(), e.group(), lb));
            }
        }
        for (Route6Table.Entry e : forward.routes6().routes()) {
            if (e.group().size() > 1) {
                byte[] a = ByteBuffer.allocate(16).putLong(e.high()).putLong(e.low()).array();
                rows.add(row(Ipv6.toString(a) + "/" + e.length(), e.group(), lb));
            }
        }
        String[] head = {"Vrf", "Prefix", "Mode", "Nexthops", "Nexthop reassignments"};
        int[] w = new int[head.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = head[i].length();
            for (String[] r : rows) {
                w[i] = Math.max(w[i], r[i].length());
            }
        }
        StringBuilder b = new StringBuilder();
        line(b, head, w);
        String[] rule = new String[w.length];
        for (int i = 0; i < w.length; i++) {
            rule[i] = "-".repeat(w[i]);
        }
        line(b, rule, w);
        rows.forEach(r -> line(b, r, w));
        b.append(NL).append("Path changes on this switch: ").append(lb.changes().total()).append(NL);
        return b.toString();
    }

    private static String[] row(String prefix, EcmpGroup g, LoadBalancing lb) {
        return new String[] {"default", prefix, lb.of(g).mode(), String.valueOf(g.size()),
            String.valueOf(g.reassignments())};
    }

    private static void line(StringBuilder b, String[] cells, int[] w) {
        StringBuilder l = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            l.append(String.format("%-" + w[i] + "s", cells[i]));
            if (i < cells.length - 1) {
                l.append("  ");
            }
        }
        b.append(l.toString().stripTrailing()).append(NL);
    }
}
