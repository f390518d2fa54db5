package io.rocelab.lab.labfile;

import java.util.List;
import java.util.Set;

/**
 * A checked lab file: its name and lesson, its runs (one per variant, or one), its claims.
 *
 * @param name        the scenario's name
 * @param description one line: what it shows
 * @param modes       the modes it can run in
 * @param runs        one per variant, in file order (one with an empty name without variants)
 * @param expect      the claims
 * @param notes       not mistakes, one line each: what a switch's own config_db carries that rocelab
 *                    does not model ({@code FILE:LINE:COL: topology.switches[0].config: ignored (not modelled): ...})
 * @param seeds       the seeds every variant runs at ({@link Seeds}, {@code seeds:}); empty: the file's one seed
 */
public record LabFile(String name, String description, Set<Mode> modes, List<RunSpec> runs, List<ExpectSpec> expect,
                      List<String> notes, List<Long> seeds) {
    public LabFile {
        seeds = List.copyOf(seeds);
    }

    /** A lab at its one seed (no {@code seeds:}). */
    public LabFile(String name, String description, Set<Mode> modes, List<RunSpec> runs, List<ExpectSpec> expect,
                   List<String> notes) {
        this(name, description, modes, runs, expect, notes, List.of());
    }

    /**
     * @return the seeds a run of the file sweeps: its {@code seeds:}, else its one seed (the first run's, as the
     *         report's header has always named it)
     */
    public List<Long> sweepSeeds() {
        return seeds.isEmpty() ? List.of(runs.get(0).seed()) : seeds;
    }

    /** @return whether the file compares variants */
    public boolean hasVariants() {
        return runs.size() > 1 || !runs.get(0).variant().isEmpty();
    }

    /** @return the variants' names */
    public List<String> variantNames() {
        return runs.stream().map(RunSpec::variant).toList();
    }
}
