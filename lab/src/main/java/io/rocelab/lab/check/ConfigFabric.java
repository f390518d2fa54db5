package io.rocelab.lab.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocelab.fabric.pfc.PauseResponse;
import io.rocelab.lab.check.FabricView.Assumptions;
import io.rocelab.lab.check.FabricView.Cable;
import io.rocelab.lab.check.FabricView.End;
import io.rocelab.lab.check.FabricView.SwitchView;
import io.rocelab.sw.config.ConfigException;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.sw.config.SwitchConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Real switches' config_db.json files as a fabric for the lossless checks: each file's switch is named by
 * its {@code DEVICE_METADATA|localhost hostname}; the cables between them come from {@code --link
 * SW_A:PORT=SW_B:PORT} and from the files' own {@code DEVICE_NEIGHBOR} table (SONiC's record of what each
 * port is cabled to, {@code Ethernet0: {name: leaf1, port: Ethernet48}}) where it names another of the
 * files' switches. Every port of a file is taken as carrying the class (the check does not know what
 * the ports without a cable to another file face).
 */
public final class ConfigFabric {
    /** The mistakes in the files or the links, one line each: the command prints them and exits 2. */
    public static final class Mistakes extends Exception {
        private final List<String> lines;

        Mistakes(List<String> lines) {
            super(String.join("; ", lines), null, false, false);
            this.lines = List.copyOf(lines);
        }

        public List<String> lines() {
            return lines;
        }
    }

    /**
     * What a user may say beside the files.
     *
     * @param incast   the ECN check's incast degree, 0 for the default
     * @param cnpDscp  the CNPs' DSCP
     * @param response how long a port's link partner takes to act on a pause, or null for SONiC's
     *                 assumed 3.8 KiB
     */
    public record Options(int incast, int cnpDscp, PauseResponse response) {
    }

    private ConfigFabric() {
    }

    /**
     * @param files the config_db.json files
     * @param links {@code SW_A:PORT=SW_B:PORT}, each a cable
     * @param opts  the assumptions a user gave
     * @return the fabric
     * @throws Mistakes every mistake at once: unreadable or invalid files, two files of one hostname,
     *                  links naming a switch or port that is not there, or a port twice
     */
    public static FabricView read(List<Path> files, List<String> links, Options opts) throws Mistakes {
        List<String> mistakes = new ArrayList<>();
        Map<String, SwitchView> byName = new LinkedHashMap<>();
        Map<String, JsonNode> neighbours = new HashMap<>();
        ObjectMapper json = new ObjectMapper();
        for (Path file : files) {
            String text;
            try {
                text = Files.readString(file);
            } catch (IOException e) {
                mistakes.add(file + ": cannot read it (" + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage()) + ")");
                continue;
            }
            SwitchConfig cfg;
            try {
                cfg = ConfigLoader.read(text).config();
            } catch (ConfigException e) {
                e.problems().forEach(p -> mistakes.add(file + ": " + p));
                continue;
            } catch (RuntimeException e) {
                mistakes.add(file + ": " + e.getMessage());
                continue;
            }
            String name = cfg.hostname();
            SwitchView before = byName.putIfAbsent(name, new SwitchView(name, file.toString(), cfg, true));
            if (before != null) {
                mistakes.add(file + ": DEVICE_METADATA|localhost: hostname '" + name + "' is also " + before.file()
                    + "'s: each file is one switch, named by its hostname");
                continue;
            }
            try {
                JsonNode n = json.readTree(text).path("DEVICE_NEIGHBOR");
                if (n.isObject()) {
                    neighbours.put(name, n);
                }
            } catch (IOException e) {
                mistakes.add(file + ": " + e.getMessage());
            }
        }
        FabricView partial = new FabricView(List.copyOf(byName.values()), List.of(), List.of(), assumptions(opts));
        Map<End, String> used = new HashMap<>();
        List<Cable> cables = new ArrayList<>();
        for (String link : links) {
            int eq = link.indexOf('=');
            End a = eq < 0 ? null : end(link.substring(0, eq));
            End b = eq < 0 ? null : end(link.substring(eq + 1));
            if (a == null || b == null) {
                mistakes.add("--link " + link + ": write SW_A:PORT=SW_B:PORT, e.g. leaf0:Ethernet0=spine0:Ethernet4");
                continue;
            }
            String bad = unknown(partial, a);
            bad = bad != null ? bad : unknown(partial, b);
            if (bad == null && a.equals(b)) {
                bad = "both ends are " + a;
            }
            if (bad == null) {
                for (End e : List.of(a, b)) {
                    String other = used.putIfAbsent(e, "--link " + link);
                    if (other != null && bad == null) {
                        bad = e + " is already cabled by " + other;
                    }
                }
            }
            if (bad != null) {
                mistakes.add("--link " + link + ": " + bad);
            } else {
                cables.add(new Cable(a, b, -1, ""));
            }
        }
        if (!mistakes.isEmpty()) {
            throw new Mistakes(mistakes);
        }
        for (var e : neighbours.entrySet()) {
            var fields = e.getValue().fields();
            while (fields.hasNext()) {
                var port = fields.next();
                End a = new End(e.getKey(), port.getKey());
                End b = new End(port.getValue().path("name").asText(""), port.getValue().path("port").asText(""));
                if (unknown(partial, a) == null && unknown(partial, b) == null && !used.containsKey(a)
                    && !used.containsKey(b)) {
                    used.put(a, "DEVICE_NEIGHBOR");
                    used.put(b, "DEVICE_NEIGHBOR");
                    cables.add(new Cable(a, b, -1, ""));
                }
            }
        }
        return new FabricView(partial.switches(), List.of(), cables, partial.assume());
    }

    private static Assumptions assumptions(Options o) {
        int n = o.incast() > 0 ? o.incast() : LabFabric.MIN_INCAST;
        String why = o.incast() > 0 ? "as given" : "the fewest senders that build a queue";
        String responseWhy = o.response() != null ? "the link partner's pause response (--peer-response "
            + o.response() + ")" : "SONiC's assumed pause response of 3.8 KiB (--peer-response to change it)";
        return new Assumptions(n, why, "--incast N", o.cnpDscp(), o.response(), responseWhy, true);
    }

    private static End end(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            return null;
        }
        return new End(text.substring(0, colon).trim(), text.substring(colon + 1).trim());
    }

    private static String unknown(FabricView f, End e) {
        SwitchView s = f.switchNamed(e.node());
        if (s == null) {
            return "no switch '" + e.node() + "' among the files (their DEVICE_METADATA hostnames: "
                + String.join(", ", f.switches().stream().map(SwitchView::name).toList()) + ")";
        }
        return s.config().portIndex(e.port()) < 0 ? "switch '" + e.node() + "' (" + s.file() + ") has no port '"
            + e.port() + "'" : null;
    }
}
