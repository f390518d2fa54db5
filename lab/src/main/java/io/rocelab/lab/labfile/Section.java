package io.rocelab.lab.labfile;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * One mapping of a lab file being read: typed getters that report a wrong value as a mistake at its
 * place (and return a default, so reading goes on and every mistake is found in one pass), and a
 * check that every key is one this mapping knows, suggesting the closest known key otherwise.
 */
final class Section {
    private final YNode.YMap map;
    private final String path;
    private final Problems problems;

    private Section(YNode.YMap map, String path, Problems problems) {
        this.map = map;
        this.path = path;
        this.problems = problems;
    }

    /**
     * @param node  the value that must be a mapping
     * @param known its keys
     * @return the section, or null (a mistake reported) if {@code node} is not a mapping
     */
    static Section of(YNode node, String path, Problems problems, String... known) {
        if (!(node instanceof YNode.YMap m)) {
            problems.add(node.loc(), path, "must be a mapping (key: value), not " + YNode.kind(node));
            return null;
        }
        Section s = new Section(m, path, problems);
        s.onlyKeys(Arrays.asList(known));
        return s;
    }

    /** A mapping whose keys are names the file chooses (variants): any key. */
    static Section anyKeys(YNode node, String path, Problems problems) {
        if (!(node instanceof YNode.YMap m)) {
            problems.add(node.loc(), path, "must be a mapping (key: value), not " + YNode.kind(node));
            return null;
        }
        return new Section(m, path, problems);
    }

    /** An empty section, for a mapping the file left out. */
    static Section empty(Loc loc, String path, Problems problems) {
        return new Section(new YNode.YMap(loc, java.util.Map.of(), java.util.Map.of()), path, problems);
    }

    private void onlyKeys(Collection<String> known) {
        for (String key : map.entries().keySet()) {
            if (!known.contains(key)) {
                String near = closest(key, known);
                problems.add(map.keyLoc(key), path(key), "unknown key '" + key + "'"
                    + (near != null ? " (did you mean '" + near + "'?)" : " (known: " + String.join(", ", known) + ")"));
            }
        }
    }

    /** @return the known word nearest to {@code word} (edit distance), or null if none is near */
    static String closest(String word, Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known) {
            int d = distance(word.toLowerCase(Locale.ROOT), k.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = k;
            }
        }
        return best != null && bestDistance <= Math.max(2, word.length() / 3) ? best : null;
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    YNode.YMap map() {
        return map;
    }

    Problems problems() {
        return problems;
    }

    String path() {
        return path;
    }

    String path(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    boolean has(String key) {
        return map.entries().containsKey(key);
    }

    YNode get(String key) {
        return map.get(key);
    }

    /** @return where the value of {@code key} is, else where the mapping is */
    Loc loc(String key) {
        YNode n = map.get(key);
        return n != null ? n.loc() : map.loc();
    }

    void mistake(String key, String what) {
        problems.add(loc(key), path(key), what);
    }

    /** Reports that {@code key} is required. */
    void missing(String key, String what) {
        problems.add(map.loc(), path, "'" + key + "' is missing: " + what);
    }

    /** @return the scalar text of {@code key}, or null if absent (a mistake if it is not a scalar) */
    String text(String key) {
        YNode n = map.get(key);
        if (n == null) {
            return null;
        }
        if (n instanceof YNode.YScalar s && !s.isNull()) {
            return s.text();
        }
        mistake(key, "must be a single value, not " + YNode.kind(n));
        return null;
    }

    String string(String key, String otherwise) {
        String t = text(key);
        return t != null ? t : otherwise;
    }

    long nanos(String key, long otherwise) {
        String t = text(key);
        if (t == null) {
            return otherwise;
        }
        try {
            return Quantity.nanos(t);
        } catch (IllegalArgumentException e) {
            mistake(key, e.getMessage());
            return otherwise;
        }
    }

    /** A time of the run: not negative ("before time 0"). */
    long time(String key, long otherwise) {
        String t = text(key);
        if (t != null && t.trim().startsWith("-")) {
            mistake(key, "before time 0: " + t);
            return otherwise;
        }
        return nanos(key, otherwise);
    }

    long bitsPerSecond(String key, long otherwise) {
        String t = text(key);
        if (t == null) {
            return otherwise;
        }
        try {
            return Quantity.bitsPerSecond(t);
        } catch (IllegalArgumentException e) {
            mistake(key, e.getMessage());
            return otherwise;
        }
    }

    long bytes(String key, long otherwise) {
        String t = text(key);
        if (t == null) {
            return otherwise;
        }
        try {
            return Quantity.bytes(t);
        } catch (IllegalArgumentException e) {
            mistake(key, e.getMessage());
            return otherwise;
        }
    }

    double fraction(String key, double otherwise) {
        String t = text(key);
        if (t == null) {
            return otherwise;
        }
        try {
            double f = Quantity.fraction(t);
            if (f < 0 || f > 1) {
                mistake(key, "must be between 0 and 1 (0 % and 100 %): " + t);
                return otherwise;
            }
            return f;
        } catch (IllegalArgumentException e) {
            mistake(key, e.getMessage());
            return otherwise;
        }
    }

    double number(String key, double otherwise) {
        String t = text(key);
        if (t == null) {
            return otherwise;
        }
        try {
            return Double.parseDouble(t);
        } catch (NumberFormatException e) {
            mistake(key, "must be a number: '" + t + "'");
            return otherwise;
        }
    }

    long integer(String key, long otherwise, long min, long max) {
        String t = text(key);
        if (t == null) {
            return otherwise;
        }
        long v;
        try {
            v = Long.parseLong(t);
        } catch (NumberFormatException e) {
            mistake(key, "must be a whole number: '" + t + "'");
            return otherwise;
        }
        if (v < min || v > max) {
            mistake(key, "must be " + min + ".." + max + ": " + v);
            return otherwise;
        }
        return v;
    }

    boolean bool(String key, boolean otherwise) {
        YNode n = map.get(key);
        if (n == null) {
            return otherwise;
        }
        Boolean b = bool(n);
        if (b == null) {
            mistake(key, "must be true or false, not '" + (n instanceof YNode.YScalar s ? s.text() : YNode.kind(n)) + "'");
            return otherwise;
        }
        return b;
    }

    /** @return true/false/on/off/yes/no as a boolean, else null */
    static Boolean bool(YNode n) {
        if (n instanceof YNode.YScalar s && s.value() instanceof Boolean b) {
            return b;
        }
        if (n instanceof YNode.YScalar s && s.value() instanceof String t) {
            return switch (t.toLowerCase(Locale.ROOT)) {
                case "true", "on", "yes" -> Boolean.TRUE;
                case "false", "off", "no" -> Boolean.FALSE;
                default -> null;
            };
        }
        return null;
    }

    /** @return the items of a list, or the one value given where a list may be (absent: empty) */
    List<YNode> list(String key) {
        YNode n = map.get(key);
        if (n == null || n instanceof YNode.YScalar s && s.isNull()) {
            return List.of();
        }
        if (n instanceof YNode.YList l) {
            return l.items();
        }
        return List.of(n);
    }

    /** @return the scalar items of a list (or the one scalar), mistakes for anything else */
    List<String> strings(String key) {
        List<String> out = new ArrayList<>();
        List<YNode> items = list(key);
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i) instanceof YNode.YScalar s && !s.isNull()) {
                out.add(s.text());
            } else {
                problems.add(items.get(i).loc(), path(key) + "[" + i + "]", "must be a single value, not "
                    + YNode.kind(items.get(i)));
            }
        }
        return out;
    }

    /** @return the mapping under {@code key} as a section, an empty one if absent, null if not a mapping */
    Section section(String key, String... known) {
        YNode n = map.get(key);
        if (n == null) {
            return empty(map.loc(), path(key), problems);
        }
        return of(n, path(key), problems, known);
    }

    /** The mapping under {@code key}, whose keys the file chooses (checked by the caller). */
    Section anySection(String key) {
        YNode n = map.get(key);
        if (n == null) {
            return empty(map.loc(), path(key), problems);
        }
        return anyKeys(n, path(key), problems);
    }
}
