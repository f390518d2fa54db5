package io.rocelab.lab.labfile;

import io.rocelab.topology.collective.Collective;

/**
 * One entry of a lab file's {@code collectives:}, checked: the collective to run and where the file
 * says so.
 */
public record CollectiveSpec(Collective collective, Loc loc, String path) {
    /** @return its name, as claims select it: {@code collective("ar")} */
    public String name() {
        return collective.name();
    }
}
