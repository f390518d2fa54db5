package io.rocelab.topology.timeline;

import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.workload.Workload;
import java.util.Objects;

/**
 * A link's faults (loss, corruption, duplication, reordering) from now on, both directions
 * ({@code Fabric.setFaults}); {@link FaultProfile#NONE} heals it.
 *
 * @param link   the link's name in the topology
 * @param faults the faults of both directions
 */
public record LinkFaults(String link, FaultProfile faults) implements Action {
    public LinkFaults {
        Objects.requireNonNull(link, "link");
        Objects.requireNonNull(faults, "faults");
    }

    @Override
    public String describe() {
        return "link " + link + (faults.isNone() ? " faults cleared" : " faults " + faults);
    }

    @Override
    public String check(Fabric fabric, Workload workload) {
        fabric.link(link);
        return null;
    }

    @Override
    public void apply(Fabric fabric, Workload workload) {
        fabric.setFaults(link, faults);
    }
}
