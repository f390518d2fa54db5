package io.rocelab.lab.labfile;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A lab file's YAML as a tree that remembers where each value and key came from, so that a mistake
 * can be reported with its line and column even after variants were merged over the base.
 */
public sealed interface YNode permits YNode.YMap, YNode.YList, YNode.YScalar {
    /** @return where this value starts */
    Loc loc();

    /** A YAML mapping, in the file's order; each key keeps its own location. */
    record YMap(Loc loc, Map<String, YNode> entries, Map<String, Loc> keyLocs) implements YNode {
        public YMap {
            entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
            keyLocs = Collections.unmodifiableMap(new LinkedHashMap<>(keyLocs));
        }

        public YNode get(String key) {
            return entries.get(key);
        }

        /** @return where {@code key} is written, else where the mapping starts */
        public Loc keyLoc(String key) {
            Loc l = keyLocs.get(key);
            return l != null ? l : loc;
        }
    }

    /** A YAML sequence. */
    record YList(Loc loc, List<YNode> items) implements YNode {
        public YList {
            items = List.copyOf(items);
        }
    }

    /**
     * A scalar: a {@code String}, {@code Long}, {@code Double}, {@code Boolean}, or null (YAML's
     * {@code null} or {@code ~}).
     */
    record YScalar(Loc loc, Object value) implements YNode {
        /** @return the scalar as the user wrote it (numbers in plain notation), "null" for null */
        public String text() {
            if (value instanceof Double d && d == Math.rint(d) && Math.abs(d) < 1e15) {
                return Long.toString(d.longValue());
            }
            return Objects.toString(value);
        }

        public boolean isNull() {
            return value == null;
        }
    }

    /** @return a short name of the node's kind for messages: "a mapping", "a list", "a number" ... */
    static String kind(YNode n) {
        if (n instanceof YMap) {
            return "a mapping";
        }
        if (n instanceof YList) {
            return "a list";
        }
        Object v = ((YScalar) n).value();
        return v == null ? "null" : v instanceof String ? "text" : v instanceof Boolean ? "true/false" : "a number";
    }

    /** A list of nodes, for building trees in code (variants, sweeps). */
    static YList list(Loc loc, List<YNode> items) {
        return new YList(loc, new ArrayList<>(items));
    }
}
