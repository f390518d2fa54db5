package io.rocelab.lab.labfile;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * {@code variants:} and {@code sweep:}: the runs a lab file compares. Each variant is a JSON merge
 * patch ({@link MergePatch}) of the base document; a sweep makes one variant per value of one key
 * path. Without either the file is one run, of the base as it is.
 */
final class VariantsReader {
    /** What a variant or a sweep may change. */
    static final List<String> VARIANT_KEYS = List.of("duration", "seed", "topology", "qos", "nics", "flows",
        "background", "events", "probes", "capture", RoutingReader.KEY, "lldp", CollectivesReader.KEY);
    /** Variant names are identifiers: expectations start with them ({@code lossy.switch.drops}). */
    private static final Pattern VARIANT = Pattern.compile("[A-Za-z][A-Za-z0-9_]*");

    private VariantsReader() {
    }

    /** @return variant name to its patch (null: the base as it is), in file order */
    static Map<String, YNode> read(Section top) {
        Map<String, YNode> out = new LinkedHashMap<>();
        if (top.has("variants") && top.has("sweep")) {
            top.mistake("sweep", "give variants or sweep, not both");
        }
        if (top.has("variants")) {
            Section v = Section.anyKeys(top.get("variants"), "variants", top.problems());
            if (v != null) {
                for (Map.Entry<String, YNode> e : v.map().entries().entrySet()) {
                    String name = e.getKey();
                    String path = "variants." + name;
                    if (!VARIANT.matcher(name).matches()) {
                        v.problems().add(v.map().keyLoc(name), path, "a variant's name is a letter, then letters, digits or "
                            + "'_' (expectations start with it: " + "lossy.switch.drops)");
                    }
                    if (e.getValue() instanceof YNode.YScalar s && s.isNull()) {
                        out.put(name, null);
                        continue;
                    }
                    Section.of(e.getValue(), path, v.problems(), VARIANT_KEYS.toArray(String[]::new));
                    out.put(name, e.getValue());
                }
            }
        } else if (top.has("sweep")) {
            sweep(Section.of(top.get("sweep"), "sweep", top.problems(), "key", "values", "name"), out);
        }
        if (out.isEmpty()) {
            out.put("", null);
        }
        return out;
    }

    private static void sweep(Section s, Map<String, YNode> out) {
        if (s == null) {
            return;
        }
        String key = s.text("key");
        if (key == null) {
            s.missing("key", "the key path the sweep sets, e.g. nics.cc-params.rp_ai_rate");
            return;
        }
        String[] parts = key.split("\\.");
        if (!VARIANT_KEYS.contains(parts[0])) {
            s.mistake("key", "a sweep sets one of " + String.join(", ", VARIANT_KEYS) + ", not '" + parts[0] + "'");
            return;
        }
        List<YNode> values = s.list("values");
        if (values.isEmpty()) {
            s.missing("values", "the values, one variant each");
        }
        String prefix = s.string("name", parts[parts.length - 1]).replaceAll("[^A-Za-z0-9_]", "_");
        if (!VARIANT.matcher(prefix).matches()) {
            s.mistake("name", "a sweep's name starts with a letter: '" + prefix + "'");
        }
        for (YNode value : values) {
            String text = value instanceof YNode.YScalar sc ? sc.text() : Integer.toString(out.size());
            String name = prefix + "_" + text.replaceAll("[^A-Za-z0-9_]", "_");
            YNode patch = value;
            for (int i = parts.length - 1; i >= 0; i--) {
                patch = new YNode.YMap(value.loc(), Map.of(parts[i], patch), Map.of(parts[i], value.loc()));
            }
            if (out.put(name, patch) != null) {
                s.problems().add(value.loc(), "sweep.values", "two values make variant '" + name + "'");
            }
        }
    }
}
