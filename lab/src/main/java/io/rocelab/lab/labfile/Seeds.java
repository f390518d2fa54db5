package io.rocelab.lab.labfile;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A lab's seeds: the top-level {@code seeds:} key ({@code seeds: [1, 2, 3]}, or a range, {@code seeds: 1-3}), and
 * {@code lab run --seeds LIST}. Every variant runs once at each seed, and a claim holds when it holds at every one;
 * the report sets the seeds side by side as a spread (labs/README.md, "Seeds"). Without it a lab runs at its one
 * {@code seed:}, as it always has.
 */
public final class Seeds {
    /** The top-level key. */
    public static final String KEY = "seeds";
    /** The most seeds one list names (a typo such as 1-100000 is a mistake, not a week of runs). */
    public static final int MAX = 10_000;

    private Seeds() {
    }

    /**
     * Reads {@code seeds:}: whole numbers of 0 or more, or ranges {@code A-B}, each seed once.
     *
     * @param variants the file's variants and their patches: a variant cannot set its own {@code seed} beside it
     * @return the seeds in file order, or empty when the key is absent (or wrong: the mistakes are in top's problems)
     */
    static List<Long> read(Section top, Map<String, YNode> variants) {
        if (!top.has(KEY)) {
            return List.of();
        }
        if (top.has("seed")) {
            top.mistake(KEY, "give seed (one) or seeds (several), not both");
            return List.of();
        }
        List<YNode> items = top.list(KEY);
        if (items.isEmpty()) {
            top.mistake(KEY, "name at least one seed, e.g. [1, 2]");
            return List.of();
        }
        Set<Long> out = new LinkedHashSet<>();
        for (int i = 0; i < items.size(); i++) {
            YNode n = items.get(i);
            String path = top.path(KEY) + (top.get(KEY) instanceof YNode.YList ? "[" + i + "]" : "");
            if (!(n instanceof YNode.YScalar s) || s.isNull()) {
                top.problems().add(n.loc(), path, "a seed is a whole number or a range A-B, not " + YNode.kind(n));
                continue;
            }
            try {
                for (long seed : parseItem(s.text())) {
                    if (!out.add(seed)) {
                        top.problems().add(n.loc(), path, "seed " + seed + " is named twice");
                    }
                }
            } catch (IllegalArgumentException e) {
                top.problems().add(n.loc(), path, e.getMessage());
            }
        }
        if (out.size() > MAX) {
            top.mistake(KEY, "at most " + MAX + " seeds, not " + out.size());
        }
        for (Map.Entry<String, YNode> v : variants.entrySet()) {
            if (v.getValue() instanceof YNode.YMap m && m.entries().containsKey("seed")) {
                top.problems().add(m.entries().get("seed").loc(), "variants." + v.getKey() + ".seed",
                    "the lab runs every variant at each of its seeds (seeds:): a variant cannot set its own");
            }
        }
        return List.copyOf(out);
    }

    /**
     * Parses {@code --seeds}: a comma list of whole numbers of 0 or more and ranges {@code A-B}, e.g.
     * {@code 1,2,5-7}.
     *
     * @return the seeds in the order given
     * @throws IllegalArgumentException naming what is wrong
     */
    public static List<Long> parse(String text) {
        Set<Long> out = new LinkedHashSet<>();
        for (String item : text.split(",", -1)) {
            for (long seed : parseItem(item.trim())) {
                if (!out.add(seed)) {
                    throw new IllegalArgumentException("seed " + seed + " is named twice");
                }
                if (out.size() > MAX) {
                    throw new IllegalArgumentException("at most " + MAX + " seeds");
                }
            }
        }
        return List.copyOf(out);
    }

    private static List<Long> parseItem(String item) {
        int dash = item.indexOf('-', 1);
        try {
            if (dash < 0) {
                long seed = Long.parseLong(item);
                if (seed < 0) {
                    throw new IllegalArgumentException("a seed is 0 or more: " + item);
                }
                return List.of(seed);
            }
            long from = Long.parseLong(item.substring(0, dash).trim());
            long to = Long.parseLong(item.substring(dash + 1).trim());
            if (from < 0 || to < from) {
                throw new IllegalArgumentException("a range of seeds is A-B with 0 <= A <= B: " + item);
            }
            if (to - from >= MAX) {
                throw new IllegalArgumentException("at most " + MAX + " seeds, not " + item);
            }
            List<Long> out = new ArrayList<>();
            for (long s = from; s <= to; s++) {
                out.add(s);
            }
            return out;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a seed is a whole number or a range A-B: '" + item + "'");
        }
    }
}
