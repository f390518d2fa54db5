package io.rocelab.lab.labfile;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Names written short: a range in brackets ({@code h[1-8]} is h1..h8, {@code h[1,3,5-7]},
 * {@code h[01-16]} keeps the zero padding; several brackets multiply) and globs ({@code h*},
 * {@code leaf0:*}, {@code ?} one character). Keeps an incast short to write.
 */
public final class HostPattern {
    private HostPattern() {
    }

    /**
     * @return the names a pattern's brackets make (globs are left as they are)
     * @throws IllegalArgumentException for a bracket that is not a range list
     */
    public static List<String> expandNew(String pattern) {
        List<String> out = new ArrayList<>();
        expand(pattern, out);
        return out;
    }

    private static void expand(String pattern, List<String> out) {
        int open = pattern.indexOf('[');
        if (open < 0) {
            out.add(pattern);
            return;
        }
        int close = pattern.indexOf(']', open);
        if (close < 0) {
            throw new IllegalArgumentException("'" + pattern + "': a '[' without ']'");
        }
        String head = pattern.substring(0, open);
        String tail = pattern.substring(close + 1);
        for (String part : pattern.substring(open + 1, close).split(",")) {
            String p = part.trim();
            int dash = p.indexOf('-', 1);
            try {
                if (dash < 0) {
                    Integer.parseInt(p);
                    expand(head + p + tail, out);
                    continue;
                }
                String from = p.substring(0, dash).trim();
                String to = p.substring(dash + 1).trim();
                int a = Integer.parseInt(from);
                int b = Integer.parseInt(to);
                if (b < a || b - a > 100_000) {
                    throw new IllegalArgumentException("'" + pattern + "': the range " + p + " is empty or too long");
                }
                int width = from.startsWith("0") && from.length() > 1 ? from.length() : 0;
                for (int i = a; i <= b; i++) {
                    String n = width > 0 ? String.format("%0" + width + "d", i) : Integer.toString(i);
                    expand(head + n + tail, out);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + pattern + "': [" + p + "] is not a number or a range "
                    + "such as [1-8]");
            }
        }
    }

    /** @return whether {@code text} has a glob character */
    public static boolean isGlob(String text) {
        return text.indexOf('*') >= 0 || text.indexOf('?') >= 0;
    }

    /** @return a regular expression for a glob ({@code *} any run, {@code ?} one character) */
    public static Pattern glob(String glob) {
        StringBuilder re = new StringBuilder();
        for (char c : glob.toCharArray()) {
            if (c == '*') {
                re.append(".*");
            } else if (c == '?') {
                re.append('.');
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString());
    }

    /**
     * Resolves patterns against the names that exist: brackets expanded, globs matched (in
     * {@code known}'s order), plain names kept; duplicates dropped.
     *
     * @param unknown receives every name or glob that matched nothing
     * @return the names, in the order written
     * @throws IllegalArgumentException for a malformed bracket
     */
    public static List<String> resolve(List<String> patterns, List<String> known, List<String> unknown) {
        Set<String> out = new LinkedHashSet<>();
        Set<String> knownSet = new LinkedHashSet<>(known);
        for (String p : patterns) {
            for (String n : expandNew(p)) {
                if (isGlob(n)) {
                    Pattern g = glob(n);
                    int before = out.size();
                    boolean any = false;
                    for (String k : known) {
                        if (g.matcher(k).matches()) {
                            out.add(k);
                            any = true;
                        }
                    }
                    if (!any && out.size() == before) {
                        unknown.add(n);
                    }
                } else if (knownSet.contains(n)) {
                    out.add(n);
                } else {
                    unknown.add(n);
                }
            }
        }
        return new ArrayList<>(out);
    }
}
