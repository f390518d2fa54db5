package io.rocelab.lab.labfile;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Every mistake found in a lab file, one line each: {@code FILE:LINE:COL: KEY.PATH: what is wrong}.
 * The same line is kept once (a mistake in the base document shows in every variant).
 */
public final class Problems {
    private final Set<String> lines = new LinkedHashSet<>();
    /** Every {@link #add}, a line already kept or not: a reader tells by it whether a part had a mistake. */
    private int reported;

    /**
     * @param loc  where
     * @param path the key path ({@code flows[2].from}), empty for the document
     * @param what what is wrong
     */
    public void add(Loc loc, String path, String what) {
        reported++;
        lines.add(loc + ": " + (path == null || path.isEmpty() ? "" : path + ": ") + what);
    }

    /** Adds every line of {@code other} (kept once, in its order). */
    public void addAll(Problems other) {
        lines.addAll(other.lines);
    }

    /**
     * @return how many mistakes were reported, counting again one already kept (a mistake of the
     *         base document, reported again by each variant): it grows with every mistake found
     */
    public int reported() {
        return reported;
    }

    public boolean isEmpty() {
        return lines.isEmpty();
    }

    public int size() {
        return lines.size();
    }

    /** @return the lines, in the order found */
    public List<String> lines() {
        return new ArrayList<>(lines);
    }
}
