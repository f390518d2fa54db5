package io.rocelab.topology.timeline;

import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.workload.Workload;
import java.util.Objects;

/**
 * A host stops ({@code on == false}) or resumes draining its receive queues: its receivers stop or
 * resume reposting receive work requests ({@code Workload.setDraining}), so SEND flows to it meet
 * RNR and UD datagrams to it are dropped.
 *
 * @param host the receiving host
 * @param on   whether it drains
 */
public record Draining(String host, boolean on) implements Action {
    public Draining {
        Objects.requireNonNull(host, "host");
    }

    @Override
    public String describe() {
        return "host " + host + (on ? " drains its receive queues again" : " stops draining its receive queues");
    }

    @Override
    public String check(Fabric fabric, Workload workload) {
        fabric.nic(host);
        return workload == null ? "no workload to tell" : null;
    }

    @Override
    public void apply(Fabric fabric, Workload workload) {
        workload.setDraining(host, on);
    }
}
