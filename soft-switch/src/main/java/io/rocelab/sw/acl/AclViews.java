package io.rocelab.sw.acl;

import io.rocelab.sw.config.AclConfig;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * SONiC's ACL views as sonic-utilities prints them: {@code show acl table} and {@code show acl rule}
 * (acl-loader's {@code show_table}, {@code show_rule}) and {@code aclshow -a} (its counters table),
 * each a tabulate "simple" table (text columns left-aligned, number columns right-aligned, a dashed
 * rule under the header). The Status column is {@code Active} for the tables and rules the switch
 * acts on and {@code N/A} for the rest (SONiC reads it from STATE_DB; a table of a type rocelab does
 * not model has no state here). Rules are listed highest priority first, as acl-loader sorts them
 * (it compares the priorities as text; here as numbers).
 */
public final class AclViews {
    private AclViews() {
    }

    /** {@code show acl table}: name, type, each bound port on its own line, description, stage, status. */
    public static String tables(AclConfig acl) {
        List<String[]> rows = new ArrayList<>();
        for (AclConfig.Table t : acl.tables()) {
            List<String> ports = new ArrayList<>(t.ports());
            ports.sort(NATURAL);
            String stage = t.egress() ? "egress" : "ingress";
            String status = t.modelled() ? "Active" : "N/A";
            rows.add(new String[] {t.name(), t.type(), ports.isEmpty() ? "" : ports.get(0), t.description(), stage,
                status});
            for (int i = 1; i < ports.size(); i++) {
                rows.add(new String[] {"", "", ports.get(i), "", "", ""});
            }
        }
        return tabulate(new String[] {"Name", "Type", "Binding", "Description", "Stage", "Status"}, rows);
    }

    /** {@code show acl rule}: table, rule, priority, action, each match field on its own line, status. */
    public static String rules(AclConfig acl) {
        List<AclConfig.Rule> rules = new ArrayList<>(acl.rules());
        rules.sort(Comparator.comparingInt((AclConfig.Rule r) -> -r.priority()));
        List<String[]> rows = new ArrayList<>();
        for (AclConfig.Rule r : rules) {
            String action = "";
            List<String> matches = new ArrayList<>();
            for (Map.Entry<String, String> f : r.fields().entrySet()) {
                switch (f.getKey()) {
                    case "PRIORITY" -> {
                    }
                    case "PACKET_ACTION" -> action = f.getValue();
                    case "MIRROR_ACTION", "MIRROR_INGRESS_ACTION" -> action = "MIRROR INGRESS: " + f.getValue();
                    case "MIRROR_EGRESS_ACTION" -> action = "MIRROR EGRESS: " + f.getValue();
                    default -> matches.add(f.getKey() + ": " + f.getValue());
                }
            }
            matches.sort(null);
            if (matches.isEmpty()) {
                matches.add("N/A");
            }
            AclConfig.Table t = acl.table(r.table());
            rows.add(new String[] {r.table(), r.name(), String.valueOf(r.priority()), action, matches.get(0),
                t != null && t.modelled() ? "Active" : "N/A"});
            for (int i = 1; i < matches.size(); i++) {
                rows.add(new String[] {"", "", "", "", matches.get(i), ""});
            }
        }
        return tabulate(new String[] {"Table", "Rule", "Priority", "Action", "Match", "Status"}, rows);
    }

    /**
     * {@code aclshow -a}: every rule's packets and bytes, by table name and then highest priority
     * first; {@code N/A} for a rule the switch does not act on (no counter).
     */
    public static String counters(AclConfig acl, List<AclStage.RuleCounter> counters) {
        List<String[]> rows = new ArrayList<>();
        List<AclConfig.Rule> rules = new ArrayList<>(acl.rules());
        rules.sort(Comparator.comparing(AclConfig.Rule::table).thenComparingInt(r -> -r.priority()));
        for (AclConfig.Rule r : rules) {
            AclStage.RuleCounter c = counters.stream()
                .filter(x -> x.table().equals(r.table()) && x.rule().equals(r.name())).findFirst().orElse(null);
            AclConfig.Table t = acl.table(r.table());
            boolean counted = c != null && t != null && t.modelled();
            rows.add(new String[] {r.name(), r.table(), String.valueOf(r.priority()),
                counted ? String.valueOf(c.packets()) : "N/A", counted ? String.valueOf(c.bytes()) : "N/A"});
        }
        return tabulate(new String[] {"RULE NAME", "TABLE NAME", "PRIO", "PACKETS COUNT", "BYTES COUNT"}, rows);
    }

    /**
     * {@code show mirror_session}: acl-loader's two tables, ERSPAN sessions then SPAN sessions. The
     * status is {@code active} for a SPAN session (its copies are sent) and {@code inactive} for an
     * ERSPAN one (not modelled: nothing is sent); the ERSPAN columns rocelab does not keep are blank.
     */
    public static String sessions(AclConfig acl) {
        List<String[]> erspan = new ArrayList<>();
        List<String[]> span = new ArrayList<>();
        acl.sessions().values().stream().sorted(Comparator.comparing(AclConfig.MirrorSession::name)).forEach(m -> {
            String src = m.srcPort() == null ? "" : m.srcPort();
            if (m.span()) {
                span.add(new String[] {m.name(), "active", m.dstPort(), src, "", "", ""});
            } else {
                erspan.add(new String[] {m.name(), "inactive", "", "", "", "", "", "", "", "", src, ""});
            }
        });
        return "ERSPAN Sessions\n" + tabulate(new String[] {"Name", "Status", "SRC IP", "DST IP", "GRE", "DSCP", "TTL",
            "Queue", "Policer", "Monitor Port", "SRC Port", "Direction"}, erspan) + "\nSPAN Sessions\n"
            + tabulate(new String[] {"Name", "Status", "DST Port", "SRC Port", "Direction", "Queue", "Policer"}, span);
    }

    /** Ethernet4 before Ethernet12, as natsort orders them. */
    private static final Comparator<String> NATURAL = Comparator.comparing((String s) -> s.replaceAll("\\d+", ""))
        .thenComparingLong(s -> {
            String d = s.replaceAll("\\D+", "");
            return d.isEmpty() || d.length() > 18 ? 0 : Long.parseLong(d);
        });

    /** python-tabulate's "simple" format: numbers right-aligned, text left-aligned, two spaces apart. */
    static String tabulate(String[] header, List<String[]> rows) {
        int n = header.length;
        int[] w = new int[n];
        boolean[] numeric = new boolean[n];
        for (int c = 0; c < n; c++) {
            w[c] = header[c].length();
            boolean any = false;
            boolean all = true;
            for (String[] r : rows) {
                w[c] = Math.max(w[c], r[c].length());
                if (!r[c].isEmpty()) {
                    any = true;
                    all &= r[c].matches("-?\\d+");
                }
            }
            numeric[c] = any && all;
        }
        StringBuilder sb = new StringBuilder();
        line(sb, header, w, numeric);
        String[] dashes = new String[n];
        for (int c = 0; c < n; c++) {
            dashes[c] = "-".repeat(w[c]);
        }
        line(sb, dashes, w, numeric);
        for (String[] r : rows) {
            line(sb, r, w, numeric);
        }
        return sb.toString();
    }

    private static void line(StringBuilder sb, String[] cells, int[] w, boolean[] right) {
        StringBuilder l = new StringBuilder();
        for (int c = 0; c < cells.length; c++) {
            String pad = " ".repeat(w[c] - cells[c].length());
            l.append(c == 0 ? "" : "  ").append(right[c] ? pad + cells[c] : cells[c] + pad);
        }
        sb.append(l.toString().stripTrailing()).append('\n');
    }
}
