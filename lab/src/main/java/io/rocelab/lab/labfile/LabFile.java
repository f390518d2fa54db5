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
 */
public record LabFile(String name, String description, Set<Mode> modes, List<RunSpec> runs, List<ExpectSpec> expect,
                      List<String> notes) {
    /** @return whether the file compares variants */
    public boolean hasVariants() {
        return runs.size() > 1 || !runs.get(0).variant().isEmpty();
    }

    /** @return the variants' names */
    public List<String> variantNames() {
        return runs.stream().map(RunSpec::variant).toList();
    }
}
